"""Puzzles as the API and the pages serve them (docs/puzzles.md): a puzzle without its
answer, the puzzle of the day, the next one for her, and an answer judged and rated.

The puzzles are :mod:`fido.puzzles`'s; who may see and try them, :mod:`fido.server.policy`
(anyone; an answer moves a rating when she has an account, a guest's too). Her first
answer to a puzzle is the one that counts: it is stored with her rating before and after
in one transaction, and a later answer to the same puzzle is judged but moves nothing.
"""

from __future__ import annotations

import datetime as dt
from functools import cache
from typing import Any

from fastapi import Request
from pydantic import BaseModel, Field
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from fido import puzzles
from fido.engine.moves import Move, Placement
from fido.errors import FidoError
from fido.i18n import _
from fido.layout import Layouter
from fido.puzzles import Puzzle
from fido.safe_text import printable
from fido.server import deps, policy
from fido.server.errors import ApiError
from fido.server.wire import hand_rows_json, layout_json, placed_json, target_slot
from fido.store import Account, PuzzleAnswer, PuzzleRating

__all__ = ["AnswerIn", "AnswerOut", "PuzzleOut", "PuzzleRatingOut", "answer", "daily",
           "next_for", "puzzle_out", "rating_of", "read"]


class MoveOut(BaseModel):
    move: str  # the notation, 12-5@3e
    tile: str
    slot: str  # where it goes, as the board names it ("3e"; "open" for the first tile)


class PuzzleOut(BaseModel):
    """A puzzle as her seat saw it, without its answer."""

    id: str
    ruleset: str
    rating: int  # how hard: the strength that finds it half the time
    view: str  # the position line (fido.position.view_text)
    seat: int
    players: int
    hand_counts: list[int]
    stock: int
    scores: list[int]
    sum: int
    divisor: int
    max_pips: int
    layout: dict[str, Any]  # the table's drawing (fido.layout)
    rows: list[dict[str, Any]]  # her hand in Ratzek's rows
    moves: list[MoveOut]  # every move she may make
    day: dt.date | None = None  # the puzzle of this day


class AnswerIn(BaseModel):
    move: str = Field(min_length=1, max_length=24)


class AnswerOut(BaseModel):
    solved: bool
    best: list[str]  # the answer, and the moves the same for the rules
    explanation: str  # the analysis's numbers, in her language
    rated: bool  # whether this answer moved her rating (her first to this puzzle)
    rating_before: int | None
    rating: int | None  # her puzzle rating now (None: no account)
    puzzle_rating: int
    better: dict[str, Any] | None  # where the answer's tile lies on the table (fido.layout)


class PuzzleRatingOut(BaseModel):
    rating: int
    answers: int
    solved: int


def puzzle_out(p: Puzzle, day: dt.date | None = None) -> PuzzleOut:
    """The puzzle as the pages show it (``day``: it is that day's)."""
    shown = _shown(p.id)
    return shown if day is None else shown.model_copy(update={"day": day})


@cache
def _shown(puzzle_id: str) -> PuzzleOut:
    """A puzzle laid out once: the set ships with fido and never changes while it runs,
    and the day's puzzle is asked by everyone."""
    p = puzzles.by_id(puzzle_id)
    assert p is not None  # asked for puzzles of the set only
    view = p.seat_view()
    table = view.table
    rules = view.rules
    moves = [MoveOut(move=m.text(), tile=m.tile.text(), slot=target_slot(table, m))
             for m in view.legal_moves if isinstance(m, Placement)]
    assert view.seat is not None  # a puzzle is a seat's view
    return PuzzleOut(
        id=p.id, ruleset=rules.text(), rating=p.rating, view=p.view, seat=view.seat,
        players=view.players, hand_counts=list(view.hand_counts), stock=view.stock_count,
        scores=list(view.scores), sum=table.ends_sum, divisor=rules.divisor,
        max_pips=rules.max_pips,
        layout=layout_json(Layouter.from_table(table, rules.max_pips)),
        rows=hand_rows_json(view.hand, rules.divisor), moves=moves)


def _today() -> dt.date:
    return dt.datetime.now(dt.UTC).date()


def read(request: Request, puzzle_id: str) -> PuzzleOut:
    """One puzzle, without its answer."""
    with deps.server(request).store.session(write=False) as s:
        return puzzle_out(policy.puzzle(deps.me(request, s), puzzle_id))


