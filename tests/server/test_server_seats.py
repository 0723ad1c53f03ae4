"""A seat is its person's: a connection acts and sees for a seat only while its person
holds it, on every process (docs/protocol.md, "Who connects"; tables/feed.py).

* One process, a forced interleaving (no timing race): her socket is accepted while she
  holds seat 1, she leaves before the room takes the socket in, and the next person sits
  there and is dealt her hand. The socket is welcomed as a spectator: no frame holds the
  new person's hand, and a move sent on it at the new person's turn is refused.
* Two processes on PostgreSQL: her socket on B, her leave and the next person's join on
  A; B reads them from the log, and her socket is welcomed anew as a spectator before
  any update of the deal reaches it. The opposite way: a spectator's socket on B becomes
  her seat's as soon as she joins through A, without reconnecting.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from fido.server.tables.room import Room
from support.postgres import POSTGRES, empty_postgres
from support.server_client import Person, TableSocket, first_legal
from support.server_live import cookie_header
from support.server_procs import ServerProcess, guest, servers

SEATS: list[dict[str, Any]] = [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]


def _hand_seen(frames: list[dict[str, Any]], hand: set[str]) -> list[str]:
    """The tiles of ``hand`` that any frame's view names as the connection's own."""
    seen: list[str] = []
    for f in frames:
        view = f.get("view") or {}
        seen += [t for t in view.get("hand") or () if t in hand]
        for legal in view.get("legal") or ():
            if legal.get("tile") in hand:
                seen.append(legal["tile"])
        delta = f.get("delta") or {}
        for key in ("hand", "legal"):
            if key in delta:
                seen.append(f"delta:{key}")
    return seen


def _to_seat_1s_turn(v: TableSocket, *others: TableSocket) -> None:
    """Play the other seats' moves until seat 1's person ``v`` is to move."""
    for _ in range(40):
        v.drain(0.2)
        if v.view is not None and v.view["turn"] == 1:
            return
        for o in others:
            o.drain(0.1)
            if o.my_turn() and o.view is not None:
                o.move(first_legal(o.view))
    raise AssertionError("seat 1 never came to move")


def _her_move_refused(m: TableSocket, v: TableSocket) -> None:
    """A legal move of the person now at seat 1, sent on the old holder's socket."""
    assert v.view is not None
    m.drain(0.2)
    reply = m.move(first_legal(v.view), seq=v.seq, synced=False)
    assert reply["type"] == "refused" and reply["code"] == "not_seated", reply


def test_a_socket_taken_in_after_she_left_her_seat_is_a_spectators(
        base: str, monkeypatch: pytest.MonkeyPatch) -> None:
    a, m, v, x = (Person.guest(base) for _ in range(4))
    table_id = a.open_table("fido set=6", 3, seats=SEATS)["id"]
    assert m.join(table_id, 1).status_code == 200
    gate = threading.Event()
    attach = Room.attach

    async def held(self: Room, conn: Any, since: int | None = None) -> None:
        if conn.account_id == m.id:  # her socket waits here until she has left
            await asyncio.to_thread(gate.wait, 20)
        await attach(self, conn, since)

    monkeypatch.setattr(Room, "attach", held)
    sock = TableSocket.open(base, table_id, cookie=m.cookie(), label="M", welcome=False)
    try:
        assert m.leave(table_id).status_code == 200
        assert v.join(table_id, 1).status_code == 200
        assert x.join(table_id, 2).status_code == 200  # the last seat: dealt
        gate.set()
        welcome = sock.until(lambda f: f["type"] == "welcome")
        assert welcome["seat"] is None, welcome["seat"]
        assert welcome["table"]["seats"][1]["account"] == v.id
        sa, sv, sx = a.connect(table_id), v.connect(table_id), x.connect(table_id)
        assert sv.seat == 1 and sv.view is not None
        hand = set(sv.view["hand"])
        assert hand and not _hand_seen(sock.frames, hand)
        _to_seat_1s_turn(sv, sa, sx)
        _her_move_refused(sock, sv)
        sock.drain(0.3)
        assert not _hand_seen(sock.frames, set(sv.view["hand"]))
        assert all(f.get("seat") is None for f in sock.frames if f["type"] == "welcome")
        for s in (sa, sv, sx):
            s.close()
    finally:
        gate.set()
        sock.close()


