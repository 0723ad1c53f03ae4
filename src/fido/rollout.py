"""The rollout policy: play a hand to its end fast, what search bots sample.

Each turn, with probability ``greedy`` the placement scoring most now (then
the heaviest tile; draws only when nothing can be placed), else a uniformly
random legal move. Compiled with the engine, and it calls the generator and
the trusted move application directly (the moves are legal by construction).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, cast

from fido.errors import IllegalMoveError
from fido.movegen import generate
from fido.moves import Move, Placement, PlacementTuple
from fido.results import Outcome

if TYPE_CHECKING:
    from fido.game import Game

__all__ = ["best_now", "playout"]


def playout(game: Game, rng: random.Random, greedy: float = 0.0) -> Outcome:
    """Play ``game`` to its end in place and return the outcome."""
    rand = rng.random
    while game._outcome is None:
        moves = generate(game)
        if not moves:
            raise IllegalMoveError("a draw waits for its tile: a playout needs the stock's order")
        move = moves[0]
        if len(moves) > 1:
            if greedy > 0.0 and rand() < greedy:
                move = best_now(game, moves)
            else:
                move = moves[int(rand() * len(moves))]
        game._apply(move)
    return game._outcome


def best_now(game: Game, moves: list[Move]) -> Move:
    """The placement scoring most now, the heaviest tile on ties; else the first move."""
    table = game.table
    base = table.ends_sum
    d = game._divisor
    best = moves[0]
    best_key = -1
    for m in moves:
        if m.__class__ is not Placement:
            continue
        tile, anchor, port = cast(PlacementTuple, m)
        if anchor < 0:
            pts = game.points_for(m)
        elif d > 0:
            s = base + table.delta(tile, anchor * 4 + port)
            pts = s // d if s % d == 0 else 0
        elif d == 0:
            pts = 0
        else:
            pts = game.points_for(m)
        key = pts * 1024 + tile.pips
        if key > best_key:
            best, best_key = m, key
    return best
