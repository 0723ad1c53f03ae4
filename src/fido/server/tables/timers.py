"""When a table's one timer fires, and who moves then: a bot after its delay, the stand-in
for a person whose clock ran out or who has been away past the table's grace.

A pure function of the table's state, so the rule is read (and tested) in one place; the
room arms the timer it gives (:meth:`fido.server.tables.room.Room._schedule`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from fido.server.tables.types import SeatInfo

if TYPE_CHECKING:
    from fido.server.settings import PlaySettings

__all__ = ["Timer", "next_timer"]


@dataclass(frozen=True)
class Timer:
    """At ``at`` (Unix seconds) the bot ``spec`` moves for ``seat``; ``by`` says why
    (``bot``, ``clock``: her time ran out, ``away``: her grace did)."""

    at: float
    seat: int
    spec: str
    by: str


def next_timer(seat: int, info: SeatInfo, settings: PlaySettings, *, now: float,
               deadline: float | None, away_since: float | None, grace: int) -> Timer | None:
    """The timer for the seat to move (None: nobody moves for her, she has no clock and
    is here)."""
    if info.kind == "bot":
        return Timer(now + settings.bot_delay, seat, info.bot or settings.stand_in, "bot")
    at, by = float("inf"), "clock"
    if deadline is not None:
        at = deadline
    if away_since is not None and away_since + grace < at:
        at, by = max(away_since + grace, now + settings.bot_delay), "away"
    if at == float("inf"):
        return None
    return Timer(at, seat, settings.stand_in, by)
