"""The puzzles that ship with fido (issue 44), checked against the engine, and the puzzle
rating's rule (docs/puzzles.md)."""

from __future__ import annotations

import datetime as dt

import pytest

from fido import puzzles
from fido.engine.moves import Move
from fido.errors import FidoError
from fido.i18n import use
from fido.puzzles import MIN_GAIN, Puzzle, expected, fit_rating, rated, same_move

ALL = puzzles.load()


def test_two_hundred_puzzles_or_more_ship() -> None:
    assert len(ALL) >= 200
    assert len({p.id for p in ALL}) == len(ALL)
    assert len({p.view for p in ALL}) == len(ALL)
    assert {p.rules for p in ALL} == {"fido set=9", "fido set=6"}
    assert [p.rating for p in ALL] == sorted(p.rating for p in ALL)  # easiest first


@pytest.mark.parametrize("p", ALL[:: max(1, len(ALL) // 40)], ids=lambda p: p.id)
def test_a_puzzle_is_its_seats_view_and_a_clear_best_move(p: Puzzle) -> None:
    view = p.seat_view()
    assert view.seat is not None and view.is_my_turn and view.outcome is None
    best = [Move.from_text(m) for m in p.best]
    assert all(m in view.legal_moves for m in best)
    assert all(same_move(view, best[0], m) for m in best)
    second = Move.from_text(p.second)
    assert second in view.legal_moves and not same_move(view, best[0], second)
    assert p.gain >= MIN_GAIN and p.gain - p.gain_ci > 0  # beyond the analysis's interval
    assert puzzles.judge(p, p.best[-1]) and not puzzles.judge(p, p.second)


def test_a_move_not_legal_there_is_refused() -> None:
    with pytest.raises(FidoError):
        puzzles.judge(ALL[0], "0-0@99e")


def test_the_puzzle_rating_moves_by_elos_rule() -> None:
    assert expected(1500, 1500) == 0.5
    assert rated(1500.0, 0, 1500, solved=True) == 1520.0  # K 40 while new
    assert rated(1500.0, 0, 1500, solved=False) == 1480.0
    assert rated(1500.0, 10, 1500, solved=True) == 1510.0  # K 20 after ten answers
    # a hard puzzle missed costs little, an easy one missed much
    assert 1500 - rated(1500.0, 20, 1900, solved=False) < 2
    assert 1500 - rated(1500.0, 20, 1100, solved=False) > 18


def test_a_puzzle_fewer_levels_find_rates_higher() -> None:
    levels = {"random": 900.0, "greedy": 1500.0, "expert": 1644.0, "search": 1686.0}
    everyone = fit_rating({"random": 2, "greedy": 2, "expert": 2, "search": 2}, 2, levels)
    strong = fit_rating({"random": 0, "greedy": 0, "expert": 2, "search": 2}, 2, levels)
    nobody = fit_rating({}, 2, levels)
    assert everyone < strong < nobody


def test_the_puzzle_of_the_day_is_the_days() -> None:
    day = dt.date(2026, 11, 29)
    assert puzzles.daily(day) == puzzles.daily(day)
    days = {puzzles.daily(day + dt.timedelta(days=n)).id for n in range(30)}
    assert len(days) > 20  # another most days


def test_the_explanation_is_the_analysis_in_her_language() -> None:
    p = next(p for p in ALL if p.gain_ci > 0)
    said = puzzles.explanation(p)
    assert p.second in said and f"{p.gain:.1f}" in said and str(p.worlds) in said
    with use("de"):
        german = puzzles.explanation(p)
    assert german != said and "Steine" in german
