"""The champion with its worlds weighed by the opponents' plays (issue 45): an experiment.

    PYTHONPATH=bench .venv/bin/python bench/duels.py --workers 2 --deals 100 --seed N \\
        --register wworlds=weighed_worlds:WeighedChampion \\
        --duel "12:4,wworlds:beta=0.3,tries=8,B=champion"

The champion samples every deal consistent with what its seat saw alike, but
players take points: in expert-played double-12 hands the true deal had the
opponents pass up no points on their placements since their last draws, the
sampled deals 7 to 20 on average (docs/bots.md, "champion"). ``infer``
(:func:`fido.bots.champion.likely_deal`) rules tiles out for that, and measured
nothing. This weighs instead: of ``tries`` worlds sampled alike, one is kept
with probability proportional to ``exp(-beta * p)``, ``p`` the points its
opponents' hands would have passed up (sampling-importance-resampling), so a
world in which the opponents played as players do is likelier and none is
impossible. Its cost is ``tries`` samples a world instead of one (a sample is
a fraction of the four play-outs a world feeds). Measured in play, fixed in
advance (both at 2,000 simulations without a clock, double-12 with four, 100
deals, seed 618347): -1.20 a hand [-5.37, +2.97] against the champion, no
gain (docs/bots.md).

    .venv/bin/python bench/weighed_worlds.py [--positions 6] [--beta 0.3] [--tries 8]

checks the sampling itself: in double-12 hands with four played by the expert,
stopped after 14 moves, the points the opponents passed up in the true deal,
in uniformly sampled worlds and in weighed ones.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics

from fido.bots.champion import ChampionBot, PassedUp, passed_up, points_passed_up
from fido.bots.expert import ExpertBot
from fido.bots.sampling import hidden_deal
from fido.bots.search import Dealer
from fido.engine.game import Game
from fido.engine.views import SeatView


class WeighedDeal:
    """Samples worlds, each the pick of ``tries`` by how few points they pass up."""

    def __init__(self, deal: Dealer, evidence: dict[int, list[PassedUp]], beta: float,
                 tries: int) -> None:
        self.deal, self.evidence, self.beta, self.tries = deal, evidence, beta, tries

    def passed(self, world: Game) -> int:
        """Points the opponents' hands in ``world`` would have passed up."""
        return sum(points_passed_up(world.hands[seat], ev)
                   for seat, ev in self.evidence.items())

    def sample(self, rng: random.Random) -> Game:
        if not self.evidence:
            return self.deal.sample(rng)
        worlds = [self.deal.sample(rng) for _ in range(self.tries)]
        passed = [self.passed(w) for w in worlds]
        least = min(passed)
        weights = [math.exp(-self.beta * (p - least)) for p in passed]
        return rng.choices(worlds, weights)[0]


class WeighedChampion(ChampionBot):
    """:class:`ChampionBot` whose worlds are weighed by the opponents' plays."""

    def __init__(self, beta: float | str = 0.3, tries: int | str = 8,
                 **options: float | str) -> None:
        super().__init__(**options)  # type: ignore[arg-type]
        self.beta, self.tries = float(beta), int(tries)
        if self.beta < 0 or self.tries < 1:
            raise ValueError("beta is 0 or more, tries 1 or more")
        self.name = f"wworlds:beta={self.beta},tries={self.tries}," + ",".join(
            f"{k}={v}" for k, v in options.items())

    def _deal(self, view: SeatView) -> Dealer:
        return WeighedDeal(super()._deal(view), passed_up(view), self.beta, self.tries)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", type=int, default=6)
    ap.add_argument("--beta", type=float, default=0.3)
    ap.add_argument("--tries", type=int, default=8)
    ap.add_argument("--worlds", type=int, default=300, help="sampled worlds a position")
    args = ap.parse_args()
    rng = random.Random(5)
    expert = ExpertBot()
    print("position  truth  uniform  weighed   (points the opponents passed up)")
    for n in range(args.positions):
        g = Game.new("fido set=12", 4, rng=random.Random(100 + n))
        for _ in range(14):
            if g.outcome is None:
                g.push(expert.choose(g.view(g.turn), rng))
        if g.outcome is not None:
            continue
        view = g.view(g.turn)
        uniform = hidden_deal(view)
        weighed = WeighedDeal(uniform, passed_up(view), args.beta, args.tries)
        u = statistics.fmean(weighed.passed(uniform.sample(rng)) for _ in range(args.worlds))
        w = statistics.fmean(weighed.passed(weighed.sample(rng)) for _ in range(args.worlds))
        print(f"{n:8d}  {weighed.passed(g):5d}  {u:7.2f}  {w:7.2f}")


if __name__ == "__main__":
    main()
