"""A slow, simple reference implementation of the rules, for property tests.

Written from ``docs/rules.md`` and the table geometry of the API summary, on
purpose without anything from :mod:`fido.engine.table` or :mod:`fido.engine.game`: every
question is answered by replaying the placements from scratch with plain
loops. The property tests compare the engine with this module after every
move.

Geometry (directions n=0, e=1, s=2, w=3; a slot is ``tile_index * 4 + direction``):

- the opening tile lies with its ends west and east;
- cross (FIDO): the opening double v-v has ends e, w and naked sides n, s;
  a double placed at direction p lies crosswise: ends at the two directions
  perpendicular to p, a naked side at p;
- inline (FIDO, soenke_hansen): the opening double has ends e, w only; a
  double placed at p has one end at p;
- line (classic): the opening tile has ends e (its low half) and w (its high
  half); a double placed at p has one end at p, counting both halves;
- spinner (sebastopol): the opening double has four ends n, e, s, w (its
  arms); other doubles behave as in a line;
- a non-double placed at p has its one end at p, showing its other half.

>>> from fido.engine.rules import ruleset
>>> r = ruleset("fido", set=18)
>>> t = [Placement(Tile(18, 18)), Placement(Tile(18, 12), 0, 0)]
>>> ends_sum(r, t), ends_sum(r, [*t, Placement(Tile(18, 7), 0, 2)])
(48, 55)
"""

from __future__ import annotations

from collections.abc import Sequence

from fido.engine.moves import DRAW, PASS, Move, Placement
from fido.engine.rules import Layout, Opener, Ruleset, Scoring, Stuck
from fido.engine.tiles import Tile

__all__ = [
    "END",
    "SIDE",
    "RefMove",
    "RefSlot",
    "ends_sum",
    "final_results",
    "hand_size",
    "legal_moves",
    "next_seat",
    "open_slots",
    "opener",
    "places",
    "points",
    "sum_after",
    "whole_set",
]

END = 0
SIDE = 1

N = 0
E = 1
S = 2
W = 3

RefSlot = tuple[int, int, int]
"""(value, kind, weight): the number a tile must show, END or SIDE, what it adds to the sum."""

RefMove = Move


class BadTable(ValueError):
    """The placements do not describe a table the rules can build."""


def whole_set(max_pips: int) -> list[Tile]:
    """Every tile a-b with 0 <= b <= a <= max_pips, once."""
    out = []
    for a in range(max_pips + 1):
        for b in range(a + 1):
            out.append(Tile(a, b))
    return out


def _other_half(tile: Tile, value: int) -> int:
    if tile.high == value:
        return tile.low
    if tile.low == value:
        return tile.high
    raise BadTable(f"{tile} does not show {value}")


def _replay(rules: Ruleset, placements: Sequence[Placement]) -> tuple[dict[int, RefSlot], int]:
    """Replay the table: (open slots, value of an opening double still counted whole or -1).

    The opening double of a line or a spinner does not count through its
    slots (their weight is 0); it adds 2v as long as fewer than two of its
    slots are taken: "the opening tile alone counts its pips once" and "a
    double at an end counts both halves" (line), "6-6 counts 12 while fewer
    than two arms are taken" (spinner).
    """
    layout = rules.layout
    offered: list[dict[int, RefSlot]] = []  # per tile: direction -> slot it opened
    taken: list[list[int]] = []  # per tile: directions that got a tile
    whole_double = -1
    placed: set[Tile] = set()
    for i in range(len(placements)):
        p = placements[i]
        tile = p.tile
        mine: dict[int, RefSlot] = {}
        if i == 0:
            if p.anchor != -1 or p.port != -1:
                raise BadTable("the first tile is the opening tile, without an anchor")
            v = tile.high
            if tile.is_double:
                if layout == Layout.CROSS:
                    mine[N] = (v, SIDE, 0)
                    mine[E] = (v, END, v)
                    mine[S] = (v, SIDE, 0)
                    mine[W] = (v, END, v)
                elif layout == Layout.INLINE:
                    mine[E] = (v, END, v)
                    mine[W] = (v, END, v)
                elif layout == Layout.LINE:
                    mine[E] = (v, END, 0)
                    mine[W] = (v, END, 0)
                    whole_double = v
                else:
                    mine[N] = (v, END, 0)
                    mine[E] = (v, END, 0)
                    mine[S] = (v, END, 0)
                    mine[W] = (v, END, 0)
                    whole_double = v
            else:
                if layout != Layout.LINE:
                    raise BadTable("only a line may open with a non-double")
                mine[E] = (tile.low, END, tile.low)
                mine[W] = (tile.high, END, tile.high)
        else:
            a = p.anchor
            d = p.port
            if a < 0 or a >= i or d < 0 or d > 3:
                raise BadTable(f"placement {i} names no placed tile")
            if d not in offered[a] or d in taken[a]:
                raise BadTable(f"placement {i} goes on a slot that is not open")
            if tile in placed:
                raise BadTable(f"{tile} is placed twice")
            value = offered[a][d][0]
            other = _other_half(tile, value)
            taken[a].append(d)
            if tile.is_double:
                if layout == Layout.CROSS:
                    left = (d + 1) % 4
                    right = (d + 3) % 4
                    mine[left] = (value, END, value)
                    mine[right] = (value, END, value)
                    mine[d] = (value, SIDE, 0)
                elif layout == Layout.INLINE:
                    mine[d] = (value, END, value)
                else:
                    mine[d] = (value, END, 2 * value)
            else:
                mine[d] = (other, END, other)
        offered.append(mine)
        taken.append([])
        placed.add(tile)
    slots: dict[int, RefSlot] = {}
    for i in range(len(offered)):
        for d in range(4):
            if d in offered[i] and d not in taken[i]:
                slots[i * 4 + d] = offered[i][d]
    if whole_double >= 0 and len(taken[0]) >= 2:
        whole_double = -1
    return slots, whole_double


