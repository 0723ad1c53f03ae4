"""The rollouts' fast turns play exactly the move the generator's list gives.

``Game.playout`` and ``smart_playout`` pick a move without building the legal-move
list where they can (:func:`fido.engine.rollout._fast_turn`, ``_smart_turn``); the
references here build the list through the public API and choose from it with the
same random numbers. Every ruleset,
set and player count the property tests sweep, random and greedy.
"""

from __future__ import annotations

import os
import random

import pytest

from fido import Game, Move, Placement
from fido.engine.rollout import best_now, smart_now, smart_playout
from support.cases import ALL_CASES

# three deals a case; one in the pure build's run (make pure-test), which is ten times slower
SEEDS = range(1 if os.environ.get("FIDO_FORCE_PURE") else 3)
# and a custom set past double-35 (a hand's mask by value has more than 36 bits)
CASES = [*ALL_CASES, ("fido set=40 divisor=5", 2)]


def reference_playout(game: Game, rng: random.Random, greedy: float) -> None:
    """The documented policy, from the legal-move list (rollout.playout's contract)."""
    rand = rng.random
    while not game.is_over:
        moves = game.legal_moves()
        move: Move = moves[0]
        if len(moves) > 1:
            if greedy > 0.0 and rand() < greedy:
                placements = [m for m in moves if isinstance(m, Placement)]
                if placements:  # the most points now, then the heaviest tile; the first of equals
                    move = max(placements, key=lambda m: (game.points_for(m), m.tile.pips))
            else:
                move = moves[int(rand() * len(moves))]
        game.push(move)


@pytest.mark.parametrize("greedy", [0.0, 0.5, 1.0])
@pytest.mark.parametrize(("text", "players"), CASES, ids=[f"{t}-{p}p" for t, p in CASES])
def test_playout_is_the_reference_move_for_move(text: str, players: int, greedy: float) -> None:
    for seed in SEEDS:
        game = Game.new(text, players, seed=seed)
        fast = game.copy()
        outcome = fast.playout(random.Random(seed + 100), greedy)
        reference_playout(game, random.Random(seed + 100), greedy)
        assert fast.history() == game.history()
        assert outcome == game.outcome
        assert fast.table.ends_sum == fast.table.recount()


def test_the_largest_set() -> None:
    """Double-99, the largest set a ruleset may name: masks of 100 bits (one seed; its
    random playouts through the list take minutes)."""
    game = Game.new("fido set=99 divisor=11", 9, seed=1)
    for policy in ("greedy", "smart"):
        fast, slow = game.copy(), game.copy()
        if policy == "greedy":
            fast.playout(random.Random(5), 1.0)
            reference_playout(slow, random.Random(5), 1.0)
        else:
            smart_playout(fast, random.Random(5), 0.1)
            reference_smart_playout(slow, random.Random(5), 0.1)
        assert fast.history() == slow.history()


def test_playout_from_a_mid_game_position_and_after_undo() -> None:
    """A playout from a position reached by moves and take-backs, not only from the deal."""
    for seed in range(10):
        game = Game.new("fido set=12", 4, seed=seed)
        rng = random.Random(seed)
        for _ in range(20):
            if game.is_over:
                break
            game.push(rng.choice(game.legal_moves()))
        if len(game):
            game.pop()
        fast = game.copy()
        fast.playout(random.Random(seed), 0.8)
        reference_playout(game, random.Random(seed), 0.8)
        assert fast.history() == game.history()


def reference_smart_playout(game: Game, rng: random.Random, explore: float) -> None:
    """smart_playout's contract, from the legal-move list and smart_now / best_now."""
    rand = rng.random
    teams = game.rules.teams(game.players)
    partner = [-1] * game.players
    for team in teams or ():
        partner[team[0]], partner[team[1]] = team[1], team[0]
    spare = 1.0 if teams is not None else 1.0 / max(1, game.players - 1)
    while not game.is_over:
        moves = game.legal_moves()
        move = moves[0]
        if len(moves) > 1:
            if explore > 0.0 and rand() < explore:
                move = moves[int(rand() * len(moves))]
            elif game.divisor > 0:
                move = smart_now(game, moves, partner, spare)
            else:
                move = best_now(game, moves)
        game.push(move)


@pytest.mark.parametrize("explore", [0.0, 0.1, 0.5])
@pytest.mark.parametrize(("text", "players"), CASES, ids=[f"{t}-{p}p" for t, p in CASES])
def test_smart_playout_is_the_reference_move_for_move(
    text: str, players: int, explore: float
) -> None:
    for seed in SEEDS:
        game = Game.new(text, players, seed=seed)
        fast = game.copy()
        outcome = smart_playout(fast, random.Random(seed + 200), explore)
        reference_smart_playout(game, random.Random(seed + 200), explore)
        assert fast.history() == game.history()
        assert outcome == game.outcome


def test_a_set_past_double_21_interns_nothing() -> None:
    """The interned placements grow with the square of the set: past double-21 the moves
    are made new, so a custom double-40 game leaves the cache as it was (it grew to
    every tile of double-40 on 3,444 slots before: 3 million placements)."""
    from fido.engine import movegen  # noqa: PLC0415

    Game.new("fido set=12", 4, seed=1).playout(random.Random(1))  # the cache in use
    before = (len(movegen._ROWS), len(movegen._ROWS[0]))
    game = Game.new("fido set=40 divisor=5", 2, seed=3)
    game.playout(random.Random(1), 0.5)
    assert game.is_over
    assert (len(movegen._ROWS), len(movegen._ROWS[0])) == before
    assert before[1] <= movegen.INTERNED_TILES
