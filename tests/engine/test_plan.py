"""The plan of a ruleset (fido.engine.plan): the rules' answers, kept once a ruleset.

The plan is a cache, so what can go wrong is answering for other rules than
the ones asked: a plan kept under an id that now names another ruleset, a
count the rules refuse being remembered, the opener looked for in another
set. Each test below would catch one of those.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from fido import Game, Ruleset
from fido.engine import plan as plan_module
from fido.engine.dealing import find_opener
from fido.engine.plan import plan_of
from fido.engine.results import Termination, score_hand
from fido.engine.rules import ruleset
from fido.engine.tiles import DominoSet, Tile
from fido.errors import ConfigurationError


def test_a_plan_answers_as_its_rules_do() -> None:
    for text in ("fido", "fido set=12", "fido set=18 mother_theresa", "block", "draw", "muggins"):
        rules = Ruleset.from_text(text)
        plan = plan_of(rules)
        assert plan.rules is rules
        assert plan.dominoes is rules.dominoes
        assert plan.clockwise is rules.clockwise
        assert plan.mother_theresa is rules.mother_theresa
        assert plan.keep_in_stock == rules.keep_in_stock
        assert plan.end_scoring is rules.end_scoring
        for players in range(rules.min_players, rules.max_players + 1):
            assert plan.hand_size(players) == rules.hand_size(players)
            assert plan.teams(players) == rules.teams(players)
            teams = rules.teams(players)
            assert plan.sides(players) == (teams or tuple((s,) for s in range(players)))


def test_equal_rules_of_another_object_get_their_own_plan() -> None:
    a = ruleset("fido", set=9)
    b = dataclasses.replace(a)
    assert a == b and a is not b
    assert plan_of(a) is plan_of(a)
    assert plan_of(b).rules is b


def test_a_plan_kept_under_a_reused_id_is_not_taken_for_other_rules() -> None:
    """An id names another object once the first is gone: the entry must be checked."""
    a = ruleset("fido", set=6)
    b = ruleset("block")
    plan_module._PLANS[id(b)] = plan_of(a)  # as if b had been born where a's plan is kept
    got = plan_of(b)
    assert got.rules is b
    assert got.divisor == 0  # block scores nothing during play; fido set=6 would say 3
    assert plan_of(b).hand_size(2) == 7


def test_a_count_the_rules_refuse_is_refused_every_time() -> None:
    plan = plan_of(Ruleset.from_text("fido set=6"))
    for _ in range(2):
        with pytest.raises(ConfigurationError):
            plan.hand_size(12)
        with pytest.raises(ConfigurationError):
            Game.new("fido set=6", 12, seed=1)


def test_the_plans_kept_are_bounded() -> None:
    for i in range(plan_module._MAX_PLANS + 50):
        plan_of(dataclasses.replace(ruleset("fido", set=6), match_target=i + 1))
    assert len(plan_module._PLANS) <= plan_module._MAX_PLANS


def test_the_opener_of_another_set_is_looked_for_in_that_set() -> None:
    """find_opener takes the set from its caller: a double-6 hand under double-12 rules."""
    rules = Ruleset.from_text("fido set=12")
    small = DominoSet(6)
    hands = [small.mask_of([Tile(6, 6), Tile(1, 2)]), small.mask_of([Tile(5, 5)])]
    assert find_opener(rules, small, hands) == (0, Tile(6, 6))
    big = rules.dominoes
    hands = [big.mask_of([Tile(6, 6)]), big.mask_of([Tile(12, 12)])]
    assert find_opener(rules, big, hands) == (1, Tile(12, 12))
    lowest = Ruleset.from_text("fives_and_threes")  # the lowest double opens
    sixes = lowest.dominoes
    hands = [sixes.mask_of([Tile(3, 3)]), sixes.mask_of([Tile(1, 1), Tile(6, 6)])]
    assert find_opener(lowest, sixes, hands) == (1, Tile(1, 1))
    assert find_opener(Ruleset.from_text("draw"), sixes, hands) == (0, None)


def test_score_hand_takes_tuples_as_lists() -> None:
    rules = Ruleset.from_text("block")
    for players in (2, 3, 4):
        rng = random.Random(players)
        for _ in range(50):
            points = [rng.randrange(5) for _ in range(players)]
            pips = [rng.randrange(30) for _ in range(players)]
            out = rng.randrange(players)
            for ending, seat in ((Termination.DOMINO, out), (Termination.BLOCKED, None)):
                listed = score_hand(rules, points, pips, ending, seat)
                assert score_hand(rules, tuple(points), tuple(pips), ending, seat) == listed
                assert type(listed.seats[0]).__name__ == "SeatResult"
                assert listed.seats[out]._fields[0] == "seat"
