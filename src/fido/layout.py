"""Table layout: where every placed tile is drawn, computed once, in Python.

The web table, replays, the rule book's pictures and (later) the terminal draw
the same geometry, so it lives here and clients only draw it (as chessground
does for lichess). The rules never look at it: a slot's direction (its port)
is fixed by :mod:`fido.table`, but a drawn chain bends, so the drawn direction
of every open slot is this module's own state.

Units: a tile is 2 long and 1 wide (two 1x1 halves); x grows east and y grows
south, as in SVG. A :class:`Placed` tile has its centre, an angle (0, 90, 180
or 270: the direction from its ``first`` half to its ``second``, 0 pointing
east, clockwise as SVG's ``rotate``) and the numbers on its halves: ``first``
is the half touching its anchor, so it shows the matched value.

Slots as drawn (the semantics of :mod:`fido.table`): a slot's *face* is the
edge of its tile where the next tile touches, facing the slot's drawn
direction. The opening double of ``cross`` and ``inline`` lies west-east, its
ends (short edges) west and east and, in ``cross``, its naked sides (long
edges) north and south. The opening double of ``line`` and ``spinner`` lies
across the west-east line: long edges west and east, short edges (the
spinner's other arms) north and south. A non-double opening lies west-east,
its higher half west. A double on a slot lies crosswise, the middle of a long
edge on the face: its ends are its short edges, perpendicular to the growth,
and its free side is the far long edge (``inline``: doubles lie in line like
other tiles). Each placed tile keeps the compass turn of the face it was laid
on, so its ports are its own n, e, s, w turned with the drawing.

How a position is chosen (:meth:`Layouter.add`): a single goes straight on or
turns right or left (its first half in front of the face, the second ahead or
beside it); a double lies crosswise. Every open slot keeps its front cell free
(its marker goes there and nothing else may cover it), and softly a runway
ahead and, where a double may still come, room for that double and its ends
(the tee). Of the positions that fit, the one taking least of the other slots'
room and leaving its new slots most room (free cells ahead and beside) wins,
straight on before a turn, inside a square table area sized for the set; a
position slid half a unit along the face only when none fits cleanly. So
chains bend before they run into each other or off the table area.

A placed tile never moves, and the layout cannot know which slots will grow,
so a crowded corner can leave a slot no room (in about a quarter of random
FIDO double-18 games for 9 players, once or twice a game; in the classic games
never). The fallbacks, in order: a double in line instead of crosswise;
covering another slot's front cell, or leaving the new slot's front covered
(that slot's marker then shows where its tile would go); and last the tile is
drawn *detached*, at the nearest free spot ahead of its face
(``Placed.detached``; :func:`svg` draws a dashed connector). Tiles never
overlap.

The opening double and FIDO's second move on its north side:

>>> from fido.table import Table
>>> table = Table.from_text("cross 18-18 18-12@0n")
>>> [(p.x, p.y, p.angle, p.first, p.second) for p in layout(table)]
[(0.0, 0.0, 0, 18, 18), (0.0, -1.5, 270, 18, 12)]
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from html import escape
from typing import Final, NamedTuple

from fido.errors import ArgumentError, quote
from fido.moves import Placement
from fido.rules import Layout
from fido.table import END, Table
from fido.tiles import Tile

__all__ = ["Box", "Layouter", "Marker", "Placed", "bounds", "layout", "markers", "svg"]

# Internally every length is in half units (integers), so that a crosswise
# double (centred on a 1-wide face) and every tile edge fall on one grid of
# half-unit cells; a cell (i, j) covers [i, i+1) x [j, j+1) and is keyed
# i * _K + j, so a shape's cells are offsets added to its face's key.
_K: Final = 1 << 20
DX: Final = (0, 1, 0, -1)  # n, e, s, w (the ports' order)
DY: Final = (-1, 0, 1, 0)
ANGLES: Final = (270, 0, 90, 180)  # the angle of a tile growing towards n, e, s, w
KINDS: Final = ("end", "side")

# Penalties of a candidate position (lower is better; tuned on random games of
# FIDO double-18 with 9 players, the largest tables):
_ON_TEE: Final = 1000  # per unit cell of another slot's tee the tile reaches into
_ON_RUNWAY: Final = 250  # per unit cell of another slot's runway the tile reaches into
_ON_FRONT: Final = 10_000  # covering another slot's front cell (when nothing else fits)
_BLOCKED: Final = 50_000  # a new slot's front is covered (when nothing else fits)
_OUT_OF_AREA: Final = 500  # the tile leaves the table area
_FURTHER_OUT: Final = 200  # per half unit further out
_RUNWAY_TAKEN: Final = 400  # per unit cell of a new slot's runway a tile reaches into
_TEE_TAKEN: Final = 400  # per unit cell of a new end's tee a tile reaches into
_TEE_SHARED: Final = 40  # per unit cell of a new end's tee another slot keeps too
_CLEARANCE: Final = 15  # per unit of free room a new slot lacks ahead and beside
_TURN: Final = 20  # a bend
_SHIFT: Final = 50  # a tile slid half a unit along its face
_INLINE: Final = 100_000  # a double in line (only where no crosswise one fits)
_VIOLATION: Final = 100  # a later group (slid, in line) is tried from this penalty on
_TEE_W: Final = 1 << 8  # a tee's weight in Layouter._soft (a runway's is 1)
_AHEAD: Final = 10  # units of free room wanted straight ahead of a new slot
_BESIDE: Final = 5  # ... and on either side of its front cell
_AREA_PER_TILE: Final = 30  # square units of table area per tile of the set

Face = tuple[int, int, int]  # (x, y, drawn direction) of a slot's edge, half units


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

    slot: int  # the slot code of fido.table (anchor * 4 + port)
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


class _Shape(NamedTuple):
    """A tile's footprint relative to the face it is placed on (half units)."""

    cells: tuple[int, ...]
    units: tuple[tuple[int, ...], ...]  # the unit cells it reaches into, per face parity
    cx: int  # the tile's centre
    cy: int
    angle: int
    faces: tuple[tuple[int, int, int, int], ...]  # (port offset, x, y, direction) of its slots
    rect: tuple[int, int, int, int]


