"""The table as a picture in text: the geometry of :mod:`fido.layout`, drawn with box lines.

The terminal computes no geometry of its own: every tile and every open slot
is where :class:`~fido.layout.Layouter` puts it for the web table, and this
module only rasterises it. Units of the layout (a tile is 2 x 1) become
characters by a zoom:

- zoom 0, the overview: a unit is 2 columns and 1 row; each half shows its
  number, open slots show ``◦`` and their number where it fits. Half units
  down are rounded, so this is a sketch of the shape, not a drawing.
- zoom 1: a unit is 4 columns and 2 rows; every tile is boxed (``┌─┐``),
  its halves divided, and every open slot is a dashed box in front of its
  face showing the number to match (``5⊥``: a double's free side) and, on
  its edge away from the face, the slot's name as the notation writes it
  (``3e``) where it fits.
- zoom 2: a unit is 6 columns and 2 rows: wider, every slot's name fits.

Lines shared by two boxes are merged into the right junction (``┬``, ``┼``).
On her screen the tile laid last is outlined in heavy lines (``┏━┓``).
"""

from __future__ import annotations

from dataclasses import dataclass

from fido.engine.table import Table
from fido.layout import Layouter, Marker, bounds

SIDE_MARK = "⊥"  # a double's free side

__all__ = ["UNIT_COLS", "UNIT_ROWS", "ZOOMS", "Picture", "draw", "fitting"]

ZOOMS = (0, 1, 2)
UNIT_COLS = (2, 4, 6)
UNIT_ROWS = (1, 2, 2)

_U, _D, _L, _R = 1, 2, 4, 8
_JUNCTIONS = {
    _U: "│", _D: "│", _U | _D: "│", _L: "─", _R: "─", _L | _R: "─",
    _D | _R: "┌", _D | _L: "┐", _U | _R: "└", _U | _L: "┘",
    _U | _D | _R: "├", _U | _D | _L: "┤", _D | _L | _R: "┬", _U | _L | _R: "┴",
    _U | _D | _L | _R: "┼",
}  # fmt: skip


