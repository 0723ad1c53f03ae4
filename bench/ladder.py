"""The strength ladder: random < greedy < expert < search, each step measured.

    .venv/bin/python bench/ladder.py [--deals 300] [--search search:sims=600,time=0]

For each step (A the stronger, B the weaker) and each game (FIDO double-12
with 4 players, double-6 with 3 players), a duplicate-deal tournament
(:func:`fido.tournament.run_tournament`): 4 players seat A, B, A, B; 3
players seat A, B, B; every deal is played in every rotation. The figure is
A's score minus B's per hand (the mean final of A's seats minus the mean of
B's seats in the same hand), with a 95% confidence interval over deals; a
step holds when the interval excludes zero. ``search`` runs without a clock
(``time=0``) so the run is reproducible.
"""

from __future__ import annotations

import argparse
import time

from rich.console import Console
from rich.table import Table

from fido.tournament import compare, run_tournament


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--search", default="search:sims=600,time=0")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--steps", default="random<greedy,greedy<expert,expert<search")
    ap.add_argument(
        "--games", default="12:4,6:3", help="FIDO games as set:players (default both)"
    )
    args = ap.parse_args()
    console = Console(width=120)
    table = Table(title=f"Strength ladder, duplicate deals (seed {args.seed})")
    for col in ("game", "step", "deals", "hands", "A - B per hand", "95% CI", "holds", "wall"):
        table.add_column(col, justify="left" if col in ("game", "step") else "right")
    games = [(f"fido set={g.split(':')[0]}", int(g.split(":")[1])) for g in args.games.split(",")]
    for rules, players in games:
        for step in args.steps.split(","):
            weak, strong = (args.search if b == "search" else b for b in step.split("<"))
            seats = [strong, weak, strong, weak] if players == 4 else [strong, weak, weak]
            start = time.time()
            res = run_tournament(
                rules, seats, deals=args.deals, seed=args.seed, workers=args.workers
            )
            e = compare(res, strong, weak)
            table.add_row(
                f"{rules}, {players}p",
                step,
                str(e.n),
                str(len(res.hands)),
                f"{e.mean:+.2f}",
                f"[{e.low:+.2f}, {e.high:+.2f}]",
                "yes" if e.low > 0 else "NO",
                f"{time.time() - start:.0f} s",
            )
            console.print(f"{rules} {step}: {e} ({e.n} deals)")
    console.print(table)


if __name__ == "__main__":
    main()
