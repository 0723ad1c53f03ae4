"""A small synchronous client of the fido server for the tests: people and table sockets.

A :class:`Person` is a browser (httpx: cookies, the CSRF header) signed up or
playing as a guest; :meth:`Person.connect` opens a table's WebSocket with her
cookie (``websockets.sync``), or :func:`connect_anonymous` without one. A
:class:`TableSocket` keeps every frame it receives, in order, and follows the
table's sequence number and the last view; :func:`play_to_end` plays whole
games through the protocol. The checks shared by the tests (sequence numbers
without gaps, acks before updates, the tiles a frame may name) are here too.
"""

from __future__ import annotations

import inspect
import itertools
import json
import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
from sqlalchemy import select
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from fido.engine.tiles import Tile
from fido.store import EventRow, Store, TableRow
from support.server_live import browser, cookie_header

__all__ = [
    "LEGACY",
    "PASSWORD",
    "Person",
    "TableSocket",
    "Truth",
    "check_acks_first",
    "check_sequence",
    "connect_anonymous",
    "first_legal",
    "log_length",
    "play_to_end",
    "read_truth",
    "tiles_in",
    "ws_url",
]

PASSWORD = "correct horse"
# websockets 16+ warns unless connect() without a with-block says so (older ones lack the flag)
LEGACY: dict[str, Any] = (
    {"legacy": True} if "legacy" in inspect.signature(connect).parameters else {})
_ids = itertools.count(1)

Frame = dict[str, Any]


def new_id(prefix: str = "m") -> str:
    """A message id no other message of the test run has."""
    return f"{prefix}{next(_ids)}"


def ws_url(base: str, table_id: str, seq: int | None = None) -> str:
    url = base.replace("http://", "ws://", 1) + f"/ws/tables/{table_id}"
    return url if seq is None else f"{url}?seq={seq}"