@dataclass(frozen=True)
class Picture:
    """The drawn table: its lines (all as wide), and where the layout's origin fell."""

    lines: tuple[str, ...]
    zoom: int
    origin: tuple[int, int]  # (column, row) of the layout's (0, 0) in ``lines``

    @property
    def width(self) -> int:
        return len(self.lines[0]) if self.lines else 0

    @property
    def height(self) -> int:
        return len(self.lines)

    def at(self, x: float, y: float) -> tuple[int, int]:
        """The (column, row) of the layout point (x, y)."""
        return (
            self.origin[0] + round(x * UNIT_COLS[self.zoom]),
            self.origin[1] + round(y * UNIT_ROWS[self.zoom]),
        )

    def window(self, width: int, height: int, centre: tuple[int, int] | None = None) -> list[str]:
        """At most ``width`` x ``height`` of the picture around ``centre`` (default: its middle)."""
        cx, cy = centre if centre is not None else (self.width // 2, self.height // 2)
        x0 = max(0, min(cx - width // 2, self.width - width))
        y0 = max(0, min(cy - height // 2, self.height - height))
        return [line[x0 : x0 + width].rstrip() for line in self.lines[y0 : y0 + height]]


_HEAVY = str.maketrans("─│┌┐└┘├┤┬┴┼", "━┃┏┓┗┛┣┫┳┻╋")  # the last tile's outline


class _Canvas:
    def __init__(self) -> None:
        self.chars: dict[tuple[int, int], str] = {}
        self.lines: dict[tuple[int, int], int] = {}
        self.dashed: set[tuple[int, int]] = set()
        self.heavy: set[tuple[int, int]] = set()

    def hline(self, row: int, c0: int, c1: int, dashed: bool = False) -> None:
        for c in range(c0, c1 + 1):
            bits = (_L if c > c0 else 0) | (_R if c < c1 else 0)
            self._line(c, row, bits, dashed)

    def vline(self, col: int, r0: int, r1: int, dashed: bool = False) -> None:
        for r in range(r0, r1 + 1):
            bits = (_U if r > r0 else 0) | (_D if r < r1 else 0)
            self._line(col, r, bits, dashed)

    def _line(self, col: int, row: int, bits: int, dashed: bool) -> None:
        key = (col, row)
        if dashed and key in self.lines and key not in self.dashed:
            self.lines[key] |= bits  # a tile's solid line stays solid
            return
        if not dashed:
            self.dashed.discard(key)
        elif key not in self.lines:
            self.dashed.add(key)
        self.lines[key] = self.lines.get(key, 0) | bits

    def text(self, col: int, row: int, text: str) -> None:
        for i, ch in enumerate(text):
            self.chars[(col + i, row)] = ch

    def render(self) -> tuple[list[str], tuple[int, int]]:
        keys = [*self.chars, *self.lines]
        if not keys:
            return [], (0, 0)
        c0 = min(c for c, _r in keys)
        c1 = max(c for c, _r in keys)
        r0 = min(r for _c, r in keys)
        r1 = max(r for _c, r in keys)
        grid = [[" "] * (c1 - c0 + 1) for _ in range(r1 - r0 + 1)]
        for (c, r), bits in self.lines.items():
            ch = _JUNCTIONS.get(bits, " ")
            if (c, r) in self.dashed:
                ch = {"│": "╎", "─": "╌"}.get(ch, ch)
            elif (c, r) in self.heavy:
                ch = ch.translate(_HEAVY)
            grid[r - r0][c - c0] = ch
        for (c, r), ch in self.chars.items():
            grid[r - r0][c - c0] = ch
        return ["".join(row) for row in grid], (-c0, -r0)


def _label(mark: Marker) -> str:
    return f"{mark.value}{SIDE_MARK if mark.kind == 'side' else ''}"


def draw(table: Table | Layouter, zoom: int = 1, max_pips: int | None = None, *,
         mark_last: bool = False) -> Picture:
    """The table drawn at ``zoom`` (0 overview, 1 boxed, 2 boxed with the slots' names);
    ``mark_last``: the tile laid last outlined in heavy lines (zooms 1 and 2), as the web
    table marks it, so that she sees what just happened."""
    if zoom not in ZOOMS:
        raise ValueError(f"zoom is one of {ZOOMS}, not {zoom!r}")
    lay = table if isinstance(table, Layouter) else Layouter.from_table(table, max_pips)
    tab = lay.table
    placed = lay.placed
    marks = lay.markers()
    if not placed:
        return Picture(("(the table is empty: the first tile opens it)",), zoom, (0, 0))
    cu, ru = UNIT_COLS[zoom], UNIT_ROWS[zoom]
    canvas = _Canvas()

    def col(x: float) -> int:
        return round(x * cu)

    def row(y: float) -> int:
        return round(y * ru) if zoom else int(y // 1)

    for p in placed:
        x0, y0, x1, y1 = p.rect
        if zoom == 0:
            for which, value in ((0, p.first), (1, p.second)):
                hx0, hy0, _hx1, _hy1 = p.half(which)
                canvas.text(col(hx0), row(hy0), f"{value:>2}")
            continue
        c0, c1, r0, r1 = col(x0), col(x1), row(y0), row(y1)
        canvas.hline(r0, c0, c1)
        canvas.hline(r1, c0, c1)
        canvas.vline(c0, r0, r1)
        canvas.vline(c1, r0, r1)
        if mark_last and p is placed[-1]:
            canvas.heavy |= {(c, r) for c in range(c0, c1 + 1) for r in (r0, r1)}
            canvas.heavy |= {(c, r) for r in range(r0, r1 + 1) for c in (c0, c1)}
        if p.angle % 180 == 0:  # the halves divided lighter than the tiles
            canvas.text((c0 + c1) // 2, r0 + 1, "·")
        else:
            canvas.text(c0 + 1, (r0 + r1) // 2, "┈" * (c1 - c0 - 1))
        for which, value in ((0, p.first), (1, p.second)):
            hx0, hy0, hx1, _hy1 = p.half(which)
            inner = col(hx1) - col(hx0) - 1
            canvas.text(col(hx0) + 1, row(hy0) + 1, f"{value:^{inner}}")
    for m in marks:
        label = _label(m)
        if zoom == 0:
            canvas.text(col(m.x - 0.5), row(m.y - 0.5), f"◦{m.value}" if m.value < 10 else "◦◦")
            continue
        c0, c1 = col(m.x - 0.5), col(m.x + 0.5)
        r0, r1 = row(m.y - 0.5), row(m.y + 0.5)
        canvas.hline(r0, c0, c1, dashed=True)
        canvas.hline(r1, c0, c1, dashed=True)
        canvas.vline(c0, r0, r1, dashed=True)
        canvas.vline(c1, r0, r1, dashed=True)
        inner = c1 - c0 - 1
        canvas.text(c0 + 1, r0 + 1, f"{label:^{inner}}"[:inner])
        name = tab.slot_name(m.slot)
        if len(name) <= inner:  # the slot's name on its edge away from the face
            edge = r0 if m.angle == 270 else r1
            canvas.text(c0 + 1 + (inner - len(name)) // 2, edge, name)
    lines, origin = canvas.render()
    return Picture(tuple(lines), zoom, origin)


def fitting(lay: Layouter, width: int, height: int, *, mark_last: bool = False) -> Picture:
    """The most detailed zoom whose picture fits ``width`` x ``height`` (else the overview)."""
    box = bounds(lay.placed, lay.markers())
    for zoom in reversed(ZOOMS):
        if box.width * UNIT_COLS[zoom] + 1 <= width and box.height * UNIT_ROWS[zoom] + 1 <= height:
            return draw(lay, zoom, mark_last=mark_last)
    return draw(lay, 0)
