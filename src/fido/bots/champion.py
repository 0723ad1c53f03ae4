"""The ``champion`` level: ``search``'s machinery with rollouts that play like the expert.

``search`` rolls its sampled worlds out with a greedy policy (the most points
now), which does not value what the FIDO texts teach: it spends jokers, keeps
doubles too long and opens scores for the next player. So its rollouts can
only confirm or overturn the expert's first choice within their noise. The
champion rolls out with :func:`fido.rollout.smart_playout`, the expert's main
terms compiled with the engine (about 1.3 times a greedy rollout's cost), so
the worlds are played the way strong players play them.

Everything else is :class:`~fido.bots.search.SearchBot`: the worlds are
samples of the seat's information set (:mod:`fido.bots.sampling`), the
candidates the expert's best ``width`` moves, sequential halving over shared
worlds, and the expert's first choice stands unless a rival is better by
``doubt`` standard errors (paired over the shared worlds). What was tried and
measured is in docs/bots.md.
"""

from __future__ import annotations

import random

from fido.bots.search import SearchBot, margin
from fido.game import Game
from fido.rollout import smart_playout

__all__ = ["ChampionBot"]


class ChampionBot(SearchBot):
    """Determinized search whose rollouts follow the expert's advice."""

    name = "champion"

    def __init__(
        self,
        sims: int = 2000,
        time: float = 0.9,
        *,
        explore: float = 0.1,
        policy: str = "smart",
        prior: str = "expert",
        width: int = 4,
        doubt: float = 1.645,
    ) -> None:
        super().__init__(sims, time, prior=prior, width=width)
        if not 0.0 <= explore <= 1.0:
            raise ValueError("explore is a probability, 0 to 1")
        if policy not in ("smart", "greedy"):
            raise ValueError("policy is smart or greedy")
        if doubt < 0:
            raise ValueError("doubt is 0 or more standard errors")
        self.explore = explore
        self.policy = policy
        self.doubt = doubt
        self.name = f"champion:sims={sims},time={time}"

    def _evaluate(self, g: Game, seat: int, dice: int, solve_at: int) -> tuple[float, int]:
        if self.policy == "greedy":
            return margin(g.playout(random.Random(dice), 1.0 - self.explore), seat), 1
        return margin(smart_playout(g, random.Random(dice), self.explore), seat), 1
