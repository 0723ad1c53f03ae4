"""The expert (or the champion) with its FIDO weights changed: how the prior was tuned (issue 27).

    .venv/bin/python bench/duels.py --workers 2 --deals 500 --seed 5 \\
        --register wexpert=weighted_expert:WeightedExpert \\
        --duel "12:4,wexpert:pairs=0.5,B=expert" --duel "12:4,wexpert:spare=2.0,B=expert"

Options name :class:`fido.bots.expert.FidoWeights`' fields (``joker``, ``pairs``,
``heavy``, ``double``, ``tap_in``, ``ter_heide``, ``jokinen``, ``spare``); the
rest keep the expert's values. Expert against expert decides in a fraction of
a millisecond, so a double-12 deal of four hands takes about 0.2 s and a
weight is judged over hundreds of duplicate deals in minutes (docs/bots.md,
"champion", third slice). ``wchamp`` (:class:`WeightedChampion`) is the
champion with the tuned weights changed and its own options beside them:
``--register wchamp=weighted_expert:WeightedChampion --duel
"6:3,wchamp:policy=greedy,double=1.25,B=search"`` (the fourth slice).
"""

from __future__ import annotations

from fido.bots.champion import TUNED_WEIGHTS, ChampionBot
from fido.bots.expert import ExpertBot, FidoWeights


class WeightedExpert(ExpertBot):
    """:class:`ExpertBot` whose FIDO terms are weighed by the given weights."""

    def __init__(self, **weights: float) -> None:
        self.fido_weights = FidoWeights(**{k: float(v) for k, v in weights.items()})
        self.name = "wexpert:" + ",".join(f"{k}={v}" for k, v in weights.items())


class WeightedChampion(ChampionBot):
    """:class:`ChampionBot` whose prior weighs the FIDO terms by the given weights.

    Options that name :class:`FidoWeights` fields change the tuned weights
    (:data:`fido.bots.champion.TUNED_WEIGHTS`); the others are the champion's.
    """

    def __init__(self, **options: float | str) -> None:
        weights = {k: float(v) for k, v in options.items() if k in FidoWeights._fields}
        rest = {k: v for k, v in options.items() if k not in FidoWeights._fields}
        super().__init__(**rest)  # type: ignore[arg-type]
        self.fido_weights = TUNED_WEIGHTS._replace(**weights)
        self.name = "wchamp:" + ",".join(f"{k}={v}" for k, v in options.items())
