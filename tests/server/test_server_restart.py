"""Nothing lost: ``fido serve`` killed with SIGKILL in the middle of games, and restarted.

A real server process (tests/support/server_procs.py) on SQLite and, when
``FIDO_TEST_POSTGRES_URL`` is set, on PostgreSQL; four tables where people
(client threads on real WebSockets) and bots (in the server's worker
process) play fast. In the middle the server is frozen (SIGSTOP: what was
sent to it from then on is never read) and killed (SIGKILL); it is started
again on the same database and port, and every person reconnects with the
last sequence number she saw. Then:

* every event a person saw before the kill is in the log as she saw it, and
  every ack she got names an event of hers: nothing was shown before its
  commit, nothing acknowledged is lost;
* the restarted server's log continues the log at the kill unchanged (no
  sequence number missing, repeated or rewritten), and every person's
  reconnected view and history hold her acknowledged moves;
* a move whose ack was lost (committed, then the kill) sent again under its
  message id gets its original ack (``duplicate``), and a move the server
  never read sent again is applied once;
* every game plays to its end; its record replays, and its moves are the
  log's; the log replays from the stored deal as a legal game;
* the server's bot workers end with it, killed or stopped: no orphan.
"""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool
from websockets.sync.client import connect

from support.postgres import POSTGRES, empty_postgres
from support.server_client import Person, first_legal
from support.server_live import cookie_header, live_server
from support.server_procs import (
    Logged,
    Player,
    ServerProcess,
    as_seen,
    check_log,
    check_record,
    guest,
    open_table,
    read_log,
    servers,
    wait_until,
)

# ruleset, seats (me, open, or a bot level), table options; people think this long
TABLES: list[tuple[str, list[str], dict[str, Any], float]] = [
    ("fido set=9", ["me", "open", "random"], {}, 0.03),  # the lost ack
    ("fido set=9", ["me", "open", "greedy"], {}, 0.03),  # the message never read
    ("fido set=9", ["me", "open", "random", "random"], {"clock": 60}, 0.12),
    ("fido set=9", ["me", "open", "open"], {}, 0.12),
]
LOST_ACK, NEVER_READ = 0, 1


def account_id(client: httpx.Client) -> int:
    who: int = client.get("/api/session").json()["account"]["id"]
    return who


def history_view(player: Player) -> dict[str, Any]:
    """Her view with its whole history: a second connection without ``seq``."""
    cookie = cookie_header(player.client)
    url = f"ws{player.base[4:]}/ws/tables/{player.table_id}"
    with connect(url, additional_headers={"Cookie": cookie}, open_timeout=10) as ws:
        welcome = json.loads(ws.recv(timeout=10))
    assert welcome["type"] == "welcome" and welcome["seat"] == player.seat
    view: dict[str, Any] = welcome["view"]
    return view


def check_seen(player: Player, read: list[Logged] | Callable[[], list[Logged]]) -> list[Logged]:
    """What she saw is the log, and each of her acks names her own event; a log to
    read is read after her state is taken (she plays on), and returned."""
    with player.lock:
        seen = dict(player.seen)
        acks = dict(player.acks)
    log = read() if callable(read) else read
    assert max(seen, default=0) <= len(log), f"{player.who} saw events never committed"
    for seq, event in seen.items():
        assert event == as_seen(log[seq - 1], player.seat), (player.who, seq)
    for msg_id, seq in acks.items():
        e = log[seq - 1]
        assert (e.msg_id, e.seat, e.kind) == (msg_id, player.seat, "move"), (player.who, msg_id)
    return log


def check_history(player: Player, read: Callable[[], list[Logged]]) -> None:
    """Her acknowledged moves are in her reconnected view's history, in their places."""
    with player.lock:
        acks = dict(player.acks)
    log = read()
    history = history_view(player)["history"]
    index = {e.seq: i for i, e in enumerate(x for x in log if x.kind == "move")}
    for msg_id, seq in acks.items():
        turn = history[index[seq]]
        assert (turn["seat"], turn["move"]) == (player.seat, log[seq - 1].public["move"]), msg_id


