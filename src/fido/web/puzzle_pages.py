"""/puzzles: the puzzle of the day, a puzzle by its name, and the next one for her
(:mod:`fido.server.puzzles_service`, which the API calls too).

The page is the puzzle without its answer; her move goes to ``POST
/api/puzzles/{id}/answer`` (the page's script), which judges it, says why and moves her
puzzle rating.
"""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi.responses import HTMLResponse

from fido.errors import Refused
from fido.server import puzzles_service as service
from fido.server.errors import ApiError
from fido.server.puzzles_service import PuzzleOut, PuzzleRatingOut
from fido.web.kit import render, viewer

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


async def _page(request: Request, puzzle: PuzzleOut) -> HTMLResponse:
    who = await asyncio.to_thread(viewer, request)
    mine: PuzzleRatingOut | None = None
    if who is not None:
        mine = await asyncio.to_thread(service.rating_of, request)
    return render(request, "puzzle.html", me=who, puzzle=puzzle, mine=mine,
                  config={"puzzle": puzzle.model_dump(mode="json"),
                          "csrf": request.state.csrf_token})


@router.get("/puzzles", response_class=HTMLResponse)
async def daily_page(request: Request) -> HTMLResponse:
    """The puzzle of the day."""
    return await _page(request, await asyncio.to_thread(service.daily, request))


@router.get("/puzzles/next", response_class=HTMLResponse)
async def next_page(request: Request, after: str | None = None) -> HTMLResponse:
    """The next puzzle for her (nearest her rating, not answered yet)."""
    try:
        puzzle = await asyncio.to_thread(service.next_for, request, (after or "")[:16] or None)
    except (ApiError, Refused):
        puzzle = await asyncio.to_thread(service.daily, request)
    return await _page(request, puzzle)


@router.get("/puzzles/{puzzle_id}", response_class=HTMLResponse)
async def puzzle_page(request: Request,
                      puzzle_id: Annotated[str, Path(max_length=16, pattern=r"^[0-9a-f]+$")]
                      ) -> HTMLResponse:
    """One puzzle by its name."""
    return await _page(request, await asyncio.to_thread(service.read, request, puzzle_id))
