"""Exact play of a hand's end in one sampled world: alpha-beta on the seat's margin.

Search rolls a sampled world out with a fast policy; near the end of a
blocking game a world is small enough to play perfectly instead, which
removes the rollout policy's mistakes from the estimate exactly where single
tiles decide the hand. The value is the seat's margin
(:func:`fido.bots.search.margin`): her side maximizes it and every other seat
minimizes it. With two teams that is the game itself (zero-sum); with more
sides it is the cautious "paranoid" reading, all against one.

A world includes the stock's order, so draws are moves like any other here;
that is perfect-information play of one sample, which is what determinized
search averages over.
"""

from __future__ import annotations

from typing import NamedTuple

from fido.engine.game import Game
from fido.engine.moves import Move, Placement
from fido.engine.results import seat_margin as margin

__all__ = ["Solution", "SolveBudgetExceeded", "margin", "solve"]


class SolveBudgetExceeded(Exception):
    """The world is too large for the node budget; the caller rolls it out instead."""


class Solution(NamedTuple):
    """The exact margin, and the positions it took (what search charges to its budget)."""

    value: float
    nodes: int


def _heavy_first(move: Move) -> int:
    return -move.tile.pips if isinstance(move, Placement) else 0


def solve(game: Game, seat: int, max_nodes: int = 5000) -> Solution:
    """The margin ``seat`` gets when every seat plays perfectly from here.

    Raises :class:`SolveBudgetExceeded` after ``max_nodes`` positions, so a
    caller can bound its time per world. ``game`` is not changed.
    """
    players = len(game.hand_counts())
    teams = game.rules.teams(players)
    side = frozenset(next(t for t in teams if seat in t)) if teams else frozenset((seat,))
    nodes = 0

    def value(g: Game, alpha: float, beta: float) -> float:
        nonlocal nodes
        outcome = g.outcome
        if outcome is not None:
            return margin(outcome, seat)
        nodes += 1
        if nodes > max_nodes:
            raise SolveBudgetExceeded
        moves = g.legal_moves()
        if len(moves) > 1:
            moves.sort(key=_heavy_first)
        if g.turn in side:
            best = -1e9
            for m in moves:
                g.push(m)
                v = value(g, alpha, beta)
                g.pop()
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            return best
        best = 1e9
        for m in moves:
            g.push(m)
            v = value(g, alpha, beta)
            g.pop()
            if v < best:
                best = v
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        return best

    # one copy, moves made and taken back (Game.pop) instead of a copy per node
    v = value(game.copy(), -1e9, 1e9)
    return Solution(v, nodes)