def test_kill_9_loses_nothing_acknowledged(store_url: str, tmp_path: Path) -> None:
    started = time.monotonic()
    first = ServerProcess(store_url, tmp_path / "serve.log", bot_processes=1)
    second = ServerProcess(store_url, tmp_path / "serve.log", port=first.port, bot_processes=1)
    players: list[Player] = []
    with servers(first, second):
        first.start()
        tables: list[str] = []
        at: list[list[Player]] = []
        for n, (ruleset, seats, options, think) in enumerate(TABLES):
            people = [guest(first.base) for k in seats if k in ("me", "open")]
            table_id = open_table(people[0], people[1:], ruleset, seats, **options)
            tables.append(table_id)
            at.append([Player(f"t{n}p{i}", c, table_id, think=think, seed=10 * n + i)
                       for i, c in enumerate(people)])
        players = [p for ps in at for p in ps]
        ids = {p.who: account_id(p.client) for p in players}
        for p in players:
            p.start()

        def moves(n: int) -> int:
            return max(p.move_events() for p in at[n])

        wait_until(lambda: all(moves(n) >= 6 for n in range(len(TABLES))), 60,
                   lambda: f"the games do not go on: {[moves(n) for n in range(len(TABLES))]}")
        workers = first.note_workers()
        assert workers, "the bots decide in worker processes"

        # two tables wait at a person's turn, the others play on
        def at_rest(n: int) -> Player | None:
            turn = [p for p in at[n] if p.my_turn()]
            quiet = all(p.pending is None for p in at[n])
            return turn[0] if turn and quiet else None

        for n in (LOST_ACK, NEVER_READ):
            for p in at[n]:
                p.hold.set()
        wait_until(lambda: all(at_rest(n) for n in (LOST_ACK, NEVER_READ)), 30,
                   "the held tables do not come to a person's turn")

        # the lost ack: her move is committed, the answer never reaches her
        lost = at_rest(LOST_ACK)
        assert lost is not None
        lost.deaf.set()
        lost_msg = lost.send_move_now()

        def committed() -> bool:
            return any(e.msg_id == lost_msg["id"] for e in read_log(store_url, tables[LOST_ACK])[1])

        wait_until(committed, 10, "the move was not committed")

        # the message never read: the server is frozen before it is sent
        unread = at_rest(NEVER_READ)
        assert unread is not None
        first.freeze()
        for p in players:
            p.online.clear()  # reconnect when told, not before
        unread_msg = unread.send_move_now()
        time.sleep(0.2)
        orphans = first.kill()
        assert not orphans, f"bot workers outlived the killed server: {orphans}"
        wait_until(lambda: not any(p.connected.is_set() for p in players), 10,
                   "a connection outlived the server")
        killed_at = time.monotonic()

        # the database as the kill left it
        at_kill = {t: read_log(store_url, t) for t in tables}
        for n, t in enumerate(tables):
            row, log = at_kill[t]
            assert row.status == "running", f"table {n} was not in the middle of its game"
            check_log(log)
            assert row.seq == len(log)
            for p in at[n]:
                check_seen(p, log)
        lost_log = at_kill[tables[LOST_ACK]][1]
        assert [e.msg_id for e in lost_log].count(lost_msg["id"]) == 1
        assert lost.pending == lost_msg and lost_msg["id"] not in lost.acks
        assert all(e.msg_id != unread_msg["id"] for e in at_kill[tables[NEVER_READ]][1])
        assert unread.pending == unread_msg

        # the restart: same database, same port; everyone reconnects with her last seq
        second.start()
        restarted_in = time.monotonic() - killed_at
        for p in players:
            p.think = 0.02  # the checks are made: play on fast
            p.deaf.clear()
            p.hold.clear()
            p.online.set()
        wait_until(lambda: all(len(p.welcomes) >= 2 and p.pending is None for p in players),
                   30, lambda: f"not all back: {[(p.who, p.pending) for p in players]}")

        # the lost ack comes back as it was; the unread move is applied, once
        lost_seq = next(e.seq for e in lost_log if e.msg_id == lost_msg["id"])
        assert lost.duplicates == {lost_msg["id"]: lost_seq}
        assert lost.acks[lost_msg["id"]] == lost_seq
        assert unread_msg["id"] in unread.acks and unread_msg["id"] not in unread.duplicates
        assert unread.acks[unread_msg["id"]] > len(at_kill[tables[NEVER_READ]][1])
        for n, t in enumerate(tables):

            def read(t: str = t) -> list[Logged]:
                return read_log(store_url, t)[1]

            for p in at[n]:
                log = check_seen(p, read)
                assert log[: len(at_kill[t][1])] == at_kill[t][1], "the log changed under the kill"
                check_history(p, read)

        # every game to its end
        wait_until(lambda: all(p.done.is_set() for p in players), 90,
                   lambda: f"games unfinished: {[(p.who, p.move_events()) for p in players]}")
        for n, t in enumerate(tables):
            row, log = read_log(store_url, t)
            assert row.status == "finished" and row.record is not None
            check_log(log)
            assert log[: len(at_kill[t][1])] == at_kill[t][1]
            for p in at[n]:
                check_seen(p, log)
            moved = {(e.account, e.msg_id) for e in log if e.msg_id is not None}
            for p in at[n]:
                for msg_id in p.acks:
                    assert (ids[p.who], msg_id) in moved
            record = httpx.get(f"{second.base}/api/tables/{t}/record", timeout=10)
            assert record.status_code == 200
            check_record(record.text, row, log)
            bys = {e.public["by"] for e in log if e.kind == "move"}
            assert bys <= {"player", "bot"}, f"a stand-in played in table {n}: {bys}"
            # the restarted server wrote everyone away; each was back when she reconnected
            # (until the game's end: who leaves after it is away again)
            end = next(i for i, e in enumerate(log) if e.kind == "end")
            for p in at[n]:
                presence = [e.kind for e in log[len(at_kill[t][1]):end]
                            if e.kind in ("away", "back") and e.seat == p.seat]
                assert presence == ["away", "back"], (p.who, presence)
        final = read_log(store_url, tables[NEVER_READ])[1]
        assert [e.msg_id for e in final].count(unread_msg["id"]) == 1
        for p in players:
            assert not p.errors, p.errors
            assert not p.refusals, (p.who, p.refusals)
            p.quit.set()

        assert second.note_workers(), "the bots decide in worker processes"
        code, orphans = second.stop()
        assert code in (0, -signal.SIGTERM), code  # uvicorn ends on the signal it got
        assert not orphans, f"bot workers outlived the stopped server: {orphans}"
        out = second.output()
        assert "Traceback" not in out, out[-3000:]
    elapsed = time.monotonic() - started
    assert restarted_in < 30 and elapsed < 120, (restarted_in, elapsed)


