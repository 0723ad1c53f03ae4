"""The bots' fixed game ratings (fido.ratings.BOT_RATINGS), measured.

    .venv/bin/python bench/bot_ratings.py [--deals 20] [--families fido:9:3,muggins:2]
        [--levels random,greedy,expert,search,champion] [--workers N] [--seed 3]

For each game family (its ruleset and table size), each level plays ``--deals``
duplicate deals in every rotation against greedy bots in the other seats, as the ladder
does (:func:`fido.tournament.run_tournament`: the bots are the server's, at their
default settings); a mixed table of every level measures the mix, not the level (with a
random bot at the table, greedy out-scores expert by 15 points a hand on double-9).
Every hand is one ranking for the rating model's family (Plackett-Luce, the model of
``openskill`` the server rates people with, :mod:`fido.ratings.model`): the levels'
worths are its maximum-likelihood fit to all the hands (:func:`fit`), turned into the
model's mean points at that table size (:func:`scale`) and anchored where the server
puts a newcomer: greedy at 25 (shown 1500). Printed: each level's mean per family and
over the families, with the spread; the means over the families are what BOT_RATINGS
holds (one number a level, as a person sees it at any table).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import time

from fido.ratings.model import BOT_SIGMA, MU, SCALE, SIGMA, family_ruleset
from fido.tournament import run_tournament

ITERATIONS = 300
ANCHOR = "greedy"  # every table: one level and the anchor's bots; the anchor is 25 (1500)
BETA = SIGMA / 2  # openskill's default beta


def fit(hands: list[tuple[tuple[str, ...], tuple[int, ...]]], levels: list[str],
        seed: int) -> dict[str, float]:
    """Each level's Plackett-Luce log-worth, the maximum-likelihood fit of every hand's
    order (Hunter's MM algorithm; equal places in a shuffled order), with one win and one
    loss against a virtual player of worth 1 each (so a level that never wins stays
    finite). The model the server rates with, fitted to all the hands at once."""
    rng = random.Random(seed)
    orders = []
    for bots, places in hands:
        keyed = [(place, rng.random(), b) for b, place in zip(bots, places, strict=True)]
        orders.append([b for _p, _r, b in sorted(keyed)])
    w = dict.fromkeys(levels, 1.0)
    for _ in range(ITERATIONS):
        wins = dict.fromkeys(levels, 1.0)
        denom = {b: 2.0 / (w[b] + 1.0) for b in levels}
        for order in orders:
            for k in range(len(order) - 1):
                rest = order[k:]
                total = sum(w[b] for b in rest)
                for b in rest:
                    denom[b] += 1.0 / total
                wins[order[k]] += 1.0
        w = {b: wins[b] / denom[b] for b in levels}
    return {b: math.log(v) for b, v in w.items()}


def scale(players: int) -> float:
    """Mean rating points a unit of log-worth is at a table of ``players`` bots, as the
    server's model reads them (openskill's Plackett-Luce: c = sqrt(sum(sigma^2 + beta^2)))."""
    return math.sqrt(players * (BETA ** 2 + BOT_SIGMA ** 2))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=6)
    ap.add_argument("--families", default="fido:9:3,muggins:2")
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
        for level in levels:  # each level against the anchor's bots, ladder-style
            if level == ANCHOR:
                continue
            seats = [level] + [ANCHOR] * (int(players) - 1)
            res = run_tournament(rules, seats, deals=args.deals, seed=args.seed,
                                 workers=args.workers)
            hands += [(h.bots, h.places) for h in res.hands]
        theta = fit(hands, levels, args.seed)
        anchor = theta.get(ANCHOR, 0.0)
        c = scale(int(players))
        per_family[name] = {b: MU + c * (t - anchor) for b, t in theta.items()}
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
