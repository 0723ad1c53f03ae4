"""Legal-move generation: the one place the rules of placing, drawing and passing live.

:meth:`fido.engine.game.Game.push` accepts exactly the moves generated here, and
:mod:`fido.engine.validation` only explains a refusal, so the rules are written once.

Legal moves come in a fixed, documented order: placements first, by open slot
in the order the slots were opened, and within a slot by ascending tile
(higher half, then lower); then ``DRAW`` where drawing is allowed beside
placing (the draw game); ``DRAW`` or ``PASS`` alone when the player cannot
place. The opening move is the opener's tile alone (the draw game: every
tile of the first seat's hand, ascending).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final, Protocol, cast

from fido.engine.moves import DRAW, PASS, Draw, Move, Placement
from fido.engine.native import MAX_PIPS, native
from fido.engine.table import END, SIDE
from fido.engine.tiles import DominoSet, Tile

if TYPE_CHECKING:
    from fido.engine.game import Game
    from fido.engine.plan import Plan

__all__ = [
    "DRAW_CLASS", "DRAW_FREE", "DRAW_MOVE", "DRAW_ONE", "DRAW_UNTIL", "PASS_MOVE", "PASS_ONLY",
    "PLACEMENT", "Kernel", "can_draw", "can_place", "generate", "interned", "kernel",
    "kernel_fits",
]  # fmt: skip

# what a stuck player does, as small ints for the hot path
PASS_ONLY: Final = 0
DRAW_ONE: Final = 1
DRAW_UNTIL: Final = 2
DRAW_FREE: Final = 3

# fido.engine.moves is interpreted: compiled code reads a name imported from it by a
# dictionary lookup each time. Bound once here, they are compiled globals for the hot
# paths (``type(move) is PLACEMENT``; the engine's modules import them from here).
PLACEMENT: Final = Placement
DRAW_CLASS: Final = Draw
DRAW_MOVE: Final = DRAW
PASS_MOVE: Final = PASS

# Interned placements, _ROWS[slot code][tile id] = Placement(tile, code // 4, code % 4):
# creating a NamedTuple per legal move would cost more than generating the moves.
# Rows are filled whole, every tile of the set, for every slot of the first n
# tiles, the first time any table (a real one, or one a search imagines) holds n
# tiles: what the cache holds follows from table sizes and sets alone, never
# from which tiles some hand held. It grows with the square of the set (4 slots a
# tile, each row every tile), so only sets up to double-21 (the largest FIDO set:
# 1,012 rows of 253, 16 MB) are interned; a larger custom set (up to double-99, five
# million tiles' worth of rows) gets new placements, slower and bounded.
_ROWS: Final[list[list[Placement]]] = []
INTERNED_TILES: Final = 253


def _grow(codes: int, dominoes: DominoSet) -> None:
    """Rows for slot codes ``0 .. codes - 1``, each with every tile of ``dominoes``.

    Every row is as long as the longest (the largest set seen), so checking the
    first row's length tells whether all rows hold a set's tiles.
    """
    rows = _ROWS
    top = max(dominoes.count, len(rows[0]) if rows else 0)
    biggest = DominoSet(_max_pips(top))
    while len(rows) < codes:
        rows.append([])
    tiles = biggest.tiles
    for code, row in enumerate(rows):
        for tid in range(len(row), top):
            row.append(Placement(tiles[tid], code >> 2, code & 3))


def interned(game: Game, code: int, tile_id: int) -> Placement:
    """The interned placement of tile ``tile_id`` on slot ``code`` of ``game``'s table
    (a new one past double-21)."""
    if game.set.count > INTERNED_TILES:
        return Placement(game.set.tiles[tile_id], code >> 2, code & 3)
    rows = _ROWS
    if len(rows) <= code or len(rows[0]) < game.set.count:
        _grow(max(code + 1, 4 * len(game.table.placements)), game.set)
    return rows[code][tile_id]


# the opening placements, by tile id (as the rows: tile ids are the same in every set)
_OPENINGS: Final[list[Placement]] = []


def _opening(tile: Tile) -> Placement:
    """The interned opening placement of ``tile`` (a new one past double-21)."""
    openings = _OPENINGS
    tid = tile.id
    if tid >= len(openings):
        if tid >= INTERNED_TILES:
            return Placement(tile)
        tiles = DominoSet(_max_pips(tid + 1)).tiles
        openings.extend([Placement(t) for t in tiles[len(openings) :]])
    return openings[tid]


def _max_pips(count: int) -> int:
    """The n of the double-n set with ``count`` tiles."""
    n = 0
    while (n + 1) * (n + 2) // 2 < count:
        n += 1
    return n


def placements(game: Game) -> list[Placement]:
    """Every placement the player to move may make, in the documented order."""
    seat = game.turn
    hand = game.hands[seat]
    table = game.table
    if not table.placements:
        if game.opening_tile is not None:
            return [_opening(game.opening_tile)]
        return [Placement(t) for t in game.set.tiles_of(hand)]
    by_value = game.by_value[seat]
    dominoes = game.set
    pair_ids = dominoes.pair_ids
    count = dominoes.count
    if count > INTERNED_TILES:
        return _placements_uninterned(game)
    rows = _ROWS
    codes = 4 * len(table.placements)
    if len(rows) < codes or len(rows[0]) < count:
        _grow(codes, dominoes)
    moves: list[Placement] = []
    if len(table.placements) < 5:
        only_sides, only_arms = table.slot_filter()
    else:
        only_sides = only_arms = False
    for code, (v, kind, _w) in table.open.items():
        m = by_value[v]
        if not m:
            continue
        if only_sides and kind != SIDE:
            continue
        if only_arms and code >= 4:
            continue
        ids = pair_ids[v]
        row = rows[code]
        while m:
            low = m & -m
            moves.append(row[ids[low.bit_length() - 1]])
            m ^= low
    if game.mother_theresa and moves:
        moves = mother_theresa(game, moves)
    return moves


def _placements_uninterned(game: Game) -> list[Placement]:
    """:func:`placements` past double-21: the same moves in the same order, made new."""
    by_value = game.by_value[game.turn]
    table = game.table
    dominoes = game.set
    tiles = dominoes.tiles
    pair_ids = dominoes.pair_ids
    only_sides, only_arms = table.slot_filter()
    moves: list[Placement] = []
    for code, (v, kind, _w) in table.open.items():
        m = by_value[v]
        if not m or (only_sides and kind != SIDE) or (only_arms and code >= 4):
            continue
        while m:
            low = m & -m
            moves.append(Placement(tiles[pair_ids[v][low.bit_length() - 1]], code >> 2, code & 3))
            m ^= low
    if game.mother_theresa and moves:
        moves = mother_theresa(game, moves)
    return moves


def mother_theresa(game: Game, moves: list[Placement]) -> list[Placement]:
    """A free side only if the move scores, or if there is no placement on an end."""
    open_ = game.table.open
    if all(open_[m.slot][1] == SIDE for m in moves):
        return moves
    return [m for m in moves if open_[m.slot][1] == END or game.points_for(m) > 0]


def can_draw(game: Game) -> bool:
    return game.stuck != PASS_ONLY and game.stock_count > game.keep_in_stock


def can_place(game: Game) -> bool:
    if not game.table.placements:
        return True
    hand = game.hands[game.turn]
    vmask = game.set.value_masks
    return any(hand & vmask[v] for _code, v in game.table.playable())


def generate(game: Game) -> list[Move]:
    """Every legal move of the player to move; none while a draw waits for its tile."""
    if game.outcome is not None or game.pending >= 0:
        return []
    moves = cast(list[Move], placements(game))  # a fresh list: the game caches it
    if moves:
        if game.stuck == DRAW_FREE and game.table.placements and can_draw(game):
            moves.append(DRAW_MOVE)
        return moves
    return [DRAW_MOVE if can_draw(game) else PASS_MOVE]


# ------------------------------------------------------------ the kernel in C


class Kernel(Protocol):
    """fido.engine._core's Kernel: a fresh FIDO deal played on machine integers."""

    def legal(self) -> list[Move]: ...
    def push(self, move: object, /) -> int: ...
    def moves(self) -> list[Move]: ...
    def result(self) -> tuple[list[int], list[int], bool, int]: ...


