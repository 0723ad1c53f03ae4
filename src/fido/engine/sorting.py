"""Hand sorting as the FIDO texts teach it: difference classes, Ratzek order, jokers, tap-ins.

A non-double of difference k changes the sum by +k or -k, so only k modulo
the divisor d matters: its *class* is k reduced by d until it is at most d.
A double v-v laid crosswise raises the sum by v, so it sorts into class v
reduced the same way (0-0 joins class d). Class d keeps the sum's remainder:
those tiles are the *jokers*, kept to score right after an opponent scored.
Classes k and d - k belong together: +k and -(d - k) reach the same multiple.

>>> from fido.engine.tiles import Tile
>>> difference_class(Tile(18, 7), 11), difference_class(Tile(8, 8), 11)
(11, 8)
>>> [str(r) for r in ratzek_rows([Tile(3, 0), Tile(12, 9), Tile(5, 1), Tile(7, 0)], 7)]
['3|4: 0-3 9-12 | 5-1', '7: 7-0']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from fido.engine.table import SIDE, Table
from fido.engine.tiles import Tile

__all__ = [
    "Row",
    "difference_class",
    "is_joker",
    "ratzek_order",
    "ratzek_rows",
    "tap_ins",
]


def difference_class(tile: Tile, divisor: int) -> int:
    """The tile's class, 1 .. divisor (docs/rules.md section 3, hand sorting)."""
    k = tile.high if tile.is_double else tile.difference
    k %= divisor
    return k or divisor


def is_joker(tile: Tile, divisor: int) -> bool:
    """Keeps the sum's remainder: difference d (or a multiple), 0-0, d-d."""
    return difference_class(tile, divisor) == divisor


@dataclass(frozen=True, slots=True)
class Row:
    """One row of a sorted hand: a class pair (k, d - k), or the jokers (d,)."""

    classes: tuple[int, ...]
    left: tuple[tuple[int, int], ...]  # class k, oriented (left half, right half)
    right: tuple[tuple[int, int], ...]  # class d - k, oriented

    def tiles(self) -> list[Tile]:
        return [Tile(a, b) for a, b in self.left + self.right]

    def __str__(self) -> str:
        label = "|".join(map(str, self.classes))
        parts = [" ".join(f"{a}-{b}" for a, b in half) for half in (self.left, self.right)]
        return f"{label}: " + " | ".join(p for p in parts if p)


def ratzek_rows(hand: Iterable[Tile], divisor: int) -> list[Row]:
    """Daniela Ratzek's sorting, one row per class pair, jokers last.

    Class k runs left to right upwards with the higher number on the right;
    behind it class d - k runs left to right downwards with the higher number
    on the left. Empty rows are left out.
    """
    by_class: dict[int, list[Tile]] = {}
    for t in hand:
        by_class.setdefault(difference_class(t, divisor), []).append(t)
    rows: list[Row] = []
    for k in range(1, divisor // 2 + 1):
        up = sorted(by_class.get(k, []))
        down = sorted(by_class.get(divisor - k, []), reverse=True) if divisor - k != k else []
        if up or down:
            classes = (k, divisor - k) if divisor - k != k else (k,)
            rows.append(
                Row(
                    classes,
                    tuple((t.low, t.high) for t in up),
                    tuple((t.high, t.low) for t in down),
                )
            )
    jokers = sorted(by_class.get(divisor, []))
    if jokers:
        rows.append(Row((divisor,), tuple((t.high, t.low) for t in jokers), ()))
    return rows


def ratzek_order(hand: Iterable[Tile], divisor: int) -> list[Tile]:
    """The hand as one sequence in Ratzek order."""
    return [t for row in ratzek_rows(hand, divisor) for t in row.tiles()]


def tap_ins(hand: Iterable[Tile], table: Table, divisor: int) -> list[tuple[Tile, int]]:
    """(tile, side slot) pairs where the tile keeps the sum's remainder on a free side.

    A tap-in ("Abstauber") has a half v whose double lies on the table with a
    free side, and another half w with w % d == 0: on that side it changes the
    sum by w.
    """
    out: list[tuple[Tile, int]] = []
    sides = [(code, v) for code, (v, kind, _w) in table.open.items() if kind == SIDE]
    for t in hand:
        for code, v in sides:
            if v in t and not t.is_double and t.other(v) % divisor == 0:
                out.append((t, code))
    return out
