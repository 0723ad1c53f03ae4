"""/learn: the first lesson in the browser (:mod:`fido.lessons`), then a first game.

The page is built whole on the server: each step's table (its layout, :mod:`fido.layout`),
her hand in Daniela Ratzek's rows, and every move she may make already judged in her
language (:func:`fido.lessons.tries`), with the table after each right one. The page's
script (``static/js/learn.js``) only shows them: a try sends nothing, so the lesson costs
the server one page, whoever reads it and however often she tries.
"""

from __future__ import annotations

import asyncio
from functools import cache
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from fido.engine.table import Table
from fido.i18n import _, current
from fido.layout import Layouter
from fido.lessons import FIRST_GAME, LESSON, Step, tries
from fido.server.wire import hand_rows_json, layout_json, target_slot
from fido.web.kit import render, viewer

__all__ = ["lesson_json", "router"]

router = APIRouter(include_in_schema=False)


def _layout(table: Table, max_pips: int) -> dict[str, Any]:
    return layout_json(Layouter.from_table(table, max_pips))


def _step_json(step: Step) -> dict[str, Any]:
    game = step.game()
    view = game.view(step.seat)
    rules = view.rules
    out = []
    for t in tries(step):
        after: dict[str, Any] | None = None
        if t.right:
            table = view.table.copy()
            table.place(t.move.tile, t.move.slot)
            after = _layout(table, rules.max_pips)
        out.append({"move": t.move.text(), "tile": t.move.tile.text(),
                    "slot": target_slot(view.table, t.move),
                    "right": t.right, "sum": t.sum, "points": t.points, "said": t.said,
                    "after": after})
    return {"key": step.key, "title": _(step.title), "text": _(step.text),
            "divisor": rules.divisor, "max": rules.max_pips, "sum": view.table.ends_sum,
            "layout": _layout(view.table, rules.max_pips),
            "rows": hand_rows_json(view.hand, rules.divisor), "tries": out}


@cache
def _lesson(lang: str) -> list[dict[str, Any]]:
    """The lesson in ``lang`` (the current language: the cache's key), built once."""
    return [_step_json(step) for step in LESSON]


def lesson_json() -> list[dict[str, Any]]:
    """Every step of the first lesson, judged, in the current language."""
    return _lesson(current())


@router.get("/learn", response_class=HTMLResponse)
async def learn_page(request: Request) -> HTMLResponse:
    """The first lesson: seven positions, each a move to find, then a first game."""
    who = await asyncio.to_thread(viewer, request)
    steps = await asyncio.to_thread(lesson_json)
    return render(request, "learn.html", me=who, config={"steps": steps}, first=FIRST_GAME)
