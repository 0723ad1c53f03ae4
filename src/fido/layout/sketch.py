"""A plain SVG picture of a laid-out table (:func:`svg`): for tests, docs and a first look."""

from __future__ import annotations

import math
from html import escape

from fido.engine.table import Table
from fido.layout.drawn import bounds
from fido.layout.layouter import Layouter


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