_KERNEL: Final = cast("Callable[..., Kernel] | None", native("kernel"))


def kernel_fits(plan: Plan) -> bool:
    """Whether :func:`kernel` plays the rules of ``plan``: a FIDO table (the cross layout,
    where the second tile goes on a side of the opening double) with no Mother Theresa
    and no drawing beside placing, a divisor or no scoring, up to double-21 (and the
    extension built)."""
    return (
        _KERNEL is not None
        and plan.cross
        and not plan.mother_theresa
        and plan.stuck != DRAW_FREE
        and plan.divisor >= 0
        and plan.dominoes.max_pips <= MAX_PIPS
    )


def kernel(game: Game, plan: Plan) -> Kernel | None:
    """A kernel for a game just dealt that it can play, else None (Python plays it).

    It plays the rules of this module where :func:`kernel_fits` (``plan`` is the game's
    rules'), for up to 16 players, from a deal with an opening double and the stock's
    order held; its legal moves are this module's objects in this module's order.
    """
    make = _KERNEL
    tile = game.opening_tile
    dominoes = game.set
    if (
        make is None
        or tile is None
        or not tile.is_double
        or plan.rules is not game.rules
        or not kernel_fits(plan)
        or game.table.placements
        or game.players > 16
        or len(game._order) != game.stock_count
        or game.outcome is not None
    ):
        return None
    rows = _ROWS
    return make(
        game.players, game.turn, game.divisor, int(game._clockwise), game.stuck,
        game.keep_in_stock, game.hands, game._order, _opening(tile), tile.high,
        rows, _grow, dominoes, dominoes.count, DRAW_MOVE, PASS_MOVE,
    )  # fmt: skip
