"""The expert with its FIDO weights changed: how the champion's prior was tuned (issue 27).

    .venv/bin/python bench/duels.py --workers 2 --deals 500 --seed 5 \\
        --register wexpert=weighted_expert:WeightedExpert \\
        --duel "12:4,wexpert:pairs=0.5,B=expert" --duel "12:4,wexpert:spare=2.0,B=expert"

Options name :class:`fido.bots.expert.FidoWeights`' fields (``joker``, ``pairs``,
``heavy``, ``double``, ``tap_in``, ``ter_heide``, ``jokinen``, ``spare``); the
rest keep the expert's values. Expert against expert decides in a fraction of
a millisecond, so a double-12 deal of four hands takes about 0.2 s and a
weight is judged over hundreds of duplicate deals in minutes (docs/bots.md,
"champion", third slice).
"""

from __future__ import annotations

import random

from fido.bots.base import Move
from fido.bots.expert import ExpertBot, FidoWeights, Position, expert_score
from fido.views import SeatView


class WeightedExpert(ExpertBot):
    """:class:`ExpertBot` whose FIDO terms are weighed by the given weights."""

    def __init__(self, **weights: float) -> None:
        self.weights = FidoWeights(**{k: float(v) for k, v in weights.items()})
        self.name = "wexpert:" + ",".join(f"{k}={v}" for k, v in weights.items())

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        moves = view.legal_moves
        if len(moves) == 1:
            return moves[0]
        pos = Position.of(view)
        scores = [expert_score(pos, m, self.weights) for m in moves]
        best = max(scores)
        return rng.choice([m for m, s in zip(moves, scores, strict=True) if s >= best - 1e-9])
