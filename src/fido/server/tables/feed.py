"""A table's connections and what each is sent: the welcome, every update in both protocol
versions (docs/protocol.md), each connection's delta bases, and the seat it acts for.

The room decides and then calls the feed (boardgame.io's ``Master`` hands its transport a
function of the seat); the feed never changes the table. It reads the room's state
through :class:`Shown`.

**A seat is its person's.** A connection acts and sees for a seat only while that seat is
held by the connection's person: :func:`holder` of the table's seats, now. The feed
decides it when a connection attaches (under the room's lock), again on every change of
the seats whoever wrote it (:meth:`Feed.reseat`: this process's join or leave, or another
process's read from the log), and once more where a move is played
(:meth:`Feed.seat_for`) and where a view is sent (:meth:`Feed.broadcast`). A connection
whose seat changed is sent a new welcome at once, as its new seat (or as a spectator),
before any update: it never receives a frame built for a seat that is not hers.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any, Protocol

import orjson

from fido.delta import diff
from fido.engine.game import Game
from fido.engine.tiles import Tile
from fido.engine.views import SeatView
from fido.position import view_text
from fido.server.protocol import encode
from fido.server.tables.kinds import Kind
from fido.server.tables.types import Conn, Event, SeatInfo
from fido.server.wire import TableDrawing, public_json, seat_json, turn_json

__all__ = ["CATCH_UP", "LAYOUT_IN_THREAD", "Feed", "Shown", "holder"]

CATCH_UP = 300  # a client further behind than this many events gets a fresh view
LAYOUT_IN_THREAD = 30  # tiles on the table from which the layout runs in a worker thread


class Shown(Protocol):
    """What the feed reads of its room: the log, the game, the seats, the table's info."""

    seq: int
    log: list[Event]
    game: Game | None
    seats: list[SeatInfo]

    def info(self) -> dict[str, Any]: ...


def holder(seats: list[SeatInfo], account_id: int | None) -> int | None:
    """The seat ``account_id``'s person holds now (None: she holds none, or no account)."""
    return _holders(seats).get(account_id) if account_id is not None else None


def _heard(conn: Conn, events: list[Event]) -> list[Event]:
    """The events this connection is sent: all but the chat of those its person blocks
    (docs/people.md; a connection with none blocked gets the list as it is)."""
    if not conn.muted:
        return events
    return [e for e in events if not (e.kind == Kind.CHAT and e.account_id in conn.muted)]


def _holders(seats: list[SeatInfo]) -> dict[int, int]:
    """Every seated person's seat, by account (her first, should she hold two)."""
    out: dict[int, int] = {}
    for i, s in enumerate(seats):
        if s.kind == "person" and s.account_id is not None:
            out.setdefault(s.account_id, i)
    return out


