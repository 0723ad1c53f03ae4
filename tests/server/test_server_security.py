"""The table protocol's security, end to end through real sockets (no mocks).

* Secrecy (hypothesis): over whole games of several rulesets, every frame any
  seat or spectator receives names only tiles she may know at that point: the
  tiles on the table, and for a seat her own hand and her own draws. The
  server's truth is its database: the table's deal and its log.
* A player acts only for her own seat, only at her table, only in turn,
  only with a fresh sequence number; every refusal changes nothing; a resent
  message id is answered as the first time and applied once.
* Frame sizes, the credit counter, the Origin check, chat text.
"""

from __future__ import annotations

import base64
import json
import os
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from fido.engine.rules import Ruleset
from fido.engine.tiles import Tile
from fido.position import parse_view
from fido.server.protocol import MAX_FRAME
from fido.store import EventRow, Store
from support.server_client import (
    LEGACY,
    Person,
    TableSocket,
    Truth,
    check_acks_first,
    check_sequence,
    connect_anonymous,
    first_legal,
    log_length,
    new_id,
    play_to_end,
    read_truth,
    strings_in,
    tiles_in,
    ws_url,
)


@pytest.fixture(scope="module")
def people(base: str) -> list[Person]:
    """Four guests who play, and a fifth who only watches (signed in, never seated)."""
    return [Person.guest(base) for _ in range(5)]


# ---------------------------------------------------------------- secrecy

CONFIGS = [
    ("fido set=6", 3), ("fido set=9", 4), ("fido set=6", 2), ("draw", 3), ("draw", 2),
    ("muggins", 2), ("block", 4), ("fives_and_threes", 3), ("straight", 2), ("sebastopol", 4),
]
FORBIDDEN_KEYS = {"deal", "hands", "seed", "record", "stock_order", "order"}


@dataclass(frozen=True)
class Plan:
    ruleset: str
    players: int
    people: tuple[bool, ...]  # per seat: a person (else a bot)
    bots: tuple[str, ...]
    seed: int
    reconnect: tuple[int, str] | None  # after that many moves, a person comes back: how


@st.composite
def plans(draw: st.DrawFn) -> Plan:
    ruleset, players = draw(st.sampled_from(CONFIGS))
    seats = draw(st.lists(st.booleans(), min_size=players, max_size=players).filter(any))
    bots = tuple(draw(st.sampled_from(["random", "greedy"])) for _ in range(players))
    reconnect = draw(st.none() | st.tuples(st.integers(1, 12),
                                           st.sampled_from(["seq", "zero", "fresh", "ahead"])))
    return Plan(ruleset, players, tuple(seats), bots, draw(st.integers(0, 2**32 - 1)), reconnect)


