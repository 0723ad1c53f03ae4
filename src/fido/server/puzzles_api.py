"""Puzzles over HTTP (docs/puzzles.md): a puzzle without its answer, the puzzle of the
day, the next one for her, her rating, and an answer. Thin doors to
:mod:`fido.server.puzzles_service`, which the puzzle page calls too."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Request

from fido.server import puzzles_service as service
from fido.server.deps import CsrfChecked, errors
from fido.server.puzzles_service import AnswerIn, AnswerOut, PuzzleOut, PuzzleRatingOut

__all__ = ["router"]

router = APIRouter(prefix="/api/puzzles", tags=["puzzles"])

PuzzleId = Annotated[str, Path(min_length=1, max_length=16, pattern=r"^[0-9a-f]+$")]


@router.get("/daily", response_model=PuzzleOut)
def daily(request: Request) -> PuzzleOut:
    """The puzzle of the day (UTC), the same for everyone; without its answer."""
    return service.daily(request)


@router.get("/next", response_model=PuzzleOut, responses=errors(404))
def next_puzzle(request: Request,
                after: Annotated[str | None, Query(max_length=16)] = None) -> PuzzleOut:
    """A puzzle she has not answered, the nearest her puzzle rating."""
    return service.next_for(request, after)


@router.get("/rating", response_model=PuzzleRatingOut, responses=errors(401))
def rating(request: Request) -> PuzzleRatingOut:
    """Her puzzle rating (apart from her game ratings and FLADUB) and her answers."""
    return service.rating_of(request)


@router.get("/{puzzle_id}", response_model=PuzzleOut, responses=errors(404))
def read(puzzle_id: PuzzleId, request: Request) -> PuzzleOut:
    """One puzzle as its seat saw it, without its answer."""
    return service.read(request, puzzle_id)


@router.post("/{puzzle_id}/answer", response_model=AnswerOut, dependencies=CsrfChecked,
             responses=errors(404, 409, 422))
def answer(puzzle_id: PuzzleId, body: AnswerIn, request: Request) -> AnswerOut:
    """Her move: whether it is the answer, the answer and why. Her first answer to a
    puzzle moves her puzzle rating (with an account, a guest's too); a later one nothing."""
    return service.answer(request, puzzle_id, body)