def daily(request: Request) -> PuzzleOut:
    """The puzzle of the day (UTC): the same for everyone."""
    del request
    day = _today()
    return puzzle_out(puzzles.daily(day), day)


def _answered(s: Session, account_id: int) -> set[str]:
    return set(s.scalars(select(PuzzleAnswer.puzzle_id)
                         .where(PuzzleAnswer.account_id == account_id)))


def next_for(request: Request, after: str | None = None) -> PuzzleOut:
    """The next puzzle for her: one she has not answered, the nearest her rating (a visitor
    without an account: the nearest a newcomer's), after ``after`` in the list where
    several are as near."""
    with deps.server(request).store.session(write=False) as s:
        me = deps.me(request, s)
        done = _answered(s, me.id) if me is not None else set()
        row = s.get(PuzzleRating, me.id) if me is not None else None
        rating = row.rating if row is not None else puzzles.START
    pool = [p for p in puzzles.load() if p.id not in done and p.id != after]
    if not pool:
        raise ApiError(404, "no_puzzle", _("you have answered every puzzle there is"))
    return puzzle_out(min(pool, key=lambda p: (abs(p.rating - rating), p.id)))


def rating_of(request: Request) -> PuzzleRatingOut:
    """Her puzzle rating and how many she answered (401 without an account)."""
    with deps.server(request).store.session(write=False) as s:
        me = deps.signed_in(request, s)
        row = s.get(PuzzleRating, me.id)
        solved = s.scalar(select(func.count()).select_from(PuzzleAnswer).where(
            PuzzleAnswer.account_id == me.id, PuzzleAnswer.solved)) or 0
        if row is None:
            return PuzzleRatingOut(rating=round(puzzles.START), answers=0, solved=0)
        return PuzzleRatingOut(rating=round(row.rating), answers=row.answers, solved=solved)


def _rate(s: Session, me: Account, p: Puzzle, move: str, solved: bool
          ) -> tuple[bool, float, float]:
    """Her first answer to ``p`` moves her rating (stored with it); a later one nothing."""
    row = s.get(PuzzleRating, me.id)
    before = row.rating if row is not None else puzzles.START
    if s.scalars(select(PuzzleAnswer.id).where(PuzzleAnswer.account_id == me.id,
                                               PuzzleAnswer.puzzle_id == p.id)).first():
        return False, before, before
    now = dt.datetime.now(dt.UTC)
    answers = row.answers if row is not None else 0
    after = puzzles.rated(before, answers, p.rating, solved)
    if row is None:
        s.add(PuzzleRating(account_id=me.id, rating=after, answers=1, updated_at=now))
    else:
        row.rating, row.answers, row.updated_at = after, answers + 1, now
    s.add(PuzzleAnswer(account_id=me.id, puzzle_id=p.id, move=move, solved=solved,
                       rating_before=before, rating=after, at=now))
    return True, before, after


def answer(request: Request, puzzle_id: str, body: AnswerIn) -> AnswerOut:
    """Judge her move; her first answer to this puzzle moves her rating."""
    with deps.server(request).store.session() as s:
        me = deps.me(request, s)
        p = policy.puzzle(me, puzzle_id)
        try:
            solved = puzzles.judge(p, body.move)
        except FidoError:
            said = printable(body.move)  # her text, its control characters made visible
            raise ApiError(422, "not_a_move", _("{move} is not a move you may make in this "
                                                "puzzle").format(move=said)) from None
        rated, before, after = False, None, None
        if policy.rates_puzzles(me):
            assert me is not None
            try:
                rated, b, a = _rate(s, me, p, body.move, solved)
                s.flush()
            except IntegrityError:  # the same answer twice at once: the first one counts
                raise ApiError(409, "answered", _("you answered this puzzle already")) from None
            before, after = round(b), round(a)
    return AnswerOut(solved=solved, best=list(p.best), explanation=puzzles.explanation(p),
                     rated=rated, rating_before=before, rating=after, puzzle_rating=p.rating,
                     better=_better(p.id))


@cache
def _better(puzzle_id: str) -> dict[str, Any] | None:
    """The answer's tile where it would lie: the page draws it on the table (as the replay
    draws an analysis's better move)."""
    p = puzzles.by_id(puzzle_id)
    assert p is not None  # asked for puzzles of the set only
    view = p.seat_view()
    move = Move.from_text(p.best[0])
    if not isinstance(move, Placement):
        return None
    return placed_json(Layouter.from_table(view.table, view.rules.max_pips).add(move))
