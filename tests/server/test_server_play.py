"""Whole games, the lobby, chat and reconnection through the table protocol, end to end.

One real server (uvicorn in a thread, tests/support/server_live.py) for the module, on
its own SQLite database; people are httpx browsers and ``websockets`` clients
(tests/support/server_client.py); the database is read only to compare with the
server's truth.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import delete

from fido.engine.tiles import Tile
from fido.record import GameRecord
from fido.server import sockets
from fido.server.protocol import MAX_CHAT
from fido.server.tables.room import CATCH_UP
from fido.server.wire import TableDrawing
from fido.store import Store, WebSession, open_store
from support.server_client import (
    PASSWORD,
    Person,
    TableSocket,
    check_acks_first,
    check_sequence,
    connect_anonymous,
    first_legal,
    log_length,
    play_to_end,
    read_truth,
)
from support.server_live import browser


def normal(value: Any) -> Any:
    """``value`` as it comes back from JSON (tuples as lists)."""
    return json.loads(json.dumps(value))


def prefer_draw(sock: TableSocket) -> str:
    """Draw once a turn when the rules allow it (so that games have draws), else the first
    move."""
    view = sock.view or {}
    moves = [m["move"] for m in view["legal"]]
    mine = [e for e in sock.events() if e["kind"] == "move"]
    drew = bool(mine) and mine[-1]["seat"] == sock.seat and mine[-1]["move"] == "draw"
    return "draw" if "draw" in moves and not drew else first_legal(view)


def check_finished(
    person: Person, live_store: Store, table_id: str, sockets: list[TableSocket], end: int
) -> GameRecord:
    """The frames of each connection follow each other without gaps, acks come first, and
    the downloaded record replays to the outcome every connection's last view shows."""
    for sock in sockets:
        check_sequence(sock.frames)
        check_acks_first(sock.frames)
    r = person.http.get(f"/api/tables/{table_id}/record")
    assert r.status_code == 200, r.text
    assert "attachment" in r.headers["content-disposition"]
    record = GameRecord.from_json(r.text)
    game = record.replay()
    assert game.outcome is not None
    outcome = normal(game.outcome.to_dict())
    placements = [p.text() for p in game.table.placements]
    # the drawing every view carried is the one laid out tile by tile, as the server
    # lays it out (in a worker thread once the table is big: Room._lay_out)
    drawing = TableDrawing()
    for _n, _turn, after in record.steps():
        laid = drawing.json(after.table, after.rules.max_pips)
    for sock in sockets:
        assert sock.view is not None and sock.view["layout"] == normal(laid), sock.label
    for sock in sockets:
        assert sock.view is not None and sock.seq == end
        assert sock.view["outcome"] == outcome, sock.label
        assert sock.view["table"] == placements
        assert sock.view["scores"] == list(game.scores)
        ends = [e for e in sock.events() if e["kind"] == "end"]
        assert [e["outcome"] for e in ends] == [outcome]
    table = person.table(table_id)
    assert table["status"] == "finished" and table["finished"] and table["seq"] == end
    truth = read_truth(live_store, table_id)
    assert truth.seq == end == len(truth.events)
    assert [set(h) for h in record.hands] == truth.hands  # the record holds the stored deal
    drawn = [t for t, _ in sorted(truth.drawn_at.items(), key=lambda x: x[1][1])]
    assert list(record.stock[: len(drawn)]) == drawn  # and the tiles drawn, in order
    assert [m.move for m in record.moves] == [
        json.loads(e.public)["move"] for e in truth.events if e.kind == "move"]
    return record


# ---------------------------------------------------------------- whole games


