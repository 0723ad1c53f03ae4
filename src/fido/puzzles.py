"""Puzzles from real games: a position as its seat saw it where one move is clearly best.

The puzzles ship with fido (``puzzles.json`` beside this module), made by
``bench/puzzles.py`` from fresh bot games, each decision analysed twice on
independent samples of the hidden tiles (:func:`fido.analysis.estimate.evaluate`); a
decision is a puzzle when both samplings name the same best move and put the next best
below it by more than :data:`MIN_GAIN` points of final margin and beyond the analysis's
own 95 % interval. Moves that are the same for the rules (one tile on two ends of the
same number) are one answer. Each puzzle keeps the analysis's numbers for its
explanation, and a rating: the strength at which a player finds it half the time, fitted
to which of the bots' levels found it (their fixed game ratings, :mod:`fido.ratings`).

A person's puzzle rating (docs/puzzles.md) starts at :data:`START` and moves after each
answer by Elo's rule against the puzzle's fixed rating: ``K * (solved - expected)``,
``expected = 1 / (1 + 10 ** ((puzzle - hers) / 400))``, K = :data:`K_NEW` for her first
:data:`NEW_ANSWERS` answers and :data:`K` after. The puzzle of the day is the same for
everyone on a date (UTC), drawn from the set by the date alone.

>>> round(rated(1500.0, 0, 1500, True), 1)
1520.0
>>> round(rated(1500.0, 20, 1900, False), 1)
1498.2
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from fido.engine.moves import Move, Placement
from fido.engine.table import Table
from fido.engine.views import SeatView
from fido.errors import FidoError
from fido.i18n import _, ngettext
from fido.position import parse_view

__all__ = [
    "K_NEW",
    "MIN_GAIN",
    "NEW_ANSWERS",
    "START",
    "K",
    "Puzzle",
    "answer_key",
    "by_id",
    "daily",
    "expected",
    "explanation",
    "load",
    "rated",
    "same_move",
]

MIN_GAIN: Final = 1.0  # points of final margin the best beats the next best by, at least
START: Final = 1500.0  # a person's first puzzle rating
K_NEW: Final = 40.0  # her rating's step while she is new...
NEW_ANSWERS: Final = 10  # ... for this many answers
K: Final = 20.0  # ... and after


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: the position as its seat saw it and what the analysis found."""

    id: str
    view: str  # fido.position.view_text: the seat's view, to move
    best: tuple[str, ...]  # the best move, and the moves the same for the rules
    second: str  # the best of the other moves
    gain: float  # how much better the best is than the second, in final margin
    gain_ci: float  # 95 % half-width of ``gain``
    worlds: int  # deals of the hidden tiles sampled, both samplings together
    rating: int  # the strength that finds it half the time
    found: dict[str, int]  # level -> how many of its tries found it
    tries: int  # tries a level had
    source: str  # where the game came from ("expert bots, seed 3, move 17")

    def seat_view(self) -> SeatView:
        return _view(self.view)

    @property
    def rules(self) -> str:
        return self.view.split(" | ", 1)[0]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "view": self.view, "best": list(self.best),
                "second": self.second, "gain": self.gain, "gain_ci": self.gain_ci,
                "worlds": self.worlds, "rating": self.rating, "found": self.found,
                "tries": self.tries, "source": self.source}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Puzzle:
        return cls(id=str(data["id"]), view=str(data["view"]),
                   best=tuple(str(m) for m in data["best"]), second=str(data["second"]),
                   gain=float(data["gain"]), gain_ci=float(data["gain_ci"]),
                   worlds=int(data["worlds"]), rating=int(data["rating"]),
                   found={str(k): int(v) for k, v in data["found"].items()},
                   tries=int(data["tries"]), source=str(data["source"]))


@cache
def _view(text: str) -> SeatView:
    return parse_view(text)


def puzzle_id(view_text: str) -> str:
    """A puzzle's name: its position's, so the same position is one puzzle."""
    return hashlib.sha256(view_text.encode()).hexdigest()[:12]