@dataclass
class Person:
    """One browser: an httpx client with its cookies (a guest or an account)."""

    base: str
    http: httpx.Client
    account: dict[str, Any]

    @classmethod
    def guest(cls, base: str) -> Person:
        http = browser(base)
        r = http.post("/api/guest")
        assert r.status_code == 200, r.text
        return cls(base, http, r.json()["account"])

    @classmethod
    def sign_up(cls, base: str, name: str) -> Person:
        http = browser(base)
        r = http.post("/api/accounts", json={"name": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        return cls(base, http, r.json()["account"])

    @property
    def id(self) -> int:
        account_id: int = self.account["id"]
        return account_id

    @property
    def name(self) -> str:
        name: str = self.account["name"]
        return name

    def cookie(self) -> str:
        return cookie_header(self.http)

    def open_table(
        self, ruleset: str, players: int, seats: list[dict[str, Any]] | None = None, **more: Any
    ) -> dict[str, Any]:
        """POST /api/tables (201 expected): the table as the lobby shows it to her."""
        body: dict[str, Any] = {"ruleset": ruleset, "players": players, **more}
        if seats is not None:
            body["seats"] = seats
        r = self.http.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        table: dict[str, Any] = r.json()
        return table

    def join(self, table_id: str, seat: int | None = None,
             invite: str | None = None) -> httpx.Response:
        body: dict[str, Any] = {}
        if seat is not None:
            body["seat"] = seat
        if invite is not None:
            body["invite"] = invite
        return self.http.post(f"/api/tables/{table_id}/seats", json=body)

    def leave(self, table_id: str) -> httpx.Response:
        return self.http.delete(f"/api/tables/{table_id}/seats/mine")

    def table(self, table_id: str) -> dict[str, Any]:
        r = self.http.get(f"/api/tables/{table_id}")
        assert r.status_code == 200, r.text
        table: dict[str, Any] = r.json()
        return table

    def connect(self, table_id: str, *, seq: int | None = None,
                origin: str | None = None) -> TableSocket:
        """Her WebSocket at ``table_id`` (with her cookie), welcomed."""
        return TableSocket.open(self.base, table_id, seq=seq, cookie=self.cookie(),
                                origin=origin, label=self.name)


def connect_anonymous(base: str, table_id: str, *, seq: int | None = None) -> TableSocket:
    """A connection without a cookie: a spectator."""
    return TableSocket.open(base, table_id, seq=seq, label="anonymous")


class TableSocket:
    """One table connection: every frame received (``frames``), the last ``seq`` and ``view``."""

    def __init__(self, ws: ClientConnection, label: str = "") -> None:
        self.ws, self.label = ws, label
        self.frames: list[Frame] = []
        self.seq: int | None = None
        self.view: dict[str, Any] | None = None
        self.seat: int | None = None
        self.end_seq: int | None = None  # the "end" event's, once seen
        self.closed = False

    @classmethod
    def open(
        cls, base: str, table_id: str, *, seq: int | None = None, cookie: str | None = None,
        origin: str | None = None, label: str = "", welcome: bool = True,
    ) -> TableSocket:
        headers = {"Cookie": cookie} if cookie else None
        ws = connect(ws_url(base, table_id, seq), additional_headers=headers,
                     origin=origin,  # type: ignore[arg-type]  # a str is what it sends
                     open_timeout=10, max_size=2**24, **LEGACY)
        sock = cls(ws, label)
        if welcome:
            first = sock.until(lambda f: f["type"] == "welcome")
            sock.seat = first["seat"]
        return sock

    # ------------------------------------------------------------ frames

    def _take(self, frame: Frame) -> None:
        self.frames.append(frame)
        if frame["type"] in ("welcome", "update"):
            self.seq = frame["seq"]
            if frame.get("view") is not None or frame["type"] == "welcome":
                self.view = frame["view"]
            for e in frame.get("events") or ():
                if e["kind"] == "end":
                    self.end_seq = e["seq"]
            if frame["type"] == "welcome":
                self.seat = frame["seat"]
                view = frame["view"]
                if view is not None and view["outcome"] is not None and self.end_seq is None:
                    self.end_seq = frame["seq"]  # welcomed after the end

    def recv(self, timeout: float | None = 10) -> Frame | None:
        """The next frame (None: nothing within ``timeout`` seconds)."""
        try:
            text = self.ws.recv(timeout=timeout)
        except TimeoutError:
            return None
        frame: Frame = json.loads(text)
        self._take(frame)
        return frame

    def drain(self, timeout: float = 0.0) -> list[Frame]:
        """The frames that have arrived already (waiting ``timeout`` for the first)."""
        out = []
        frame = self.recv(timeout)
        while frame is not None:
            out.append(frame)
            frame = self.recv(0)
        return out

    def until(self, pred: Callable[[Frame], bool], timeout: float = 15) -> Frame:
        """Read until a frame satisfies ``pred``; return it (AssertionError after ``timeout``)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"{self.label}: no such frame within {timeout} s"
            frame = self.recv(left)
            if frame is not None and pred(frame):
                return frame

    def until_seq(self, seq: int, timeout: float = 15) -> None:
        """Read until the table's sequence number ``seq`` has reached this connection."""
        if self.seq is not None and self.seq >= seq:
            return
        self.until(lambda f: f["type"] in ("welcome", "update") and f["seq"] >= seq, timeout)

    def send(self, message: dict[str, Any] | str | bytes) -> None:
        self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))

    def request(self, message: dict[str, Any], timeout: float = 15) -> Frame:
        """Send a message with an ``id``; its answer (ack or refused)."""
        self.send(message)
        msg_id = message["id"]
        return self.until(lambda f: f["type"] in ("ack", "refused") and f.get("id") == msg_id,
                          timeout)

    def move(self, move: str, *, seq: int | None = None, msg_id: str | None = None,
             synced: bool = True) -> Frame:
        """Send a move (with the last seq seen by default); its answer. ``synced``: after an
        ack, read on until the update of that move has come too."""
        assert seq is not None or self.seq is not None
        message = {"type": "move", "id": msg_id or new_id(),
                   "seq": self.seq if seq is None else seq, "move": move}
        reply = self.request(message)
        for _ in range(20):  # out of credit (a fast game): wait, then send it again
            if reply["type"] != "refused" or reply["code"] != "rate_limited":
                break
            time.sleep(0.2)
            reply = self.request(message)
        if synced and reply["type"] == "ack":
            self.until_seq(reply["seq"])
        return reply

    def chat(self, text: str, msg_id: str | None = None) -> Frame:
        return self.request({"type": "chat", "id": msg_id or new_id("c"), "text": text})

    def ping(self) -> Frame:
        self.send({"type": "ping"})
        return self.until(lambda f: f["type"] in ("pong", "refused"))

    def my_turn(self) -> bool:
        v = self.view
        return (v is not None and v["outcome"] is None and self.seat is not None
                and v["turn"] == self.seat and bool(v["legal"]))

    def events(self) -> list[dict[str, Any]]:
        """Every event received, in order (welcome's missed events and updates')."""
        return [e for f in self.frames if f["type"] in ("welcome", "update")
                for e in f.get("events") or ()]

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.ws.close()

    def close_code(self, timeout: float = 10) -> int | None:
        """Wait for the server to close this connection; its close code."""
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                self.recv(deadline - time.monotonic())
        except ConnectionClosed as e:
            return e.rcvd.code if e.rcvd is not None else None
        raise AssertionError(f"{self.label}: the connection stayed open")


def first_legal(view: dict[str, Any]) -> str:
    move: str = view["legal"][0]["move"]
    return move


