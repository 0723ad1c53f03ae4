"""Tiles and domino sets.

A tile is an interned, immutable value: ``Tile(18, 12) is Tile(12, 18)``.
Interning makes equality and hashing identity checks, which the move
generator relies on for speed. Every tile has a global integer ``id`` that
does not depend on the set (``high * (high + 1) // 2 + low``), so the tiles of
double-n are exactly ids ``0 .. (n+1)(n+2)/2 - 1`` and a hand can be a bitmask.

>>> t = Tile.from_text("12-18")
>>> t, str(t), t.pips, t.difference, t.is_double
(Tile(18, 12), '18-12', 30, 6, False)
>>> DominoSet(6).count
28
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import ClassVar, Final

from fido.errors import ArgumentError, NotationError, quote

__all__ = ["DominoSet", "Tile", "tile_id"]

_TILE_RE: Final = re.compile(r"\s*(\d{1,3})\s*[-|:]\s*(\d{1,3})\s*", re.ASCII)
MAX_PIPS: Final = 99  # generous bound for custom sets; keeps masks sane


_FIELDS: Final = ("high", "low", "id", "bit", "pips", "difference", "is_double")
_SET_FIELDS: Final = ("max_pips", "tiles", "count", "value_masks", "pair_tiles", "pair_ids")


def tile_id(a: int, b: int) -> int:
    """The global id of the tile a-b (either order)."""
    if a < b:
        a, b = b, a
    return a * (a + 1) // 2 + b


class Tile:
    """One domino; ``high >= low``. Create with ``Tile(a, b)`` in either order."""

    __slots__ = ("bit", "difference", "high", "id", "is_double", "low", "pips")
    _interned: ClassVar[dict[tuple[int, int], Tile]] = {}

    high: int
    low: int
    id: int
    bit: int
    pips: int
    difference: int
    is_double: bool

    def __new__(cls, a: object, b: object) -> Tile:
        # (typed ``object``: a compiled build would refuse other types with a bare TypeError)
        if a.__class__ is not int or b.__class__ is not int:
            raise ArgumentError(f"tile halves must be integers, got {quote(a)} and {quote(b)}")
        hi, lo = a, b
        if hi < lo:
            hi, lo = lo, hi
        tile = cls._interned.get((hi, lo))
        if tile is not None:
            return tile
        if lo < 0 or hi > MAX_PIPS:
            raise ArgumentError(
                f"tile halves must be between 0 and {MAX_PIPS}, got {quote(a)} and {quote(b)}"
            )
        tile = object.__new__(cls)
        tid = tile_id(hi, lo)
        values: tuple[int, int, int, int, int, int, bool] = (
            hi, lo, tid, 1 << tid, hi + lo, hi - lo, hi == lo,
        )  # fmt: skip
        try:  # compiled (a native class): fields are set directly, not through __setattr__
            tile.high, tile.low, tile.id, tile.bit, tile.pips, tile.difference = values[:6]
            tile.is_double = values[6]
        except AttributeError:  # plain Python: past the __setattr__ that guards them
            for name, value in zip(_FIELDS, values, strict=True):
                object.__setattr__(tile, name, value)
        cls._interned[hi, lo] = tile
        return tile

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("tiles are immutable")

    def __hash__(self) -> int:  # interned: equal tiles are the same object, so the id will do
        return self.id

    def __reduce__(self) -> tuple[type[Tile], tuple[int, int]]:
        return (Tile, (self.high, self.low))

    def __copy__(self) -> Tile:
        return self

    def __deepcopy__(self, memo: object) -> Tile:
        return self

    def __repr__(self) -> str:
        return f"Tile({self.high}, {self.low})"

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    def __lt__(self, other: Tile) -> bool:
        return self.id < other.id

    def __le__(self, other: Tile) -> bool:
        return self.id <= other.id

    def __gt__(self, other: Tile) -> bool:
        return self.id > other.id

    def __ge__(self, other: Tile) -> bool:
        return self.id >= other.id

    def text(self) -> str:
        """Canonical text: the higher half first, ``"18-12"``."""
        return f"{self.high}-{self.low}"

    @classmethod
    def from_text(cls, text: object) -> Tile:
        """Parse ``"18-12"`` (also ``"12-18"``, ``"18|12"``, ``"18:12"``)."""
        m = _TILE_RE.fullmatch(text) if isinstance(text, str) else None
        if not m:
            raise NotationError(
                f"not a tile: {quote(text)} (write it as two numbers, e.g. '18-12')"
            )
        a, b = int(m.group(1)), int(m.group(2))
        if max(a, b) > MAX_PIPS:
            raise NotationError(f"not a tile: {quote(text)} (halves go up to {MAX_PIPS})")
        return cls(a, b)

    def other(self, value: object) -> int:
        """The half opposite the half showing ``value``."""
        if value == self.high:
            return self.low
        if value == self.low:
            return self.high
        raise ArgumentError(f"{self} does not show {quote(value)}")

    def __contains__(self, value: int) -> bool:
        # ``value: int``, not ``object``: mypyc (2.4) compiles ``a in b`` as
        # ``a.__contains__(b)`` when ``a`` is a native class whose __contains__ accepts
        # b's type, so ``tile in some_set`` in compiled code would ask the tile
        return value == self.high or value == self.low


class DominoSet:
    """The double-n set: every tile a-b with 0 <= b <= a <= n exactly once."""

    __slots__ = ("count", "max_pips", "pair_ids", "pair_tiles", "tiles", "value_masks")

    max_pips: int
    count: int
    tiles: tuple[Tile, ...]
    value_masks: tuple[int, ...]
    pair_tiles: tuple[tuple[Tile, ...], ...]  # pair_tiles[a][b] is Tile(a, b)
    pair_ids: tuple[tuple[int, ...], ...]  # pair_ids[a][b] is Tile(a, b).id (no attribute lookups)

    _cache: ClassVar[dict[int, DominoSet]] = {}

    def __new__(cls, pips: object) -> DominoSet:
        cached = cls._cache.get(pips) if pips.__class__ is int else None
        if cached is not None:
            return cached
        if pips.__class__ is not int or not 1 <= pips <= MAX_PIPS:
            raise ArgumentError(f"a set is double-1 .. double-{MAX_PIPS}, got double-{quote(pips)}")
        max_pips = pips
        self = object.__new__(cls)
        tiles = tuple(Tile(a, b) for a in range(max_pips + 1) for b in range(a + 1))
        assert all(t.id == i for i, t in enumerate(tiles))
        masks = [0] * (max_pips + 1)
        for t in tiles:
            masks[t.high] |= t.bit
            masks[t.low] |= t.bit
        pair_tiles = tuple(
            tuple(Tile(a, b) for b in range(max_pips + 1)) for a in range(max_pips + 1)
        )
        pair_ids = tuple(tuple(t.id for t in row) for row in pair_tiles)
        try:  # compiled (a native class): fields are set directly, not through __setattr__
            self.max_pips, self.tiles, self.count = max_pips, tiles, len(tiles)
            self.value_masks, self.pair_tiles, self.pair_ids = tuple(masks), pair_tiles, pair_ids
        except AttributeError:  # plain Python: past the __setattr__ that guards them
            fields = (max_pips, tiles, len(tiles), tuple(masks), pair_tiles, pair_ids)
            for name, value in zip(_SET_FIELDS, fields, strict=True):
                object.__setattr__(self, name, value)
        cls._cache[max_pips] = self
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("domino sets are immutable")

    def __reduce__(self) -> tuple[type[DominoSet], tuple[int]]:
        return (DominoSet, (self.max_pips,))

    def __repr__(self) -> str:
        return f"DominoSet({self.max_pips})"

    def __iter__(self) -> Iterator[Tile]:
        return iter(self.tiles)

    def __len__(self) -> int:
        return self.count

    def __contains__(self, tile: object) -> bool:
        return isinstance(tile, Tile) and tile.high <= self.max_pips

    @property
    def doubles(self) -> tuple[Tile, ...]:
        """Doubles from 0-0 up."""
        return tuple(Tile(v, v) for v in range(self.max_pips + 1))

    @property
    def full_mask(self) -> int:
        return (1 << self.count) - 1

    def mask_of(self, tiles: Iterator[Tile] | list[Tile] | tuple[Tile, ...]) -> int:
        m = 0
        for t in tiles:
            m |= t.bit
        return m

    def tiles_of(self, mask: int) -> list[Tile]:
        """The tiles of a bitmask, ascending."""
        out: list[Tile] = []
        tiles = self.tiles
        while mask:
            low = mask & -mask
            out.append(tiles[low.bit_length() - 1])
            mask ^= low
        return out

    def pips_of(self, mask: int) -> int:
        total = 0
        tiles = self.tiles
        while mask:
            low = mask & -mask
            total += tiles[low.bit_length() - 1].pips
            mask ^= low
        return total
