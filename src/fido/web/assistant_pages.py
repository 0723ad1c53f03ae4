"""The table assistant's pages: set up a game played with real tiles, then enter it.

Both pages are shells for ``static/js/assistant.js``: the game lives in the
browser (``localStorage``) and every change is judged by
``POST /api/assistant/state`` (:mod:`fido.server.assistant_api`), so a reload
or a dropped connection loses nothing (docs/web.md, "The table assistant").
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from fido.engine.rules import FIDO_DIVISORS
from fido.server.assistant_api import SETS
from fido.web.kit import render, viewer

__all__ = ["router"]


router = APIRouter(include_in_schema=False)


@router.get("/assistant", response_class=HTMLResponse)
def setup_page(request: Request) -> HTMLResponse:
    """The setup: the set (and so the divisor), the players in their seating order."""
    sets = [{"n": n, "divisor": FIDO_DIVISORS[n]} for n in SETS]
    return render(request, "assistant.html", me=viewer(request), sets=sets,
                  players=range(3, 10))


@router.get("/assistant/play", response_class=HTMLResponse)
def play_page(request: Request) -> HTMLResponse:
    """The game: the table drawn, the tiles left, draw and undo, then the sheet."""
    return render(request, "assistant_play.html", me=viewer(request))
