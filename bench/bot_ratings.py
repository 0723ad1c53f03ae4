"""The bots' fixed game ratings (fido.ratings.BOT_RATINGS), measured.

    .venv/bin/python bench/bot_ratings.py [--deals 6] [--families fido:6:3,fido:9:4,muggins:2]
        [--levels random,greedy,expert,search,champion] [--workers N] [--seed 1]

For each game family (its ruleset and table size), every combination of that many
distinct levels plays ``--deals`` duplicate deals in every rotation
(:func:`fido.tournament.run_tournament`: the bots are the server's, at their default
settings). Every hand is one game for the rating model (:mod:`fido.ratings.model`, the
``openskill`` Plackett-Luce model the server rates people with): the levels start as
newcomers and every hand is rated in turn, as the server would rate them; the mean of
eight shuffled orders (so the order of the hands weighs little). The scale is then
anchored where the server puts a newcomer: greedy at 25 (shown 1500). Printed: each
level's mean per family and over the families, with the spread; the means over the
families are what BOT_RATINGS holds (one number a level, as a person sees it at any
table).
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import statistics
import time

from fido.ratings.model import MU, SCALE, SIGMA, Entrant, family_ruleset, rate
from fido.tournament import run_tournament

PASSES = 8


def fit(hands: list[tuple[tuple[str, ...], tuple[int, ...]]], levels: list[str],
        seed: int) -> dict[str, float]:
    """Each level's mean as the server would rate it: every hand rated in turn from
    newcomers' ratings; the mean over several shuffled orders (the order weighs little)."""
    rng = random.Random(seed)
    finals: dict[str, list[float]] = {b: [] for b in levels}
    for _ in range(PASSES):
        mu, sigma = dict.fromkeys(levels, MU), dict.fromkeys(levels, SIGMA)
        order = hands[:]
        rng.shuffle(order)
        for bots, places in order:
            after = rate([[Entrant(mu[b], sigma[b])] for b in bots], list(places))
            for b, side in zip(bots, after, strict=True):
                mu[b], sigma[b] = side[0].mu, side[0].sigma
        for b in levels:
            finals[b].append(mu[b])
    return {b: statistics.fmean(v) for b, v in finals.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=6)
    ap.add_argument("--families", default="fido:6:3,fido:9:4,muggins:2")
    ap.add_argument("--levels", default="random,greedy,expert,search,champion")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    levels = args.levels.split(",")
    print(f"load average before: {os.getloadavg()}")
    per_family: dict[str, dict[str, float]] = {}
    for item in args.families.split(","):
        name, players = item.rsplit(":", 1)
        rules = family_ruleset(name)
        hands = []
        start = time.time()
        for combo in itertools.combinations(levels, int(players)):
            res = run_tournament(rules, list(combo), deals=args.deals, seed=args.seed,
                                 workers=args.workers)
            hands += [(h.bots, h.places) for h in res.hands]
        mu = fit(hands, levels, args.seed)
        shift = MU - mu["greedy"] if "greedy" in mu else 0.0
        per_family[name] = {b: m + shift for b, m in mu.items()}
        print(f"{name} ({players} players): {len(hands)} hands in {time.time() - start:.0f} s: "
              + ", ".join(f"{b} {per_family[name][b]:.1f} ({(per_family[name][b]) * SCALE:.0f})"
                          for b in levels))
    print("\nlevel      mean mu  shown  spread over families (mu)")
    for b in levels:
        values = [f[b] for f in per_family.values()]
        mean = statistics.fmean(values)
        spread = max(values) - min(values)
        print(f"{b:<10} {mean:7.1f}  {mean * SCALE:5.0f}  {spread:.1f}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
