"""When a table's one timer fires, and who moves then: a bot after its delay, the stand-in
for a person whose clock ran out or who has been away past the table's grace.

A pure function of the table's state, so the rule is read (and tested) in one place; the
room arms the timer it gives (:meth:`fido.server.tables.room.Room._schedule`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from fido.engine.moves import Move
from fido.engine.views import SeatView
from fido.server.tables.types import SeatInfo

if TYPE_CHECKING:
    from fido.server.botpool import BotPool
    from fido.server.settings import PlaySettings

__all__ = [
    "LOOK_EVERY",
    "TIMEOUTS",
    "TURN_BASED",
    "Clock",
    "Timer",
    "next_timer",
    "stand_in_at",
    "turn_based",
]

log = logging.getLogger("fido.server")

# a clock of an hour a move or more makes a table turn-based: each player moves when
# she can, within hours or days, and hears when it is her turn; being away is normal
# there, so only her clock (never the away grace) lets the stand-in play for her
TURN_BASED = 3600
# a timer looks at the wall clock at least this often (seconds): its time is Unix seconds
# (the row's deadline, the same on every process), while a sleep runs on the monotonic
# clock, which stands still while the machine is suspended and does not follow the wall
# clock when it is set; a turn-based table's days-long wait follows the wall clock
LOOK_EVERY = 60.0
TIMEOUTS = 3  # a turn-based table's default: her clock may run out this often, then the
# stand-in takes her seat for the rest of the game


def turn_based(clock: int | None) -> bool:
    """Whether a table with this clock (seconds a move) is turn-based."""
    return clock is not None and clock >= TURN_BASED


@dataclass(frozen=True)
class Timer:
    """At ``at`` (Unix seconds) the bot ``spec`` moves for ``seat``; ``by`` says why
    (``bot``, ``clock``: her time ran out, ``away``: her grace did, ``replaced``: her
    time ran out too often, ``forced``: drawing or passing was her only move)."""

    at: float
    seat: int
    spec: str
    by: str


def next_timer(seat: int, info: SeatInfo, settings: PlaySettings, *, now: float,
               deadline: float | None, away_since: float | None, grace: int,
               turn_based: bool = False, replaced: bool = False,
               forced: bool = False) -> Timer | None:
    """The timer for the seat to move (None: nobody moves for her, she has no clock and
    is here). ``turn_based``: her being away never lets the stand-in play, only her
    clock; ``replaced``: her clock ran out as often as the table allows, so the stand-in
    plays her seat from now on; ``forced``: her only move is to draw or to pass and the
    table plays it for her (its forced-moves option)."""
    if info.kind == "bot":
        return Timer(now + settings.bot_delay, seat, info.bot or settings.stand_in, "bot")
    if replaced:
        return Timer(now + settings.bot_delay, seat, settings.stand_in, "replaced")
    if forced:
        return Timer(now + settings.bot_delay, seat, settings.stand_in, "forced")
    at, by = float("inf"), "clock"
    if deadline is not None:
        at = deadline
    if not turn_based and away_since is not None and away_since + grace < at:
        at, by = max(away_since + grace, now + settings.bot_delay), "away"
    if at == float("inf"):
        return None
    return Timer(at, seat, settings.stand_in, by)


def stand_in_at(info: SeatInfo, *, deadline: float | None, away_since: float | None,
                grace: int, turn_based: bool = False) -> float | None:
    """When the stand-in plays for the person to move (Unix seconds): her clock's end, or
    the end of her grace while she is away (not at a turn-based table), whichever comes
    first (the page counts down to it on her seat); None when nobody will play for her
    (a bot's seat too)."""
    if info.kind != "person":
        return None
    ends = [deadline] if deadline is not None else []
    if away_since is not None and not turn_based:
        ends.append(away_since + grace)
    return round(min(ends), 3) if ends else None


class Clock:
    """The one timer of a table: at its time the bot (or the stand-in) decides from the
    seat's view, and the room is handed the move (it judges, under its lock, whether the
    game is still where the timer was armed)."""

    def __init__(self, table_id: str, bots: BotPool) -> None:
        self.table_id, self.bots = table_id, bots
        self.owner = f"table:{table_id}"  # its turn in the bots' fair order (the room sets it)
        self.task: asyncio.Task[None] | None = None

    def arm(self, timer: Timer | None, view: Callable[[], SeatView | None],
            play: Callable[[Timer, Move], Awaitable[None]]) -> None:
        """Replace the armed timer by ``timer`` (None: none); ``view``: the seat's view
        when it fires (None: the game moved on meanwhile)."""
        self.cancel()
        if timer is not None:
            self.task = asyncio.create_task(self._fire(timer, view, play))

    def cancel(self) -> None:
        """Disarm it (not from its own task: the move it plays re-arms the clock)."""
        if self.task is not None and self.task is not asyncio.current_task():
            self.task.cancel()
        self.task = None

    async def _fire(self, timer: Timer, view: Callable[[], SeatView | None],
                    play: Callable[[Timer, Move], Awaitable[None]]) -> None:
        while (left := timer.at - time.time()) > 0:
            await asyncio.sleep(min(left, LOOK_EVERY))
        seen = view()
        if seen is None:
            return
        try:
            move = await self.bots.decide(timer.spec, seen, self.owner)
        except Exception as e:  # a broken worker must not stop the table
            log.error("table %s: bot %s failed: %s", self.table_id, timer.spec,
                      type(e).__name__)
            move = seen.legal_moves[0]
        try:
            await play(timer, move)
        except Exception:  # said, not swallowed with the task: the table waits for a move
            log.exception("table %s: the %s move could not be played", self.table_id, timer.by)
            raise
