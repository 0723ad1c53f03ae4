"""A player's FLADUB over the published months as an SVG line chart, laid out in Python.

The page's template draws what :func:`history_chart` computes (coordinates,
ticks, labels), so the chart is plain server-side SVG: no script, no
matplotlib, and its numbers are checkable (a test maps every point back to
FLADUB through the y axis's ticks).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from fido.i18n import format_decimal

__all__ = ["Chart", "Point", "Tick", "history_chart", "nice_ticks"]

WIDTH, HEIGHT = 520, 280
LEFT, RIGHT, TOP, BOTTOM = 72, 24, 20, 64  # room for the axes' numbers and titles


@dataclass(frozen=True)
class Tick:
    value: float
    label: str
    pos: float  # y for the value axis, x for the month axis


@dataclass(frozen=True)
class Point:
    month: str
    position: int
    fladub: float
    x: float
    y: float


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: float
    right: float  # x of the plot's right edge
    top: float
    bottom: float  # y of the plot's bottom edge
    points: tuple[Point, ...]
    y_ticks: tuple[Tick, ...]
    x_ticks: tuple[Tick, ...]
    path: str  # the polyline's points, "x,y x,y ..."
    slanted: bool  # the month labels are turned (many months)


def nice_ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """About ``count`` round values (1, 2 or 5 times a power of ten apart) covering [lo, hi]."""
    if not math.isfinite(lo) or not math.isfinite(hi):
        return [0.0]
    if hi - lo < 1e-9:
        lo, hi = lo - 10, hi + 10  # one month, or a flat line: a band around it
    raw = (hi - lo) / max(1, count - 1)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.floor(lo / step) * step
    last = math.ceil(hi / step) * step
    n = round((last - first) / step)
    return [first + i * step for i in range(n + 1)]


def _label(value: float, step: float) -> str:
    """A tick's number, the current language's way (1,250.5 / 1.250,5)."""
    decimals = max(0, -math.floor(math.log10(step))) if step < 1 else 0
    return format_decimal(value, decimals)


def history_chart(history: tuple[tuple[str, int, float], ...]) -> Chart | None:
    """The chart of ``history`` ((month, position, FLADUB) per published month she is
    ranked in, oldest first); None without any."""
    if not history:
        return None
    values = [f for _, _, f in history]
    ticks = nice_ticks(min(values), max(values))
    lo, hi = ticks[0], ticks[-1]
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM
    span = hi - lo if hi > lo else 1.0

    def y_of(v: float) -> float:
        return round(bottom - (v - lo) / span * (bottom - TOP), 2)

    n = len(history)
    inner = right - LEFT - 24  # a margin so the first and last points clear the axes

    def x_of(i: int) -> float:
        return round(LEFT + 12 + (inner * i / (n - 1) if n > 1 else inner / 2), 2)

    points = tuple(
        Point(m, pos, f, x_of(i), y_of(f)) for i, (m, pos, f) in enumerate(history)
    )
    step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
    y_ticks = tuple(Tick(v, _label(v, step), y_of(v)) for v in ticks)
    every = max(1, math.ceil(n / 12))  # at most about 12 month labels, the latest always
    x_ticks = tuple(
        Tick(i, m, x_of(i)) for i, (m, _, _) in enumerate(history) if (n - 1 - i) % every == 0
    )
    path = " ".join(f"{p.x},{p.y}" for p in points)
    return Chart(WIDTH, HEIGHT, LEFT, right, TOP, bottom, points, y_ticks, x_ticks, path, n > 6)