class Feed:
    """The connections of one table in this process (see the module's docstring)."""

    def __init__(self, shown: Shown) -> None:
        self.shown = shown
        self.conns: set[Conn] = set()
        self.drawing = TableDrawing()  # the layout, shared by every view of a broadcast
        # a seat's hand and its rows as last sent (the rows change once a hand changes)
        self._rows: dict[int | None, tuple[tuple[Tile, ...], list[dict[str, Any]]]] = {}

    # ------------------------------------------------------------ who is here

    def attach(self, conn: Conn, since: int | None) -> None:
        """Take ``conn`` in as the seat its person holds now, and welcome it (with what it
        missed after ``since``). The caller holds the room's lock."""
        conn.send(self.welcome(conn, since))  # as the seat its person holds now
        self.conns.add(conn)

    def detach(self, conn: Conn) -> None:
        self.conns.discard(conn)

    def seats_here(self) -> set[int]:
        """The seats with a connection of their person in this process."""
        return {c.seat for c in self.conns if c.seat is not None}

    def seat_for(self, conn: Conn) -> int | None:
        """The seat ``conn`` acts for now (its person's, else None): checked where a move
        is played; a connection found on a seat not its person's is welcomed anew."""
        seat = holder(self.shown.seats, conn.account_id)
        if seat != conn.seat:
            self._reseat(conn, seat)
        return seat

    def reseat(self) -> None:
        """The seats changed (a join, a leave, another process's write): every connection
        whose person's seat is not the one it acts for is welcomed anew as hers (a seat
        she took, or a spectator's view when she left hers)."""
        holders = _holders(self.shown.seats)
        for conn in list(self.conns):
            seat = holders.get(conn.account_id) if conn.account_id is not None else None
            if seat != conn.seat:
                self._reseat(conn, seat)

    def _reseat(self, conn: Conn, seat: int | None) -> None:
        """Welcome ``conn`` anew as ``seat`` (its person's now), with what it missed."""
        since = conn.seq
        conn.seat = seat
        conn.public = conn.mine = conn.table = None  # no base of the seat it had
        conn.send(self.welcome(conn, since))

    def close_all(self) -> None:
        for conn in list(self.conns):
            conn.close()

    # ------------------------------------------------------------ views

    def _seat_view(self, seat: int | None) -> SeatView | None:
        """What ``seat`` sees now, without the history (a spectator's for None)."""
        game = self.shown.game
        if game is None:
            return None
        return game.view(seat, history=False) if seat is not None else game.spectator_view(
            history=False)

    def _view(self, seat: int | None, public: dict[str, Any] | None, *,
              history: bool = False) -> dict[str, Any] | None:
        """Version 1's view of ``seat``: the shared part (``public``, built once a
        broadcast) and the seat's own, with the position line and, when asked, the
        history."""
        view = self._seat_view(seat)
        if public is None or view is None:
            return None
        out = {"position": view_text(view)} | public | self._mine(seat, view)
        if history:
            out["history"] = self._history(seat)
        return out

    def _history(self, seat: int | None) -> list[dict[str, Any]]:
        game = self.shown.game
        assert game is not None
        view = game.view(seat) if seat is not None else game.spectator_view()
        return [turn_json(t, view.rules) for t in view.history]

    def _public(self) -> dict[str, Any] | None:
        """The part every view of this move shares: the spectator's view, which holds
        nothing hidden (no key of it is kept by hand)."""
        game = self.shown.game
        if game is None:
            return None
        return public_json(game.spectator_view(history=False),
                           self.drawing.json(game.table, game.rules.max_pips))

    def _mine(self, seat: int | None, view: SeatView) -> dict[str, Any]:
        """The seat's own part of its view (a spectator's: no hand, no moves)."""
        kept = self._rows.get(seat)
        mine = seat_json(view, kept[1] if kept is not None and kept[0] == view.hand else None)
        self._rows[seat] = (view.hand, mine["hand_rows"])  # a hand changes once a round
        return mine

    async def lay_out(self) -> None:
        """Lay out the table for the coming views in a worker thread once it is big: a
        re-layout of a late double-18 table can take a few hundred ms, which would stop
        every other table on this event loop (docs/performance.md, "Table layout")."""
        game = self.shown.game
        if game is not None and len(game.table.placements) >= LAYOUT_IN_THREAD:
            await asyncio.to_thread(self.drawing.json, game.table, game.rules.max_pips)

    # ------------------------------------------------------------ frames

    def welcome(self, conn: Conn, since: int | None) -> dict[str, Any]:
        """What a connection gets first (and after a ``sync``, or a change of its seat):
        its seat, the table, the view, what it missed. Version 2: the view without the
        position line and history, which stand beside it; the view and table it is sent
        become the base of its next delta."""
        shown = self.shown
        seat = conn.seat = holder(shown.seats, conn.account_id)  # hers, now
        missed: list[dict[str, Any]] | None = None
        if since is not None and 0 <= since <= shown.seq and shown.seq - since <= CATCH_UP:
            missed = [e.for_seat(seat) for e in _heard(conn, shown.log[since:])]
        info = shown.info()
        conn.seq = shown.seq
        public, view = self._public(), self._seat_view(seat)
        if conn.protocol == 1:
            return {
                "type": "welcome", "seat": seat, "seq": shown.seq, "table": info,
                "view": self._view(seat, public, history=missed is None), "events": missed,
            }
        mine = self._mine(seat, view) if view is not None else None
        info.pop("seq")  # the frame's own
        conn.table, conn.public, conn.mine = info, public, mine
        return {
            "type": "welcome", "protocol": 2, "seat": seat, "seq": shown.seq,
            "table": info, "view": public | mine if public is not None and mine else None,
            "position": view_text(view) if view is not None else None,
            "history": self._history(seat) if view is not None and missed is None else None,
            "events": missed,
        }

    def broadcast(self, events: Iterable[Event]) -> None:
        """Send every connection its update: one frame per seat (and one for the
        spectators), encoded once, the shared part of the views built once (version 1:
        the table's part encoded once). Version 2: what changed since the view and table
        that connection was last sent (:func:`fido.delta.diff` between the engine's
        views), the shared part compared once for everyone, each seat's own once a seat.
        Each connection's seat is its person's, checked here against the seats: one that
        changed is welcomed anew instead (it then has these events)."""
        events = list(events)
        shown = self.shown
        seq = shown.seq
        holders = _holders(shown.seats)
        info = shown.info()
        table2 = {k: v for k, v in info.items() if k != "seq"}
        frames: dict[int | None, str] = {}
        table1: orjson.Fragment | None = None  # version 1's table, encoded once for all
        public: dict[str, Any] | None = None
        public_deltas: dict[int, dict[str, Any]] = {}
        mine: dict[int | None, dict[str, Any] | None] = {}
        deltas: dict[tuple[int | None, int, int, int], str] = {}
        for conn in list(self.conns):
            seat = holders.get(conn.account_id) if conn.account_id is not None else None
            if seat != conn.seat:
                self._reseat(conn, seat)
                continue
            if conn.seq >= seq:  # welcomed at this event already
                continue
            conn.seq = seq
            heard = _heard(conn, events)  # the chat of those she blocks left out
            muted = len(heard) != len(events)
            if public is None:
                public = self._public()
            if conn.protocol == 1:
                frame = None if muted else frames.get(seat)
                if frame is None:
                    if table1 is None:
                        table1 = orjson.Fragment(encode(info))
                    frame = encode({
                        "type": "update", "seq": seq, "table": table1,
                        "events": [e.for_seat(seat) for e in heard],
                        "view": self._view(seat, public)})
                    if not muted:
                        frames[seat] = frame
                conn.send_text(frame)
                continue
            if seat not in mine:
                view = self._seat_view(seat)
                mine[seat] = self._mine(seat, view) if view is not None else None
            new_mine = mine[seat]
            key = (seat, id(conn.public), id(conn.mine), id(conn.table))
            frame = None if muted else deltas.get(key)
            if frame is None:
                update: dict[str, Any] = {"type": "update", "seq": seq,
                                          "events": [e.for_seat(seat) for e in heard]}
                if conn.table is None:
                    update["table"] = table2
                elif conn.table != table2:
                    update["table_delta"] = diff(conn.table, table2)
                if public is None or new_mine is None:  # no game yet
                    update["view"] = None
                elif conn.public is None or conn.mine is None:  # its first view
                    update["view"] = public | new_mine
                else:
                    shared = public_deltas.get(id(conn.public))
                    if shared is None:
                        shared = public_deltas[id(conn.public)] = diff(conn.public, public)
                    update["delta"] = shared | diff(conn.mine, new_mine)
                frame = encode(update)
                if not muted:
                    deltas[key] = frame
            conn.send_text(frame)
            conn.public, conn.mine, conn.table = public, new_mine, table2
