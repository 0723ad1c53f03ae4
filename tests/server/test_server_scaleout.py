"""Beyond one machine: two ``fido serve`` processes on one PostgreSQL.

Process A runs a game of two people and two bots; process B starts while
it runs (it loads the running table as a restarted process does) and one
person moves her connection to B; a second table, with a clock, is opened
then, its people one on each process (B loads it when its person joins
there). Then:

* a move made through A reaches the person on B promptly, as an ``update``
  holding the move, and B's moves reach A (PostgreSQL NOTIFY, then a read of
  the log by sequence number);
* B, which started while the game ran, plays for no one who is connected
  to A: a person of A who takes longer than the table's grace still plays
  her own move;
* both processes have both tables live, with their timers: they race for
  every bot move, and for the stand-in's move when a person's clock runs
  out (both timers fire at the same deadline); a write another process made
  whose notification was lost is found by the next writer (the table's row
  is ahead), read, and passed on; through all of it each log holds every
  move once: no gap or repeat in its sequence numbers, and it replays from
  the deal as a legal game, the record's moves being the log's;
* A is killed (SIGKILL): nothing it acknowledged is lost, its people
  reconnect to B with their last sequence numbers, and the games end there.

PostgreSQL only: skipped, with the reason, without ``FIDO_TEST_POSTGRES_URL``.
"""

from __future__ import annotations

import signal
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

import httpx
import pytest

from support.postgres import POSTGRES
from support.scaleout import two_processes
from support.server_procs import (
    Player,
    as_seen,
    check_log,
    check_record,
    guest,
    moved,
    open_table,
    read_log,
    servers,
    wait_until,
    write_unnoticed,
)

pytestmark = pytest.mark.skipif(
    not POSTGRES, reason="two servers meet through PostgreSQL (LISTEN/NOTIFY): "
    "FIDO_TEST_POSTGRES_URL is not set (tests/with_postgres.py sets it)",
)

GRACE = 5  # the first table's seconds away before a stand-in plays (the minimum)
CLOCK = 5  # the second table's seconds per move (the minimum)
PROMPT = 2.0  # seconds a move may take to reach the other process's people


def latencies(sender: Player, receiver: Player, since: float) -> list[float]:
    """Seconds from each move ``sender`` sent (after ``since``) until ``receiver`` had it
    (one still on its way gets until :data:`PROMPT` seconds after it was sent)."""
    with sender.lock:
        sent = [(sender.sent_at[m], seq) for m, seq in sender.acks.items()
                if m in sender.sent_at and sender.sent_at[m] >= since
                and m not in sender.duplicates]
    last = max((at for at, _seq in sent), default=0.0)
    wait_until(lambda: all(seq in receiver.got_at for _at, seq in sent)
               or time.monotonic() > last + PROMPT, PROMPT + 1, "")
    out = []
    for at, seq in sent:
        got = receiver.got_at.get(seq)
        assert got is not None, f"{receiver.who} never got event {seq} of {sender.who}"
        out.append(got - at)
    return out


def move_to(player: Player, client: httpx.Client, base: str) -> None:
    """Her connection goes to the server at ``base`` (the old one is closed, or dead)."""
    player.online.clear()
    player.client, player.base = moved(client, base), base
    ws = player.ws
    if ws is not None:
        ws.close()
    wait_until(lambda: not player.connected.is_set(), 10, f"{player.who} stays connected")
    welcomes = len(player.welcomes)
    player.online.set()
    wait_until(lambda: len(player.welcomes) > welcomes, 20, f"{player.who}: no welcome")