def dicts_in(obj: object) -> Iterator[dict[str, Any]]:
    if isinstance(obj, dict):
        yield obj
        for v in obj.values():
            yield from dicts_in(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from dicts_in(v)


def hand_at(truth: Truth, seat: int, seq: int) -> set[Tile]:
    """Her hand after event ``seq``: the deal, her draws, less what she placed."""
    hand = set(truth.hands[seat])
    for e in truth.events:
        if e.seq > seq or e.kind != "move" or e.seat != seat:
            continue
        move = json.loads(e.public)["move"]
        if e.private is not None:
            hand.add(Tile.from_text(json.loads(e.private)["drawn"]))
        if move not in ("draw", "pass"):
            hand.discard(Tile.from_text(move.split("@")[0]))
    return hand


def check_secrecy(truth: Truth, sock: TableSocket, seat: int | None, max_pips: int) -> None:
    """Every frame of ``sock`` (a connection of ``seat``; None: a spectator) names only
    tiles that seat knows by then, and nothing of the stock's order."""
    context: int | None = None
    named: set[Tile] = set()
    for i, f in enumerate(sock.frames):
        where = f"{sock.label} frame {i} ({f['type']})"
        if f["type"] in ("welcome", "update"):
            context = f["seq"]
        assert context is not None, where
        tiles = tiles_in(f, max_pips)
        named |= tiles
        leaked = tiles - truth.known(seat, context)
        assert not leaked, f"{where}: names {sorted(map(str, leaked))} at seq {context}"
        for e in f.get("events") or ():
            early = tiles_in(e, max_pips) - truth.known(seat, e["seq"])
            assert not early, f"{where}: event {e['seq']} names {sorted(map(str, early))}"
        for d in dicts_in(f):
            assert not FORBIDDEN_KEYS & set(d), (where, FORBIDDEN_KEYS & set(d))
            if "drawn" in d:
                assert seat is not None, f"{where}: a spectator sees a drawn tile"
                assert d.get("seat") == seat, f"{where}: another seat's drawn tile"
            if "stock" in d:
                assert isinstance(d["stock"], int), f"{where}: the stock is a count"
        view = f.get("view")
        if view is not None:
            assert view["seat"] == seat
            position = parse_view(view["position"])  # the one-line text: her hand, counts
            assert position.seat == seat and position.stock_count == view["stock"]
            assert [t.text() for t in position.hand] == view["hand"]
            hands = view["position"].split(" | ")[2].removeprefix("hands ").split(" / ")
            assert all(h.startswith("#") for s, h in enumerate(hands) if s != seat), where
            if seat is None:
                assert view["hand"] == [] and view["legal"] == []
            else:
                assert {Tile.from_text(t) for t in view["hand"]} == hand_at(truth, seat, context)
    # not vacuous: the frames did name the table and her hand
    last = max(f["seq"] for f in sock.frames if f["type"] in ("welcome", "update"))
    placed = {t for t, at in truth.placed_at.items() if at <= last}
    assert placed <= named, sock.label
    if seat is not None and sock.frames[0]["seq"] < truth.seq:
        assert hand_at(truth, seat, sock.frames[0]["seq"]) <= named, sock.label


@settings(max_examples=14, deadline=None, derandomize=False,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(plan=plans())
def test_no_frame_names_a_hidden_tile(
    plan: Plan, base: str, live_store: Store, people: list[Person]
) -> None:
    rules = Ruleset.from_text(plan.ruleset)
    persons = [i for i, p in enumerate(plan.people) if p]
    seats: list[dict[str, Any]] = [
        ({"kind": "me"} if i == persons[0] else {"kind": "open"}) if p
        else {"kind": "bot", "level": plan.bots[i]} for i, p in enumerate(plan.people)]
    host = people[persons[0]]
    early = None
    tid = host.open_table(plan.ruleset, plan.players, seats)["id"]
    if len(persons) > 1:
        early = host.connect(tid)  # before the deal
    for i in persons[1:]:
        r = people[i].join(tid, seat=i)
        assert r.status_code == 200, r.text
    players = [people[i].connect(tid) for i in persons]
    watchers = [connect_anonymous(base, tid), people[4].connect(tid)]
    if early is not None:
        watchers.append(early)
    every = [*players, *watchers]
    rng = random.Random(plan.seed)

    def between(moved: int) -> None:
        if plan.reconnect is None or moved != plan.reconnect[0]:
            return
        k = rng.randrange(len(players))
        old = players[k]
        old.drain()
        old.close()
        seq = {"seq": old.seq, "zero": 0, "fresh": None, "ahead": 10**6}[plan.reconnect[1]]
        players[k] = people[persons[k]].connect(tid, seq=seq)
        every.append(players[k])

    play_to_end(players, lambda s: rng.choice((s.view or {})["legal"])["move"],
                watchers=watchers, between=between)
    truth = read_truth(live_store, tid)
    assert truth.record is not None
    for sock in every:
        check_sequence(sock.frames)
        check_acks_first(sock.frames)
        check_secrecy(truth, sock, sock.seat, rules.max_pips)
        sock.close()
    assert {s.seat for s in every} == {*persons, None}


def test_the_walker_finds_tiles_everywhere() -> None:
    """tiles_in reads hands, moves, table and position lines, and messages; not ids."""
    frame = {"hand": ["6-6"], "move": "5-4@3e", "position": "fido set=6 | cross 3-3 2-1@0n",
             "message": "you do not hold 1-0", "id": "x1-2y", "at": 1.5, "t": "Ab9-3cd"}
    assert tiles_in(frame, 6) == {Tile(6, 6), Tile(5, 4), Tile(3, 3), Tile(2, 1), Tile(1, 0)}
    assert tiles_in({"k": "9-9 7-1"}, 6) == set()


# ---------------------------------------------------------------- acting


def started(base: str, ruleset: str = "draw") -> tuple[str, Person, Person, TableSocket,
                                                      TableSocket]:
    """A running two-person table: (id, anna, bob, anna's socket, bob's socket)."""
    anna, bob = Person.guest(base), Person.guest(base)
    tid = anna.open_table(ruleset, 2)["id"]
    assert bob.join(tid).status_code == 200
    a, b = anna.connect(tid), bob.connect(tid)
    return tid, anna, bob, a, b


def refused(reply: dict[str, Any], code: str) -> str:
    assert reply["type"] == "refused" and reply["code"] == code, (code, reply)
    message: str = reply["message"]
    return message


def answer(sock: TableSocket, frame: str | bytes) -> dict[str, Any]:
    """The refusal of a frame that has no usable id (out of credit: wait and send again)."""
    while True:
        sock.send(frame)
        reply = sock.until(lambda f: f["type"] == "refused")
        if reply["code"] != "rate_limited":
            return reply
        time.sleep(0.3)


def test_refusals_change_nothing(base: str, live_store: Store) -> None:
    anna, bob = Person.guest(base), Person.guest(base)
    tid = anna.open_table("draw", 2)["id"]
    a = anna.connect(tid)
    refused(a.move("draw", seq=0), "not_started")
    refused(a.move("6-6", seq=0), "not_started")
    assert bob.join(tid).status_code == 200
    b = bob.connect(tid)
    a.until(lambda f: f["type"] == "update" and f["view"] is not None)
    mover, other = (a, b) if a.my_turn() else (b, a)
    assert mover.my_turn() and not other.my_turn()
    seq = anna.table(tid)["seq"]
    length = log_length(live_store, tid)
    truth = read_truth(live_store, tid)
    assert mover.seat is not None and other.seat is not None
    theirs = sorted(truth.hands[other.seat])[0]
    held = set().union(*truth.hands)
    stock = sorted(t for t in Ruleset.from_text("draw").dominoes if t not in held)[0]

    refused(other.move("draw"), "not_your_turn")
    refused(other.move(first_legal(mover.view or {})), "not_your_turn")
    refused(mover.move("draw", seq=seq + 1), "bad_seq")
    refused(mover.move("draw", seq=2**31 - 1), "bad_seq")
    opening = refused(mover.move("draw"), "illegal")
    assert "opens first" in opening  # the engine's reason (naming her own tile)
    assert "not a move" in refused(mover.move("nonsense"), "illegal")
    refused(mover.move("7-7"), "illegal")  # not a tile of the set
    # a tile of the other's hand and a tile of the stock get the same answer
    not_held = [refused(mover.move(f"{t.text()}"), "illegal").replace(t.text(), "T")
                for t in (theirs, stock)]
    assert not_held[0] == not_held[1] == "you do not hold T"

    # nothing to forge: a seat or an account in a move is an unknown field
    for extra in ({"seat": other.seat}, {"account": 1}, {"table": "x"}, {"by": "bot"}):
        message = {"type": "move", "id": new_id(), "seq": seq,
                   "move": first_legal(mover.view or {})} | extra
        reply = mover.request(message)
        refused(reply, "malformed")
        assert reply["id"] == message["id"]
    malformed: list[str | bytes] = [
        "not json", "", "[]", "null", "42", '"move"', '{"type": "nope", "id": "u1"}',
        '{"type": "move"}', '{"type": "move", "id": "x", "seq": "3", "move": "draw"}',
        '{"type": "move", "id": "x", "seq": -1, "move": "draw"}',
        '{"type": "move", "id": "x", "seq": 2147483648, "move": "draw"}',
        '{"type": "move", "id": "x", "seq": true, "move": "draw"}',
        '{"type": "move", "id": "x", "seq": 1.0, "move": "draw"}',
        '{"type": "move", "id": "a b", "seq": 1, "move": "draw"}',
        '{"type": "move", "id": "' + "i" * 65 + '", "seq": 1, "move": "draw"}',
        '{"type": "move", "id": "x", "seq": 1, "move": ""}',
        '{"type": "move", "id": "x", "seq": 1, "move": "' + "d" * 41 + '"}',
        '{"type": "move", "id": 7, "seq": 1, "move": "draw"}',
        '{"type": "chat", "id": "x", "text": 5}', '{"type": "ping", "x": 1}',
        '{"type": "sync", "seq": "0"}', '{"type": "sync"}', "[" * 2000,
        b"\xff\xfe\x00garbage", b'{"type": "ping"', '{"type": "move", "type": 1}',
    ]
    for frame in malformed:
        refused(answer(mover, frame), "malformed")
    for frame in ("x" * (MAX_FRAME + 1), "é" * (MAX_FRAME // 2 + 1),
                  json.dumps({"type": "chat", "id": "big", "text": "y" * MAX_FRAME})):
        refused(answer(mover, frame), "too_large")
    mover.drain(0.1)
    other.drain(0.1)
    assert anna.table(tid)["seq"] == seq and log_length(live_store, tid) == length
    for sock in (a, b):  # no refusal was broadcast
        assert not [f for f in sock.frames if f["type"] == "update" and f["seq"] > seq]

    # a move is applied once, whatever is resent with its id
    first = mover.move(first_legal(mover.view or {}), msg_id="once")
    assert first["type"] == "ack" and first["seq"] == seq + 1
    again = mover.move("draw", msg_id="once", seq=0)
    assert again == first | {"duplicate": True}
    assert log_length(live_store, tid) == length + 1
    other.until_seq(seq + 1)
    reply = other.move("nonsense", msg_id="once")  # another account's id is her own
    assert "duplicate" not in reply
    refused(reply, "illegal")
    reply = other.move("nonsense", msg_id="once")
    assert reply["duplicate"] is True and reply["code"] == "illegal"
    # a move sent on an old seq after a newer one (reordered, or resent late): stale
    before = other.seq
    other.send({"type": "move", "id": "o1", "seq": before, "move": "draw"})
    other.send({"type": "move", "id": "o2", "seq": before, "move": "draw"})
    first = other.until(lambda f: f.get("id") == "o1")
    second = other.until(lambda f: f.get("id") == "o2")  # answered in the order sent
    assert first["type"] == "ack"
    refused(second, "stale")
    other.until_seq(first["seq"])
    assert log_length(live_store, tid) == length + 2
    # every move of the log was made by the seat of the account that sent it
    for e in read_truth(live_store, tid).events:
        if e.kind == "move" and e.account_id is not None:
            assert e.seat == (a.seat if e.account_id == anna.id else b.seat)

    end = play_to_end([a, b])
    refused(a.move("draw"), "game_over")
    refused(b.move("pass"), "game_over")
    assert anna.table(tid)["seq"] == end == log_length(live_store, tid)


def test_stale_after_the_others_move(base: str, live_store: Store) -> None:
    tid, _anna, _bob, a, b = started(base, "block")
    mover, other = (a, b) if a.my_turn() else (b, a)
    old = mover.seq
    assert mover.move(first_legal(mover.view or {}))["type"] == "ack"
    other.until(lambda f: other.my_turn())
    assert other.move(first_legal(other.view or {}))["type"] == "ack"
    mover.until(lambda f: mover.my_turn())
    length = log_length(live_store, tid)
    refused(mover.move(first_legal(mover.view or {}), seq=old), "stale")
    assert log_length(live_store, tid) == length
    assert mover.move(first_legal(mover.view or {}))["type"] == "ack"  # with the new seq


def test_only_her_own_table_and_seat(base: str, live_store: Store) -> None:
    """Seated at one table, she only watches another; an anonymous connection never acts."""
    tid, anna, _bob, a, _b = started(base)
    other_tid, *_ = started(base)
    there = anna.connect(other_tid)
    assert there.seat is None and there.view is not None
    assert there.view["seat"] is None and there.view["hand"] == [] and there.view["legal"] == []
    length = log_length(live_store, other_tid)
    refused(there.move("draw"), "not_seated")
    refused(there.move("6-6"), "not_seated")
    anonymous = connect_anonymous(base, tid)
    refused(anonymous.move("draw"), "not_seated")
    refused(anonymous.chat("hello"), "not_seated")
    assert log_length(live_store, other_tid) == length
    assert a.seat is not None and a.seat in (0, 1)


def test_a_seat_left_is_not_kept_by_her_connection(base: str, live_store: Store) -> None:
    """Bob leaves before the start; Cleo takes his seat: Bob's open connection must not see
    her hand nor move for her."""
    anna, bob, cleo, dan = (Person.guest(base) for _ in range(4))
    tid = anna.open_table("fido set=6", 3)["id"]
    assert bob.join(tid, seat=1).status_code == 200
    b = bob.connect(tid)
    assert b.seat == 1
    assert bob.leave(tid).status_code == 200
    assert cleo.join(tid, seat=1).status_code == 200
    assert dan.join(tid, seat=2).status_code == 200
    frame = b.until(lambda f: f["type"] == "update" and f["view"] is not None)
    assert frame["view"]["seat"] is None and frame["view"]["hand"] == []
    refused(b.move("pass"), "not_seated")
    sockets = [anna.connect(tid), cleo.connect(tid), dan.connect(tid)]
    play_to_end(sockets, watchers=[b])
    check_secrecy(read_truth(live_store, tid), b, None, 6)


# ---------------------------------------------------------------- limits


def test_credit_counter(base: str, live_store: Store) -> None:
    tid, anna, _bob, a, _b = started(base)
    seq = anna.table(tid)["seq"]
    for _ in range(100):
        a.send({"type": "ping"})
    replies = [a.until(lambda f: f["type"] in ("pong", "refused")) for _ in range(100)]
    pongs = [r for r in replies if r["type"] == "pong"]
    limited = [r for r in replies if r["type"] == "refused"]
    assert all(r["code"] == "rate_limited" for r in limited)
    assert 25 <= len(pongs) <= 60 and len(limited) >= 40, (len(pongs), len(limited))
    time.sleep(1.0)
    assert a.ping()["type"] == "pong"  # a pause gives credit back
    # chat lines cost more
    chats = [a.chat(f"line {i}") for i in range(6)]
    assert chats[0]["type"] == "ack"
    assert {c["code"] for c in chats if c["type"] == "refused"} == {"rate_limited"}
    acked = sum(c["type"] == "ack" for c in chats)
    assert anna.table(tid)["seq"] == seq + acked == log_length(live_store, tid)


@pytest.mark.parametrize("payload", ["compressible", "random"])
def test_a_huge_frame_closes_only_its_connection(base: str, payload: str) -> None:
    """Over uvicorn's own bound (16 MiB by default, 64 KiB under `fido serve`) the
    connection is closed (1009, message too big); the server and the table go on."""
    tid, anna, _bob, a, b = started(base)
    big = 17 * 2**20
    text = ("x" * big if payload == "compressible"
            else base64.b64encode(os.urandom(big * 3 // 4 + 3)).decode())
    victim = anna.connect(tid)
    victim.send(text)
    assert victim.close_code() == 1009
    assert httpx.get(f"{base}/api/health").status_code == 200
    assert b.ping()["type"] == "pong" and a.ping()["type"] == "pong"
    again = anna.connect(tid)
    assert again.seat == a.seat
    middle = anna.connect(tid)
    middle.send("z" * 60_000)  # under every bound of the server: refused, not closed
    refused(middle.until(lambda f: f["type"] == "refused"), "too_large")
    assert middle.ping()["type"] == "pong"


# ---------------------------------------------------------------- origin


def handshake_refused(base: str, tid: str, person: Person, origin: str) -> bool:
    sock = TableSocket.open(base, tid, cookie=person.cookie(), origin=origin,
                            welcome=False)  # the documented code, not an HTTP 403
    try:
        frame = sock.recv(5)
    except ConnectionClosed as e:
        return e.rcvd is not None and e.rcvd.code == 4403
    raise AssertionError(f"{origin}: {frame}")


def test_origin_check(base: str) -> None:
    tid, anna, _bob, a, _b = started(base)
    port = base.rsplit(":", 1)[1]
    for evil in ("https://evil.example", "null", "http://127.0.0.1:1",
                 f"http://127.0.0.1:{port}.evil.example", f"http://evil.example:{port}",
                 "file://", "chrome-extension://abc"):
        assert handshake_refused(base, tid, anna, evil), evil
    same = anna.connect(tid, origin=base)  # the server's own pages
    assert same.seat == a.seat
    program = anna.connect(tid)  # no Origin: a program, not a browser's page
    assert program.seat == a.seat


# ---------------------------------------------------------------- chat


def test_chat_markup_is_text(base: str, live_store: Store) -> None:
    tid, _anna, _bob, a, b = started(base)
    watcher = connect_anonymous(base, tid)
    markup = '<script>alert("x")</script><img src=x onerror=alert(1)> &amp; {{7*7}} ${1}'
    reply = a.chat(markup)
    assert reply["type"] == "ack"
    for sock in (b, watcher):
        sock.until_seq(reply["seq"])
        assert sock.events()[-1]["text"] == markup
    with live_store.session(write=False) as s:
        row = s.get(EventRow, (tid, reply["seq"]))
        assert row is not None and json.loads(row.public)["text"] == markup
    duplicate = a.chat("another text", msg_id=reply["id"])
    assert duplicate == reply | {"duplicate": True}
    length = log_length(live_store, tid)
    refused(watcher.chat(markup), "not_seated")  # an anonymous spectator cannot chat
    assert log_length(live_store, tid) == length


def test_too_many_connections_of_one_account_are_refused(base: str) -> None:
    """The credit counter limits a connection; the count of connections limits opening many."""
    tid, anna, _bob, _a, _b = started(base)
    sockets = [anna.connect(tid) for _ in range(19)]  # 20 with the one `started` opened
    extra = connect(ws_url(base, tid), open_timeout=10, **LEGACY,
                    additional_headers={"Cookie": anna.cookie()})
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            extra.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
    sockets[0].close()
    time.sleep(0.5)
    assert anna.connect(tid).frames[0]["type"] == "welcome"  # one closed: one may open


def test_strings_in_walks_keys_and_values() -> None:
    assert set(strings_in({"a": ["b", {"c": "d"}], "e": 1})) == {"a", "b", "c", "d", "e"}


def test_bad_handshakes_are_refused(base: str) -> None:
    """A bad seq opens and closes at once with 4400 (as a wrong version does), an
    unknown or overlong table id with 4404, so the client can tell; the server goes
    on."""
    tid, anna, _bob, a, _b = started(base)
    for seq in ("abc", "1e3", "", "9" * 30):
        ws = connect(ws_url(base, tid) + f"?seq={seq}", open_timeout=10, **LEGACY)
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4400, seq
    for table in ("nosuchtable", "x" * 40, "%00"):
        ws = connect(ws_url(base, table) + "?seq=0", open_timeout=10, **LEGACY)
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
    assert a.ping()["type"] == "pong"
    assert anna.connect(tid, seq=-5).frames[0]["events"] is None  # a fresh view


def test_one_person_plays_at_few_bot_tables_at_once(base: str) -> None:
    """The bots' workers are everyone's: one guest plays at no more than three tables
    with bots at once (open or running), and at one with strong bots; tables of people
    only are not counted, and another person's share is her own."""
    solo = Person.guest(base)
    greedy = [{"kind": "me"}, {"kind": "bot", "level": "greedy"},
              {"kind": "bot", "level": "greedy"}]
    strong = [{"kind": "me"}, {"kind": "bot", "level": "search"},
              {"kind": "bot", "level": "greedy"}]
    first = solo.open_table("fido set=6", 3, seats=strong)["id"]
    r = solo.http.post("/api/tables", json={"ruleset": "fido set=6", "players": 3,
                                            "seats": strong})
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_bot_tables"
    assert "strong bots" in r.json()["error"]["message"]
    for _ in range(2):
        solo.open_table("fido set=6", 3, seats=greedy)
    r = solo.http.post("/api/tables", json={"ruleset": "fido set=6", "players": 3,
                                            "seats": greedy})
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_bot_tables"
    solo.open_table("fido set=6", 3, seats=[{"kind": "me"}, {"kind": "open"},
                                            {"kind": "open"}])  # people only: not counted
    assert first
    other = Person.guest(base)  # someone else's share is her own
    other.open_table("fido set=6", 3, seats=strong)


def test_guests_of_one_address_share_its_bot_tables(base: str) -> None:
    """A guest is an account, so guests of one address would multiply a person's bound:
    an address opens at most two tables with strong bots and six with bots (open or
    running), the queue's included; another address is not held up."""
    here = {"X-Forwarded-For": "203.0.113.77"}  # through the proxy, from one address
    guests = []
    for _ in range(8):
        guest = Person.guest(base)
        guest.http.headers.update(here)
        guests.append(guest)
    strong = [{"kind": "me"}, {"kind": "bot", "level": "search"},
              {"kind": "bot", "level": "greedy"}]
    greedy = [{"kind": "me"}, {"kind": "bot", "level": "greedy"},
              {"kind": "bot", "level": "greedy"}]
    for guest in guests[:2]:
        guest.open_table("fido set=6", 3, seats=strong)
    r = guests[2].http.post("/api/tables", json={"ruleset": "fido set=6", "players": 3,
                                                 "seats": strong})
    assert r.status_code == 429, r.text
    assert r.json()["error"]["code"] == "too_many_bot_tables_here"
    assert "your address" in r.json()["error"]["message"]
    for guest in guests[2:6]:
        guest.open_table("fido set=6", 3, seats=greedy)
    r = guests[6].http.post("/api/tables", json={"ruleset": "fido set=6", "players": 3,
                                                 "seats": greedy})
    assert r.json()["error"]["code"] == "too_many_bot_tables_here"
    r = guests[7].http.post("/api/queue", json={"game": "fido", "bots_after": 5})
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_bot_tables_here"
    r = guests[7].http.post("/api/queue", json={"game": "fido"})  # people only
    assert r.status_code == 201, r.text
    guests[7].http.delete("/api/queue")
    elsewhere = Person.guest(base)
    elsewhere.http.headers["X-Forwarded-For"] = "198.51.100.77"
    elsewhere.open_table("fido set=6", 3, seats=strong)
