"""The champion against another bot (by default ``search``), duplicate deals.

    .venv/bin/python bench/champion.py --deals 40 --workers 1 \\
        --a champion:sims=2000,time=0 --b search:sims=2000,time=0 --games 12:4,18:6,6:3

For each FIDO game (``set:players``), a duplicate-deal tournament
(:func:`fido.tournament.run_tournament`): A and B alternate around the table
(A, B, A, B, ...; with an odd count B takes the extra seat: 3 players sit A,
B, B), every deal in every rotation. The figure is A's score minus B's per
hand, with a 95 % interval over deals. Give both bots ``time=0`` so the run
is reproducible and not hurt by a busy machine.
"""

from __future__ import annotations

import argparse
import time

from duels import seats_of
from fido.tournament import compare, run_tournament


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--a", default="champion:sims=2000,time=0")
    ap.add_argument("--b", default="search:sims=2000,time=0")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--games", default="12:4,18:6,6:3", help="FIDO games as set:players")
    args = ap.parse_args()
    for game in args.games.split(","):
        size, players = (int(x) for x in game.split(":"))
        seats = seats_of(players, args.a, args.b)
        start = time.time()
        res = run_tournament(
            f"fido set={size}", seats, deals=args.deals, seed=args.seed, workers=args.workers
        )
        e = compare(res, args.a, args.b)
        print(
            f"fido set={size}, {players}p: {args.a} - {args.b} per hand {e.mean:+.2f}"
            f" [{e.low:+.2f}, {e.high:+.2f}] ({e.n} deals, {len(res.hands)} hands,"
            f" seed {args.seed}, {time.time() - start:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