# ---------------------------------------------------------------- two processes

two = pytest.mark.skipif(
    not POSTGRES, reason="two servers meet through PostgreSQL (LISTEN/NOTIFY): "
    "FIDO_TEST_POSTGRES_URL is not set (tests/with_postgres.py sets it)")


def _socket(base: str, client: httpx.Client, table_id: str, label: str) -> TableSocket:
    return TableSocket.open(base, table_id, cookie=cookie_header(client), label=label)


def _open(creator: httpx.Client) -> str:
    r = creator.post("/api/tables", json={"ruleset": "fido set=6", "players": 3,
                                          "seats": SEATS})
    assert r.status_code == 201, r.text
    table_id: str = r.json()["id"]
    return table_id


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    assert POSTGRES
    empty_postgres(POSTGRES)
    a, b = (ServerProcess(POSTGRES, tmp_path / f"{name}.log", bot_delay=0.05)
            for name in "ab")
    a.start()
    b.start()
    with servers(a, b):
        yield a, b


@two
def test_a_seat_left_on_one_process_is_no_longer_hers_on_the_other(
        pair: tuple[ServerProcess, ServerProcess]) -> None:
    pa, pb = pair
    a, m, v, x = (guest(pa.base) for _ in range(4))
    table_id = _open(a)
    assert m.post(f"/api/tables/{table_id}/seats", json={"seat": 1}).status_code == 200
    sock = _socket(pb.base, m, table_id, "M on B")
    assert sock.seat == 1
    assert m.delete(f"/api/tables/{table_id}/seats/mine").status_code == 200
    welcome = sock.until(lambda f: f["type"] == "welcome" and f["seq"] >= 2)
    assert welcome["seat"] is None  # B read her leave: her socket watches
    assert v.post(f"/api/tables/{table_id}/seats", json={"seat": 1}).status_code == 200
    assert x.post(f"/api/tables/{table_id}/seats", json={"seat": 2}).status_code == 200
    sa, sv, sx = (_socket(pa.base, c, table_id, n) for c, n in ((a, "A"), (v, "V"), (x, "X")))
    try:
        assert sv.seat == 1 and sv.view is not None
        sock.until(lambda f: f["type"] in ("welcome", "update") and f.get("view") is not None)
        hand = set(sv.view["hand"])
        assert hand and not _hand_seen(sock.frames, hand)
        _to_seat_1s_turn(sv, sa, sx)
        _her_move_refused(sock, sv)
        assert not _hand_seen(sock.frames, set(sv.view["hand"]))
        assert all(f.get("seat") is None for f in sock.frames[1:] if f["type"] == "welcome")
    finally:
        for s in (sock, sa, sv, sx):
            s.close()


@two
def test_a_seat_taken_on_one_process_is_hers_at_once_on_the_other(
        pair: tuple[ServerProcess, ServerProcess]) -> None:
    pa, pb = pair
    a, w, x = guest(pa.base), guest(pa.base), guest(pa.base)
    table_id = _open(a)
    sock = _socket(pb.base, w, table_id, "W on B")
    assert sock.seat is None
    assert w.post(f"/api/tables/{table_id}/seats", json={"seat": 1}).status_code == 200
    sock.until(lambda f: f["type"] == "welcome" and f["seat"] == 1)
    assert x.post(f"/api/tables/{table_id}/seats", json={"seat": 2}).status_code == 200
    sock.until(lambda f: f.get("view") is not None and bool(f["view"]["hand"]))  # dealt
    sa, sx = _socket(pa.base, a, table_id, "A"), _socket(pa.base, x, table_id, "X")
    try:
        _to_seat_1s_turn(sock, sa, sx)
        assert sock.view is not None
        reply = sock.move(first_legal(sock.view), synced=False)
        assert reply["type"] == "ack", reply
    finally:
        for s in (sock, sa, sx):
            s.close()
