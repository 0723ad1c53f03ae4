"""What comes after a table's game: a match's next hand, and playing again (the rematch
vote). The room hands each finished hand here; the tables themselves are made in the
store by :mod:`~fido.server.tables.matches`.

* A hand of a match ended: its points are added to the totals shown, and after a short
  pause (while everyone sees the result) the next hand is dealt; a ``next`` event in this
  table's log sends everyone there.
* A game or a match is over: each person may say yes to playing again (an ``again``
  event); when everyone still here (connected, or voting now) has, the rematch's table is
  made once and a ``next`` event sends everyone there.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fido.errors import Refused
from fido.i18n import _
from fido.server.tables import matches
from fido.server.tables.kinds import Again, Decline, Next
from fido.server.tables.state import Live
from fido.server.tables.types import Event

__all__ = ["After"]

log = logging.getLogger("fido.server")


class After:
    """One room's match and rematch: its state is read from the room's log (``again``,
    ``next``) and the match's row."""

    def __init__(self, room: Live) -> None:
        self.room = room
        self.match: dict[str, Any] | None = None  # the match's running totals, if a hand
        self.next_table: str | None = None  # the next hand's or the rematch's table
        self.again: dict[int, bool] = {}  # seat -> she asked for bots in the empty seats
        self.declined: set[int] = set()  # the seats whose person said no to playing again
        self._task: asyncio.Task[Any] | None = None
        self._rematching = False  # a rematch's table is being made

    async def read_match(self) -> None:
        """The match's totals as the store has them (another process may have counted)."""
        room = self.room
        if room.match_id is not None:
            self.match = await asyncio.to_thread(matches.read, room.context.store,
                                                 room.match_id, room.hand)

    def apply(self, event: Event) -> None:
        """An event of the log that says who wants to play again, or where everyone goes."""
        data = event.data
        if isinstance(data, Again) and event.seat is not None:
            self.again[event.seat] = bool(data.bots)
            self.declined.discard(event.seat)
        elif isinstance(data, Decline) and event.seat is not None:
            self.declined.add(event.seat)
            self.again.pop(event.seat, None)
        elif isinstance(data, Next):
            self.next_table = data.table

    def info(self) -> dict[str, Any]:
        """Who said yes to playing again, and which seat is the table's creator's (her yes
        may ask for bots in the seats of those who left)."""
        room = self.room
        creator = next((i for i, s in enumerate(room.seats)
                        if s.kind == "person" and s.account_id == room.created_by
                        and room.created_by is not None), None)
        return {"yes": sorted(self.again), "no": sorted(self.declined), "creator": creator,
                "bots": bool(creator is not None and self.again.get(creator))}

    # ------------------------------------------------------------ a match's next hand

    def hand_ended(self, match_points: list[int]) -> None:
        """A hand of a match ended here: its points in the totals shown, and the next
        hand dealt after a short pause."""
        room = self.room
        if self.match is None or room.hand is None or room.rules is None:
            return
        self.match = matches.counted(self.match, room.rules.text(), room.players, room.hand,
                                     match_points)
        if not self.match["over"]:
            self._task = asyncio.create_task(self._next_hand())

    async def _next_hand(self) -> None:
        room = self.room
        await asyncio.sleep(room.context.settings.next_hand_delay)
        here = room.feed.seats_here()
        away = {i for i, s in enumerate(room.seats) if s.kind == "person" and i not in here}
        try:
            table = await asyncio.to_thread(matches.next_hand, room.context.store, room.id,
                                            away)
        except Exception:
            log.exception("table %s: the next hand could not be dealt", room.id)
            return
        if table is not None:
            await self._send_on(table)

    async def _send_on(self, table: str) -> None:
        """Everyone at this table goes on to ``table``: its room is loaded (its bots
        play), then a ``next`` event in this table's log tells every connection."""
        room = self.room
        if room.context.opened is not None:
            await room.context.opened(table)
        async with room.lock:
            event = await room.append(lambda: None if self.next_table is not None
                                      else room.new_event(None, Next(table)), tries=3)
            if event is not None:
                room.feed.broadcast([event])

    # ------------------------------------------------------------ playing again

    def may_play_again(self) -> bool:
        """A game or a match is over here and nothing follows yet."""
        room = self.room
        over = room.status == "finished" and (self.match is None or self.match["over"])
        return over and self.next_table is None

    async def play_again(self, seat: int, account_id: int, bots: bool,
                         *, yes: bool = True) -> str | None:
        """Her yes to a rematch (``bots``: the creator asks for bots in the seats of those
        who left), or her no (``yes`` false: it is made without her, as if she had left);
        when everyone still here has said yes, the new table: its id."""
        room = self.room
        async with room.lock:
            await room.catch_up()
            if room.status != "finished":
                raise Refused("not_finished", _("the game is not over yet"))
            if self.match is not None and not self.match["over"]:
                raise Refused("match_playing",
                              _("the match goes on: the next hand is dealt by itself"))
            if self.next_table is not None:
                return self.next_table
            event = await room.append(lambda: room.new_event(
                seat, Again(bots) if yes else Decline(), account_id=account_id))
            if event is None:
                raise Refused("busy", _("the table is busy: try again"))
            room.feed.broadcast([event])
        return await self._rematch_if_all_said_yes({seat} if yes else set())

    def left(self, seat: int | None) -> None:
        """A connection of ``seat`` closed at a finished table: if she had not said yes,
        the others' yes may now be everyone's."""
        if self.room.status == "finished" and self.again and seat is not None:
            self._task = asyncio.create_task(self._rematch_if_all_said_yes(set()))

    async def _rematch_if_all_said_yes(self, voters: set[int]) -> str | None:
        """The rematch's table, made (once) when everyone still here (connected, or
        voting now) has said yes; None while someone still here has not."""
        room = self.room
        async with room.lock:
            here = (room.feed.seats_here() | voters) - self.declined
            if (not self.again or self.next_table is not None or self._rematching
                    or not here <= set(self.again)):
                return self.next_table
            self._rematching = True
            yes, info = set(self.again), self.info()
        try:
            table = await asyncio.to_thread(matches.rematch, room.context.store, room.id, yes,
                                            info["bots"], room.context.settings.stand_in)
            await self._send_on(table)
        finally:
            self._rematching = False
        return table