@pytest.mark.skipif(not POSTGRES, reason="needs tests/with_postgres.py")
def test_a_database_that_drops_its_connections_costs_no_request() -> None:
    """PostgreSQL restarting drops every connection the server's pool holds: each is
    found out before use and replaced (no HTTP 500, no move refused), as
    docs/deploy.md says."""
    assert POSTGRES
    empty_postgres(POSTGRES)
    with live_server(POSTGRES) as base:
        anna = Person.guest(base)
        table_id = anna.open_table("fido set=6", 3, seats=[
            {"kind": "me"}, {"kind": "bot", "level": "greedy"},
            {"kind": "bot", "level": "greedy"}])["id"]
        sock = anna.connect(table_id)
        for _ in range(4):  # the pool holds a few connections now
            assert anna.http.get("/api/tables").status_code == 200
        admin = create_engine(POSTGRES, poolclass=NullPool)
        with admin.connect() as conn:  # what a restart does to the server's connections
            dropped = conn.execute(text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()")).scalar()
        admin.dispose()
        assert dropped
        for _ in range(6):
            r = anna.http.get("/api/tables")
            assert r.status_code == 200, r.text
        assert anna.http.get(f"/api/tables/{table_id}").status_code == 200
        if not sock.my_turn():
            sock.until(lambda f: sock.my_turn(), timeout=20)
        assert sock.view is not None
        reply = sock.move(first_legal(sock.view))
        assert reply["type"] == "ack", reply
        sock.close()