def open_slots(rules: Ruleset, placements: Sequence[Placement]) -> dict[int, RefSlot]:
    """Slot code -> (value, kind, weight) of every open slot."""
    return _replay(rules, placements)[0]


def ends_sum(rules: Ruleset, placements: Sequence[Placement]) -> int:
    """The sum of the ends, recomputed from scratch."""
    slots, whole_double = _replay(rules, placements)
    total = 0
    for code in slots:
        total += slots[code][2]
    if whole_double >= 0:
        total += 2 * whole_double
    return total


def sum_after(rules: Ruleset, placements: Sequence[Placement], move: Placement) -> int:
    """The sum of the ends after ``move``."""
    return ends_sum(rules, [*placements, move])


def points(rules: Ruleset, total: int) -> int:
    """docs/rules.md: FIDO and muggins score S / d when d divides S; fives and threes both."""
    if rules.scoring == Scoring.DIVISOR:
        if total % rules.divisor == 0:
            return total // rules.divisor
        return 0
    if rules.scoring == Scoring.FIVES_AND_THREES:
        pts = 0
        if total % 5 == 0:
            pts += total // 5
        if total % 3 == 0:
            pts += total // 3
        return pts
    return 0


# docs/rules.md section 4: hand sizes of the classic games by number of players
CLASSIC_HANDS = {
    "straight": {2: 8, 3: 6, 4: 5},
    "block": {2: 7, 3: 5, 4: 5},
    "draw": {2: 7, 3: 5, 4: 6},
    "muggins": {2: 7, 3: 5, 4: 5},
    "fives_and_threes": {2: 7, 3: 7, 4: 7},
    "sebastopol": {4: 7},
}


def hand_size(rules: Ruleset, players: int) -> int:
    """FIDO: floor(tiles / (players + 1)); the classic games: docs/rules.md's table."""
    if rules.name in CLASSIC_HANDS:
        return CLASSIC_HANDS[rules.name][players]
    return len(whole_set(rules.max_pips)) // (players + 1)


def opener(rules: Ruleset, hands: Sequence[Sequence[Tile]]) -> tuple[int, Tile | None]:
    """(seat, tile) that opens: the highest (lowest) double dealt; the draw game: seat 0, any."""
    if rules.opener == Opener.FIRST_SEAT:
        return 0, None
    values = list(range(rules.max_pips + 1))
    if rules.opener == Opener.HIGHEST_DOUBLE:
        values.reverse()
    for v in values:
        for seat in range(len(hands)):
            if Tile(v, v) in hands[seat]:
                return seat, Tile(v, v)
    raise ValueError("no double dealt")


def next_seat(rules: Ruleset, seat: int, players: int) -> int:
    if rules.clockwise:
        return (seat + 1) % players
    return (seat - 1) % players


def _fitting_placements(
    rules: Ruleset, placements: Sequence[Placement], hand: Sequence[Tile]
) -> list[Placement]:
    """Every tile of the hand on every open slot it fits, with the slot restrictions."""
    slots = open_slots(rules, placements)
    out = []
    for code in slots:
        value, kind, _weight = slots[code]
        # FIDO rule 3: the second move goes on a side of the opening double
        if rules.layout == Layout.CROSS and len(placements) == 1 and kind != SIDE:
            continue
        # sebastopol: the four tiles after 6-6 go on its empty arms
        if rules.layout == Layout.SPINNER and len(placements) < 5 and code // 4 != 0:
            continue
        for tile in hand:
            if tile.high == value or tile.low == value:
                out.append(Placement(tile, code // 4, code % 4))
    return out


def legal_moves(
    rules: Ruleset,
    placements: Sequence[Placement],
    hand: Sequence[Tile],
    stock_count: int,
    opening_tile: Tile | None,
) -> set[RefMove]:
    """The set of legal moves of the player to move (the game not over).

    ``opening_tile`` matters only while the table is empty: the tile the game
    must open with, or None when any tile of the hand may open (draw game).
    """
    if not placements:
        if opening_tile is not None:
            if opening_tile not in hand:
                raise ValueError("the player to open does not hold the opening tile")
            return {Placement(opening_tile)}
        return {Placement(t) for t in hand}
    moves: list[Placement] = _fitting_placements(rules, placements, hand)
    if rules.mother_theresa:
        slots = open_slots(rules, placements)
        on_end = False
        for m in moves:
            if slots[m.slot][1] == END:
                on_end = True
        if on_end:
            kept = []
            for m in moves:
                if slots[m.slot][1] == END or points(rules, sum_after(rules, placements, m)) > 0:
                    kept.append(m)
            moves = kept
    result: set[RefMove] = set(moves)
    may_draw = rules.stuck != Stuck.PASS and stock_count > rules.keep_in_stock
    if moves:
        if rules.stuck == Stuck.DRAW_FREE and may_draw:
            result.add(DRAW)
        return result
    if may_draw:
        return {DRAW}
    return {PASS}


def places(finals: Sequence[int]) -> list[int]:
    """1 + the number of strictly better results (equal results share a place)."""
    out = []
    for f in finals:
        better = 0
        for g in finals:
            if g > f:
                better += 1
        out.append(better + 1)
    return out


def final_results(scores: Sequence[int], pip_counts: Sequence[int]) -> list[int]:
    """FIDO rule 7: points scored minus pips left."""
    out = []
    for i in range(len(scores)):
        out.append(scores[i] - pip_counts[i])
    return out
