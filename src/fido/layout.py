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
chains bend before they run into each other or off the table area. A
lookahead on the numbers still to come passes over a position that would
leave a slot nearby (or a new one) no proper position for a single or a
double that may still come there, unless every position does.

That stable path never moves a tile, but it cannot know which slots will grow,
so now and then a crowded corner leaves the next tile no proper position (in
290 of 1,000 random FIDO double-18 games for 9 players, twice in such a game
on average; in the classic games never). Then the table is laid out again
(:meth:`Layouter._search`): a search over the tiles' positions (straight, a
bend, slid; doubles crosswise) until every tile touches its anchor, every
double lies crosswise, no two tiles overlap and every open slot's front cell
is free. It frees the new tile, its anchor and the tiles in its way first and
more only as needed, and keeps every tile where it was where it can (6 tiles
move in the median re-layout); :attr:`Layouter.moved` names the earlier tiles
that moved, for a client to animate. The search is bounded; only if it gives
up (never in those 1,000 games) is the tile drawn with the old fallbacks, in
order: a double in line instead of crosswise; covering another slot's front
cell, or leaving the new slot's front covered (that slot's marker then shows
where its tile would go); and last *detached*, at the nearest free spot ahead
of its face (``Placed.detached``; :func:`svg` draws a dashed connector).
Tiles never overlap.

The opening double and FIDO's second move on its north side:

>>> from fido.table import Table
>>> table = Table.from_text("cross 18-18 18-12@0n")
>>> [(p.x, p.y, p.angle, p.first, p.second) for p in layout(table)]
[(0.0, 0.0, 0, 18, 18), (0.0, -1.5, 270, 18, 12)]
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Iterable
from dataclasses import dataclass, replace
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
# a re-layout's search (Layouter._search, _Repair)
_CROWDED: Final = 30  # a tile in the way ahead of a new slot (more if nearer)
_NOISE: Final = 300  # a restart's random score of a position is below this
_ROUNDS: Final = 4  # rounds of repair before fresh layouts
_FRESH: Final = 3  # tiles per tile of the table a fresh layout may lay before a restart
_ROUND: Final = 100  # tiles a round of repair may lay, and per free tile:
_PER_TILE: Final = 5
_HEAVY: Final = 20  # a tile carrying more tiles than this stays put if it can

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
PROPER_CROSS: Final = tuple(order[:3] for order in DOUBLES_CROSS)  # crosswise only
PROPER_LINE: Final = tuple(order[:3] for order in DOUBLES_LINE)
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


def _footprints(order: tuple[tuple[_Shape, int, int], ...]) -> tuple[tuple[int, ...], ...]:
    """Per position of ``order``: its cells and its new slots' front cells (offsets)."""
    return tuple(
        shape.cells + tuple(x * _K + y + c for _dp, x, y, nd in shape.faces for c in FRONT[nd])
        for shape, _cost, _g in order
    )


# a re-layout's runway of a slot facing d, k units deep (k tiles to come, up to 5)
RUNWAYS: Final = tuple(tuple(_box(d, 2, 2 + 2 * k, -1, 1) for k in range(6)) for d in range(4))

# the room each position of a tile needs, keyed by the id of its order
FOOTPRINTS: Final = {
    id(order): _footprints(order)
    for orders in (SINGLES, PROPER_CROSS, PROPER_LINE)
    for order in orders
}


# all the room any position of an order may need (the union of its footprints)
REACH: Final = {key: tuple(sorted(set().union(*feet))) for key, feet in FOOTPRINTS.items()}


def _probes(d: int, reach: int) -> tuple[tuple[int, int], ...]:
    """(offset, weight) of the cells a re-layout looks at ahead of a new slot facing d:
    three lanes, ``reach`` * 2 units deep, nearer ones weighing more."""
    r = (d + 1) & 3
    return tuple(
        ((DX[d] * (2 * t - 1) + DX[r] * side) * _K + DY[d] * (2 * t - 1) + DY[r] * side,
         _CROWDED * (2 * reach + 1 - t))
        for t in range(1, 2 * reach + 1)
        for side in (-2, 0, 2)
    )  # fmt: skip


PROBES: Final = tuple(tuple(_probes(d, k) for k in range(6)) for d in range(4))


def _unit(x: int, y: int) -> int:
    """The key of the unit cell (2x2 half-unit cells) holding the half-unit point (x, y)."""
    return (x >> 1) * _K + (y >> 1)


# the soft room is kept in unit cells (a quarter of the bookkeeping)
RUNWAY_UNITS: Final = tuple(_in_units(RUNWAY[d]) for d in range(4))
TEE_CROSS_UNITS: Final = tuple(_in_units(TEE_CROSS[d]) for d in range(4))
TEE_LINE_UNITS: Final = tuple(_in_units(TEE_LINE[d]) for d in range(4))


class _Slot(NamedTuple):
    """An open slot's drawing state: its face and the cells it keeps free."""

    face: Face
    front: list[int]
    runway: list[int]
    tee: list[int]


class _How(NamedTuple):
    """How a tile was laid: its position's index in its face's order, and whether the
    position is proper (attached, a double crosswise, every front cell free)."""

    choice: int
    proper: bool


_BUDGET: Final = 20_000  # tiles a re-layout's search may lay before it gives up


