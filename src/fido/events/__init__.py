"""Championships and cups: seat draws, standings, duplicate deals (docs/events.md).

A pure library (no database, no web): the events store and pages build on it.
"""

from __future__ import annotations

from fido.events.deals import deal_seed, duplicate_game, new_secret
from fido.events.errors import EventError
from fido.events.finals import normalised_final
from fido.events.seating import (
    Round,
    TableSeating,
    draw,
    meetings,
    naive_draw,
    repeat_lower_bound,
    repeat_meetings,
    seat_counts,
    seat_spread,
    table_sizes,
)
from fido.events.standings import GameResult, Line, Standing, standings

__all__ = [
    "EventError",
    "GameResult",
    "Line",
    "Round",
    "Standing",
    "TableSeating",
    "deal_seed",
    "draw",
    "duplicate_game",
    "meetings",
    "naive_draw",
    "new_secret",
    "normalised_final",
    "repeat_lower_bound",
    "repeat_meetings",
    "seat_counts",
    "seat_spread",
    "standings",
    "table_sizes",
]
