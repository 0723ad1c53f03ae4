"""The first lesson checked against the engine (issue 44): every position is a legal game,
every step has a wrong move as well as a right one (bar the opening, which has one move),
the right moves do what the step says, and the numbers its text states are the engine's."""

from __future__ import annotations

import re

import pytest

from fido.engine.moves import Placement
from fido.i18n import use
from fido.lessons import FIRST_GAME, LESSON, Goal, Step, tries
from fido.position import game_text, parse_game


def test_the_lesson_has_its_steps_in_order() -> None:
    assert [s.key for s in LESSON] == ["open", "down", "side", "double", "heilig", "classes",
                                       "reply"]
    assert len({s.key for s in LESSON}) == len(LESSON)


@pytest.mark.parametrize("step", LESSON, ids=lambda s: s.key)
def test_each_position_is_a_legal_game_its_seat_to_move(step: Step) -> None:
    game = step.game()
    assert parse_game(game_text(game)).table == game.table  # the line round-trips
    assert game.turn == step.seat and not game.is_over
    assert sorted(game.hand(step.seat)) == sorted(
        parse_game(game_text(game)).hand(step.seat))
    assert len(game.table.placements) == len(step.laid)
    assert all(isinstance(m, Placement) for m in game.legal_moves())  # she can lay a tile


@pytest.mark.parametrize("step", LESSON, ids=lambda s: s.key)
def test_the_right_moves_do_what_the_step_says(step: Step) -> None:
    judged = tries(step)
    right = [t for t in judged if t.right]
    assert right
    if step.key != "open":  # the opening has one move: every other step a wrong one too
        assert len(right) < len(judged)
    facts = dict(step.facts)
    assert step.view().table.ends_sum == facts["now"]
    for t in right:
        if "after" in facts:
            assert t.sum == facts["after"], (step.key, t.move.text())
        if "points" in facts:
            assert t.points == facts["points"]
    if step.goal is Goal.MOST:  # no wrong move scores as much
        assert all(t.points < right[0].points for t in judged if not t.right)
    if step.goal is Goal.SAFE:
        fewest = right[0].replies
        assert fewest is not None
        assert all(t.replies is not None and t.replies > fewest for t in judged if not t.right)
        assert all(t.points == 0 for t in judged)  # "none of your tiles scores"


def test_the_numbers_in_the_texts_are_the_engines() -> None:
    """Each sum a step's text names as 'the sum is N' is the position's sum."""
    for step in LESSON:
        for said in re.findall(r"[Tt]he sum is (\d+)", step.text):
            assert int(said) == step.view().table.ends_sum, step.key
    down, side, double, heilig, classes, _reply = LESSON[1:]
    assert down.view().table.ends_sum == 48 == heilig.view().table.ends_sum
    assert side.view().table.ends_sum == 44
    assert double.view().table.ends_sum == 47
    assert classes.view().table.ends_sum == 50


def test_the_joker_scores_more_but_is_kept() -> None:
    """The federation's example: 18-7 reaches 55 (5 points) but is the divisor's
    difference; 12-8 coming down to 44 (4 points) is the right move."""
    heilig = next(s for s in LESSON if s.key == "heilig")
    judged = {t.move.text(): t for t in tries(heilig)}
    assert judged["18-7@0s"].points == 5 and not judged["18-7@0s"].right
    assert judged["12-8@1n"].points == 4 and judged["12-8@1n"].right
    assert "spends your joker" in judged["18-7@0s"].said


def test_a_wrong_try_says_what_it_did_and_why() -> None:
    down = LESSON[1]
    wrong = next(t for t in tries(down) if t.move.text() == "16-12@1n")
    assert not wrong.right and wrong.sum == 52 and wrong.points == 0
    assert wrong.said.startswith("16-12 on the end 12: the sum is 52, no points.")
    assert "raises the sum by 4" in wrong.said


def test_the_lesson_speaks_german() -> None:
    with use("de"):
        said = next(t for t in tries(LESSON[2]) if t.right).said
    assert said.startswith("18-11 an die nackte Seite von 18-18: Die Summe ist 55, 5 Punkte.")
    assert "Abstauber" in said


def test_the_first_game_is_the_gentlest() -> None:
    assert FIRST_GAME.bot == "random" and FIRST_GAME.rules == "fido set=6"
