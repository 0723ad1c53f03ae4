"""The half-unit grid and the tiles' shapes on it, precomputed per direction.

A tile's position at a slot's face is a :class:`Shape` (its cells, its new
slots' faces, its angle); the room an open slot keeps (its front cell, its
runway, its tee) is a tuple of cell offsets from its face; :func:`room_add` and
:func:`room_drop` count the room kept, for the stable path and the re-layout's
search alike.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from fido.layout.costs import CROWDED, INLINE, ROOM_AHEAD, ROOM_BESIDE, SHIFT, TURN

# Internally every length is in half units (integers), so that a crosswise
# double (centred on a 1-wide face) and every tile edge fall on one grid of
# half-unit cells; a cell (i, j) covers [i, i+1) x [j, j+1) and is keyed
# i * K + j, so a shape's cells are offsets added to its face's key.
K: Final = 1 << 20
DX: Final = (0, 1, 0, -1)  # n, e, s, w (the ports' order)
DY: Final = (-1, 0, 1, 0)
ANGLES: Final = (270, 0, 90, 180)  # the angle of a tile growing towards n, e, s, w
KINDS: Final = ("end", "side")

Face = tuple[int, int, int]  # (x, y, drawn direction) of a slot's edge, half units


class Shape(NamedTuple):
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
    return tuple(x * K + y for x in range(x0, x1) for y in range(y0, y1))


def _in_units(cells: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The unit cells holding ``cells`` (offsets from a face), per parity of the face's
    coordinates (index 2 * (x & 1) + (y & 1)), as offsets from the face's unit cell."""
    out = []
    for px in (0, 1):
        for py in (0, 1):
            units = set()
            for c in cells:
                x, y = divmod(c + K // 2, K)
                y -= K // 2
                units.add(((px + x) >> 1) * K + ((py + y) >> 1))
            out.append(tuple(sorted(units)))
    return tuple(out)


def _shape(d: int, a1: int, b0: int, b1: int, *, angle: int,
           faces: list[tuple[int, int, int, int]]) -> Shape:  # fmt: skip
    x0, y0, x1, y1 = _rect(d, 0, a1, b0, b1)
    cells = _box(d, 0, a1, b0, b1)
    return Shape(cells, _in_units(cells), (x0 + x1) // 2, (y0 + y1) // 2, angle,
                  tuple(faces), (x0, y0, x1, y1))  # fmt: skip


def _straight(d: int, o: int) -> Shape:
    return _shape(d, 4, o - 1, o + 1, angle=ANGLES[d], faces=[(0, *_at(d, 4, o), d)])


def _bend(d: int, s: int, o: int) -> Shape:
    """The touching half in front of the face, the other half beside it (s=1: right)."""
    b0, b1 = (o - 1, o + 3) if s > 0 else (o - 3, o + 1)
    nd = (d + s) & 3
    return _shape(d, 2, b0, b1, angle=ANGLES[nd], faces=[(0, *_at(d, 1, o + 3 * s), nd)])


def _double(d: int, o: int, ends: bool, crosswise: bool) -> Shape:
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


def _singles(d: int) -> tuple[tuple[Shape, int, int], ...]:
    """(shape, cost, group) of a single at a face facing d, in order of preference."""
    out = []
    for g, o in enumerate(_SHIFTS):
        slide = SHIFT if o else 0
        out += [(_straight(d, o), slide, g), (_bend(d, 1, o), slide + TURN, g),
                (_bend(d, -1, o), slide + TURN, g)]  # fmt: skip
    return tuple(out)


def _doubles(d: int, ends: bool) -> tuple[tuple[Shape, int, int], ...]:
    """(shape, cost, group) of a double: crosswise, slid, and in line where none fits."""
    cross = [_double(d, o, ends, True) for o in _SHIFTS]
    line = [_double(d, o, ends, False) for o in _SHIFTS]
    return ((cross[0], 0, 0), (cross[1], SHIFT, 1), (cross[2], SHIFT, 1),
            (line[0], INLINE, 2), (line[1], INLINE + SHIFT, 3),
            (line[2], INLINE + SHIFT, 3))  # fmt: skip


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
AHEAD: Final = tuple(tuple(i * DX[d] * K + i * DY[d] for i in range(1, ROOM_AHEAD + 1))
                     for d in range(4))  # fmt: skip
BESIDE: Final = tuple(
    tuple(
        tuple(i * DX[r] * K + i * DY[r] for i in range(1, ROOM_BESIDE + 1))
        for r in ((d + 1) & 3, (d + 3) & 3)
    )
    for d in range(4)
)


def _footprints(order: tuple[tuple[Shape, int, int], ...]) -> tuple[tuple[int, ...], ...]:
    """Per position of ``order``: its cells and its new slots' front cells (offsets)."""
    return tuple(
        shape.cells + tuple(x * K + y + c for _dp, x, y, nd in shape.faces for c in FRONT[nd])
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
        ((DX[d] * (2 * t - 1) + DX[r] * side) * K + DY[d] * (2 * t - 1) + DY[r] * side,
         CROWDED * (2 * reach + 1 - t))
        for t in range(1, 2 * reach + 1)
        for side in (-2, 0, 2)
    )  # fmt: skip


PROBES: Final = tuple(tuple(_probes(d, k) for k in range(6)) for d in range(4))


def unit_cell(x: int, y: int) -> int:
    """The key of the unit cell (2x2 half-unit cells) holding the half-unit point (x, y)."""
    return (x >> 1) * K + (y >> 1)


# the soft room is kept in unit cells (a quarter of the bookkeeping)
RUNWAY_UNITS: Final = tuple(_in_units(RUNWAY[d]) for d in range(4))
TEE_CROSS_UNITS: Final = tuple(_in_units(TEE_CROSS[d]) for d in range(4))
TEE_LINE_UNITS: Final = tuple(_in_units(TEE_LINE[d]) for d in range(4))


def room_add(room: dict[int, int], cells: list[int], weight: int) -> None:
    get = room.get
    for c in cells:
        room[c] = get(c, 0) + weight


def room_drop(room: dict[int, int], cells: list[int], weight: int) -> None:
    for c in cells:
        n = room[c] - weight
        if n:
            room[c] = n
        else:
            del room[c]
