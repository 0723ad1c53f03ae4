"""The ``search`` level: Monte Carlo search over the worlds a seat cannot tell apart.

Each simulation deals the hidden tiles anew, consistently with the view
(:mod:`fido.bots.sampling`), picks a move at the root by UCB1 over the
values seen so far, plays it in that world and rolls the hand out with a fast
policy (:meth:`fido.game.Game.playout`: the best-scoring placement most of the
time, else a random one). A rollout is worth the seat's margin: her final
score (her team's, in team games) minus the mean of the others'. The move with
the best mean margin is played.

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
import time as _time

from fido.bots.base import Move
from fido.bots.sampling import hidden_deal
from fido.results import Outcome
from fido.views import SeatView

__all__ = ["SearchBot", "margin"]


def margin(outcome: Outcome, seat: int) -> float:
    """The seat's final minus the mean of the others' (teams: own team minus the others)."""
    if outcome.teams is not None:
        own = next(t for t in outcome.teams if seat in t.seats)
        others = [t.final for t in outcome.teams if t is not own]
        return own.final - sum(others) / len(others)
    finals = [r.final for r in outcome.seats]
    return finals[seat] - (sum(finals) - finals[seat]) / (len(finals) - 1)


class SearchBot:
    """Determinized Monte Carlo search with UCB1 at the root."""

    name = "search"

    def __init__(
        self,
        sims: int = 2000,
        time: float = 0.9,
        greedy: float = 0.8,
        explore: float = 0.7,
    ) -> None:
        if sims < 1:
            raise ValueError("sims must be at least 1")
        if time < 0:
            raise ValueError("time must be 0 (no clock) or more seconds")
        if not 0.0 <= greedy <= 1.0:
            raise ValueError("greedy is a probability, 0 to 1")
        self.sims = sims
        self.time = time
        self.greedy = greedy
        self.explore = explore
        self.name = f"search:sims={sims},time={time}"
        self.last_simulations = 0  # of the latest decision, for benchmarks

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        moves = view.legal_moves
        if len(moves) == 1:
            self.last_simulations = 0
            return moves[0]
        seat = view.seat
        assert seat is not None, "a spectator does not move"
        deadline = _time.perf_counter() + self.time if self.time else math.inf
        deal = hidden_deal(view)
        n = len(moves)
        visits = [0] * n
        totals = [0.0] * n
        sq = 0.0  # running sum of squares, for the scale of the values
        done = 0
        for done in range(1, self.sims + 1):
            if done <= n:
                i = done - 1  # every move once first
            else:
                spread = math.sqrt(max(sq / (done - 1) - (sum(totals) / (done - 1)) ** 2, 1.0))
                log_n = math.log(done)
                i = max(
                    range(n),
                    key=lambda k: (
                        totals[k] / visits[k] + self.explore * spread * math.sqrt(log_n / visits[k])
                    ),
                )
            world = deal.sample(rng)
            world.push(moves[i])
            value = margin(world.playout(rng, self.greedy), seat)
            visits[i] += 1
            totals[i] += value
            sq += value * value
            if done % 16 == 0 and _time.perf_counter() > deadline:
                break
        self.last_simulations = done
        best = max(range(n), key=lambda k: (totals[k] / visits[k]) if visits[k] else -math.inf)
        return moves[best]