def test_two_processes_share_tables_through_the_log(tmp_path: Path) -> None:
    assert POSTGRES  # its log is read below
    a, b = two_processes(tmp_path, bot_delay=0.03)
    with servers(a, b):
        a.start()
        anna, bert = guest(a.base), guest(a.base)
        first = open_table(anna, [bert], "fido set=9", ["me", "open", "random", "random"],
                           grace=GRACE)
        p = Player("anna", anna, first, think=0.05, seed=1)
        q = Player("bert", bert, first, think=0.05, seed=2)
        p.start()
        q.start()
        wait_until(lambda: p.move_events() >= 4, 30, "the game does not go on")

        # B starts while the game runs (held at a person's turn meanwhile: B takes
        # seconds to start); Bert's connection moves to B
        p.hold.set()
        q.hold.set()
        b.start()
        move_to(q, bert, b.base)
        assert q.welcomes[-1]["events"] is not None  # B knew all she had seen

        # the second table: Cleo plays through A, Dan through B (B loads it then)
        cleo, dan = guest(a.base), guest(a.base)
        second = open_table(cleo, [moved(dan, b.base)], "fido set=9",
                            ["me", "open", "random"], clock=CLOCK)
        # before anyone moves: both processes read the same clock (the row's)
        def infos() -> list[dict[str, object]]:
            return [httpx.get(f"{x.base}/api/tables/{second}", timeout=10).json()
                    for x in (a, b)]

        def agree() -> bool:
            seen = infos()
            return len({(i["seq"], i["deadline"]) for i in seen}) == 1 and all(
                i["deadline"] is not None for i in seen)

        wait_until(agree, CLOCK / 2, lambda: f"A and B disagree on the clock: {infos()}")
        c = Player("cleo", cleo, second, think=0.05, seed=3)
        d = Player("dan", moved(dan, b.base), second, think=0.05, seed=4)
        players = [p, q, c, d]
        c.start()
        d.start()
        wait_until(lambda: c.connected.is_set() and d.connected.is_set(), 20, "no second table")
        both = time.monotonic()

        # Anna (on A) thinks longer than her table's grace: B must not play for her;
        # Cleo (on A) lets her clock run out: A and B both fire her stand-in, once
        c.hold.set()
        q.hold.clear()
        wait_until(lambda: p.my_turn() and c.my_turn(), 30, "Anna's and Cleo's turns")
        held, cleo_moves = p.last, c.move_events()
        time.sleep(GRACE + 1.5)
        later = [e for seq, e in sorted(p.seen.items()) if seq > held]
        assert p.my_turn() and all(e["kind"] != "move" for e in later), (
            f"someone moved for Anna while she thought: {later}")
        wait_until(lambda: c.move_events() > cleo_moves, 10, "Cleo's clock did not run out")
        clocked = [e for e in c.seen.values() if e["kind"] == "move" and e["by"] == "clock"]
        assert [e["seat"] for e in clocked] == [c.seat], clocked
        c.hold.clear()

        # a write whose notification is lost: the next writer (Anna's move, on A)
        # finds the row ahead, reads the log and writes after it; B learns of both
        unnoticed = write_unnoticed(POSTGRES, first, "written elsewhere")
        assert unnoticed > held and p.pending is None
        p.hold.clear()
        wait_until(lambda: q.last > unnoticed and p.last > unnoticed, 10,
                   "the unnoticed write was not passed on")
        for player in (p, q):
            assert player.seen[unnoticed]["text"] == "written elsewhere"

        wait_until(lambda: p.move_events() >= 20 or p.done.is_set(), 30, "no moves")
        to_b = latencies(p, q, both) + latencies(c, d, both)
        to_a = latencies(q, p, both) + latencies(d, c, both)
        assert to_b and to_a, "no move went from one process to the other"
        assert max(to_b) < PROMPT and max(to_a) < PROMPT, (to_b, to_a)

        # A is killed; its people reconnect to B with their last sequence numbers
        acked = {x.who: dict(x.acks) for x in players}
        for x in (p, c):
            x.online.clear()
        orphans = a.kill()
        assert not orphans, f"A's bot workers outlived it: {orphans}"
        move_to(p, anna, b.base)
        move_to(c, cleo, b.base)
        wait_until(lambda: all(x.done.is_set() for x in players), 60,
                   lambda: f"the games did not end: {[x.move_events() for x in players]}")

        for table, people in ((first, (p, q)), (second, (c, d))):
            row, log = read_log(POSTGRES, table)
            check_log(log)
            assert row.status == "finished" and row.record is not None
            for x in people:
                assert not x.errors, x.errors
                assert not x.refusals, x.refusals
                for seq, event in x.seen.items():
                    assert event == as_seen(log[seq - 1], x.seat), (x.who, seq)
                for msg_id, seq in x.acks.items():
                    assert (log[seq - 1].msg_id, log[seq - 1].seat) == (msg_id, x.seat)
                assert all(x.acks[m] == s for m, s in acked[x.who].items())
            seats = {x.seat for x in people}
            for e in log:
                if e.kind == "move" and e.seat not in seats:
                    assert e.public["by"] == "bot", e
                elif e.kind == "move" and table == first:
                    assert e.public["by"] == "player", e  # no stand-in for Anna nor Bert
            record = httpx.get(f"{b.base}/api/tables/{table}/record", timeout=10)
            assert record.status_code == 200
            check_record(record.text, row, log)  # the log replays: no move twice
            info = httpx.get(f"{b.base}/api/tables/{table}", timeout=10).json()
            assert info["status"] == "finished" and info["finished"] and info["seq"] == len(log)
        by = [e.public["by"] for e in read_log(POSTGRES, second)[1] if e.kind == "move"]
        assert by.count("clock") == 1

        code, orphans = b.stop()
        assert code in (0, -signal.SIGTERM), code  # uvicorn ends on the signal it got
        assert not orphans, f"B's bot workers outlived it: {orphans}"
        for server in (a, b):
            assert "Traceback" not in server.output(), server.output()[-3000:]