def test_fido6_one_person_two_bots(base: str, live_store: Store) -> None:
    anna = Person.guest(base)
    table = anna.open_table("fido set=6", 3, [
        {"kind": "me"}, {"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "random"}])
    assert table["status"] == "running" and table["my_seat"] == 0
    mine = anna.connect(table["id"])
    watcher = connect_anonymous(base, table["id"])
    assert mine.seat == 0 and watcher.seat is None
    end = play_to_end([mine], watchers=[watcher])
    record = check_finished(anna, live_store, table["id"], [mine, watcher], end)
    assert record.bots == (None, "greedy", "random")


def test_fido9_two_people_two_bots(base: str, live_store: Store) -> None:
    """Two people, each on her own connection; Anna has a second one (same seat)."""
    anna, bob = Person.guest(base), Person.guest(base)
    table = anna.open_table("fido set=9", 4, [
        {"kind": "me"}, {"kind": "open"},
        {"kind": "bot", "level": "expert"}, {"kind": "bot", "level": "random"}])
    tid = table["id"]
    a1 = anna.connect(tid)
    assert a1.view is None and a1.seat == 0  # seated, not started
    r = bob.join(tid)
    assert r.status_code == 200 and r.json()["my_seat"] == 1 and r.json()["status"] == "running"
    b = bob.connect(tid)
    a2 = anna.connect(tid)
    assert (b.seat, a2.seat) == (1, 0)
    end = play_to_end([a1, b], prefer_draw, watchers=[a2])
    check_finished(anna, live_store, tid, [a1, b, a2], end)
    # Anna's two connections saw the same events (her draws' tiles included) from a2's start
    start = a2.frames[0]["seq"]
    assert [e for e in a1.events() if e["seq"] > start] == a2.events()


def test_who_left_a_finished_table_is_away_for_everyone(base: str) -> None:
    """After the end, who is still there decides "Play again": a person who closes her
    page is away, for those still there and after a reload (the table's info)."""
    anna, bob = Person.guest(base), Person.guest(base)
    tid = anna.open_table("fido set=6", 3, [
        {"kind": "me"}, {"kind": "open"}, {"kind": "bot", "level": "random"}])["id"]
    assert bob.join(tid).status_code == 200
    a, b = anna.connect(tid), bob.connect(tid)
    play_to_end([a, b])
    b.close()
    gone = a.until(lambda f: f.get("type") == "update" and any(
        e["kind"] == "away" and e["seat"] == 1 for e in f.get("events", [])))
    assert gone
    seats = anna.http.get(f"/api/tables/{tid}").json()["seats"]
    assert [s["away"] for s in seats[:2]] == [False, True]
    b2 = bob.connect(tid)  # she comes back: here again
    a.until(lambda f: f.get("type") == "update" and any(
        e["kind"] == "back" and e["seat"] == 1 for e in f.get("events", [])))
    assert not anna.http.get(f"/api/tables/{tid}").json()["seats"][1]["away"]
    for s in (a, b2):
        s.close()


@pytest.mark.parametrize(("ruleset", "players"), [("draw", 3), ("block", 2), ("muggins", 2)])
def test_classic_people_only(base: str, live_store: Store, ruleset: str, players: int) -> None:
    people = [Person.guest(base) for _ in range(players)]
    table = people[0].open_table(ruleset, players)
    tid = table["id"]
    for p in people[1:]:
        assert p.join(tid).status_code == 200
    sockets = [p.connect(tid) for p in people]
    assert [s.seat for s in sockets] == list(range(players))
    end = play_to_end(sockets, prefer_draw)
    check_finished(people[0], live_store, tid, sockets, end)
    # each seat's events name a drawn tile only for her own draws
    for sock in sockets:
        for e in sock.events():
            if e["kind"] == "move" and e["move"] == "draw" and ruleset != "block":
                assert ("drawn" in e) == (e["seat"] == sock.seat), (sock.seat, e)


# ---------------------------------------------------------------- the lobby


def listed(person: Person, status: str) -> set[str]:
    r = person.http.get("/api/tables", params={"status": status, "limit": 200})
    assert r.status_code == 200
    return {t["id"] for t in r.json()["tables"]}


def test_lobby_join_leave_start(base: str, live_store: Store) -> None:
    anna, bob, cleo, dan = (Person.guest(base) for _ in range(4))
    table = anna.open_table("fido set=6", 3)
    tid = table["id"]
    assert [s["kind"] for s in table["seats"]] == ["person", "open", "open"]
    assert tid in listed(dan, "open") and tid not in listed(dan, "running")
    watch = anna.connect(tid)  # seated: sees the lobby's events before the start

    r = bob.join(tid)
    assert r.status_code == 200 and r.json()["my_seat"] == 1
    assert bob.join(tid).json()["error"]["code"] == "seated"
    r = bob.leave(tid)
    assert r.status_code == 200 and r.json()["seats"][1]["kind"] == "open"
    assert r.json()["my_seat"] is None
    assert bob.leave(tid).json()["error"]["code"] == "not_seated"
    assert cleo.join(tid, seat=2).status_code == 200
    assert bob.join(tid, seat=2).json()["error"]["code"] == "taken"
    assert bob.join(tid, seat=3).status_code == 422
    assert anna.table(tid)["status"] == "open"
    r = bob.join(tid)  # the last seat: the game starts
    assert r.status_code == 200 and r.json()["my_seat"] == 1 and r.json()["status"] == "running"
    assert tid in listed(dan, "running") and tid not in listed(dan, "open")
    r = dan.join(tid)
    assert r.status_code == 409 and r.json()["error"]["code"] == "started"
    r = cleo.leave(tid)
    assert r.status_code == 409 and r.json()["error"]["code"] == "started"

    watch.until(lambda f: f["type"] == "update" and f["view"] is not None)
    kinds = [(e["kind"], e["seat"]) for e in watch.events()]
    assert kinds == [("join", 1), ("leave", 1), ("join", 2), ("join", 1), ("start", None)]
    start = watch.events()[-1]
    assert start["names"] == [anna.name, bob.name, cleo.name]

    b, c = bob.connect(tid), cleo.connect(tid)
    end = play_to_end([watch, b, c])
    check_finished(anna, live_store, tid, [watch, b, c], end)
    assert tid in listed(dan, "finished") and tid not in listed(dan, "running")


def test_last_person_out_closes_the_table(base: str) -> None:
    anna = Person.guest(base)
    tid = anna.open_table("block", 2)["id"]
    r = anna.leave(tid)
    assert r.status_code == 200 and r.json()["status"] == "abandoned"
    assert tid not in listed(anna, "open")
    assert Person.guest(base).join(tid).json()["error"]["code"] == "started"


def test_private_table_needs_the_invite(base: str) -> None:
    anna, bob = Person.guest(base), Person.guest(base)
    table = anna.open_table("fido set=6", 2, private=True)
    tid, invite = table["id"], table["invite"]
    assert invite and table["private"]
    assert tid not in listed(bob, "open") and tid in listed(anna, "open")
    assert bob.table(tid)["invite"] is None  # shown to its seated people only
    for wrong in (None, "", "x" * 16, invite[:-1]):
        r = bob.join(tid, invite=wrong)
        assert r.status_code == 403 and r.json()["error"]["code"] == "invitation"
    assert anna.table(tid)["status"] == "open"
    r = bob.join(tid, invite=invite)
    assert r.status_code == 200 and r.json()["status"] == "running"
    assert r.json()["invite"] == invite


def test_reserved_seat_only_for_the_named_account(base: str) -> None:
    anna, cleo, dan = Person.guest(base), Person.guest(base), Person.guest(base)
    bea = Person.sign_up(base, "Bea Reserved")
    r = anna.http.post("/api/tables", json={
        "ruleset": "fido set=6", "players": 3,
        "seats": [{"kind": "me"}, {"kind": "reserved", "name": "Nobody Here"}, {"kind": "open"}]})
    assert r.status_code == 404 and r.json()["error"]["code"] == "no_account"
    table = anna.open_table("fido set=6", 3, [
        {"kind": "me"}, {"kind": "reserved", "name": "bea reserved"}, {"kind": "open"}],
        private=True)
    tid = table["id"]
    assert table["seats"][1]["kind"] == "reserved"
    r = cleo.join(tid, seat=1, invite=table["invite"])
    assert r.status_code == 409 and r.json()["error"]["code"] == "taken"
    r = cleo.join(tid, invite=table["invite"])  # the free seat, not the reserved one
    assert r.status_code == 200 and r.json()["my_seat"] == 2
    r = dan.join(tid, invite=table["invite"])
    assert r.status_code == 409 and r.json()["error"]["code"] == "full"
    r = bea.join(tid)  # her seat: no invite needed
    assert r.status_code == 200 and r.json()["my_seat"] == 1 and r.json()["status"] == "running"
    assert r.json()["seats"][1]["name"] == "Bea Reserved"


# ---------------------------------------------------------------- chat


def test_chat_is_stored_and_broadcast(base: str, live_store: Store) -> None:
    anna, bob = Person.guest(base), Person.guest(base)
    tid = anna.open_table("fido set=6", 3)["id"]  # chat works before the start too
    assert bob.join(tid).status_code == 200
    a, b = anna.connect(tid), bob.connect(tid)
    watcher = connect_anonymous(base, tid)
    text = "hello <b>all</b> & “ünïcode” 🁣"
    reply = a.chat(text)
    assert reply["type"] == "ack"
    seq = reply["seq"]
    for sock in (a, b, watcher):
        sock.until_seq(seq)
        chat = sock.events()[-1]
        assert chat["kind"] == "chat" and chat["seq"] == seq and chat["seat"] == 0
        assert chat["text"] == text and chat["name"] == anna.name
    check_acks_first(a.frames)
    # stored: a later connection from the start gets it, and the log holds it
    late = connect_anonymous(base, tid, seq=0)
    assert [e["text"] for e in late.events() if e["kind"] == "chat"] == [text]
    assert json.loads(read_truth_chat(live_store, tid, seq))["text"] == text

    assert a.chat("x" * MAX_CHAT)["type"] == "ack"
    before = anna.table(tid)["seq"]
    b.until_seq(before)
    long = a.chat("x" * (MAX_CHAT + 1))
    assert long["type"] == "refused" and long["code"] == "malformed"
    for bad in ("\x1b[2J", "right\u202eleft", "two\nlines", "nul\x00", "   ", "bell\x07"):
        r = a.chat(bad)
        assert r["type"] == "refused" and r["code"] == "bad_text", (bad, r)
    assert anna.table(tid)["seq"] == before
    assert b.drain(0.2) == []  # the refusals went to Anna alone


def read_truth_chat(live_store: Store, table_id: str, seq: int) -> str:
    from fido.store import EventRow  # noqa: PLC0415

    with live_store.session(write=False) as s:
        row = s.get(EventRow, (table_id, seq))
        assert row is not None and row.kind == "chat"
        return row.public


# ---------------------------------------------------------------- reconnecting


def test_reconnect_with_seq_gets_exactly_the_missed_events(base: str, live_store: Store) -> None:
    """Anna's first connection drops; her second one and Bob play on (drawing); she comes
    back with the last seq she saw and gets exactly what she missed, her draws' tiles with
    it and no one else's, and plays on from the same seat."""
    anna, bob = Person.guest(base), Person.guest(base)
    tid = anna.open_table("draw", 2)["id"]
    assert bob.join(tid).status_code == 200
    a1, a2, b = anna.connect(tid), anna.connect(tid), bob.connect(tid)
    seen: dict[str, int] = {}
    comeback: list[TableSocket] = []

    def between(moves: int) -> None:
        if moves == 2:
            a1.drain(0.1)
            assert a1.seq is not None
            seen["seq"] = a1.seq
            a1.close()
        elif moves == 12:
            a2.drain(0.1)
            assert a2.seq is not None
            seen["now"] = a2.seq
            back = anna.connect(tid, seq=seen["seq"])
            comeback.append(back)

    play_to_end([a2, b], prefer_draw, between=between)
    back = comeback[0]
    welcome = back.frames[0]
    assert welcome["type"] == "welcome" and welcome["seat"] == a2.seat  # the seat is kept
    assert "history" not in welcome["view"]
    missed = welcome["events"]
    assert [e["seq"] for e in missed] == list(range(seen["seq"] + 1, welcome["seq"] + 1))
    assert welcome["seq"] >= seen["now"]
    same = [e for e in a2.events() if seen["seq"] < e["seq"] <= welcome["seq"]]
    assert missed == same  # exactly what her other connection got
    draws = [e for e in missed if e["kind"] == "move" and e["move"] == "draw"]
    assert {e["seat"] for e in draws} == {0, 1}, "both seats drew while she was away"
    for e in missed:
        assert ("drawn" in e) == (e["kind"] == "move" and e["move"] == "draw"
                                  and e["seat"] == welcome["seat"])
    bob_saw = {e["seq"]: e for e in b.events()}
    for e in missed:
        other = bob_saw[e["seq"]]
        assert {k: v for k, v in e.items() if k != "drawn"} == {
            k: v for k, v in other.items() if k != "drawn"}
    truth = read_truth(live_store, tid)
    for e in draws:
        if e["seat"] == welcome["seat"]:
            assert truth.drawn_at[Tile.from_text(e["drawn"])] == (e["seat"], e["seq"])
    check_sequence(back.frames)


def test_reconnect_far_behind_or_ahead_gets_a_fresh_view(base: str, live_store: Store) -> None:
    anna, bob = Person.guest(base), Person.guest(base)
    tid = anna.open_table("draw", 2, grace=3600)["id"]
    assert bob.join(tid).status_code == 200
    a, b = anna.connect(tid), bob.connect(tid)
    for _ in range(4):  # a few moves, some of them draws
        mover = a if a.my_turn() else b
        assert mover.move(prefer_draw(mover))["type"] == "ack"
        a.drain(0.05)
        b.drain(0.05)
    assert a.seq is not None
    old = a.seq
    a.close()
    b.close()
    # Anna's seat comes and goes (away, back: events) until she is far behind
    while anna.table(tid)["seq"] - old <= CATCH_UP:
        anna.connect(tid).close()
    keep = anna.connect(tid)  # she is back (an event): further connections add none
    assert keep.seq is not None
    keep.until_seq(keep.seq + 1)
    now = log_length(live_store, tid)
    assert now - old > CATCH_UP and keep.seq == now
    truth = read_truth(live_store, tid)
    moves = [json.loads(e.public) | {"seat": e.seat} for e in truth.events if e.kind == "move"]
    for since in (old, now + 1000, -1, None):
        sock = anna.connect(tid, seq=since)
        welcome = sock.frames[0]
        assert welcome["events"] is None and welcome["seq"] == now, since
        history = welcome["view"]["history"]
        assert [h["move"] for h in history] == [m["move"] for m in moves]
        for h in history:  # her own draws' tiles only
            assert ("drawn" in h) == (h["move"] == "draw" and h["seat"] == 0)
        assert welcome["seat"] == 0
        sock.close()
    up_to_date = anna.connect(tid, seq=now)
    assert up_to_date.frames[0]["events"] == [] and "history" not in up_to_date.frames[0]["view"]
    # and the game goes on from there
    b = bob.connect(tid)
    end = play_to_end([up_to_date, b])
    assert end == log_length(live_store, tid)
    keep.until_seq(end)
    check_sequence(keep.frames)


def test_sync_sends_what_followed(base: str) -> None:
    """A client that saw a gap asks for what followed its seq: a welcome with those events
    (the same as the updates carried), and a fresh view with history from a seq unknown."""
    anna, bob = Person.guest(base), Person.guest(base)
    tid = anna.open_table("draw", 2)["id"]
    assert bob.join(tid).status_code == 200
    a, b = anna.connect(tid), bob.connect(tid)
    assert a.seq is not None
    old = a.seq
    for _ in range(5):
        mover = a if a.my_turn() else b
        assert mover.move(prefer_draw(mover))["type"] == "ack"
        (b if mover is a else a).until_seq(mover.seq or 0)
    a.send({"type": "sync", "seq": old})
    welcome = a.until(lambda f: f["type"] == "welcome")
    assert welcome["seq"] == a.seq and welcome["seat"] == a.seat
    assert welcome["events"] == [e for e in a.events() if e["seq"] > old][: len(welcome["events"])]
    assert [e["seq"] for e in welcome["events"]] == list(range(old + 1, welcome["seq"] + 1))
    b.send({"type": "sync", "seq": 10**6})
    fresh = b.until(lambda f: f["type"] == "welcome")
    assert fresh["events"] is None and len(fresh["view"]["history"]) == 5
    check_sequence(a.frames)
    check_sequence(b.frames)


# ---------------------------------------------------------------- sessions ending


def test_signing_out_closes_the_sessions_sockets(base: str) -> None:
    """Signing out closes her sockets of that session (4401) and no other: not her other
    browser's, not a spectator's; the closed one moves no more."""
    anna = Person.sign_up(base, "Anna Out")
    tid = anna.open_table("fido set=6", 3, seats=[
        {"kind": "me"}, {"kind": "bot", "level": "greedy"},
        {"kind": "bot", "level": "greedy"}])["id"]
    stale = anna.cookie()
    phone = Person(base, browser(base), anna.account)  # her second browser, its own session
    assert phone.http.post("/api/session", json={"name": "Anna Out", "password": PASSWORD}
                           ).status_code == 200
    a, on_phone = anna.connect(tid), phone.connect(tid)
    watcher = connect_anonymous(base, tid)
    assert a.seat == 0 and on_phone.seat == 0
    assert anna.http.delete("/api/session").status_code == 200
    assert a.close_code() == 4401
    # the rest stay open
    assert on_phone.ping()["type"] == "pong" and watcher.ping()["type"] == "pong"
    # her old cookie opens a spectator's socket now, never her seat's
    again = TableSocket.open(base, tid, cookie=stale, label="stale")
    assert again.seat is None


def test_a_socket_whose_session_ended_elsewhere_is_closed_within_recheck(
        base: str, live_db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another server process signed her out (here: the session's row deleted): this
    process's sweep of its sockets' sessions (one query for all, every RECHECK seconds)
    closes her socket."""
    monkeypatch.setattr(sockets, "RECHECK", 0.2)
    bea = Person.sign_up(base, "Bea Elsewhere")
    tid = bea.open_table("fido set=6", 3, seats=[
        {"kind": "me"}, {"kind": "bot", "level": "greedy"},
        {"kind": "bot", "level": "greedy"}])["id"]
    sock = bea.connect(tid)
    assert sock.ping()["type"] == "pong"  # alive: checked and answered
    live_store = open_store(live_db)
    with live_store.session() as s:
        s.execute(delete(WebSession).where(WebSession.account_id == bea.id))
    live_store.close()
    assert sock.close_code() == 4401
