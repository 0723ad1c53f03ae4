"""The two simplest players: ``random`` (a baseline) and ``greedy`` (points now)."""

from __future__ import annotations

import random

from fido.bots.base import Move
from fido.engine.moves import Placement
from fido.engine.views import SeatView

__all__ = ["GreedyBot", "RandomBot", "greedy_key"]


class RandomBot:
    """A uniformly random legal move: the floor every other level must beat."""

    name = "random"

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        return rng.choice(view.legal_moves)


def greedy_key(view: SeatView, move: Move) -> tuple[int, int, int]:
    """Most points now, then the heaviest tile (pips left count against you), doubles first.

    Drawing or passing ranks below every placement.
    """
    if not isinstance(move, Placement):
        return (-1, -1, -1)
    t = move.tile
    return (view.points_for(move), t.pips, int(t.is_double))


class GreedyBot:
    """Takes the most points now; among equals sheds the heaviest tile."""

    name = "greedy"

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        moves = view.legal_moves
        best = max(greedy_key(view, m) for m in moves)
        return rng.choice([m for m in moves if greedy_key(view, m) == best])
