"""The endgame solver: exact against a plain minimax written here, budget, no side effects."""

from __future__ import annotations

import random

import pytest

from fido import ConfigurationError, Game
from fido.bots import make_bot, play_hand
from fido.bots.search import margin
from fido.bots.solver import SolveBudgetExceeded, solve


def minimax(g: Game, seat: int, side: frozenset[int]) -> float:
    """Every line to the end, no pruning: the reference the solver must equal."""
    if g.outcome is not None:
        return margin(g.outcome, seat)
    values = []
    for m in g.legal_moves():
        child = g.copy()
        child.push(m)
        values.append(minimax(child, seat, side))
    return max(values) if g.turn in side else min(values)


def endgame(text: str, players: int, seed: int, left: int) -> Game:
    rng = random.Random(seed)
    g = Game.new(text, players, rng=rng)
    while not g.is_over and sum(g.hand_counts()) > left:
        g.push(rng.choice(g.legal_moves()))
    return g


@pytest.mark.parametrize(
    ("text", "players", "left"),
    [
        ("block hand=7", 4, 10),  # teams: zero-sum
        ("block", 2, 8),
        ("muggins", 3, 6),  # points during play, a stock to draw from
        ("fido set=6", 3, 6),
    ],
)
def test_solver_equals_full_minimax(text: str, players: int, left: int) -> None:
    checked = 0
    for seed in range(8):
        g = endgame(text, players, seed, left)
        if g.is_over:
            continue
        seat = g.turn
        teams = g.rules.teams(players)
        side = frozenset(next(t for t in teams if seat in t)) if teams else frozenset((seat,))
        before = (g.history(), g.hand_counts(), g.ends_sum)
        value, nodes = solve(g, seat, max_nodes=10**6)
        assert value == minimax(g, seat, side)
        assert nodes >= 1
        assert (g.history(), g.hand_counts(), g.ends_sum) == before  # g untouched
        checked += 1
    assert checked >= 4


def test_the_node_budget_is_enforced() -> None:
    g = endgame("block hand=7", 4, seed=1, left=24)
    with pytest.raises(SolveBudgetExceeded):
        solve(g, g.turn, max_nodes=50)


def test_search_with_the_solver_plays_whole_hands() -> None:
    bots = [make_bot("search:sims=40,time=0,solve=12"), make_bot("greedy")] * 2
    for seed in range(3):
        g = play_hand("block hand=7", bots, seed=seed)
        assert g.outcome is not None


def test_bad_solver_options_are_refused() -> None:
    with pytest.raises(ConfigurationError, match="solve"):
        make_bot("search:solve=-2")
    with pytest.raises(ConfigurationError, match="nodes"):
        make_bot("search:nodes=0")