def _at(d: int, depth: int, perp: int) -> tuple[int, int]:
    """The point ``depth`` ahead of a face facing d and ``perp`` to its right."""
    r = (d + 1) & 3
    return depth * DX[d] + perp * DX[r], depth * DY[d] + perp * DY[r]


def _rect(d: int, a0: int, a1: int, b0: int, b1: int) -> tuple[int, int, int, int]:
    xa, ya = _at(d, a0, b0)
    xb, yb = _at(d, a1, b1)
    return min(xa, xb), min(ya, yb), max(xa, xb), max(ya, yb)


def _box(d: int, a0: int, a1: int, b0: int, b1: int) -> tuple[int, ...]:
    """The cells of depth a0..a1 and perp b0..b1 in front of a face facing d."""
    x0, y0, x1, y1 = _rect(d, a0, a1, b0, b1)
    return tuple(x * _K + y for x in range(x0, x1) for y in range(y0, y1))


def _in_units(cells: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The unit cells holding ``cells`` (offsets from a face), per parity of the face's
    coordinates (index 2 * (x & 1) + (y & 1)), as offsets from the face's unit cell."""
    out = []
    for px in (0, 1):
        for py in (0, 1):
            units = set()
            for c in cells:
                x, y = divmod(c + _K // 2, _K)
                y -= _K // 2
                units.add(((px + x) >> 1) * _K + ((py + y) >> 1))
            out.append(tuple(sorted(units)))
    return tuple(out)


def _shape(d: int, a1: int, b0: int, b1: int, *, angle: int,
           faces: list[tuple[int, int, int, int]]) -> _Shape:  # fmt: skip
    x0, y0, x1, y1 = _rect(d, 0, a1, b0, b1)
    cells = _box(d, 0, a1, b0, b1)
    return _Shape(cells, _in_units(cells), (x0 + x1) // 2, (y0 + y1) // 2, angle,
                  tuple(faces), (x0, y0, x1, y1))  # fmt: skip


def _straight(d: int, o: int) -> _Shape:
    return _shape(d, 4, o - 1, o + 1, angle=ANGLES[d], faces=[(0, *_at(d, 4, o), d)])


def _bend(d: int, s: int, o: int) -> _Shape:
    """The touching half in front of the face, the other half beside it (s=1: right)."""
    b0, b1 = (o - 1, o + 3) if s > 0 else (o - 3, o + 1)
    nd = (d + s) & 3
    return _shape(d, 2, b0, b1, angle=ANGLES[nd], faces=[(0, *_at(d, 1, o + 3 * s), nd)])


def _double(d: int, o: int, ends: bool, crosswise: bool) -> _Shape:
    """A double: crosswise (free side ahead, ends left and right) or in line (free
    side ahead, ends on its long sides); ``ends`` False: the free side only."""
    if crosswise:
        faces = [(0, *_at(d, 2, o), d)]
        if ends:
            faces += [(1, *_at(d, 1, o + 2), (d + 1) & 3), (3, *_at(d, 1, o - 2), (d + 3) & 3)]
        return _shape(d, 2, o - 2, o + 2, angle=ANGLES[(d + 1) & 3] % 180, faces=faces)
    faces = [(0, *_at(d, 4, o), d)]
    if ends:
        faces += [(1, *_at(d, 2, o + 1), (d + 1) & 3), (3, *_at(d, 2, o - 1), (d + 3) & 3)]
    return _shape(d, 4, o - 1, o + 1, angle=ANGLES[d], faces=faces)


_SHIFTS: Final = (0, 1, -1)  # a tile slid half a unit along its face


def _singles(d: int) -> tuple[tuple[_Shape, int, int], ...]:
    """(shape, cost, group) of a single at a face facing d, in order of preference."""
    out = []
    for g, o in enumerate(_SHIFTS):
        slide = _SHIFT if o else 0
        out += [(_straight(d, o), slide, g), (_bend(d, 1, o), slide + _TURN, g),
                (_bend(d, -1, o), slide + _TURN, g)]  # fmt: skip
    return tuple(out)


def _doubles(d: int, ends: bool) -> tuple[tuple[_Shape, int, int], ...]:
    """(shape, cost, group) of a double: crosswise, slid, and in line where none fits."""
    cross = [_double(d, o, ends, True) for o in _SHIFTS]
    line = [_double(d, o, ends, False) for o in _SHIFTS]
    return ((cross[0], 0, 0), (cross[1], _SHIFT, 1), (cross[2], _SHIFT, 1),
            (line[0], _INLINE, 2), (line[1], _INLINE + _SHIFT, 3),
            (line[2], _INLINE + _SHIFT, 3))  # fmt: skip


SINGLES: Final = tuple(_singles(d) for d in range(4))
DOUBLES_CROSS: Final = tuple(_doubles(d, True) for d in range(4))
DOUBLES_LINE: Final = tuple(_doubles(d, False) for d in range(4))
# what an open slot keeps free: its front cell always; softly a runway ahead
# (depth 1..5, three units wide) and, where a double may still come, room for
# it crosswise with its ends' front cells and runways (the tee)
FRONT: Final = tuple(_box(d, 0, 2, -1, 1) for d in range(4))
RUNWAY: Final = tuple(_box(d, 2, 10, -3, 3) for d in range(4))
TEE_CROSS: Final = tuple(_box(d, 0, 2, 1, 8) + _box(d, 0, 2, -8, -1) for d in range(4))
TEE_LINE: Final = tuple(_box(d, 0, 2, 1, 2) + _box(d, 0, 2, -2, -1) for d in range(4))
# the unit cells probed for room ahead of a new front cell, and to either side of it
AHEAD: Final = tuple(tuple(i * DX[d] * _K + i * DY[d] for i in range(1, _AHEAD + 1))
                     for d in range(4))  # fmt: skip
BESIDE: Final = tuple(
    tuple(
        tuple(i * DX[r] * _K + i * DY[r] for i in range(1, _BESIDE + 1))
        for r in ((d + 1) & 3, (d + 3) & 3)
    )
    for d in range(4)
)


def _unit(x: int, y: int) -> int:
    """The key of the unit cell (2x2 half-unit cells) holding the half-unit point (x, y)."""
    return (x >> 1) * _K + (y >> 1)


# the soft room is kept in unit cells (a quarter of the bookkeeping)
RUNWAY_UNITS: Final = tuple(_in_units(RUNWAY[d]) for d in range(4))
TEE_CROSS_UNITS: Final = tuple(_in_units(TEE_CROSS[d]) for d in range(4))
TEE_LINE_UNITS: Final = tuple(_in_units(TEE_LINE[d]) for d in range(4))


class _Slot:
    """An open slot's drawing state: its face and the cells it keeps free."""

    __slots__ = ("face", "front", "runway", "tee")

    def __init__(self, face: Face, front: list[int], runway: list[int], tee: list[int]) -> None:
        self.face = face
        self.front = front
        self.runway = runway
        self.tee = tee


class Layouter:
    """Lays a table out one placement at a time; a placed tile never moves.

    ``max_pips`` sizes the table area (the set double-n) and tells which numbers
    are used up; by default it is read from the opening tile (at least
    double-6). The layouter keeps its own :class:`~fido.table.Table`, so it
    refuses placements that do not fit the table so far.

    >>> lay = Layouter(Layout.CROSS, max_pips=18)
    >>> lay.add(Placement(Tile(18, 18))).angle
    0
    >>> [m.slot for m in lay.markers()]
    [0, 1, 2, 3]
    """

    def __init__(self, shape: Layout = Layout.CROSS, max_pips: int | None = None) -> None:
        if not isinstance(shape, Layout):
            raise ArgumentError(f"a layout is one of {', '.join(Layout)}, not {quote(shape)}")
        if max_pips is not None and (max_pips.__class__ is not int or not 1 <= max_pips <= 99):
            raise ArgumentError(f"max_pips is a set's highest number, not {quote(max_pips)}")
        self._table = Table(shape)
        self._max_pips = max_pips
        self._placed: list[Placed] = []
        self._faces: list[tuple[Face | None, ...]] = []  # per tile, per port
        self._slots: dict[int, _Slot] = {}
        self._covered: set[int] = set()  # cells under a tile
        self._units: set[int] = set()  # unit cells a tile reaches into
        # what the open slots keep free: front cells (hard, half-unit cells), and
        # softly tees and runways (unit cells, weighted _TEE_W and 1 into one count)
        self._fronts: dict[int, int] = {}
        self._soft: dict[int, int] = {}
        self._doubles: set[int] = set()  # numbers whose double is on the table
        self._left: list[int] = []  # per number: tiles showing it still to come
        self._area = 0  # half the side of the table area, half units (set at the opening)
        self._crosswise = shape is not Layout.INLINE
        self._tee = TEE_CROSS_UNITS if shape is Layout.CROSS else TEE_LINE_UNITS
        self._double = DOUBLES_CROSS if shape is Layout.CROSS else DOUBLES_LINE

    @classmethod
    def from_table(cls, table: Table, max_pips: int | None = None) -> Layouter:
        if not isinstance(table, Table):
            raise ArgumentError(f"expected a fido.table.Table, not {quote(table)}")
        lay = cls(table.layout, max_pips)
        lay.extend(table.placements)
        return lay

    def __len__(self) -> int:
        return len(self._placed)

    @property
    def table(self) -> Table:
        """A copy of the table laid out so far."""
        return self._table.copy()

    @property
    def placed(self) -> tuple[Placed, ...]:
        return tuple(self._placed)

    def extend(self, placements: Iterable[Placement]) -> None:
        for p in placements:
            self.add(p)

    # ------------------------------------------------------------ placing

    def add(self, placement: Placement) -> Placed:
        """Lay out the next placement (it must fit the table so far) and return its tile."""
        if not isinstance(placement, Placement):
            raise ArgumentError(f"only placements are laid out, not {quote(placement)}")
        table = self._table
        tile = placement.tile
        code = placement.slot
        slot = table.open.get(code) if code >= 0 else None
        table.place(tile, code)  # refuses what does not fit, before anything changes
        index = len(self._placed)
        placed = self._open(tile) if slot is None else self._attach(index, tile, code, slot[0])
        self._placed.append(placed)
        if tile.is_double:
            self._doubles.add(tile.high)
            self._drop_room(tile.high, tees_only=True)
        left = self._left
        for v in {tile.high, tile.low}:
            if v < len(left):
                left[v] -= 1
                if left[v] == 0:
                    self._drop_room(v, tees_only=False)
        for p in range(4):
            if index * 4 + p in table.open:
                self._reserve(index * 4 + p)
        return placed

    def _open(self, tile: Tile) -> Placed:
        n = self._max_pips if self._max_pips is not None else max(tile.high, 6)
        self._area = math.ceil(math.sqrt((n + 1) * (n + 2) // 2 * _AREA_PER_TILE))
        self._left = [n + 1] * (n + 1)
        upright = tile.is_double and self._table.layout in (Layout.LINE, Layout.SPINNER)
        if upright:  # across the west-east line
            faces: tuple[Face | None, ...] = ((0, -2, 0), (1, 0, 1), (0, 2, 2), (-1, 0, 3))
            x0, y0, x1, y1 = -1, -2, 1, 2
        else:
            faces = ((0, -1, 0), (2, 0, 1), (0, 1, 2), (-2, 0, 3))
            x0, y0, x1, y1 = -2, -1, 2, 1
        self._faces.append(faces)
        self._covered.update(x * _K + y for x in range(x0, x1) for y in range(y0, y1))
        self._units.update(_unit(x, y) for x in range(x0, x1) for y in range(y0, y1))
        return Placed(0, tile, 0.0, 0.0, 90 if upright else 0, tile.high, tile.low)

    def _attach(self, index: int, tile: Tile, code: int, value: int) -> Placed:
        state = self._slots.pop(code)
        self._release(state)
        fx, fy, d = state.face
        other = tile.other(value)
        if tile.is_double and self._crosswise:
            order = self._double[d]
            tee = False  # its slots show its number, whose double it is
        else:
            order = SINGLES[d]
            tee = self._crosswise and other not in self._doubles and not self._dead(other)
        # the room its new slots need: none if it is the last tile showing their
        # number (nothing will come there), a runway, and a tee if a double may come
        left = self._left
        need = 0 if other < len(left) and left[other] == 1 else 2 if tee else 1
        chosen = self._choose(order, fx, fy, need)
        shape = order[max(chosen, 0)][0]
        detached = chosen < 0
        if detached:
            fx, fy = self._free_spot(shape, fx, fy, d)
        self._covered.update(map((fx * _K + fy).__add__, shape.cells))
        parity = 2 * (fx & 1) + (fy & 1)
        self._units.update(map(_unit(fx, fy).__add__, shape.units[parity]))
        faces: list[Face | None] = [None, None, None, None]
        port = code & 3
        for dp, x, y, nd in shape.faces:
            faces[(port + dp) & 3] = (fx + x, fy + y, nd)
        self._faces.append(tuple(faces))
        second = value if tile.is_double else tile.other(value)
        return Placed(index, tile, (fx + shape.cx) / 2, (fy + shape.cy) / 2, shape.angle,
                      value, second, detached)  # fmt: skip

    def _choose(self, order: tuple[tuple[_Shape, int, int], ...], fx: int, fy: int,
                need: int) -> int:  # fmt: skip
        """The index in ``order`` of the least penalised position, or -1 if none fits.

        A later group (slid along the face; a double in line) is tried only when the
        earlier ones cost another slot its room; the relaxed tiers (covering another
        slot's front cell, leaving a new front covered) only when nothing fits.
        """
        for tier in (0, 1, 2):
            best = -1
            best_pen = 0
            group = 0
            for i, (shape, cost, g) in enumerate(order):
                if g != group:
                    if best >= 0 and best_pen < _VIOLATION:
                        return best
                    group = g
                if best >= 0 and cost >= best_pen:
                    continue  # it cannot win
                pen = self._penalty(shape, fx, fy, need, tier)
                if pen >= 0 and (best < 0 or pen + cost < best_pen):
                    best, best_pen = i, pen + cost
            if best >= 0:
                return best
        return -1

    def _penalty(self, shape: _Shape, fx: int, fy: int, need: int, tier: int) -> int:
        """-1 if the tile does not fit (tier 0: nor on another slot's front cell, nor
        leaving a new front covered; tier 1 allows the first, tier 2 both); else how
        much room it takes from the other slots and leaves its new slots, as far as
        they ``need`` it (0 none, 1 a runway, 2 also a tee)."""
        covered = self._covered
        fronts = self._fronts
        cells = list(map((fx * _K + fy).__add__, shape.cells))
        if not covered.isdisjoint(cells):
            return -1
        pen = 0
        if not fronts.keys().isdisjoint(cells):
            if not tier:
                return -1
            pen += _ON_FRONT
        soft = self._soft
        parity = 2 * (fx & 1) + (fy & 1)
        for k in soft.keys() & map(((fx >> 1) * _K + (fy >> 1)).__add__, shape.units[parity]):
            pen += _ON_TEE if soft[k] >= _TEE_W else _ON_RUNWAY
        a = self._area
        x0, y0, x1, y1 = shape.rect
        out = max(-a - fx - x0, -a - fy - y0, fx + x1 - a, fy + y1 - a)
        if out > 0:
            pen += _OUT_OF_AREA + _FURTHER_OUT * out
        if not need:
            return pen
        tee = need == 2
        units = self._units
        for _dp, x, y, nd in shape.faces:
            nx = fx + x
            ny = fy + y
            front = list(map((nx * _K + ny).__add__, FRONT[nd]))
            if not covered.isdisjoint(front) or (not tier and not fronts.keys().isdisjoint(front)):
                if tier < 2:
                    return -1
                pen += _BLOCKED
            u = (nx >> 1) * _K + (ny >> 1)
            parity = 2 * (nx & 1) + (ny & 1)
            pen += _RUNWAY_TAKEN * len(units.intersection(map(u.__add__, RUNWAY_UNITS[nd][parity])))
            if tee:
                tee_units = list(map(u.__add__, self._tee[nd][parity]))
                pen += _TEE_TAKEN * len(units.intersection(tee_units))
                pen += _TEE_SHARED * len(soft.keys() & tee_units)
            # room: free unit cells straight ahead of the new front cell and beside it
            u = ((nx + DX[nd]) >> 1) * _K + ((ny + DY[nd]) >> 1)
            short = 0
            ahead = AHEAD[nd]
            if not units.isdisjoint(map(u.__add__, ahead)):
                short = _AHEAD
                for off in ahead:
                    if u + off in units:
                        break
                    short -= 1
            for side in BESIDE[nd]:
                if not units.isdisjoint(map(u.__add__, side)):
                    lack = _BESIDE
                    for off in side:
                        if u + off in units:
                            break
                        lack -= 1
                    short += 2 * lack if tee else lack
            pen += _CLEARANCE * short
        return pen

    def _free_spot(self, shape: _Shape, fx: int, fy: int, d: int) -> tuple[int, int]:
        """The nearest face position ahead of (fx, fy) facing d where ``shape`` fits with
        free front cells: where a tile with no room at its anchor is drawn."""
        covered = self._covered
        fronts = self._fronts
        rx, ry = DX[(d + 1) & 3], DY[(d + 1) & 3]
        for k in range(1, 1 << 12):
            for o in (0, *(s * j for j in range(1, k + 1) for s in (1, -1))):
                x = fx + k * DX[d] + o * rx
                y = fy + k * DY[d] + o * ry
                base = x * _K + y
                cells = [base + c for c in shape.cells]
                cells += [(x + nx) * _K + y + ny + c for _dp, nx, ny, nd in shape.faces
                          for c in FRONT[nd]]  # fmt: skip
                if covered.isdisjoint(cells) and fronts.keys().isdisjoint(cells):
                    return x, y
        raise AssertionError("no free spot on an unbounded table")  # pragma: no cover

    # ------------------------------------------------------------ bookkeeping

    def _dead(self, value: int) -> bool:
        """No tile showing ``value`` is left: nothing will come to its slots."""
        return value < len(self._left) and self._left[value] <= 0

    def _reserve(self, code: int) -> None:
        face = self._faces[code >> 2][code & 3]
        assert face is not None
        x, y, d = face
        front: list[int] = []
        runway: list[int] = []
        tee: list[int] = []
        value, kind, _w = self._table.open[code]
        if not self._dead(value):
            front = list(map((x * _K + y).__add__, FRONT[d]))
            u = _unit(x, y)
            parity = 2 * (x & 1) + (y & 1)
            runway = list(map(u.__add__, RUNWAY_UNITS[d][parity]))
            if self._crosswise and kind == END and value not in self._doubles:
                tee = list(map(u.__add__, self._tee[d][parity]))
        _add(self._fronts, front, 1)
        _add(self._soft, runway, 1)
        _add(self._soft, tee, _TEE_W)
        self._slots[code] = _Slot(face, front, runway, tee)

    def _release(self, state: _Slot) -> None:
        _drop(self._fronts, state.front, 1)
        _drop(self._soft, state.runway, 1)
        _drop(self._soft, state.tee, _TEE_W)

    def _drop_room(self, value: int, tees_only: bool) -> None:
        """Its double is placed (``tees_only``) or every tile showing ``value`` is: its
        slots keep no room for a double, or none at all but their front cells."""
        open_ = self._table.open
        for code, state in self._slots.items():
            if open_[code][0] == value:
                _drop(self._soft, state.tee, _TEE_W)
                state.tee = []
                if not tees_only:
                    _drop(self._soft, state.runway, 1)
                    _drop(self._fronts, state.front, 1)
                    state.runway = []
                    state.front = []

    # ------------------------------------------------------------ queries

    def markers(self) -> tuple[Marker, ...]:
        """Where each open slot is drawn, in the table's slot order: every legal target
        of the next placement is one of them."""
        out = []
        covered = self._covered
        for code, (v, k, _w) in self._table.open.items():
            x, y, d = self._slots[code].face
            base = x * _K + y
            detached = any(base + c in covered for c in FRONT[d])
            if detached:
                self._fronts_off(code)
                x, y = self._free_spot(SINGLES[d][0][0], x, y, d)
                self._fronts_on(code)
            out.append(Marker(code, (x + DX[d]) / 2, (y + DY[d]) / 2, ANGLES[d], v, KINDS[k],
                              detached))  # fmt: skip
        return tuple(out)

    def _fronts_off(self, code: int) -> None:
        _drop(self._fronts, self._slots[code].front, 1)

    def _fronts_on(self, code: int) -> None:
        _add(self._fronts, self._slots[code].front, 1)

    def box(self, with_markers: bool = False) -> Box:
        """The bounding box of the tiles (and the markers): to fit the table to a view."""
        return bounds(self._placed, self.markers() if with_markers else ())


def _add(room: dict[int, int], cells: list[int], weight: int) -> None:
    get = room.get
    for c in cells:
        room[c] = get(c, 0) + weight


def _drop(room: dict[int, int], cells: list[int], weight: int) -> None:
    for c in cells:
        n = room[c] - weight
        if n:
            room[c] = n
        else:
            del room[c]


def layout(table: Table, max_pips: int | None = None) -> tuple[Placed, ...]:
    """Every placed tile of ``table``, drawn (the same as adding them one by one)."""
    return Layouter.from_table(table, max_pips).placed


def markers(table: Table, max_pips: int | None = None) -> tuple[Marker, ...]:
    """Where to draw each open slot of ``table`` (see :meth:`Layouter.markers`)."""
    return Layouter.from_table(table, max_pips).markers()


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


def _num(v: float) -> str:
    return f"{v:g}"


def svg(table: Table, max_pips: int | None = None, scale: int = 24,
        show_slots: bool = True) -> str:  # fmt: skip
    """A plain SVG picture of the table: tiles as rectangles with their numbers, a dashed
    line to each detached tile and (``show_slots``) a circle for each open slot; for
    tests, docs and a first look."""
    lay = Layouter.from_table(table, max_pips)
    placed = lay.placed
    marks = lay.markers() if show_slots else ()
    box = bounds(placed, marks)
    m = 0.5
    x0, y0 = box.x0 - m, box.y0 - m
    w, h = box.width + 2 * m, box.height + 2 * m
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{_num(x0)} {_num(y0)} '
        f'{_num(w)} {_num(h)}" width="{math.ceil(w * scale)}" height="{math.ceil(h * scale)}">',
        f"<title>{escape(table.text())}</title>",
        '<g font-family="sans-serif" font-size="0.6" text-anchor="middle" '
        'dominant-baseline="central">',
    ]
    for p in placed:
        rx0, ry0, rx1, ry1 = p.rect
        out.append(
            f'<g class="tile" data-index="{p.index}" data-tile="{escape(p.tile.text())}">'
            f'<rect x="{_num(rx0)}" y="{_num(ry0)}" width="{_num(rx1 - rx0)}" '
            f'height="{_num(ry1 - ry0)}" rx="0.1" fill="ivory" stroke="black" '
            'stroke-width="0.05"/>'
        )
        if p.angle % 180 == 0:
            line = (p.x, ry0 + 0.1, p.x, ry1 - 0.1)
        else:
            line = (rx0 + 0.1, p.y, rx1 - 0.1, p.y)
        out.append(
            f'<line x1="{_num(line[0])}" y1="{_num(line[1])}" x2="{_num(line[2])}" '
            f'y2="{_num(line[3])}" stroke="black" stroke-width="0.03"/>'
        )
        for which, value in ((0, p.first), (1, p.second)):
            hx0, hy0, hx1, hy1 = p.half(which)
            out.append(
                f'<text x="{_num((hx0 + hx1) / 2)}" y="{_num((hy0 + hy1) / 2)}">'
                f"{escape(str(value))}</text>"
            )
        out.append("</g>")
        if p.detached:
            a = placed[table.placements[p.index].anchor]
            hx0, hy0, hx1, hy1 = p.half(0)
            out.append(
                f'<line class="detached" x1="{_num(a.x)}" y1="{_num(a.y)}" '
                f'x2="{_num((hx0 + hx1) / 2)}" y2="{_num((hy0 + hy1) / 2)}" stroke="gray" '
                'stroke-width="0.05" stroke-dasharray="0.2 0.2"/>'
            )
    for mk in marks:
        out.append(
            f'<circle class="slot" data-slot="{mk.slot}" data-kind="{escape(mk.kind)}" '
            f'cx="{_num(mk.x)}" cy="{_num(mk.y)}" r="0.3" fill="none" stroke="green" '
            'stroke-width="0.05"/>'
        )
    out.append("</g></svg>")
    return "\n".join(out)
