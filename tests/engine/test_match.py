"""Matches to a target: sides, totals, ties at the top, errors."""

from __future__ import annotations

import random

import pytest

from fido import ConfigurationError, Game
from fido.engine.match import Match


def play_out(game: Game, rng: random.Random) -> Game:
    while not game.is_over:
        game.push(rng.choice(game.legal_moves()))
    return game


@pytest.mark.parametrize(
    ("rules", "players", "target", "sides"),
    [
        ("straight", 3, 100, 3),
        ("muggins", 4, 61, 2),
        ("fives_and_threes", 2, 31, 2),
    ],
)
def test_match_runs_to_its_target(rules: str, players: int, target: int, sides: int) -> None:
    m = Match(rules, players, seed=4)
    assert m.target == target and len(m.totals) == sides
    expected = [0] * sides
    while not m.is_over:
        g = play_out(m.new_hand(), m.rng)
        m.add(g)
        assert g.outcome is not None
        expected = [a + b for a, b in zip(expected, g.outcome.match_points, strict=True)]
        assert m.totals == expected
    best = max(m.totals)
    assert best >= target and m.totals.count(best) == 1
    assert m.winner == m.sides[m.totals.index(best)]
    with pytest.raises(ConfigurationError, match="the match is over"):
        m.new_hand()


def test_a_tie_at_the_top_plays_on() -> None:
    m = Match("straight", 2, target=1)
    m.totals = [1, 1]
    assert not m.is_over and m.winner is None
    m.totals = [2, 1]
    assert m.is_over and m.winner == (0,)


def test_block_needs_a_target_and_unfinished_hands_do_not_count() -> None:
    with pytest.raises(ConfigurationError, match="no match target"):
        Match("block", 2)
    m = Match("block", 4, target=50, seed=1)
    assert m.sides == ((0, 2), (1, 3))
    with pytest.raises(ConfigurationError, match="only a finished hand"):
        m.add(m.new_hand())