def answer_key(move: Move, table: Table) -> tuple[str, int, str] | str:
    """What makes two moves the same for the rules: the tile, and the value and kind of
    the slot it goes on (RULES.md: slots of equal value and kind are equivalent)."""
    if isinstance(move, Placement) and move.slot >= 0:
        value, kind = table.open_slots()[move.slot]
        return (move.tile.text(), value, kind)
    return move.text()


def same_move(view: SeatView, a: Move, b: Move) -> bool:
    return answer_key(a, view.table) == answer_key(b, view.table)


@cache
def load() -> tuple[Puzzle, ...]:
    """The puzzles that ship with fido, easiest first."""
    text = resources.files("fido").joinpath("puzzles.json").read_text(encoding="utf-8")
    puzzles = [Puzzle.from_json(p) for p in json.loads(text)["puzzles"]]
    return tuple(sorted(puzzles, key=lambda p: (p.rating, p.id)))


@cache
def _by_id() -> dict[str, Puzzle]:
    return {p.id: p for p in load()}


def by_id(pid: str) -> Puzzle | None:
    return _by_id().get(pid)


def daily(day: dt.date, puzzles: Sequence[Puzzle] | None = None) -> Puzzle:
    """The puzzle of ``day``: the same for everyone, drawn by the date alone."""
    pool = load() if puzzles is None else puzzles
    digest = hashlib.sha256(f"fido puzzle {day.isoformat()}".encode()).digest()
    return pool[int.from_bytes(digest[:8], "big") % len(pool)]


def expected(rating: float, puzzle: float) -> float:
    """How likely a player of ``rating`` solves a puzzle of ``puzzle`` (Elo's curve)."""
    return 1.0 / (1.0 + math.pow(10.0, (puzzle - rating) / 400.0))


def rated(rating: float, answers: int, puzzle: float, solved: bool) -> float:
    """Her rating after an answer; ``answers``: how many she gave before this one."""
    k = K_NEW if answers < NEW_ANSWERS else K
    return rating + k * ((1.0 if solved else 0.0) - expected(rating, puzzle))


def judge(puzzle: Puzzle, move_text: str) -> bool:
    """Whether ``move_text`` is the puzzle's answer (a move the same for the rules counts);
    a move that is not legal there raises :class:`~fido.errors.FidoError`."""
    view = puzzle.seat_view()
    move = Move.from_text(move_text)
    if move not in view.legal_moves:
        raise FidoError(f"{move_text} is not a legal move in this puzzle")
    best = Move.from_text(puzzle.best[0])
    return same_move(view, move, best)


def explanation(puzzle: Puzzle) -> str:
    """Why the answer is best, from the analysis's own numbers, in the reader's language."""
    view = puzzle.seat_view()
    best = Move.from_text(puzzle.best[0])
    points = view.points_for(best)
    now = (ngettext("{move} scores {n} point now", "{move} scores {n} points now", points)
           .format(move=best.text(), n=points) if points
           else _("{move} scores nothing now").format(move=best.text()))
    return _("{now}; played on, it ends {gain} points of margin better than the next best "
             "move, {second} (± {ci}), over {worlds} deals of the tiles you could not "
             "see.").format(now=now, gain=f"{puzzle.gain:.1f}", second=puzzle.second,
                            ci=f"{puzzle.gain_ci:.1f}", worlds=puzzle.worlds)


def fit_rating(found: dict[str, int], tries: int, levels: dict[str, float]) -> int:
    """The rating at which a player finds the puzzle half the time: the maximum of the
    levels' results' likelihood (each level at its fixed shown rating, Elo's curve) with
    a normal prior around a newcomer's 1500 (sd 400), so a puzzle every level finds (or
    none) stays finite."""
    best, best_ll = START, -math.inf
    for r in range(400, 2801, 5):
        ll = -((r - START) ** 2) / (2 * 400.0 ** 2)
        for level, rating in levels.items():
            p = expected(rating, r)
            k = found.get(level, 0)
            ll += k * math.log(p) + (tries - k) * math.log(1.0 - p)
        if ll > best_ll:
            best, best_ll = r, ll
    return round(best)
