"""What a seat knows about the tiles she cannot see, read off her view alone.

Engine knowledge, not a bot's private business: the expert bot, the search
bot's sampler, the research adapters (and, coming, the analysis and the table
assistant) read the history the same way.

* :func:`unseen_tiles`: the set minus her hand and the table (the other hands
  and the stock, in some order nobody at the table knows);
* :func:`seat_events`: per seat, what her turns showed, in order: a
  ``VOID`` (she drew because she was stuck, or passed: she held no tile
  showing any number she could have played on), a ``DRAW``, a ``PLAY`` and a
  ``LATE_DOUBLE`` (she placed a double that lay in the stock at the deal, so
  it came from one of her earlier draws);
* :func:`stock_doubles`: where the holder of the highest (lowest) double
  opens, every double above (below) the opening one lay in the stock at the deal.

>>> from fido import Game
>>> g = Game.new("fido set=6", players=3, seed=1)
>>> len(unseen_tiles(g.view(1))) == 28 - len(g.hand(1))
True
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from fido.engine.moves import DRAW, PASS, Placement
from fido.engine.rules import Opener, Stuck
from fido.engine.table import Table
from fido.engine.tiles import Tile
from fido.engine.views import SeatView

__all__ = ["SeatEvent", "Shown", "seat_events", "stock_doubles", "unseen_tiles"]


class Shown(StrEnum):
    """What one turn of a seat showed about her hand."""

    VOID = "void"  # no tile showing any of ``numbers`` (she was stuck)
    DRAW = "draw"  # one more tile nobody else saw
    PLAY = "play"  # she held the tile showing ``numbers``
    LATE_DOUBLE = "late_double"  # the double just played came from an earlier draw


class SeatEvent(NamedTuple):
    kind: Shown
    numbers: int  # a bitmask of numbers: VOID the ones she lacked, PLAY the tile's; else 0


def unseen_tiles(view: SeatView) -> tuple[Tile, ...]:
    """The tiles the viewer cannot see (in the other hands or the stock), ascending."""
    seen = set(view.hand) | {p.tile for p in view.table.placements}
    return tuple(t for t in view.rules.dominoes.tiles if t not in seen)


def stock_doubles(view: SeatView) -> frozenset[Tile]:
    """The doubles the opening shows were in the stock at the deal."""
    rules = view.rules
    if rules.opener is Opener.FIRST_SEAT or not view.table.placements:
        return frozenset()
    first = view.table.placements[0].tile
    if first.high != first.low:
        return frozenset()
    doubles = rules.dominoes.pair_tiles
    top = rules.dominoes.max_pips
    if rules.opener is Opener.HIGHEST_DOUBLE:
        return frozenset(doubles[v][v] for v in range(first.high + 1, top + 1))
    return frozenset(doubles[v][v] for v in range(first.high))


def seat_events(view: SeatView) -> list[list[SeatEvent]]:
    """Per seat, what her turns showed, in order (see the module text).

    Voluntary draws (the draw game) are draws but not voids.
    """
    rules = view.rules
    late = stock_doubles(view)
    table = Table(rules.layout)
    events: list[list[SeatEvent]] = [[] for _ in range(view.players)]
    forced_draw = rules.stuck is not Stuck.DRAW_FREE
    for turn in view.history:
        move = turn.move
        if isinstance(move, Placement):
            if table.placements:
                tile = move.tile
                events[turn.seat].append(SeatEvent(Shown.PLAY, (1 << tile.high) | (1 << tile.low)))
                if tile in late:
                    events[turn.seat].append(SeatEvent(Shown.LATE_DOUBLE, 0))
            table.place(move.tile, move.slot, move)
            continue
        if move is PASS or (move is DRAW and forced_draw):
            mask = 0
            for _code, v in table.playable():
                mask |= 1 << v
            if table.placements:
                events[turn.seat].append(SeatEvent(Shown.VOID, mask))
        if move is DRAW:
            events[turn.seat].append(SeatEvent(Shown.DRAW, 0))
    return events
