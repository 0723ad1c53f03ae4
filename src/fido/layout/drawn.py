"""What a layout draws: tiles (:class:`Placed`), open slots (:class:`Marker`) and
their bounding :class:`Box`, in units (a tile is 2 long and 1 wide; x grows east,
y south, as in SVG)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from fido.engine.tiles import Tile


@dataclass(frozen=True, slots=True)
class Placed:
    """One drawn tile: centre (x, y) in units, angle in degrees, the numbers on its halves."""

    index: int  # its place in the table's order of placements
    tile: Tile
    x: float
    y: float
    angle: int
    first: int  # the number on the half touching the anchor (the matched value)
    second: int
    detached: bool = False  # no room at its anchor: drawn further on, apart from it

    @property
    def rect(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1): the tile's rectangle."""
        if self.angle % 180 == 0:
            return (self.x - 1, self.y - 0.5, self.x + 1, self.y + 0.5)
        return (self.x - 0.5, self.y - 1, self.x + 0.5, self.y + 1)

    def half(self, which: int) -> tuple[float, float, float, float]:
        """The rectangle of the first (0) or second (1) half."""
        d = self.angle // 90  # 0 east, 1 south, 2 west, 3 north
        sign = 0.5 if which else -0.5
        cx = self.x + sign * (1, 0, -1, 0)[d]
        cy = self.y + sign * (0, 1, 0, -1)[d]
        return (cx - 0.5, cy - 0.5, cx + 0.5, cy + 0.5)


class Marker(NamedTuple):
    """Where to draw an open slot: the centre of the 1x1 cell a tile placed there covers
    first (in front of the slot's face, unless the slot is blocked and its tile would
    be ``detached``)."""

    slot: int  # the slot code of fido.engine.table (anchor * 4 + port)
    x: float
    y: float
    angle: int  # the direction a tile placed there grows (0 east, 90 south)
    value: int
    kind: str  # "end" or "side"
    detached: bool = False


class Box(NamedTuple):
    """An axis-aligned bounding box in units."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0



def bounds(tiles: Iterable[Placed], marks: Iterable[Marker] = ()) -> Box:
    """The smallest box holding the tiles and the markers' cells (0-size when empty)."""
    xs0: list[float] = []
    ys0: list[float] = []
    xs1: list[float] = []
    ys1: list[float] = []
    for p in tiles:
        x0, y0, x1, y1 = p.rect
        xs0.append(x0)
        ys0.append(y0)
        xs1.append(x1)
        ys1.append(y1)
    for m in marks:
        xs0.append(m.x - 0.5)
        ys0.append(m.y - 0.5)
        xs1.append(m.x + 0.5)
        ys1.append(m.y + 0.5)
    if not xs0:
        return Box(0.0, 0.0, 0.0, 0.0)
    return Box(min(xs0), min(ys0), max(xs1), max(ys1))
