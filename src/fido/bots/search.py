"""The ``search`` level: Monte Carlo search over the worlds a seat cannot tell apart.

Each round deals the hidden tiles anew, consistently with the view
(:mod:`fido.bots.sampling`), and plays every candidate move in that same
world, rolling the hand out with the same dice (:func:`fido.engine.rollout.playout_margin`
with :func:`fido.engine.dice.seeded`: the best-scoring placement most of the time,
else a random one), so the
candidates are compared on equal luck. A rollout is worth the seat's margin:
her final score (her team's, in team games) minus the mean of the others'.
The candidates are the ``expert`` level's best few moves, and its first choice
stands unless the rollouts find a better one beyond their noise (paired over
shared worlds, one-sided 95 %): rollouts with a fast policy miss what the
expert knows about doubles and jokers. Sequential halving spends the budget:
after each stage the worse half of the candidates is dropped, so the close
calls get the most rollouts.

Determinizing at the root only (perfect-information Monte Carlo with a fresh
world per simulation) is the classic strong approach for domino games: the
rollouts never use what the seat could not know, since every world is a
sample of her information set.

Budget: ``sims`` simulations or ``time`` seconds, whichever ends first
(``time=0`` means no clock, so a seeded game is reproducible).
"""

from __future__ import annotations

import math
import random
import statistics
import time as _time
from typing import Protocol

from fido.bots.base import Move
from fido.bots.expert import EXPERT_WEIGHTS, FidoWeights, Position, expert_score
from fido.bots.sampling import hidden_deal
from fido.bots.solver import SolveBudgetExceeded, margin, solve
from fido.engine.dice import seeded
from fido.engine.game import Game
from fido.engine.rollout import playout_margin
from fido.engine.views import SeatView

__all__ = ["NODES_PER_SIM", "Dealer", "SearchBot", "margin"]

class Dealer(Protocol):
    def sample(self, rng: random.Random) -> Game: ...


# A solved position costs about a quarter of a rollout (copy, push, moves).
NODES_PER_SIM = 4


class SearchBot:
    """Determinized Monte Carlo search: sequential halving over shared sampled worlds."""

    name = "search"
    doubt = 1.645  # standard errors a rival must beat the expert's choice by

    def __init__(
        self,
        sims: int = 2000,
        time: float = 0.9,
        *,
        greedy: float = 0.8,
        prior: str = "expert",
        width: int = 4,
        solve: int = 0,
        nodes: int = 3000,
    ) -> None:
        if sims < 1:
            raise ValueError("sims must be at least 1")
        if time < 0:
            raise ValueError("time must be 0 (no clock) or more seconds")
        if not 0.0 <= greedy <= 1.0:
            raise ValueError("greedy is a probability, 0 to 1")
        self.sims = sims
        self.time = time
        if prior not in ("expert", "none"):
            raise ValueError("prior is expert or none")
        if width < 2:
            raise ValueError("width must be at least 2 candidate moves")
        if solve < 0:
            raise ValueError("solve is 0 (never) or a number of tiles left in hands")
        if nodes < 1:
            raise ValueError("nodes must be at least 1")
        self.greedy = greedy
        self.prior = prior
        self.width = width
        self.solve = solve
        self.nodes = nodes
        self.name = f"search:sims={sims},time={time}"
        self.last_simulations = 0  # of the latest decision, for benchmarks
        self.fido_weights: FidoWeights = EXPERT_WEIGHTS  # the prior's weights in FIDO games

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        moves = view.legal_moves
        self.last_simulations = 0
        if len(moves) == 1:
            return moves[0]
        seat = view.seat
        assert seat is not None, "a spectator does not move"
        deadline = _time.perf_counter() + self.time if self.time else math.inf
        deal = self._deal(view)
        solve_at = self.solve
        n = len(moves)
        # the prior: the expert's order of the moves; search looks at its best few
        # and overrides its first choice only when the rollouts say so with confidence
        order = list(range(n))
        if self.prior != "none":
            pos = Position.of(view)
            scores = [expert_score(pos, m, self.fido_weights) for m in moves]
            order.sort(key=lambda k: -scores[k])
            order = order[: self.width]
        top = order[0]
        values: list[dict[int, float]] = [{} for _ in range(n)]  # per move: world -> value
        alive = order
        rounds = max(1, math.ceil(math.log2(len(alive))))
        budget = self._budget(view)
        done = 0
        world_id = 0
        out_of_time = False
        for r in range(rounds):
            # each candidate left gets an equal share of this round's budget, and
            # all of them are played out in the same worlds with the same dice
            worlds = max(1, (budget - done) // (len(alive) * (rounds - r)))
            for _ in range(worlds):
                world = deal.sample(rng)
                dice = rng.getrandbits(64)
                world_id += 1
                for i in alive:
                    g = world.copy()
                    g.push(moves[i])
                    values[i][world_id], cost = self._evaluate(g, seat, dice, solve_at)
                    done += cost
                if _time.perf_counter() > deadline:
                    out_of_time = True
                    break
            if out_of_time or len(alive) == 1:
                break
            alive = sorted(alive, key=lambda k: _mean(values[k]), reverse=True)
            alive = alive[: max(1, (len(alive) + 1) // 2)]
        self.last_simulations = done
        best = max(alive, key=lambda k: _mean(values[k]))
        if best == top or not self._confident(values[best], values[top]):
            return moves[top]
        return moves[best]

    def _deal(self, view: SeatView) -> Dealer:
        """What samples the worlds: every deal consistent with the view, alike."""
        return hidden_deal(view)

    def _budget(self, view: SeatView) -> int:
        """Simulations for this decision (the clock may end it sooner)."""
        return self.sims

    def _evaluate(self, g: Game, seat: int, dice: int, solve_at: int) -> tuple[float, int]:
        """The world's value after a candidate, and what it cost in simulations.

        Small enough (``solve_at`` tiles or fewer in hands): played perfectly,
        charged a simulation per ``NODES_PER_SIM`` positions searched; else, or
        when the tree outgrows ``nodes``, rolled out (one simulation).
        """
        if solve_at and not g.is_over and sum(g.hand_counts()) <= solve_at:
            try:
                value, nodes = solve(g, seat, self.nodes)
            except SolveBudgetExceeded:
                pass
            else:
                return value, 1 + nodes // NODES_PER_SIM
        return playout_margin(g, seeded(dice), seat, self.greedy), 1

    def _confident(self, better: dict[int, float], base: dict[int, float]) -> bool:
        """Paired over the worlds both were played in: better by more than noise
        (``doubt`` standard errors: one-sided 5 %)."""
        diffs = [better[w] - base[w] for w in better.keys() & base.keys()]
        if len(diffs) < 8:
            return False
        sd = statistics.stdev(diffs)
        return bool(statistics.fmean(diffs) > self.doubt * sd / len(diffs) ** 0.5)


def _mean(values: dict[int, float]) -> float:
    return statistics.fmean(values.values()) if values else -math.inf