def test_people_sitting_down_at_once_on_two_processes_all_get_their_seats(
        tmp_path: Path) -> None:
    """A table's people on two processes take its seats at the same moment (as behind a
    load balancer): a process that finds the other's write first reads it and judges the
    request again; nobody is told "busy" while a seat is free, and each game starts."""
    a, b = two_processes(tmp_path, bot_delay=0.5)
    with servers(a, b):
        a.start()
        b.start()
        for round_ in range(6):
            creator = guest(a.base)
            people = [guest(a.base if i % 2 else b.base) for i in range(3)]
            r = creator.post("/api/tables", json={
                "ruleset": "fido set=9", "players": 4,
                "seats": [{"kind": "me"}] + [{"kind": "open"}] * 3})
            assert r.status_code == 201, r.text
            table_id = r.json()["id"]
            with ThreadPoolExecutor(3) as pool:
                answers = list(pool.map(
                    lambda c, t=table_id: c.post(f"/api/tables/{t}/seats", json={}), people))
            assert [x.status_code for x in answers] == [200] * 3, \
                (round_, [x.text for x in answers])

            def seated(table: str = table_id) -> bool:
                seats = httpx.get(f"{a.base}/api/tables/{table}", timeout=10).json()["seats"]
                return all(x["kind"] == "person" for x in seats)

            # a learns b's seats from b's notification: a moment later on a loaded machine
            wait_until(seated, 10, f"a seat of {table_id} stays open on {a.base}")

            def running(base: str, table: str = table_id) -> bool:
                info = httpx.get(f"{base}/api/tables/{table}", timeout=10).json()
                return bool(info["status"] == "running")

            for x in (a, b):
                wait_until(partial(running, x.base), 10, f"the game does not start on {x.base}")


def test_a_guest_who_signs_up_is_named_anew_on_every_process(tmp_path: Path) -> None:
    """A guest seated at a running table signs up through one process; the other, which
    has the table live too, learns her new name from the notification (issue 25)."""
    a, b = two_processes(tmp_path, bot_delay=0.5)
    with servers(a, b):
        a.start()
        b.start()
        hanna = guest(a.base)
        table = open_table(hanna, [], "fido set=6", ["me", "random", "random"])

        def names(base: str) -> list[str]:
            info = httpx.get(f"{base}/api/tables/{table}", timeout=10).json()
            return [s["name"] for s in info["seats"]]

        old = names(b.base)[0]  # b has the table live from here on
        assert old.startswith("guest ")
        r = hanna.post("/api/accounts", json={"name": "Hanna", "password": "a long secret 1"})
        assert r.status_code == 201, r.text
        assert names(a.base)[0] == "Hanna"
        wait_until(lambda: names(b.base)[0] == "Hanna", 10,
                   lambda: f"b still names her {names(b.base)[0]!r}")
