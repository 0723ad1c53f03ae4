"""A live table: its game in memory and its decisions (moves, chat, seats, presence, the
timer), over its log in the database (:mod:`~fido.server.tables.log`).

One :class:`Room` per table in each server process, shaped like boardgame.io's ``Master``:
it decides, and is handed what it writes to and sends through. Everything that changes a
table goes through :meth:`Room._commit` under the room's lock: the new events and the
table's new state are written in one transaction, which first locks the table's row and
checks that its sequence number is the one this process knows (another process may have
written since: then this one reads the log, catches up, and judges the message again).
Only after the commit is the sender acknowledged and the feed
(:mod:`~fido.server.tables.feed`) sends every connection its update. What comes after a
game (a match's next hand, playing again) is :mod:`~fido.server.tables.after`'s. A
refusal is the library's :class:`~fido.errors.Refused` with a code (the request layer
answers it with a status), or, on a socket, a :class:`~fido.server.tables.types.Refusal`.

The deal is made by the operating system's random source when the last seat is taken;
the stock has no order: each draw picks its tile when it happens (explicit chance). The
deal is stored for the replay of the log after a restart and never sent.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from sqlalchemy.exc import SQLAlchemyError

from fido.accounts.vacation import on_vacation
from fido.engine.game import Game
from fido.engine.moves import Move
from fido.engine.rules import Ruleset
from fido.engine.tiles import Tile
from fido.errors import FidoError, IllegalMoveError, Refused
from fido.i18n import _
from fido.server.protocol import ChatIn, MoveIn, Reason
from fido.server.tables import refusals, seating, turns
from fido.server.tables.after import After
from fido.server.tables.answers import Answers
from fido.server.tables.feed import CATCH_UP, Feed
from fido.server.tables.kinds import Away, Back, Chat, Kind, Moved, Payload, Vacation
from fido.server.tables.log import Loaded, SeatsChange, TableLog
from fido.server.tables.moves import written_move
from fido.server.tables.state import RoomContext
from fido.server.tables.timers import Clock, Timer, next_timer, stand_in_at, turn_based
from fido.server.tables.types import Behind, Conn, Event, Refusal, SeatInfo
from fido.store import Account

__all__ = ["CATCH_UP", "CHAT_PER_PERSON", "Room", "RoomContext"]

log = logging.getLogger("fido.server")

CHAT_PER_PERSON = 200  # chat lines one person may write at one table (its log is kept)
_T = TypeVar("_T")
_SYSTEM = random.SystemRandom()  # deals come from the operating system's random source


class Room:
    """A table live in this process (see the module's docstring)."""

    def __init__(self, context: RoomContext, table_id: str) -> None:
        self.context, self.id = context, table_id
        self.table_log = TableLog(context.store, table_id)
        self.lock = asyncio.Lock()
        self.feed = Feed(self)
        self.after = After(self)
        self.answers = Answers()
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
        self.timeouts: int | None = None  # her clock may run out this often, then the
        self.forced = False  # stand-in plays her seat; draws and passes played for her
        self.rates = True  # its game moves the players' game ratings
        self.rated = False
        self.private = False
        self.invite = ""
        self.deadline: float | None = None
        self.away: dict[int, float] = {}  # seat -> since when (Unix seconds)
        self.timer = Clock(table_id, context.bots)  # the one timer: a bot's move, a stand-in's
        self.record: str | None = None
        self.deal: str | None = None
        self.stock_order: list[Tile] | None = None  # a duplicate deal's (see dealt)
        self.match_id: str | None = None  # a hand of a match: the match, and which hand
        self.hand: int | None = None
        self.created_by: int | None = None

    # ------------------------------------------------------------ loading

    async def load(self, *, restarted: bool = False) -> None:
        """Read the table and its whole log and rebuild the game by replaying it.
        ``restarted``: the process has just started, so no one is connected to it: every
        person present in the log is written away (a process that still serves her
        answers "back": :meth:`_refute`) from now, and every clock gets the restart grace."""
        loaded = await asyncio.to_thread(self.table_log.read, 0)
        if loaded.row.match_id is not None:
            self.match_id, self.hand = loaded.row.match_id, loaded.row.hand
            await self.after.read_match()
        async with self.lock:
            self._take_row(loaded)
            self.log = []
            self.game = None
            self._apply_events(loaded.events)
            if restarted and self.status in ("open", "running"):
                for seat, info in enumerate(self.seats):
                    if info.kind == "person":
                        await self._presence(seat, Away())
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
        self.timeouts, self.forced, self.rates = row.timeouts, bool(row.forced), row.rates
        self.rules = Ruleset.from_text(row.ruleset)
        self.seats = loaded.seats
        self.deadline = row.deadline
        self.record = row.record
        self.deal = row.deal
        self.match_id, self.hand, self.created_by = row.match_id, row.hand, row.created_by
        # whose turn its bots take in the workers' fair order: the opener's address (else
        # the Clock's own: the table, for an event's or one opened before addresses were kept)
        if row.opened_from is not None:
            self.timer.owner = row.opened_from

    def _apply_events(self, events: list[Event]) -> None:
        """Events written (by this process or another) applied to the memory state."""
        for e in events:
            if e.seq != self.seq + 1:
                raise RuntimeError(f"table {self.id}: event {e.seq} after {self.seq}")
            if e.kind is Kind.START and self.game is None:
                self.game = self.dealt()
            elif isinstance(data := e.data, Moved):
                game = self.game
                assert game is not None
                game.push(Move.from_text(data.move), seat=e.seat)
                if game.chance is not None:
                    assert e.private is not None
                    game.apply_chance(Tile.from_text(e.private["drawn"]))
                self.move_seq = e.seq
            elif e.kind is Kind.AWAY and e.seat is not None:
                self.away[e.seat] = e.at
            elif e.kind is Kind.BACK and e.seat is not None:
                self.away.pop(e.seat, None)
            elif e.kind is Kind.VACATION:
                pass  # the row's deadline says when her clock ends now
            else:
                self.after.apply(e)
            if e.msg_id is not None:
                self.answers.accept((e.account_id, e.msg_id), e.seq)
            self.log.append(e)
            self.seq = e.seq

    def dealt(self) -> Game:
        """The game as dealt (:func:`~fido.server.tables.seating.dealt`)."""
        assert self.rules is not None and self.deal is not None
        game, self.stock_order = seating.dealt(self.rules, self.deal)
        return game

    async def refresh(self, seq: int | None = None) -> None:
        """Another process wrote to this table (up to event ``seq``, if known): read
        the new events and pass them on."""
        if seq is not None and seq <= self.seq:
            return  # this process wrote it (or has read it): nothing to read
        async with self.lock:
            if seq is None or seq > self.seq:
                await self.catch_up()

    async def catch_up(self) -> None:
        """Read what other processes wrote since :attr:`seq` and pass it on: the seats as
        they are now first (the feed moves a connection whose person's seat changed)."""
        loaded = await asyncio.to_thread(self.table_log.read, self.seq)
        if not loaded.events:
            return
        ended = self.status != "finished" and loaded.row.status == "finished"
        self._take_row(loaded)
        new = loaded.events
        self._apply_events(new)
        if ended:  # another process counted the hand
            await self.after.read_match()
        self.feed.reseat()
        await self.feed.lay_out()
        self.feed.broadcast(new)
        self._schedule()
        await self._refute(new)

    async def _refute(self, events: list[Event]) -> None:
        """Another process wrote a seat away (it has just started, so no one is
        connected to it) while she is connected here: she is back."""
        here = self.feed.seats_here()
        for seat in dict.fromkeys(e.seat for e in events if e.kind is Kind.AWAY):
            if seat is not None and seat in here:
                await self._presence(seat, Back())

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

    def new_event(self, seat: int | None, data: Payload, **more: Any) -> Event:
        """The next event of the log, saying ``data``."""
        return Event.of(self.seq + 1, seat, data, **more)

    async def append(self, make: Callable[[], Event | None], tries: int = 2) -> Event | None:
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
                await self.catch_up()
                continue
            except SQLAlchemyError:
                return None
            self._apply_events([event])
            return event
        return None

    # ------------------------------------------------------------ what is shown

    def info(self) -> dict[str, Any]:
        """The table as everyone may see it."""
        replaced = self.replaced()
        return {
            "id": self.id, "ruleset": self.rules.text() if self.rules else "",
            "players": self.players, "status": self.status, "rated": self.rated,
            "private": self.private, "clock": self.clock, "grace": self.grace,
            "turn_based": turn_based(self.clock), "timeouts": self.timeouts,
            "forced": self.forced, "rates": self.rates,
            "deadline": self.deadline, "stand_in_at": self._stand_in_at(),
            "seats": [s.public() | {"away": i in self.away, "replaced": i in replaced}
                      for i, s in enumerate(self.seats)],
            "seq": self.seq, "finished": self.record is not None,
            "match": self.after.match, "next": self.after.next_table,
            "again": self.after.info(),
        }

    def _stand_in_at(self) -> float | None:
        game = self.game
        if self.status != "running" or game is None or game.outcome is not None:
            return None
        seat = game.turn
        if seat in self.replaced() or self._forced(game):
            return None  # the stand-in plays at once
        return stand_in_at(self.seats[seat], deadline=self.deadline,
                           away_since=self.away.get(seat), grace=self.grace,
                           turn_based=turn_based(self.clock))

    def replaced(self) -> set[int]:
        """The seats whose clock ran out as often as the table allows (its ``timeouts``):
        the stand-in plays them for the rest of the game. Read from the log, so every
        process and every restart agrees."""
        if self.timeouts is None:
            return set()
        ran_out: dict[int, int] = {}
        for e in self.log:
            if isinstance(e.data, Moved) and e.data.by == "clock" and e.seat is not None:
                ran_out[e.seat] = ran_out.get(e.seat, 0) + 1
        return {seat for seat, n in ran_out.items() if n >= self.timeouts}

    def _forced(self, game: Game) -> bool:
        """The table draws or passes for the person to move: its option is on and that is
        her only move (:func:`~fido.server.tables.turns.forced`)."""
        return self.seats[game.turn].kind == "person" and turns.forced(self, game)

    # ------------------------------------------------------------ moves

    async def move(self, conn: Conn, msg: MoveIn) -> str:
        """A person's move, for the seat her person holds now: refused with a reason, or
        committed, acknowledged, broadcast; the outcome (accepted, refused, or duplicate:
        a resent move answered again)."""
        key = (conn.account_id, msg.id)
        async with self.lock:
            for _attempt in range(3):
                old = self.answers.remembered(key, msg.id)
                if old is not None:
                    conn.send(old)
                    return "duplicate"
                seat = self.feed.seat_for(conn)  # a seat is its person's, now
                refusal = refusals.check_move(seat, msg.seq, status=self.status,
                                              game=self.game, table_seq=self.seq,
                                              move_seq=self.move_seq)
                if refusal is None:
                    try:
                        move = Move.from_text(msg.move)
                    except FidoError:
                        refusal = Refusal(Reason.ILLEGAL, refusals.not_a_move(msg.move))
                if refusal is not None:
                    self.answers.refuse(key, refusal)
                    conn.send(refusal.message_for(msg.id))
                    return "refused"
                try:
                    events = await self._play(seat, move, "player", conn.account_id, msg.id)
                except Behind:
                    await self.catch_up()
                    continue
                if isinstance(events, Refusal):
                    if events.code is not Reason.UNAVAILABLE:
                        self.answers.refuse(key, events)
                    conn.send(events.message_for(msg.id))
                    return "refused"
                self.answers.accept(key, events[0].seq)
                conn.send({"type": "ack", "id": msg.id, "seq": events[0].seq})
                await self.feed.lay_out()
                self.feed.broadcast(events)
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
            written = written_move(self, game, seat, by, account=account, msg_id=msg_id)
            await self._commit(written.events, written.update, written.extra)
        except Behind:
            game.pop()
            raise
        except Exception as e:  # the store, or anything after the push (the record, the
            game.pop()  # ranking): taken back
            if isinstance(e, SQLAlchemyError):
                log.error("table %s: write failed: %s", self.id, type(e).__name__)
            else:
                log.exception("table %s: the move could not be written", self.id)
            return Refusal(Reason.UNAVAILABLE, _("the move could not be saved: try again"))
        except BaseException:  # cancelled (the process stops): the write may still end in
            game.pop()  # its thread; the log, read again, says whether it did
            raise
        events = written.events
        outcome = game.outcome
        self.log.extend(events)
        self.seq = events[-1].seq
        self.move_seq = events[0].seq
        self.deadline = written.update.get("deadline")
        if outcome is not None:
            self.status, self.record = "finished", written.update["record"]
            self.after.hand_ended(list(outcome.match_points))
            self.context.finished(self)
        return events

    # ------------------------------------------------------------ chat

    async def chat(self, conn: Conn, msg: ChatIn, text_: str) -> None:
        key = (conn.account_id, msg.id)
        async with self.lock:
            old = self.answers.remembered(key, msg.id)
            if old is not None:
                conn.send(old)
                return
            written = sum(1 for e in self.log if e.kind is Kind.CHAT
                          and e.account_id == conn.account_id)
            if written >= CHAT_PER_PERSON:  # the table's log is everyone's, and kept
                conn.send(refusals.chat_full(written).message_for(msg.id))
                return
            seat = self.feed.seat_for(conn)
            event = await self.append(lambda: self.new_event(
                seat, Chat(conn.name, text_, msg.phrase), account_id=conn.account_id,
                msg_id=msg.id))
            if event is None:
                conn.send(Refusal(Reason.UNAVAILABLE, _("try again")).message_for(msg.id))
                return
            conn.send({"type": "ack", "id": msg.id, "seq": event.seq})
            self.feed.broadcast([event])

    # ------------------------------------------------------------ presence

    async def attach(self, conn: Conn, since: int | None = None) -> None:
        """Welcome ``conn`` as the seat its person holds now (with what it missed after
        ``since``) and send it every update."""
        async with self.lock:
            if since is not None and since > self.seq:
                await self.catch_up()  # she saw another process's commits not read yet
            self.feed.attach(conn, since)
            if conn.seat is not None and conn.seat in self.away:
                await self._presence(conn.seat, Back())

    async def detach(self, conn: Conn) -> None:
        async with self.lock:
            self.feed.detach(conn)
            seat = conn.seat
            # after the end too: who is still there decides "Play again"
            if (seat is not None and self.status in ("open", "running", "finished")
                    and seat not in self.feed.seats_here() and seat not in self.away):
                await self._presence(seat, Away())
            if not self.feed.conns and self.status in ("finished", "abandoned"):
                self.context.finished(self)
            else:
                self.after.left(seat)

    async def _presence(self, seat: int, data: Away | Back) -> None:
        def make() -> Event | None:
            # so already (another process may have written it meanwhile): nothing to say
            away = isinstance(data, Away)
            return None if (seat in self.away) == away else self.new_event(seat, data)

        # presence is advisory: one lost to the store is corrected by the next
        event = await self.append(make, tries=3)
        if event is not None:
            self.feed.broadcast([event])
            self._schedule()

    async def absent_away(self) -> None:
        """Every person not connected here is away from now: an event's round starts
        whether its players are there or not, and after the grace the stand-in plays."""
        async with self.lock:
            here = self.feed.seats_here()
            for seat, info in enumerate(self.seats):
                if info.kind == "person" and seat not in here:
                    await self._presence(seat, Away())

    # ------------------------------------------------------------ seats

    async def join(self, account: Account, seat: int | None, invite: str | None) -> int:
        """Seat ``account`` (a free or reserved-for-her seat); deal when the last one fills.
        Another process may seat someone first (people of one table on several server
        processes): then this one reads what it wrote and judges the request again."""
        async with self.lock:
            return await self._judged_again(lambda: self._seat(
                seating.joined(self, account, seat, invite, _SYSTEM)))

    async def leave(self, account: Account) -> None:
        """Free her seat before the game starts (judged again after another process's
        write, as :meth:`join`)."""
        async with self.lock:
            await self._judged_again(lambda: self._seat(seating.left(self, account)))

    async def _judged_again(self, step: Callable[[], Awaitable[_T]]) -> _T:
        """``step`` after catching up with the log, again (a few times) when another
        process wrote first (:class:`Behind`); then "busy"."""
        for _attempt in range(3):
            await self.catch_up()
            try:
                return await step()
            except Behind:
                continue
        raise Refused("busy", _("the table is busy: try again"))

    async def _seat(self, change: seating.SeatChange) -> int:
        """Write a change of a seat's person (:mod:`~fido.server.tables.seating`), then
        follow it: the seat, the deal, and every connection moved to its person's seat
        before anyone is sent a frame."""
        try:
            await self._commit(change.events, change.update, change.rows)
        except SQLAlchemyError:
            raise Refused("busy", _("the table is busy: try again")) from None
        self.seats[change.seat] = change.info
        if change.deal is not None:
            self.deal = change.deal
        if "status" in change.update:
            self.status = change.update["status"]
        self._apply_events(change.events)
        if "deadline" in change.update:
            self.deadline = change.update["deadline"]
        self.feed.reseat()
        self.feed.broadcast(change.events)
        self._schedule()
        if self.status == "abandoned":
            self.context.finished(self)
        return change.seat

    # ------------------------------------------------------------ bots and clocks

    def _schedule(self) -> None:
        """Arm the one timer of this table: a bot's move, a clock, a seat away too long."""
        game, move_seq = self.game, self.move_seq
        if self.status != "running" or game is None or game.outcome is not None:
            self.timer.arm(None, lambda: None, self._timed)
            return
        seat = game.turn
        timer = next_timer(seat, self.seats[seat], self.context.settings, now=time.time(),
                           deadline=self.deadline, away_since=self.away.get(seat),
                           grace=self.grace, turn_based=turn_based(self.clock),
                           replaced=seat in self.replaced(), forced=self._forced(game))
        self.timer.arm(timer, lambda: (game.view(seat) if self.game is game
                                       and self.move_seq == move_seq else None), self._timed)

    async def _timed(self, timer: Timer, move: Move) -> None:
        """The timer's move (a bot's, or the stand-in's), if the game is still where it was
        when the timer was armed."""
        async with self.lock:
            game = self.game
            if (game is None or game.turn != timer.seat
                    or self.timer.task is not asyncio.current_task()):
                return  # the game moved on, or the timer was disarmed
            self.timer.task = None  # fired: the move re-arms the clock
            if timer.by == "clock" and turn_based(self.clock):
                until = await asyncio.to_thread(self._vacation_of, timer.seat)
                if until is not None:  # on vacation: her clock starts again at its end
                    await self._vacation(timer.seat, until)
                    return
            try:
                events = await self._play(timer.seat, move, timer.by, None, None)
            except Behind:
                await self.catch_up()
                return
            if isinstance(events, Refusal):
                log.error("table %s: %s move refused: %s", self.id, timer.by, events.message)
            else:
                await self.feed.lay_out()
                self.feed.broadcast(events)
            self._schedule()

    def _vacation_of(self, seat: int) -> float | None:
        """The end of the vacation the person at ``seat`` is on now (Unix seconds)."""
        account_id = self.seats[seat].account_id
        if account_id is None:
            return None
        with self.context.store.session(write=False) as s:
            account = s.get(Account, account_id)
            until = None if account is None else on_vacation(account, dt.datetime.now(dt.UTC))
        return None if until is None else until.timestamp()

    async def _vacation(self, seat: int, until: float) -> None:
        """Her clock ran out on vacation: the log says so, and her clock starts again,
        whole, at its end (every process reads the row's deadline)."""
        assert self.clock is not None
        event = self.new_event(seat, Vacation(until))
        deadline = until + self.clock
        try:
            await self._commit([event], {"deadline": deadline})
        except Behind:
            await self.catch_up()
            self._schedule()
            return
        except SQLAlchemyError:
            log.error("table %s: the vacation could not be written", self.id)
            self._schedule()
            return
        self._apply_events([event])
        self.deadline = deadline
        self.feed.broadcast([event])
        self._schedule()

    def stop(self) -> None:
        self.timer.cancel()
        self.feed.close_all()