def play_to_end(
    players: Sequence[TableSocket],
    choose: Callable[[TableSocket], str] = lambda s: first_legal(s.view or {}),
    *,
    watchers: Sequence[TableSocket] = (),
    timeout: float = 90,
    between: Callable[[int], None] | None = None,
) -> int:
    """Play every seat of ``players`` (each moves when its view says so) until the game
    ends; every socket then reads up to the end. Returns the "end" event's seq.

    ``between(n)`` runs after the n-th move made here (a test may reconnect there).
    """
    deadline = time.monotonic() + timeout
    moved = 0
    while True:
        assert time.monotonic() < deadline, "the game did not end in time"
        ends = [s.end_seq for s in [*players, *watchers] if s.end_seq is not None]
        if ends:
            break
        acted = False
        for sock in players:
            sock.drain()
            if sock.my_turn():
                reply = sock.move(choose(sock))
                assert reply["type"] == "ack", (sock.label, reply)
                moved += 1
                acted = True
                if between is not None:
                    between(moved)
        for sock in watchers:
            sock.drain()
        if not acted and players:
            players[0].drain(0.01)
    end = ends[0]
    for sock in [*players, *watchers]:
        sock.until_seq(end)
    return end


# ---------------------------------------------------------------- checks


def check_sequence(frames: Sequence[Frame]) -> None:
    """Every welcome and update continues the last without a gap: each update's events are
    the next sequence numbers, and its ``seq`` is the last of them."""
    last: int | None = None
    for i, f in enumerate(frames):
        if f["type"] == "welcome":
            events = f["events"]
            if events is not None:
                seqs = [e["seq"] for e in events]
                start = seqs[0] if seqs else f["seq"] + 1
                assert seqs == list(range(start, f["seq"] + 1)), (i, seqs, f["seq"])
                if last is not None:
                    assert start <= last + 1, (i, "a welcome left a gap", last, start)
            last = f["seq"]
        elif f["type"] == "update":
            assert last is not None, "an update before the welcome"
            seqs = [e["seq"] for e in f["events"]]
            assert seqs == list(range(last + 1, last + 1 + len(seqs))), (i, last, seqs)
            assert seqs and f["seq"] == seqs[-1], (i, f["seq"], seqs)
            last = f["seq"]


def check_acks_first(frames: Sequence[Frame]) -> None:
    """The sender hears ``ack`` before the update carrying her event."""
    for i, f in enumerate(frames):
        if f["type"] != "ack" or f.get("duplicate"):
            continue
        carried = [j for j, g in enumerate(frames) if g["type"] == "update"
                   and any(e["seq"] == f["seq"] for e in g["events"])]
        assert carried, f"no update carried event {f['seq']}"
        assert all(j > i for j in carried), f"the update of event {f['seq']} came before its ack"


_TILE = re.compile(r"(?<![\w.-])(\d{1,2})[-:|](\d{1,2})(?![\w-])")


def strings_in(obj: object) -> Iterator[str]:
    """Every string of a JSON value (object keys too)."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield str(k)
            yield from strings_in(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            yield from strings_in(v)


def tiles_in(obj: object, max_pips: int) -> set[Tile]:
    """Every tile of the double-``max_pips`` set named anywhere in a JSON value: in a hand,
    a move (``9-4@3e``), a table or position line, a message."""
    found = set()
    for s in strings_in(obj):
        for m in _TILE.finditer(s):
            a, b = int(m.group(1)), int(m.group(2))
            if max(a, b) <= max_pips:
                found.add(Tile(a, b))
    return found


@dataclass
class Truth:
    """What the server knows of a table: the deal and the log (the database's, never sent)."""

    ruleset: str
    hands: list[set[Tile]]
    events: list[EventRow]
    record: str | None
    seq: int
    placed_at: dict[Tile, int] = field(default_factory=dict)  # tile -> the seq it was placed
    drawn_at: dict[Tile, tuple[int, int]] = field(default_factory=dict)  # tile -> (seat, seq)

    def __post_init__(self) -> None:
        for e in self.events:
            if e.kind != "move":
                continue
            public = json.loads(e.public)
            move = public["move"]
            if move not in ("draw", "pass"):
                self.placed_at[Tile.from_text(move.split("@")[0])] = e.seq
            if e.private is not None:
                drawn = Tile.from_text(json.loads(e.private)["drawn"])
                assert e.seat is not None
                self.drawn_at[drawn] = (e.seat, e.seq)

    def known(self, seat: int | None, seq: int) -> set[Tile]:
        """The tiles ``seat`` (None: a spectator) may have seen named by event ``seq``."""
        out = {t for t, at in self.placed_at.items() if at <= seq}
        if seat is not None:
            out |= self.hands[seat]
            out |= {t for t, (s, at) in self.drawn_at.items() if s == seat and at <= seq}
        return out


def read_truth(store: Store, table_id: str) -> Truth:
    """The table's deal and log as the database holds them (``store``: the server's)."""
    with store.session(write=False) as s:
        row = s.get(TableRow, table_id)
        assert row is not None and row.deal is not None
        events = list(s.scalars(select(EventRow).where(EventRow.table_id == table_id)
                                .order_by(EventRow.seq)))
        s.expunge_all()
        hands = [{Tile.from_text(t) for t in h} for h in json.loads(row.deal)]
        return Truth(row.ruleset, hands, events, row.record, row.seq)


def log_length(store: Store, table_id: str) -> int:
    """How many events the table's log holds in the database."""
    with store.session(write=False) as s:
        return len(s.scalars(select(EventRow.seq).where(EventRow.table_id == table_id)).all())
