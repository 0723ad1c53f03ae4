"""A live table: its game in memory and its decisions (moves, chat, seats, presence, the
timer), over its log in the database (:mod:`~fido.server.tables.log`).

One :class:`Room` per table in each server process. Everything that changes a table
goes through :meth:`Room._commit` under the room's lock: the new events and the table's
new state are written in one transaction, which first locks the table's row and checks
that its sequence number is the one this process knows (another process may have written
since: then this one reads the log, catches up, and judges the message again). Only
after the commit is the sender acknowledged and every connection sent its update, each
built from ``game.view(seat)`` (:mod:`fido.server.wire`). A room is given only what it
uses (:class:`RoomContext`), not the hub that holds it.

The deal is made by the operating system's random source when the last seat is taken;
the stock has no order: each draw picks its tile when it happens (explicit chance). The
deal is stored for the replay of the log after a restart and never sent.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from fido.accounts.names import name_key
from fido.client import diff
from fido.errors import FidoError, IllegalMoveError
from fido.game import Game
from fido.i18n import _, ngettext
from fido.moves import Move
from fido.rules import Ruleset
from fido.server.errors import ApiError
from fido.server.protocol import ChatIn, MoveIn, Reason, encode
from fido.server.tables import matches, refusals
from fido.server.tables.ending import game_record, ranking_result
from fido.server.tables.log import Loaded, SeatsChange, TableLog
from fido.server.tables.timers import next_timer
from fido.server.tables.types import Behind, Conn, Event, Refusal, SeatInfo, display_name
from fido.server.wire import PUBLIC_KEYS, TableDrawing, public_json, seat_json, turn_json, view_json
from fido.store import Account, SeatRow, Store, TableRow
from fido.tiles import Tile

if TYPE_CHECKING:
    from fido.server.botpool import BotPool
    from fido.server.settings import PlaySettings

__all__ = ["CATCH_UP", "CHAT_PER_PERSON", "Room", "RoomContext"]

log = logging.getLogger("fido.server")

CATCH_UP = 300  # a client further behind than this many events gets a fresh view
CHAT_PER_PERSON = 200  # chat lines one person may write at one table (its log is kept)
REMEMBERED = 2000  # refused message ids remembered per table (a resend gets the same answer)
LAYOUT_IN_THREAD = 30  # tiles on the table from which the layout runs in a worker thread
_T = TypeVar("_T")
_SYSTEM = random.SystemRandom()  # deals come from the operating system's random source


@dataclass(frozen=True)
class RoomContext:
    """What a room uses of the server: the store, how it plays, the bots, and whom to
    tell that its game is over (the hub lets it go)."""

    store: Store
    settings: PlaySettings
    bots: BotPool
    finished: Callable[[Room], None]
    opened: Callable[[str], Awaitable[object]] | None = None  # load a new table's room


class Room:
    """A table live in this process (see the module's docstring)."""

    def __init__(self, context: RoomContext, table_id: str) -> None:
        self.context, self.id = context, table_id
        self.table_log = TableLog(context.store, table_id)
        self.lock = asyncio.Lock()
        self.conns: set[Conn] = set()
        self.log: list[Event] = []
        self.game: Game | None = None
        self.seq = 0
        self.move_seq = 0
        self.status = "open"
        self.seats: list[SeatInfo] = []
        self.rules: Ruleset | None = None
        self.players = 0
        self.clock: int | None = None
        self.grace = 60
        self.rated = False
        self.private = False
        self.invite = ""
        self.deadline: float | None = None
        self.away: dict[int, float] = {}  # seat -> since when (Unix seconds)
        self.accepted: dict[tuple[int | None, str], int] = {}  # (account, message id) -> seq
        self.refused: OrderedDict[tuple[int | None, str], Refusal] = OrderedDict()
        self.timer: asyncio.Task[None] | None = None
        self.record: str | None = None
        self._deal: str | None = None
        self._stock_order: list[Tile] | None = None  # a duplicate deal's (see _dealt)
        self._drawing = TableDrawing()  # the layout, shared by every view of a broadcast
        self._rows: dict[int | None, tuple[tuple[Tile, ...], list[dict[str, Any]]]] = {}
        # a hand of a match (its running totals), and what comes after the end: the
        # next hand's or the rematch's table, and who said yes to playing again
        self.match_id: str | None = None
        self.hand: int | None = None
        self.match: dict[str, Any] | None = None
        self.created_by: int | None = None
        self.next_table: str | None = None
        self.again: dict[int, bool] = {}  # seat -> she asked for bots in the empty seats
        self._after: asyncio.Task[None] | None = None
        self._rematching = False  # a rematch's table is being made

    # ------------------------------------------------------------ loading

    async def load(self, *, restarted: bool = False) -> None:
        """Read the table and its whole log and rebuild the game by replaying it.

        ``restarted``: the process has just started, so no one is connected to
        it: every person the log has present is written away (a process that
        still serves her answers with "back": :meth:`_refute`), every person is
        away from now for this process's timers, and every clock gets the
        restart grace.
        """
        loaded = await asyncio.to_thread(self.table_log.read, 0)
        if loaded.row.match_id is not None:
            self.match = await asyncio.to_thread(matches.read, self.context.store,
                                                 loaded.row.match_id, loaded.row.hand)
        async with self.lock:
            self._take_row(loaded)
            self.log = []
            self.game = None
            self._apply_events(loaded.events)
            if restarted and self.status in ("open", "running"):
                for seat, info in enumerate(self.seats):
                    if info.kind == "person":
                        await self._presence(seat, "away")
                now = time.time()  # a full grace from now; not for those back meanwhile
                self.away = dict.fromkeys(self.away, now)
                if self.deadline is not None:
                    self.deadline = max(self.deadline, now + self.context.settings.restart_grace)
            self._schedule()

    def _take_row(self, loaded: Loaded) -> None:
        row = loaded.row
        self.status, self.players, self.clock, self.grace = (
            row.status, row.players, row.clock, row.grace)
        self.rated, self.private, self.invite = row.rated, row.private, row.invite
        self.rules = Ruleset.from_text(row.ruleset)
        self.seats = loaded.seats
        self.deadline = row.deadline
        self.record = row.record
        self._deal = row.deal
        self.match_id, self.hand, self.created_by = row.match_id, row.hand, row.created_by

    def _apply_events(self, events: list[Event]) -> None:
        """Events written (by this process or another) applied to the memory state."""
        for e in events:
            if e.seq != self.seq + 1:
                raise RuntimeError(f"table {self.id}: event {e.seq} after {self.seq}")
            if e.kind == "start" and self.game is None:
                self.game = self._dealt()
            elif e.kind == "move":
                game = self.game
                assert game is not None
                game.push(Move.from_text(e.public["move"]), seat=e.seat)
                if game.chance is not None:
                    assert e.private is not None
                    game.apply_chance(Tile.from_text(e.private["drawn"]))
                self.move_seq = e.seq
            elif e.kind == "away" and e.seat is not None:
                self.away[e.seat] = e.at
            elif e.kind == "back" and e.seat is not None:
                self.away.pop(e.seat, None)
            elif e.kind == "again" and e.seat is not None:
                self.again[e.seat] = bool(e.public.get("bots"))
            elif e.kind == "next":
                self.next_table = e.public["table"]
            if e.msg_id is not None:
                self.accepted[(e.account_id, e.msg_id)] = e.seq
            self.log.append(e)
            self.seq = e.seq

    def _dealt(self) -> Game:
        """The game as dealt: ``deal`` is the hands (the stock has no order, every draw
        is drawn when it happens), or for a duplicate event's table the hands and the
        stock's order, the same at every table of the round."""
        assert self.rules is not None and self._deal is not None
        data = json.loads(self._deal)
        dealt = data["hands"] if isinstance(data, dict) else data
        self._stock_order = ([Tile.from_text(t) for t in data["stock"]]
                             if isinstance(data, dict) else None)
        hands = [[Tile.from_text(t) for t in h] for h in dealt]
        held = {t for h in hands for t in h}
        rest = [t for t in self.rules.dominoes if t not in held]
        return Game.from_deal(self.rules, hands, rest, explicit_chance=True)

    async def refresh(self, seq: int | None = None) -> None:
        """Another process wrote to this table (up to event ``seq``, if known): read
        the new events and pass them on."""
        if seq is not None and seq <= self.seq:
            return  # this process wrote it (or has read it): nothing to read
        async with self.lock:
            if seq is None or seq > self.seq:
                await self._catch_up()

    async def _catch_up(self) -> None:
        loaded = await asyncio.to_thread(self.table_log.read, self.seq)
        if not loaded.events:
            return
        ended = self.status != "finished" and loaded.row.status == "finished"
        self._take_row(loaded)
        new = loaded.events
        self._apply_events(new)
        if ended and self.match_id is not None:  # another process counted the hand
            self.match = await asyncio.to_thread(matches.read, self.context.store,
                                                 self.match_id, self.hand)
        await self._lay_out()
        self._broadcast(new)
        self._schedule()
        await self._refute(new)

    async def _refute(self, events: list[Event]) -> None:
        """Another process wrote a seat away (it has just started, so no one is
        connected to it) while she is connected here: she is back."""
        for seat in dict.fromkeys(e.seat for e in events if e.kind == "away"):
            if seat is not None and any(c.seat == seat for c in self.conns):
                await self._presence(seat, "back")

    # ------------------------------------------------------------ writing

    async def _commit(
        self, events: list[Event], update: dict[str, Any] | None = None,
        seats: SeatsChange | None = None,
    ) -> None:
        """Write ``events`` and ``update`` in one transaction (raises :class:`Behind`):
        here when the store writes without waiting (SQLite, nobody else writing: a
        commit costs less than the hop to a thread), else in a worker thread."""
        if seats is None and self.table_log.write_now(self.seq, events, update or {}):
            return
        await asyncio.to_thread(self.table_log.write, self.seq, events, update or {}, seats)

    def _new(self, kind: str, seat: int | None, public: dict[str, Any], **more: Any) -> Event:
        return Event(self.seq + 1, kind, seat, public, **more)

    # ------------------------------------------------------------ sending

    def info(self) -> dict[str, Any]:
        """The table as everyone may see it."""
        return {
            "id": self.id, "ruleset": self.rules.text() if self.rules else "",
            "players": self.players, "status": self.status, "rated": self.rated,
            "private": self.private, "clock": self.clock, "grace": self.grace,
            "deadline": self.deadline, "stand_in_at": self._stand_in_at(),
            "seats": [s.public() | {"away": i in self.away} for i, s in enumerate(self.seats)],
            "seq": self.seq, "finished": self.record is not None,
            "match": self.match, "next": self.next_table,
            "again": self._again_info(),
        }

    def _stand_in_at(self) -> float | None:
        """When the stand-in plays for the person to move (Unix seconds): her clock's end,
        or the end of her grace while she is away, whichever comes first (the page counts
        down to it on her seat); None when nobody will play for her."""
        game = self.game
        if self.status != "running" or game is None or game.outcome is not None:
            return None
        seat = game.turn
        if self.seats[seat].kind != "person":
            return None
        ends = [self.deadline] if self.deadline is not None else []
        if seat in self.away:
            ends.append(self.away[seat] + self.grace)
        return round(min(ends), 3) if ends else None

    def _view(self, seat: int | None, *, history: bool = False,
              position: bool = True) -> dict[str, Any] | None:
        if self.game is None:
            return None
        game = self.game
        view = game.view(seat) if seat is not None else game.spectator_view()
        drawing = self._drawing.json(game.table, game.rules.max_pips)
        return view_json(view, history=history, layout=drawing, position=position)

    def _public(self) -> dict[str, Any] | None:
        """The part every view of this move shares, from the spectator's view."""
        if self.game is None:
            return None
        game = self.game
        return public_json(game.spectator_view(history=False),
                           self._drawing.json(game.table, game.rules.max_pips))

    def _mine(self, seat: int | None) -> dict[str, Any] | None:
        """The seat's own part of its view (a spectator's: no hand, no moves)."""
        if self.game is None:
            return None
        game = self.game
        view = (game.view(seat, history=False) if seat is not None
                else game.spectator_view(history=False))
        kept = self._rows.get(seat)
        mine = seat_json(view, kept[1] if kept is not None and kept[0] == view.hand else None)
        self._rows[seat] = (view.hand, mine["hand_rows"])  # a hand changes once a round
        return mine

    def welcome(self, conn: Conn, since: int | None) -> dict[str, Any]:
        """What a connection gets first: its seat, the table, the view, what it missed.
        Version 2: the view without the position line and history, which stand beside
        it, and the view and table it is sent become the base of its next delta."""
        missed: list[dict[str, Any]] | None = None
        if since is not None and 0 <= since <= self.seq and self.seq - since <= CATCH_UP:
            missed = [e.for_seat(conn.seat) for e in self.log[since:]]
        info = self.info()
        if conn.protocol == 1:
            return {
                "type": "welcome", "seat": conn.seat, "seq": self.seq, "table": info,
                "view": self._view(conn.seat, history=missed is None), "events": missed,
            }
        full = self._view(conn.seat, history=missed is None)
        position = full.pop("position") if full is not None else None
        history = full.pop("history", None) if full is not None else None
        info.pop("seq")  # the frame's own
        conn.table = info
        conn.public = {k: v for k, v in full.items() if k in PUBLIC_KEYS} if full else None
        conn.mine = {k: v for k, v in full.items() if k not in PUBLIC_KEYS} if full else None
        return {
            "type": "welcome", "protocol": 2, "seat": conn.seat, "seq": self.seq,
            "table": info, "view": full, "position": position, "history": history,
            "events": missed,
        }

    async def _lay_out(self) -> None:
        """Lay out the table for the coming views in a worker thread once it is big: a
        re-layout of a late double-18 table can take a few hundred ms, which would stop
        every other table on this event loop (docs/performance.md, "Table layout")."""
        game = self.game
        if game is not None and len(game.table.placements) >= LAYOUT_IN_THREAD:
            await asyncio.to_thread(self._drawing.json, game.table, game.rules.max_pips)

    def _broadcast(self, events: list[Event]) -> None:
        """Send every connection its update: one frame per seat (and one for the
        spectators), encoded once, the table's part once for all of them. Version 2:
        what changed since the view and table that connection was last sent
        (:func:`fido.client.diff` between the engine's views), the part every view
        shares (:func:`~fido.server.wire.public_json`) built and compared once for
        everyone, each seat's own (:func:`~fido.server.wire.seat_json`) once a seat."""
        info = self.info()
        head = ""  # version 1's frame start, the table encoded once (if anyone speaks it)
        frames: dict[int | None, str] = {}
        public: dict[str, Any] | None = None
        public_deltas: dict[int, dict[str, Any]] = {}
        mine: dict[int | None, dict[str, Any] | None] = {}
        deltas: dict[tuple[int | None, int, int, int], str] = {}
        table2 = {k: v for k, v in info.items() if k != "seq"}
        for conn in list(self.conns):
            seat = conn.seat
            if conn.protocol == 1:
                frame = frames.get(seat)
                if frame is None:
                    if not head:
                        head = (f'{{"type":"update","seq":{self.seq},'
                                f'"table":{encode(info)},')
                    rest = encode({"events": [e.for_seat(seat) for e in events],
                                   "view": self._view(seat)})
                    frame = frames[seat] = head + rest[1:]
                conn.send_text(frame)
                continue
            if public is None:
                public = self._public()
            if seat not in mine:
                mine[seat] = self._mine(seat)
            new_mine = mine[seat]
            key = (seat, id(conn.public), id(conn.mine), id(conn.table))
            frame = deltas.get(key)
            if frame is None:
                update: dict[str, Any] = {"type": "update", "seq": self.seq,
                                          "events": [e.for_seat(seat) for e in events]}
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
                frame = deltas[key] = encode(update)
            conn.send_text(frame)
            conn.public, conn.mine, conn.table = public, new_mine, table2

    # ------------------------------------------------------------ moves

    def _remembered(self, key: tuple[int | None, str], msg_id: str) -> dict[str, Any] | None:
        if key in self.accepted:
            return {"type": "ack", "id": msg_id, "seq": self.accepted[key], "duplicate": True}
        refusal = self.refused.get(key)
        if refusal is not None:
            return refusal.message_for(msg_id) | {"duplicate": True}
        return None

    def _remember(self, key: tuple[int | None, str], refusal: Refusal) -> None:
        self.refused[key] = refusal
        while len(self.refused) > REMEMBERED:
            self.refused.popitem(last=False)

    def _check_move(self, seat: int | None, seq: int) -> Refusal | None:
        if seat is None:
            return Refusal(Reason.NOT_SEATED, _("spectators cannot move"))
        if self.status == "open":
            return Refusal(Reason.NOT_STARTED, _("the game has not started: seats are open"))
        if self.game is None or self.game.outcome is not None or self.status != "running":
            return Refusal(Reason.GAME_OVER, _("the game is over"))
        if seq > self.seq:
            return Refusal(Reason.BAD_SEQ, _("this table has reached event {seq}, not {sent}")
                           .format(seq=self.seq, sent=seq))
        if seat != self.game.turn:
            return Refusal(Reason.NOT_YOUR_TURN,
                           _("it is seat {seat}'s turn").format(seat=self.game.turn))
        if seq < self.move_seq:
            return Refusal(
                Reason.STALE, _("event {seq} changed the game after the {seen} you saw")
                .format(seq=self.move_seq, seen=seq)
            )
        return None

    async def move(self, conn: Conn, msg: MoveIn) -> str:
        """A person's move: refused with a reason, or committed, acknowledged, broadcast;
        the outcome (accepted, refused, or duplicate: a resent move answered again)."""
        key = (conn.account_id, msg.id)
        async with self.lock:
            for _attempt in range(3):
                old = self._remembered(key, msg.id)
                if old is not None:
                    conn.send(old)
                    return "duplicate"
                refusal = self._check_move(conn.seat, msg.seq)
                if refusal is None:
                    try:
                        move = Move.from_text(msg.move)
                    except FidoError:
                        refusal = Refusal(Reason.ILLEGAL, refusals.not_a_move(msg.move))
                if refusal is not None:
                    self._remember(key, refusal)
                    conn.send(refusal.message_for(msg.id))
                    return "refused"
                try:
                    events = await self._play(conn.seat, move, "player", conn.account_id, msg.id)
                except Behind:
                    await self._catch_up()
                    continue
                if isinstance(events, Refusal):
                    if events.code is not Reason.UNAVAILABLE:
                        self._remember(key, events)
                    conn.send(events.message_for(msg.id))
                    return "refused"
                self.accepted[key] = events[0].seq
                conn.send({"type": "ack", "id": msg.id, "seq": events[0].seq})
                await self._lay_out()
                self._broadcast(events)
                self._schedule()
                return "accepted"
            busy = Refusal(Reason.UNAVAILABLE, _("the table is busy: try again"))
            conn.send(busy.message_for(msg.id))
            return "refused"

    async def _play(
        self, seat: int | None, move: Move, by: str, account: int | None, msg_id: str | None
    ) -> list[Event] | Refusal:
        """Push, write, and on any failure take back: the memory follows the database."""
        game = self.game
        assert game is not None
        try:
            game.push(move, seat=seat)
        except IllegalMoveError:  # the engine's reason is English: the table says its own
            return Refusal(Reason.ILLEGAL, refusals.illegal(game, move))
        try:
            events, update, record = await self._write_move(game, seat, by, account, msg_id)
        except Behind:
            game.pop()
            raise
        except SQLAlchemyError as e:
            game.pop()
            log.error("table %s: write failed: %s", self.id, type(e).__name__)
            return Refusal(Reason.UNAVAILABLE, _("the move could not be saved: try again"))
        except Exception:  # anything after the push (the record, the ranking): taken back
            game.pop()
            log.exception("table %s: the move could not be written", self.id)
            return Refusal(Reason.UNAVAILABLE, _("the move could not be saved: try again"))
        except BaseException:  # cancelled (the process stops): the write may still end in
            game.pop()  # its thread; the log, read again, says whether it did
            raise
        first = events[0]
        outcome = game.outcome
        self.log.extend(events)
        self.seq = events[-1].seq
        self.move_seq = first.seq
        self.deadline = update.get("deadline")
        if outcome is not None:
            self.status, self.record = "finished", record
            self._hand_ended(list(outcome.match_points))
            self.context.finished(self)
        return events

    async def _write_move(
        self, game: Game, seat: int | None, by: str, account: int | None, msg_id: str | None
    ) -> tuple[list[Event], dict[str, Any], str | None]:
        """The pushed move's draw, events, record and ranking, written in one transaction
        (the caller takes the move back if any of it fails)."""
        drawn: Tile | None = None
        chance = game.chance
        if chance is not None:
            if self._stock_order is None:
                drawn = secrets.choice(chance.tiles)  # the operating system's random source
            else:  # a duplicate deal: the stock's own order
                drawn = next(t for t in self._stock_order if t in chance.tiles)
            game.apply_chance(drawn)
        turn = game.last_turn()  # not history()[-1]: that rebuilds every turn of the game
        assert turn is not None
        first = self._new(
            "move", seat, turn_json(turn, game.rules) | {"by": by},
            private={"drawn": drawn.text()} if drawn is not None else None,
            account_id=account, msg_id=msg_id,
        )
        first.public.pop("drawn", None)
        events = [first]
        update: dict[str, Any] = {"move_seq": first.seq}
        outcome = game.outcome
        record: str | None = None
        if outcome is not None:
            record = game_record(game, self.seats, self.id)
            events.append(Event(first.seq + 1, "end", None, {"outcome": outcome.to_dict()}))
            update |= {"status": "finished", "record": record, "deadline": None,
                       "finished_at": dt.datetime.now(dt.UTC)}
        else:
            deadline = self._deadline_for(game.turn)
            update["deadline"] = deadline
        extra = None
        if outcome is not None and self.rated:
            assert record is not None and self.rules is not None
            extra = ranking_result(self.id, record, self.rules, outcome, self.seats)
        if outcome is not None and self.match_id is not None and self.hand is not None:
            extra = _both(extra, matches.count_hand(self.match_id, self.hand,
                                                    list(outcome.match_points)))
        await self._commit(events, update, extra)
        return events, update, record

    def _deadline_for(self, seat: int) -> float | None:
        if self.clock is None or self.seats[seat].kind != "person":
            return None
        return time.time() + self.clock

    # ------------------------------------------------------------ chat

    async def chat(self, conn: Conn, msg: ChatIn, text_: str) -> None:
        key = (conn.account_id, msg.id)
        async with self.lock:
            old = self._remembered(key, msg.id)
            if old is not None:
                conn.send(old)
                return
            written = sum(1 for e in self.log if e.kind == "chat"
                          and e.account_id == conn.account_id)
            if written >= CHAT_PER_PERSON:  # the table's log is everyone's, and kept
                conn.send(Refusal(Reason.RATE_LIMITED, ngettext(
                    "you have written {n} line at this table: it keeps no more of yours",
                    "you have written {n} lines at this table: it keeps no more of yours",
                    written).format(n=written)).message_for(msg.id))
                return
            event = await self._append(lambda: self._new(
                "chat", conn.seat, {"name": conn.name, "text": text_},
                account_id=conn.account_id, msg_id=msg.id))
            if event is None:
                conn.send(Refusal(Reason.UNAVAILABLE, _("try again")).message_for(msg.id))
                return
            conn.send({"type": "ack", "id": msg.id, "seq": event.seq})
            self._broadcast([event])

    # ------------------------------------------------------------ presence

    async def attach(self, conn: Conn, since: int | None = None) -> None:
        """Welcome ``conn`` (with what it missed after ``since``) and send it every update."""
        async with self.lock:
            if since is not None and since > self.seq:
                await self._catch_up()  # she saw another process's commits not read yet
            conn.send(self.welcome(conn, since))
            self.conns.add(conn)
            if conn.seat is not None and conn.seat in self.away:
                await self._presence(conn.seat, "back")

    async def detach(self, conn: Conn) -> None:
        async with self.lock:
            self.conns.discard(conn)
            seat = conn.seat
            if (seat is not None and self.status in ("open", "running")
                    and not any(c.seat == seat for c in self.conns) and seat not in self.away):
                await self._presence(seat, "away")
            if not self.conns and self.status in ("finished", "abandoned"):
                self.context.finished(self)
            elif self.status == "finished" and self.again and seat is not None:
                # she left without a yes: the others' may now be everyone's
                self._after = asyncio.create_task(self._rematch_later())

    async def _presence(self, seat: int, kind: str) -> None:
        def make() -> Event | None:
            # so already (another process may have written it meanwhile): nothing to say
            return None if (seat in self.away) == (kind == "away") else self._new(kind, seat, {})

        # presence is advisory: one lost to the store is corrected by the next
        event = await self._append(make, tries=3)
        if event is not None:
            self._broadcast([event])
            self._schedule()

    async def _append(self, make: Callable[[], Event | None], tries: int = 2) -> Event | None:
        """Commit and apply the one event ``make`` gives (made again after catching up
        with another process's writes); None when ``make`` has nothing to say or the
        store stays busy or unavailable. The caller acknowledges, then broadcasts."""
        for _attempt in range(tries):
            event = make()
            if event is None:
                return None
            try:
                await self._commit([event])
            except Behind:
                await self._catch_up()
                continue
            except SQLAlchemyError:
                return None
            self._apply_events([event])
            return event
        return None

    async def absent_away(self) -> None:
        """Every person not connected here is away from now: an event's round starts
        whether its players are there or not, and after the grace the stand-in plays."""
        async with self.lock:
            for seat, info in enumerate(self.seats):
                if info.kind == "person" and not any(c.seat == seat for c in self.conns):
                    await self._presence(seat, "away")

    # ------------------------------------------------------------ seats

    async def join(self, account: Account, seat: int | None, invite: str | None) -> int:
        """Seat ``account`` (a free or reserved-for-her seat); deal when the last one fills.
        Another process may seat someone first (people of one table on several server
        processes): then this one reads what it wrote and judges the request again."""
        async with self.lock:
            return await self._judged_again(lambda: self._join(account, seat, invite))

    async def _join(self, account: Account, seat: int | None, invite: str | None) -> int:
        """:meth:`join`, under the lock and caught up (:class:`Behind`: judge it again)."""
        if self.status != "open":
            raise ApiError(409, "started", _("the game has started: you can watch it"))
        if any(s.account_id == account.id and s.kind == "person" for s in self.seats):
            raise ApiError(409, "seated", _("you already have a seat at this table"))
        key = name_key(account.name) if account.name else None
        free = [i for i, s in enumerate(self.seats)
                if s.kind == "open" or (s.kind == "reserved" and key == s.reserved_for)]
        mine = [i for i in free if self.seats[i].kind == "reserved"]
        if self.private and invite != self.invite and not mine:
            raise ApiError(403, "invitation", _("this table is private: open its invite link"))
        if seat is None:
            if not free:
                raise ApiError(409, "full", _("no seat is free for you at this table"))
            seat = (mine or free)[0]
        elif not 0 <= seat < self.players:
            raise ApiError(422, "invalid", _("seats are 0 to {last}").format(last=self.players - 1))
        elif seat not in free:
            raise ApiError(409, "taken", _("seat {seat} is not free for you").format(seat=seat))
        if self.rated and (account.guest or account.player_id is None):
            raise ApiError(403, "unrated", _("a rated table needs an account linked to a "
                                             "ranking player: ask the federation for yours "
                                             "(PUT /api/account/player)"))
        name = display_name(account)
        events = [self._new("join", seat, {"name": name})]
        filled = all(s.kind in ("person", "bot") or i == seat
                     for i, s in enumerate(self.seats))
        update: dict[str, Any] = {}
        deal: str | None = None
        if filled:
            assert self.rules is not None
            if self._deal is not None:  # dealt when created (a duplicate event's deal)
                deal = self._deal
                game = self._dealt()
            else:
                game = Game.new(self.rules, self.players, rng=_SYSTEM, explicit_chance=True)
                hands = [game.set.tiles_of(h) for h in game.initial_hands]
                deal = json.dumps([[t.text() for t in h] for h in hands])
            names = [name if i == seat else s.name for i, s in enumerate(self.seats)]
            events.append(Event(events[0].seq + 1, "start", None, {"names": names}))
            # the opener's clock is in the row like every later one: another
            # process, or this one restarted, reads it from there
            opener = "person" if game.turn == seat else self.seats[game.turn].kind
            deadline = (time.time() + self.clock
                        if self.clock is not None and opener == "person" else None)
            update = {"status": "running", "deal": deal, "deadline": deadline}

        def seat_row(s: Session, _row: TableRow) -> None:
            r = s.get(SeatRow, (self.id, seat))
            assert r is not None
            r.kind, r.account_id = "person", account.id

        try:
            await self._commit(events, update, seat_row)
        except SQLAlchemyError:
            raise ApiError(503, "busy", _("the table is busy: try again")) from None
        self.seats[seat] = SeatInfo("person", account.id, name)
        for conn in self.conns:  # her open connections watched until now: now they play
            if conn.account_id == account.id:
                conn.seat = seat
        if filled:
            self._deal = deal
            self.status = "running"
        self._apply_events(events)
        if filled:
            self.deadline = update["deadline"]
        self._broadcast(events)
        self._schedule()
        return seat

    async def leave(self, account: Account) -> None:
        """Free her seat before the game starts (judged again after another process's
        write, as :meth:`join`)."""
        async with self.lock:
            await self._judged_again(lambda: self._leave(account))

    async def _judged_again(self, step: Callable[[], Awaitable[_T]]) -> _T:
        """``step`` after catching up with the log, again (a few times) when another
        process wrote first (:class:`Behind`); then "busy"."""
        for _attempt in range(3):
            await self._catch_up()
            try:
                return await step()
            except Behind:
                continue
        raise ApiError(503, "busy", _("the table is busy: try again"))

    async def _leave(self, account: Account) -> None:
        """:meth:`leave`, under the lock and caught up (:class:`Behind`: judge it again)."""
        seats = [i for i, s in enumerate(self.seats)
                 if s.kind == "person" and s.account_id == account.id]
        if not seats:
            raise ApiError(409, "not_seated", _("you have no seat at this table"))
        if self.status != "open":
            raise ApiError(409, "started", _("the game has started: a seat cannot be left now"))
        seat = seats[0]
        alone = not any(s.kind == "person" for i, s in enumerate(self.seats) if i != seat)
        events = [self._new("leave", seat, {})]
        update = {"status": "abandoned"} if alone else {}

        def seat_row(s: Session, _row: TableRow) -> None:
            r = s.get(SeatRow, (self.id, seat))
            assert r is not None
            r.kind, r.account_id = "open", None

        try:
            await self._commit(events, update, seat_row)
        except SQLAlchemyError:
            raise ApiError(503, "busy", _("the table is busy: try again")) from None
        self.seats[seat] = SeatInfo("open")
        for conn in self.conns:  # her connections watch from now on: the seat is not hers
            if conn.seat == seat:
                conn.seat = None
        if alone:
            self.status = "abandoned"
        self._apply_events(events)
        self._broadcast(events)
        if alone:
            self.context.finished(self)

    # ------------------------------------------------------------ bots and clocks

    def _schedule(self) -> None:
        """Arm the one timer of this table: a bot's move, a clock, a seat away too long."""
        if self.timer is not None and self.timer is not asyncio.current_task():
            self.timer.cancel()
        self.timer = None
        game = self.game
        if self.status != "running" or game is None or game.outcome is not None:
            return
        seat = game.turn
        timer = next_timer(seat, self.seats[seat], self.context.settings, now=time.time(),
                           deadline=self.deadline, away_since=self.away.get(seat),
                           grace=self.grace)
        if timer is None:
            return
        self.timer = asyncio.create_task(
            self._fire(timer.at, self.move_seq, seat, timer.spec, timer.by))

    async def _fire(self, at: float, move_seq: int, seat: int, spec: str, by: str) -> None:
        await asyncio.sleep(max(0.0, at - time.time()))
        game = self.game
        if game is None or self.move_seq != move_seq:
            return
        view = game.view(seat)
        try:
            move = await self.context.bots.decide(spec, view)
        except Exception as e:  # a broken worker must not stop the table
            log.error("table %s: bot %s failed: %s", self.id, spec, type(e).__name__)
            move = view.legal_moves[0]
        async with self.lock:
            if self.move_seq != move_seq or self.game is not game or game.turn != seat:
                return
            self.timer = None  # this task is the timer: _schedule must not cancel it
            try:
                events = await self._play(seat, move, by, None, None)
            except Behind:
                await self._catch_up()
                return
            if isinstance(events, Refusal):
                log.error("table %s: %s move refused: %s", self.id, by, events.message)
                self._schedule()
                return
            await self._lay_out()
            self._broadcast(events)
            self._schedule()

    def stop(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        for conn in list(self.conns):
            conn.close()

    # ------------------------------------------------------------ matches, play again

    def _hand_ended(self, match_points: list[int]) -> None:
        """A hand of a match ended here: its points in the totals shown, and the next
        hand dealt after a short pause (while everyone sees the result)."""
        if self.match is None or self.hand is None or self.rules is None:
            return
        self.match = matches.counted(self.match, self.rules.text(), self.players, self.hand,
                                     match_points)
        if not self.match["over"]:
            self._after = asyncio.create_task(self._next_hand())

    async def _next_hand(self) -> None:
        await asyncio.sleep(self.context.settings.next_hand_delay)
        here = {c.seat for c in self.conns if c.seat is not None}
        away = {i for i, s in enumerate(self.seats) if s.kind == "person" and i not in here}
        try:
            table = await asyncio.to_thread(matches.next_hand, self.context.store, self.id,
                                            away)
        except Exception:
            log.exception("table %s: the next hand could not be dealt", self.id)
            return
        if table is not None:
            await self._send_on(table)

    async def _send_on(self, table: str) -> None:
        """Everyone at this table goes on to ``table``: its room is loaded (its bots
        play), then a ``next`` event in this table's log tells every connection."""
        if self.context.opened is not None:
            await self.context.opened(table)
        async with self.lock:
            event = await self._append(lambda: None if self.next_table is not None
                                       else self._new("next", None, {"table": table}), tries=3)
            if event is not None:
                self._broadcast([event])

    def _again_info(self) -> dict[str, Any]:
        """Who said yes to playing again, and which seat is the table's creator's (her yes
        may ask for bots in the seats of those who left)."""
        creator = next((i for i, s in enumerate(self.seats)
                        if s.kind == "person" and s.account_id == self.created_by
                        and self.created_by is not None), None)
        return {"yes": sorted(self.again), "creator": creator,
                "bots": bool(creator is not None and self.again.get(creator))}

    def may_play_again(self) -> bool:
        """A game or a match is over here and nothing follows yet."""
        over = self.status == "finished" and (self.match is None or self.match["over"])
        return over and self.next_table is None

    async def play_again(self, seat: int, account_id: int, bots: bool) -> str | None:
        """Her yes to a rematch (``bots``: the creator asks for bots in the seats of those
        who left); when everyone still here has said yes, the new table: its id."""
        async with self.lock:
            await self._catch_up()
            if self.status != "finished":
                raise ApiError(409, "not_finished", _("the game is not over yet"))
            if self.match is not None and not self.match["over"]:
                raise ApiError(409, "match_playing",
                               _("the match goes on: the next hand is dealt by itself"))
            if self.next_table is not None:
                return self.next_table
            event = await self._append(lambda: self._new(
                "again", seat, {"bots": bots}, account_id=account_id))
            if event is None:
                raise ApiError(503, "busy", _("the table is busy: try again"))
            self._broadcast([event])
        return await self._rematch_if_all_said_yes({seat})

    async def _rematch_later(self) -> None:
        await self._rematch_if_all_said_yes(set())

    async def _rematch_if_all_said_yes(self, voters: set[int]) -> str | None:
        """The rematch's table, made (once) when everyone still here (connected, or
        voting now) has said yes; None while someone still here has not."""
        async with self.lock:
            here = {c.seat for c in self.conns if c.seat is not None} | voters
            if (not self.again or self.next_table is not None or self._rematching
                    or not here <= set(self.again)):
                return self.next_table
            self._rematching = True
            yes, info = set(self.again), self._again_info()
        try:
            table = await asyncio.to_thread(matches.rematch, self.context.store, self.id, yes,
                                            info["bots"], self.context.settings.stand_in)
            await self._send_on(table)
        finally:
            self._rematching = False
        return table


def _both(first: SeatsChange | None, second: SeatsChange) -> SeatsChange:
    """Two changes in one transaction, in order."""
    if first is None:
        return second

    def both(s: Session, row: TableRow) -> None:
        first(s, row)
        second(s, row)

    return both