class Layouter:
    """Lays a table out one placement at a time; a placed tile moves only when the
    table has to be laid out again (:attr:`moved`).

    ``max_pips`` sizes the table area (the set double-n) and tells which numbers
    are used up; by default it is read from the opening tile (at least
    double-6). The layouter keeps its own :class:`~fido.table.Table`, so it
    refuses placements that do not fit the table so far. ``relayout`` False
    keeps every tile where it was laid and draws a tile with no proper room
    with the fallbacks (what happens when a re-layout's search gives up);
    ``budget`` bounds that search (tiles laid); ``lookahead`` False turns the
    stable path's lookahead off (to measure what it is worth).

    >>> lay = Layouter(Layout.CROSS, max_pips=18)
    >>> lay.add(Placement(Tile(18, 18))).angle
    0
    >>> [m.slot for m in lay.markers()]
    [0, 1, 2, 3]
    >>> lay.add(Placement(Tile(18, 12), 0, 0)).y, lay.moved
    (-1.5, ())
    """

    def __init__(self, shape: Layout = Layout.CROSS, max_pips: int | None = None, *,
                 relayout: bool = True, lookahead: bool = True,
                 budget: int = _BUDGET) -> None:  # fmt: skip
        if not isinstance(shape, Layout):
            raise ArgumentError(f"a layout is one of {', '.join(Layout)}, not {quote(shape)}")
        if max_pips is not None and (max_pips.__class__ is not int or not 1 <= max_pips <= 99):
            raise ArgumentError(f"max_pips is a set's highest number, not {quote(max_pips)}")
        if budget.__class__ is not int or budget < 0:
            raise ArgumentError(f"a search budget is a count of tiles, not {quote(budget)}")
        self._table = Table(shape)
        self._max_pips = max_pips
        self.relayout = bool(relayout)
        self.lookahead = bool(lookahead)
        self.budget = budget
        self._placed: list[Placed] = []
        self._faces: list[tuple[Face | None, ...]] = []  # per tile, per port
        self._how: list[_How] = []  # per tile
        self._cells: list[tuple[list[int], list[int]]] = []  # per tile: its cells, unit cells
        self._slots: dict[int, _Slot] = {}
        self._covered: dict[int, int] = {}  # cell under a tile -> that tile
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
        self._proper_double = PROPER_CROSS if shape is Layout.CROSS else PROPER_LINE
        self.rounds = 0
        """Rounds of the last re-layout's search."""
        self.moved: tuple[int, ...] = ()
        """The earlier tiles the last :meth:`add` moved (a re-layout), in order."""
        self.relayouts = 0
        """How many placements the stable path could not lay properly: each one a
        re-layout, unless ``relayout`` is off or the search gave up."""
        self.last_resorts = 0
        """How many of those the fallbacks drew (no re-layout, or it gave up)."""
        self.nodes = 0
        """Tiles the last re-layout's search placed."""

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

    def copy(self) -> Layouter:
        """An independent layouter in the same state (e.g. to try a placement)."""
        new = copy.copy(self)
        new._table = self._table.copy()
        new._placed = self._placed.copy()
        new._faces = self._faces.copy()
        new._how = self._how.copy()
        new._cells = self._cells.copy()
        new._slots = self._slots.copy()
        new._covered = self._covered.copy()
        new._units = self._units.copy()
        new._fronts = self._fronts.copy()
        new._soft = self._soft.copy()
        new._doubles = self._doubles.copy()
        new._left = self._left.copy()
        return new

    # ------------------------------------------------------------ placing

    def add(self, placement: Placement) -> Placed:
        """Lay out the next placement (it must fit the table so far) and return its tile.

        The stable path lays it at its anchor without moving anything. Where that
        finds no proper position (attached, a double crosswise, every open slot's
        front cell free), the whole table is laid out again (:meth:`_search`) and
        :attr:`moved` tells which earlier tiles moved; only if that search gives up
        is the tile drawn with the fallbacks (see the module's docstring).
        """
        if not isinstance(placement, Placement):
            raise ArgumentError(f"only placements are laid out, not {quote(placement)}")
        self.moved = ()
        code = placement.slot
        if code < 0:
            return self._step(placement, -1)  # the table refuses a wrong opening
        table = self._table
        tile = placement.tile
        slot = table.open.get(code)
        if slot is None or slot[0] not in tile:
            table.copy().place(tile, code)  # refuses it with the table's own words
            raise AssertionError("unreachable")  # pragma: no cover
        state = self._slots[code]
        self._loosen(state)
        fx, fy, d = state.face
        order = self._order(tile, d, True)
        need = self._need(tile, slot[0])
        pens: dict[int, int] = {}
        choice = self._choose(order, fx, fy, need, (0,), pens=pens)
        if choice >= 0 and self.lookahead:
            harm = self._harm(tile, code, order[choice][0], fx, fy)
            skip = {choice}
            while harm:  # the least harmful position, the least penalised of those
                other = self._choose(order, fx, fy, need, (0,), skip=skip, pens=pens)
                if other < 0:
                    break
                skip.add(other)
                h = self._harm(tile, code, order[other][0], fx, fy)
                if h < harm:
                    choice, harm = other, h
        if choice >= 0:
            return self._step(placement, choice, loosened=True)
        self._tighten(state)
        self.relayouts += 1
        if self.relayout and self._search(placement):
            return self._placed[-1]
        self.last_resorts += 1
        return self._fallback(placement)

    def _order(self, tile: Tile, d: int, proper: bool) -> tuple[tuple[_Shape, int, int], ...]:
        """The positions of ``tile`` at a face facing d (``proper``: doubles crosswise)."""
        if tile.is_double and self._crosswise:
            return self._proper_double[d] if proper else self._double[d]
        return SINGLES[d]

    def _need(self, tile: Tile, value: int) -> int:
        """The room the new slots of ``tile`` laid on ``value`` need: none if it is the
        last tile showing their number (nothing will come there), a runway (1), and a
        tee (2) where a double may come."""
        other = tile.other(value)
        left = self._left
        if other < len(left) and left[other] == 1:
            return 0
        if tile.is_double and self._crosswise:
            return 1  # its slots show its number, whose double it is
        tee = self._crosswise and other not in self._doubles and not self._dead(other)
        return 2 if tee else 1

    def _fallback(self, pl: Placement) -> Placed:
        """The next tile with no proper room: a double in line, a front cell covered,
        and last detached (nearest free spot ahead of its face)."""
        state = self._slots[pl.slot]
        self._loosen(state)
        fx, fy, d = state.face
        order = self._order(pl.tile, d, False)
        need = self._need(pl.tile, self._table.open[pl.slot][0])
        chosen = self._choose(order, fx, fy, need, (0, 1, 2))
        spot = None if chosen >= 0 else self._free_spot(order[0][0], fx, fy, d)
        self._tighten(state)
        return self._step(pl, max(chosen, 0), spot, False)

    def _step(self, pl: Placement, choice: int, spot: tuple[int, int] | None = None,
              proper: bool = True, loosened: bool = False) -> Placed:  # fmt: skip
        """Lay the next tile at position ``choice`` of its face's order (or, detached,
        with its face put at ``spot``; ``loosened``: its slot's room is freed already)."""
        table = self._table
        tile = pl.tile
        code = pl.slot
        index = len(self._placed)
        if code < 0:
            table.place(tile)
            placed, faces, cells, units = self._open(tile)
            how = _How(-1, True)
        else:
            value = table.open[code][0]
            table.place(tile, code)
            state = self._slots.pop(code)
            if not loosened:
                self._loosen(state)
            fx, fy, d = state.face
            x, y = (fx, fy) if spot is None else spot
            placed, faces, cells, units = self._lay(index, pl, value, (x, y, d), choice)
            if spot is not None:
                placed = replace(placed, detached=True)
            how = _How(choice, proper)
        self._covered.update(dict.fromkeys(cells, index))
        self._units.update(units)
        self._placed.append(placed)
        self._faces.append(faces)
        self._how.append(how)
        self._cells.append((cells, units))
        if tile.is_double:
            self._doubles.add(tile.high)
            self._drop_room(tile.high, True)
        left = self._left
        for v in {tile.high, tile.low}:
            if v < len(left):
                left[v] -= 1
                if left[v] == 0:
                    self._drop_room(v, False)
        for p in range(4):
            if index * 4 + p in table.open:
                self._reserve(index * 4 + p)
        return placed

    def _lay(self, index: int, pl: Placement, value: int, face: Face, choice: int,
             ) -> tuple[Placed, tuple[Face | None, ...], list[int], list[int]]:  # fmt: skip
        """Tile ``index`` (laid by ``pl`` on ``value``) at position ``choice`` of a face
        (x, y, d): its drawing, its slots' faces, its cells and its unit cells."""
        x, y, d = face
        tile = pl.tile
        code = pl.slot
        shape = self._order(tile, d, False)[choice][0]
        cells = list(map((x * _K + y).__add__, shape.cells))
        units = list(map(_unit(x, y).__add__, shape.units[2 * (x & 1) + (y & 1)]))
        faces: list[Face | None] = [None, None, None, None]
        port = code & 3
        for dp, nx, ny, nd in shape.faces:
            faces[(port + dp) & 3] = (x + nx, y + ny, nd)
        second = value if tile.is_double else tile.other(value)
        placed = Placed(index, tile, (x + shape.cx) / 2, (y + shape.cy) / 2, shape.angle,
                        value, second)  # fmt: skip
        return placed, tuple(faces), cells, units

    def _move(self, choices: dict[int, int]) -> None:
        """Lay the given tiles (none of them the last) at new positions (tile -> index in
        its face's order, in placement order: a moved tile's anchor moves first): their
        cells, drawings and open slots follow."""
        covered = self._covered
        touched: set[int] = set()  # unit cells
        for k in choices:
            cells, units = self._cells[k]
            for c in cells:
                del covered[c]
            touched.update(units)
        pls = self._table.placements
        for k, choice in choices.items():
            pl = pls[k]
            face = self._faces[pl.anchor][pl.port]
            assert face is not None
            value = self._placed[k].first
            placed, faces, cells, units = self._lay(k, pl, value, face, choice)
            covered.update(dict.fromkeys(cells, k))
            touched.update(units)
            self._placed[k] = placed
            self._faces[k] = faces
            self._how[k] = _How(choice, True)
            self._cells[k] = (cells, units)
            for p, f in enumerate(faces):
                state = self._slots.get(k * 4 + p)
                if state is not None and f is not None:
                    self._loosen(state)
                    self._reserve(k * 4 + p, bool(state.runway), bool(state.tee))
        for u in touched:  # a unit cell stays while a tile reaches into it
            ux, uy = divmod(u + _K // 2, _K)
            c = 2 * ux * _K + 2 * uy - _K
            if c in covered or c + 1 in covered or c + _K in covered or c + _K + 1 in covered:
                self._units.add(u)
            else:
                self._units.discard(u)

    def _open(self, tile: Tile) -> tuple[Placed, tuple[Face | None, ...], list[int], list[int]]:
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
        cells = [x * _K + y for x in range(x0, x1) for y in range(y0, y1)]
        units = sorted({_unit(x, y) for x in range(x0, x1) for y in range(y0, y1)})
        placed = Placed(0, tile, 0.0, 0.0, 90 if upright else 0, tile.high, tile.low)
        return placed, faces, cells, units

    # ------------------------------------------------------------ re-layout

    def _search(self, new: Placement) -> bool:
        """Lay the table out again with ``new`` placed properly (True; :attr:`moved`
        tells which tiles moved), or give up after laying ``budget`` tiles (False,
        nothing changed).

        A large neighbourhood search (:class:`_Repair`): the tiles free to move
        start as the new tile, its anchor, the tiles in its way and any tile an
        earlier search gave up on (with every tile hanging on them); each round
        takes them off and lays them again (most constrained first, each first
        where it was, forward checking, conflict-directed backjumping), and a round
        that fails frees the tiles not free that were in the way and the anchors of
        the free tiles. After ``_ROUNDS`` rounds (or when nothing more can be
        freed) fresh layouts of the whole table follow, where no tile prefers its
        old place: the first by the scores alone, each restart with random noise
        on them, ``_FRESH`` tiles laid per tile of the table at most. Every round
        is bounded, and all of them by ``budget``: tiles laid, so the result does
        not depend on the machine's speed.
        """
        n = len(self._placed)
        placements = [*self._table.placements, new]
        rep = _Repair(self, placements)
        seeds = {k for k in range(1, n) if not self._how[k].proper}
        free = rep.closure(seeds | rep.blockers(n) | {n, new.anchor})
        budget = self.budget
        ok = False
        rounds = 0
        while rep.nodes < budget and rounds < _ROUNDS:
            rounds += 1
            frontier: set[int] = set()
            limit = min(budget - rep.nodes, _ROUND + _PER_TILE * len(free))
            if rep.search(free, limit, frontier):
                ok = True
                break
            more = rep.closure(free | frontier | {placements[k].anchor for k in free})
            if more == free:
                break
            free = more
        if not ok:  # fresh layouts of the whole table, with noise after the first
            free = set(range(1, n + 1))
            rep.fresh = True
            while rep.nodes < budget:
                rounds += 1
                limit = min(budget - rep.nodes, _FRESH * n)
                if rep.search(free, limit, set()):
                    ok = True
                    break
                rep.rng = random.Random(n * 1009 + rounds)
        self.nodes = rep.nodes
        self.rounds = rounds
        if not ok:
            return False
        moved = [False] * (n + 1)  # the tiles laid again (some land where they were)
        for k in range(1, n):
            moved[k] = rep.choice[k] != rep.orig[k] or moved[placements[k].anchor]
        old = self._placed.copy()
        self._move({k: rep.choice[k] for k in range(1, n) if moved[k]})
        self._step(new, rep.choice[n])
        placed = self._placed
        self.moved = tuple(k for k in range(n) if moved[k] and placed[k] != old[k])
        return True

    def _viable(self, order: tuple[tuple[_Shape, int, int], ...], face: Face, own: list[int],
                extra: set[int]) -> bool:  # fmt: skip
        """Whether a position of ``order`` at ``face`` (whose front cells are ``own``)
        fits properly with the ``extra`` cells taken too."""
        covered = self._covered.keys()
        fronts = self._fronts.keys()
        base = face[0] * _K + face[1]
        for foot in FOOTPRINTS[id(order)]:
            cells = list(map(base.__add__, foot))
            if (extra.isdisjoint(cells) and covered.isdisjoint(cells)
                    and (fronts.isdisjoint(cells) or (fronts & cells).issubset(own))):  # fmt: skip
                return True
        return False

    def _harm(self, tile: Tile, code: int, shape: _Shape, fx: int, fy: int) -> int:
        """The stable path's lookahead: how much ``tile`` laid at (fx, fy) on slot
        ``code`` costs the open slots nearby and its own new slots, 0 if each keeps a
        proper position for a single and for a double as far as one may still come
        there; else per slot that loses it, 1 + the singles still to come showing its
        number for a single's position, 1 for a double's."""
        base = fx * _K + fy
        extra = set(map(base.__add__, shape.cells))
        news: list[tuple[Face, list[int]]] = []
        for _dp, x, y, nd in shape.faces:
            front = list(map(((fx + x) * _K + fy + y).__add__, FRONT[nd]))
            news.append(((fx + x, fy + y, nd), front))
            extra.update(front)
        x0, y0, x1, y1 = shape.rect
        x0 += fx - 8
        y0 += fy - 8
        x1 += fx + 8
        y1 += fy + 8
        open_ = self._table.open
        proper_double = self._proper_double if self._crosswise else None
        none: set[int] = set()
        harm = 0
        for c, state in self._slots.items():
            sx, sy, sd = state.face
            if c == code or not (x0 <= sx <= x1 and y0 <= sy <= y1):
                continue
            v, kind, _w = open_[c]
            singles, double = self._may_come(tile, v)
            b = sx * _K + sy
            checks = [(SINGLES[sd], 1 + singles)] if singles else []
            if double and kind == END and proper_double is not None:
                checks.append((proper_double[sd], 1))
            for order, weight in checks:
                # a slot with no room already is not this tile's doing
                if (not extra.isdisjoint(map(b.__add__, REACH[id(order)]))
                        and not self._viable(order, state.face, state.front, extra)
                        and self._viable(order, state.face, state.front, none)):  # fmt: skip
                    harm += weight
        v = tile.high if tile.is_double else tile.other(open_[code][0])
        singles, double = self._may_come(tile, v)
        for face, front in news:
            nd = face[2]
            rest = extra.difference(front)
            if singles and not self._viable(SINGLES[nd], face, front, rest):
                harm += 1 + singles
            if double and proper_double is not None and \
                    not self._viable(proper_double[nd], face, front, rest):  # fmt: skip
                harm += 1
        return harm

    def _may_come(self, tile: Tile, value: int) -> tuple[int, bool]:
        """How many singles, and whether the double, showing ``value`` may still come
        once ``tile`` (the next) is laid."""
        left = self._left
        if value >= len(left):
            return 1, False
        n = left[value] - (value in tile)
        double_left = value not in self._doubles and not (tile.is_double and tile.high == value)
        return max(n - double_left, 0), double_left and n > 0

    # ------------------------------------------------------------ choosing

    def _choose(self, order: tuple[tuple[_Shape, int, int], ...], fx: int, fy: int,
                need: int, tiers: tuple[int, ...], *, skip: set[int] | None = None,
                pens: dict[int, int] | None = None) -> int:  # fmt: skip
        """The index in ``order`` of the least penalised position but ``skip``, or -1 if
        none fits (``pens``: the tier-0 penalties found so far, kept for a next call).

        A later group (slid along the face; a double in line) is tried only when the
        earlier ones cost another slot its room; the relaxed tiers (covering another
        slot's front cell, leaving a new front covered) only when nothing fits.
        """
        for tier in tiers:
            best = -1
            best_pen = 0
            group = 0
            for i, (shape, cost, g) in enumerate(order):
                if g != group:
                    if best >= 0 and best_pen < _VIOLATION:
                        return best
                    group = g
                if (best >= 0 and cost >= best_pen) or (skip and i in skip):
                    continue  # it cannot win
                if pens is None:
                    pen = self._penalty(shape, fx, fy, need, tier)
                else:
                    pen = pens.get(i, -2)
                    if pen == -2:
                        pen = pens[i] = self._penalty(shape, fx, fy, need, tier)
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
        covered = self._covered.keys()
        fronts = self._fronts.keys()
        cells = list(map((fx * _K + fy).__add__, shape.cells))
        if not covered.isdisjoint(cells):
            return -1
        pen = 0
        if not fronts.isdisjoint(cells):
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
        tee = need == 2
        units = self._units
        for _dp, x, y, nd in shape.faces:
            nx = fx + x
            ny = fy + y
            front = list(map((nx * _K + ny).__add__, FRONT[nd]))
            if not covered.isdisjoint(front) or (not tier and not fronts.isdisjoint(front)):
                if tier < 2:
                    return -1
                pen += _BLOCKED
            if not need:
                continue
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
        covered = self._covered.keys()
        fronts = self._fronts.keys()
        rx, ry = DX[(d + 1) & 3], DY[(d + 1) & 3]
        for k in range(1, 1 << 12):
            for o in (0, *(s * j for j in range(1, k + 1) for s in (1, -1))):
                x = fx + k * DX[d] + o * rx
                y = fy + k * DY[d] + o * ry
                base = x * _K + y
                cells = [base + c for c in shape.cells]
                cells += [(x + nx) * _K + y + ny + c for _dp, nx, ny, nd in shape.faces
                          for c in FRONT[nd]]  # fmt: skip
                if covered.isdisjoint(cells) and fronts.isdisjoint(cells):
                    return x, y
        raise AssertionError("no free spot on an unbounded table")  # pragma: no cover

    # ------------------------------------------------------------ bookkeeping

    def _dead(self, value: int) -> bool:
        """No tile showing ``value`` is left: nothing will come to its slots."""
        return value < len(self._left) and self._left[value] <= 0

    def _reserve(self, code: int, runway_: bool = True, tee_: bool = True) -> None:
        """Open slot ``code``: its front cell (always: its marker goes there) and, while
        a tile may come, its runway and, where a double may come, its tee (each only
        if asked for)."""
        face = self._faces[code >> 2][code & 3]
        assert face is not None
        x, y, d = face
        runway: list[int] = []
        tee: list[int] = []
        value, kind, _w = self._table.open[code]
        front = list(map((x * _K + y).__add__, FRONT[d]))
        if runway_ and not self._dead(value):
            u = _unit(x, y)
            parity = 2 * (x & 1) + (y & 1)
            runway = list(map(u.__add__, RUNWAY_UNITS[d][parity]))
            if tee_ and self._crosswise and kind == END and value not in self._doubles:
                tee = list(map(u.__add__, self._tee[d][parity]))
        state = _Slot(face, front, runway, tee)
        self._tighten(state)
        self._slots[code] = state

    def _tighten(self, state: _Slot) -> None:
        """Keep the room of a slot."""
        _add(self._fronts, state.front, 1)
        _add(self._soft, state.runway, 1)
        _add(self._soft, state.tee, _TEE_W)

    def _loosen(self, state: _Slot) -> None:
        """Free the room of a slot."""
        _drop(self._fronts, state.front, 1)
        _drop(self._soft, state.runway, 1)
        _drop(self._soft, state.tee, _TEE_W)

    def _drop_room(self, value: int, tees_only: bool) -> None:
        """Its double is placed (``tees_only``) or every tile showing ``value`` is: its
        slots keep no room for a double, or none at all but their front cells."""
        open_ = self._table.open
        slots = self._slots
        for code, state in slots.items():
            if open_[code][0] == value and (state.tee or (state.runway and not tees_only)):
                _drop(self._soft, state.tee, _TEE_W)
                if tees_only:
                    slots[code] = state._replace(tee=[])
                else:
                    _drop(self._soft, state.runway, 1)
                    slots[code] = state._replace(runway=[], tee=[])

    # ------------------------------------------------------------ queries

    def markers(self) -> tuple[Marker, ...]:
        """Where each open slot is drawn, in the table's slot order: every legal target
        of the next placement is one of them."""
        out = []
        covered = self._covered
        for code, (v, k, _w) in self._table.open.items():
            state = self._slots[code]
            x, y, d = state.face
            base = x * _K + y
            detached = any(base + c in covered for c in FRONT[d])
            if detached:
                _drop(self._fronts, state.front, 1)
                x, y = self._free_spot(SINGLES[d][0][0], x, y, d)
                _add(self._fronts, state.front, 1)
            out.append(Marker(code, (x + DX[d]) / 2, (y + DY[d]) / 2, ANGLES[d], v, KINDS[k],
                              detached))  # fmt: skip
        return tuple(out)

    def box(self, with_markers: bool = False) -> Box:
        """The bounding box of the tiles (and the markers): to fit the table to a view."""
        return bounds(self._placed, self.markers() if with_markers else ())


class _Repair:
    """A re-layout's search (see :meth:`Layouter._search`): the table as a set of cells
    under tiles and the front cells of the open slots, where any tile can be taken off
    and laid again in any order that lays a tile's anchor first.

    A layout is proper when no two tiles share a cell and every slot's front cell is
    under no tile but the one laid on that slot (and under no other slot's front):
    that does not depend on the order the tiles were laid in, so the search may lay
    them in any order, the most constrained first.
    """

    def __init__(self, lay: Layouter, placements: list[Placement]) -> None:
        n = len(placements) - 1
        self.lay = lay
        self.pls = placements
        self.occ: dict[int, int] = dict(lay._covered)  # cell -> the tile on it
        self.res: dict[int, int] = {}  # front cell of an open slot -> that slot
        for code, state in lay._slots.items():
            self.res.update(dict.fromkeys(state.front, code))
        self.faces: list[list[Face | None]] = [list(f) for f in lay._faces]
        self.faces.append([None, None, None, None])
        self.cells: list[list[int]] = [cells for cells, _units in lay._cells]
        self.cells.append([])
        self.orig = [h.choice if h.proper else -1 for h in lay._how] + [-1]
        self.choice = self.orig.copy()
        self.laid = [True] * n + [False]
        self.kids: list[list[int]] = [[] for _ in range(n + 1)]
        self.size = [1] * (n + 1)
        for k in range(n, 0, -1):
            self.kids[placements[k].anchor].append(k)
            self.size[placements[k].anchor] += self.size[k]
        self.fill = {pl.slot: k for k, pl in enumerate(placements) if k}
        self.area = lay._area
        self.nodes = 0
        self.fresh = False  # a fresh layout: no tile prefers where it was
        self.rng: random.Random | None = None  # noise on the scores of a restart
        self.soft: dict[int, int] = {}  # cells ahead of the open slots (runways): how many
        for code, state in lay._slots.items():
            _add(self.soft, self.runway(code, state.face), 1)
        # the room the new tile's positions need (at its anchor as it lies now)
        face = self.faces[placements[n].anchor][placements[n].port]
        assert face is not None
        base = face[0] * _K + face[1]
        self.wanted = {base + c for foot in FOOTPRINTS[id(self.order(n))] for c in foot}
        self.wanted.update(map(base.__add__, FRONT[face[2]]))

    def closure(self, tiles: set[int]) -> set[int]:
        """``tiles`` and every tile hanging on them, but the opening (it never moves)."""
        out = set(tiles)
        out.discard(0)
        todo = list(out)
        while todo:
            for k in self.kids[todo.pop()]:
                if k not in out:
                    out.add(k)
                    todo.append(k)
        return out

    # ------------------------------------------------------------ the state

    def runway(self, code: int, face: Face) -> list[int]:
        """The cells ahead of slot ``code`` its tiles to come want (as many units as
        tiles hang there, up to 5; 2 for a slot open at the end)."""
        k = self.fill.get(code)
        reach = min(self.size[k], 5) if k is not None else 2
        return list(map((face[0] * _K + face[1]).__add__, RUNWAYS[face[2]][reach]))

    def order(self, j: int) -> tuple[tuple[_Shape, int, int], ...]:
        pl = self.pls[j]
        face = self.faces[pl.anchor][pl.port]
        assert face is not None
        return self.lay._order(pl.tile, face[2], True)

    def fits(self, j: int, o: int) -> bool:
        """Whether tile j (its anchor laid) fits properly at position o."""
        pl = self.pls[j]
        face = self.faces[pl.anchor][pl.port]
        assert face is not None
        base = face[0] * _K + face[1]
        cells = list(map(base.__add__, FOOTPRINTS[id(self.lay._order(pl.tile, face[2], True))][o]))
        if not self.occ.keys().isdisjoint(cells):
            return False
        res = self.res
        s = pl.slot
        return res.keys().isdisjoint(cells) or all(res[c] == s for c in res.keys() & cells)

    def domain(self, j: int) -> list[int]:
        return [o for o in range(len(self.order(j))) if self.fits(j, o)]

    def blockers(self, j: int) -> set[int]:
        """The laid tiles whose cells or open slots are in the way of tile j."""
        pl = self.pls[j]
        face = self.faces[pl.anchor][pl.port]
        assert face is not None
        cells = set(map((face[0] * _K + face[1]).__add__, REACH[id(self.order(j))]))
        occ = self.occ
        res = self.res
        out = {occ[c] for c in occ.keys() & cells}
        out.update(res[c] >> 2 for c in res.keys() & cells if res[c] != pl.slot)
        return out

    def lay_tile(self, j: int, o: int) -> None:
        pl = self.pls[j]
        face = self.faces[pl.anchor][pl.port]
        assert face is not None
        fx, fy, _d = face
        shape = self.order(j)[o][0]
        faces: list[Face | None] = [None, None, None, None]
        for dp, x, y, nd in shape.faces:
            faces[(pl.port + dp) & 3] = (fx + x, fy + y, nd)
        self.put(j, list(map((fx * _K + fy).__add__, shape.cells)), faces, o)

    def put(self, j: int, cells: list[int], faces: list[Face | None], o: int) -> None:
        """Lay tile j on ``cells`` with the slots ``faces`` (position o)."""
        pl = self.pls[j]
        face = self.faces[pl.anchor][pl.port]
        assert face is not None
        res = self.res
        s = pl.slot
        for c in map((face[0] * _K + face[1]).__add__, FRONT[face[2]]):
            if res.get(c) == s:
                del res[c]
        _drop(self.soft, self.runway(s, face), 1)
        self.occ.update(dict.fromkeys(cells, j))
        for q, f in enumerate(faces):
            if f is not None:
                res.update(dict.fromkeys(map((f[0] * _K + f[1]).__add__, FRONT[f[2]]), j * 4 + q))
                _add(self.soft, self.runway(j * 4 + q, f), 1)
        self.faces[j] = faces
        self.cells[j] = cells
        self.choice[j] = o
        self.laid[j] = True

    def take(self, j: int) -> None:
        """Take tile j off (its children are off already): its slot opens again."""
        occ = self.occ
        for c in self.cells[j]:
            del occ[c]
        res = self.res
        for q, face in enumerate(self.faces[j]):
            if face is not None:
                code = j * 4 + q
                for c in map((face[0] * _K + face[1]).__add__, FRONT[face[2]]):
                    if res.get(c) == code:
                        del res[c]
                _drop(self.soft, self.runway(code, face), 1)
        self.faces[j] = [None, None, None, None]
        self.cells[j] = []
        self.laid[j] = False
        pl = self.pls[j]
        face = self.faces[pl.anchor][pl.port]
        assert face is not None
        res.update(dict.fromkeys(map((face[0] * _K + face[1]).__add__, FRONT[face[2]]), pl.slot))
        _add(self.soft, self.runway(pl.slot, face), 1)

    def score(self, j: int, o: int, face: Face, own: set[int]) -> int:
        """How bad position o of tile j at ``face`` looks: a bend, a slide, leaving the
        table area, reaching into the runways of other slots (``own``: its slot's),
        and tiles in the way ahead of its new slots, as far as tiles will come there."""
        fx, fy, d = face
        pl = self.pls[j]
        shape, cost, _g = self.lay._order(pl.tile, d, True)[o]
        a = self.area
        x0, y0, x1, y1 = shape.rect
        out = max(-a - fx - x0, -a - fy - y0, fx + x1 - a, fy + y1 - a)
        if out > 0:
            cost += _OUT_OF_AREA + _FURTHER_OUT * out
        soft = self.soft
        for c in soft.keys() & set(map((fx * _K + fy).__add__, shape.cells)):
            if soft[c] > (c in own):
                cost += _ON_RUNWAY
        if self.rng is not None:
            cost += self.rng.randrange(_NOISE)
        occ = self.occ
        fill = self.fill
        size = self.size
        for dp, x, y, nd in shape.faces:
            k = fill.get(j * 4 + ((pl.port + dp) & 3))
            base = (fx + x) * _K + fy + y
            for off, w in PROBES[nd][min(size[k], 5) if k is not None else 2]:
                if base + off in occ:
                    cost += w
        return cost

    # ------------------------------------------------------------ the search

    def search(self, free: set[int], budget: int, frontier: set[int]) -> bool:
        """Take the ``free`` tiles off and lay them again properly: the tile with the
        fewest positions left first, each first where it was; forward checking on
        the tiles waiting nearby; conflict-directed backjumping (a tile with no
        position left goes back to the latest tile whose move may make room: one in
        its way or one it hangs on); at most ``budget`` tiles laid. False: everything
        as it was, and ``frontier`` holds the tiles not free that were in the way."""
        before = {j: (self.cells[j], self.faces[j], self.choice[j])
                  for j in free if self.laid[j]}  # fmt: skip
        for j in sorted(before, reverse=True):
            self.take(j)
        dom: dict[int, list[int]] = {}
        for j in free:
            if self.laid[self.pls[j].anchor]:
                dom[j] = self.domain(j)
        stack: list[tuple[int, list[int], dict[int, list[int] | None], set[int]]] = []
        at: dict[int, int] = {}  # a laid free tile -> its place in the stack
        nodes = 0
        ok = True
        for j, opts in dom.items():
            if not opts:
                self._why(j, free, frontier)
                ok = False
        j = -1
        options: list[int] = []
        conf: set[int] = set()
        if ok and dom:
            j = min(dom, key=lambda k: (len(dom[k]), k))
            options = self._ranked(j, dom[j])
        while ok and j >= 0:
            laid = False
            while options and nodes < budget:
                o = options.pop(0)
                nodes += 1
                saved, why = self._forward(j, o, dom, free, frontier)
                if saved is not None:
                    at[j] = len(stack)
                    stack.append((j, options, saved, conf))
                    laid = True
                    break
                conf |= why
            if laid:
                if not dom:
                    break
                j = min(dom, key=lambda k: (len(dom[k]), k))
                options = self._ranked(j, dom[j])
                conf = set()
                continue
            if nodes >= budget:
                ok = False
                break
            # a dead end: back to the latest tile that may make room
            conf |= self._why(j, free, frontier)
            conf.discard(j)
            back = max((at[t] for t in conf if t in at), default=-1)
            if back < 0:
                ok = False
                break
            while len(stack) > back:
                t, options, saved, old = stack.pop()
                del at[t]
                self._back(t, dom, saved)
            conf = old | conf
            conf.discard(t)
            j = t
        self.nodes += nodes
        if ok:
            return True
        while stack:
            t, _options, saved, _conf = stack.pop()
            self._back(t, dom, saved)
        for t in sorted(before):
            self.put(t, *before[t])
        return False

    def _ranked(self, j: int, options: list[int]) -> list[int]:
        """The positions of tile j: where it was first if many tiles hang on it (they
        would all move), else those out of the new tile's way first, then where it
        was; then best first."""
        pl = self.pls[j]
        face = self.faces[pl.anchor][pl.port]
        assert face is not None
        own = set(self.runway(pl.slot, face))
        if self.fresh:
            return sorted(options, key=lambda o: self.score(j, o, face, own))
        was = self.orig[j]
        big = self.size[j] > _HEAVY
        return sorted(options, key=lambda o: (big and o != was, self.in_way(j, o), o != was,
                                              self.score(j, o, face, own)))  # fmt: skip

    def in_way(self, j: int, o: int) -> bool:
        """Whether tile j at o takes room any position of the new tile needs."""
        pl = self.pls[j]
        face = self.faces[pl.anchor][pl.port]
        assert face is not None
        base = face[0] * _K + face[1]
        foot = FOOTPRINTS[id(self.lay._order(pl.tile, face[2], True))][o]
        return not self.wanted.isdisjoint(map(base.__add__, foot))

    def _why(self, k: int, free: set[int], frontier: set[int]) -> set[int]:
        """The free tiles whose move may give tile k a position: those in its way and
        the tiles they and it hang on; the tiles in its way that are not free go
        to ``frontier``."""
        out: set[int] = set()
        pls = self.pls
        for t in (*self.blockers(k), pls[k].anchor):
            if t not in free:
                if t != pls[k].anchor:
                    frontier.add(t)
                continue
            while t in free and t not in out:
                out.add(t)
                t = pls[t].anchor
        return out

    def _forward(self, j: int, o: int, dom: dict[int, list[int]], free: set[int],
                 frontier: set[int],
                 ) -> tuple[dict[int, list[int] | None] | None, set[int]]:  # fmt: skip
        """Lay tile j at o and narrow the positions of the waiting tiles nearby; (None,
        the free tiles to blame) and nothing changed if one of them has none left."""
        self.lay_tile(j, o)
        saved: dict[int, list[int] | None] = {j: dom.pop(j)}
        taken = set(self.cells[j])  # what it takes from the others: its cells, its fronts
        for f in self.faces[j]:
            if f is not None:
                taken.update(map((f[0] * _K + f[1]).__add__, FRONT[f[2]]))
        x0, y0, x1, y1 = self._near(j)
        failed = -1
        lay = self.lay
        for k, opts in dom.items():
            pl = self.pls[k]
            face = self.faces[pl.anchor][pl.port]
            assert face is not None
            if x0 <= face[0] <= x1 and y0 <= face[1] <= y1:
                base = face[0] * _K + face[1]
                feet = FOOTPRINTS[id(lay._order(pl.tile, face[2], True))]
                narrowed = [o2 for o2 in opts if taken.isdisjoint(map(base.__add__, feet[o2]))]
                if len(narrowed) < len(opts):
                    saved[k] = opts
                    dom[k] = narrowed
                    if not narrowed:
                        failed = k
                        break
        if failed < 0:
            for k in self.kids[j]:
                saved[k] = None
                dom[k] = self.domain(k)
                if not dom[k]:
                    failed = k
                    break
        if failed < 0:
            return saved, set()
        why = self._why(failed, free, frontier)
        self._back(j, dom, saved)
        return None, why

    def _back(self, j: int, dom: dict[int, list[int]], saved: dict[int, list[int] | None]) -> None:
        """Undo _forward(j, ...)."""
        for k, opts in saved.items():
            if opts is None:
                del dom[k]
            else:
                dom[k] = opts
        self.take(j)

    def _near(self, j: int) -> tuple[int, int, int, int]:
        """A box around tile j holding every face whose positions it may stop."""
        x0 = y0 = 1 << 30
        x1 = y1 = -(1 << 30)
        for c in self.cells[j]:
            x, y = divmod(c + _K // 2, _K)
            y -= _K // 2
            x0 = min(x0, x)
            y0 = min(y0, y)
            x1 = max(x1, x)
            y1 = max(y1, y)
        return x0 - 8, y0 - 8, x1 + 8, y1 + 8


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


def svg(table: Table | Layouter, max_pips: int | None = None, scale: int = 24,
        show_slots: bool = True) -> str:  # fmt: skip
    """A plain SVG picture of the table (or of a layouter's table as laid out): tiles as
    rectangles with their numbers, a dashed line to each detached tile and
    (``show_slots``) a circle for each open slot; for tests, docs and a first look."""
    if isinstance(table, Layouter):
        lay = table
        table = lay.table
    else:
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
