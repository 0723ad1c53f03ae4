"""Several duplicate-deal duels at once, on every core, each deal saved as it ends.

    .venv/bin/python bench/duels.py --workers 16 --deals 200 --seconds 500 --out duels.csv \\
        --duel 12:4,champion:sims=2000,time=0,search:sims=2000,time=0 ...

Made for a machine lent for a few minutes: the deals of all duels are dealt
out round-robin to one pool of processes, so every duel advances alike, and
each finished deal is appended to the CSV at once (duel, deal, A - B per
hand), so a run stopped by its time limit keeps what it played. No deal is
started after ``--seconds``. A duel is ``set:players,A,B`` where A and B are
bot specs: ``12:4,champion:sims=400,B=search:sims=400`` (B's spec follows
``,B=``). The figures: ``--summary`` reads a CSV and prints each duel's
mean and 95 % interval over deals, as :func:`fido.tournament.compare` does.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

from fido.bots.registry import register
from fido.tournament import Estimate, hand_difference, play_deal


def seats_of(players: int, a: str, b: str) -> list[str]:
    """A and B alternate around the table; with an odd count B takes the extra seat."""
    seats = [a if s % 2 == 0 else b for s in range(players)]
    if players % 2:
        seats[-1] = b
    return seats


Job = tuple[int, int, int, str, str, int, int]


def _job(job: Job) -> tuple[int, int, float, float]:
    duel, size, players, a, b, seed, deal = job
    start = time.perf_counter()
    hands = play_deal(f"fido set={size}", seats_of(players, a, b), seed, deal)
    diffs = [d for h in hands if (d := hand_difference(h, a, b)) is not None]
    return duel, deal, statistics.fmean(diffs), time.perf_counter() - start


def registration(text: str) -> str:
    """``--register``'s value checked: ``name=module:factory``, each part given."""
    name, eq, where = text.partition("=")
    module, colon, factory = where.partition(":")
    if not (name and eq and module and colon and factory):
        raise argparse.ArgumentTypeError(
            f"{text!r}: give it as name=module:factory (e.g. "
            "wworlds=weighed_worlds:WeighedChampion)")
    return text


def register_bots(extra: list[str]) -> None:
    """``name=module:factory`` each: bots that are not (yet) levels, in this process."""
    for item in extra:
        name, _, where = item.partition("=")
        register(name, where)


def parse_duel(text: str) -> tuple[int, int, str, str]:
    game, _, bots = text.partition(",")
    size, players = (int(x) for x in game.split(":"))
    a, sep, b = bots.partition(",B=")
    if not sep:
        raise SystemExit(f"duel {text!r}: give it as set:players,A,B=spec")
    return size, players, a, b


def summary(path: Path) -> None:
    rows: dict[str, list[float]] = {}
    for row in csv.DictReader(path.open()):
        rows.setdefault(row["duel"], []).append(float(row["diff"]))
    for duel, values in rows.items():
        e = Estimate.of(values)
        print(f"{duel}: {e.mean:+.2f} [{e.low:+.2f}, {e.high:+.2f}] ({e.n} deals)")


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--duel",
        action="append",
        default=[],
        help="set:players,A,B=spec (repeat for several duels)",
    )
    ap.add_argument("--deals", type=int, default=100, help="deals per duel at most")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0, help="first deal (to go on with a run)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=1e9, help="start no deal after this")
    ap.add_argument("--out", type=Path, default=Path("duels.csv"))
    ap.add_argument("--summary", type=Path, help="print the figures of a CSV and stop")
    ap.add_argument(
        "--register",
        action="append",
        default=[],
        type=registration,
        help="name=module:factory: a bot from elsewhere on the path",
    )
    args = ap.parse_args()
    if args.summary:
        summary(args.summary)
        return
    duels = [parse_duel(d) for d in args.duel]
    names = [f"fido set={s} {p}p: {a} - {b}" for s, p, a, b in duels]
    jobs: list[Job] = [
        (i, s, p, a, b, args.seed, d)
        for d in range(args.first, args.first + args.deals)
        for i, (s, p, a, b) in enumerate(duels)
    ]
    stop = time.monotonic() + args.seconds
    new = not args.out.exists()
    pool = Pool(args.workers, register_bots, (args.register,))
    with args.out.open("a", newline="") as f, pool:
        w = csv.writer(f)
        if new:
            w.writerow(["duel", "seed", "deal", "diff", "seconds"])
        pending = iter(jobs)
        running = []
        for job in pending:  # keep the pool fed, one job per worker, until the clock says stop
            running.append(pool.apply_async(_job, (job,)))
            if len(running) >= args.workers:
                break
        while running:
            done = [r for r in running if r.ready()]
            if not done:
                time.sleep(0.2)
                continue
            for r in done:
                running.remove(r)
                duel, deal, diff, secs = r.get()
                w.writerow([names[duel], args.seed, deal, f"{diff:.4f}", f"{secs:.1f}"])
                f.flush()
                if time.monotonic() < stop:
                    nxt = next(pending, None)
                    if nxt is not None:
                        running.append(pool.apply_async(_job, (nxt,)))
    summary(args.out)
    print(f"\nseed {args.seed}, {args.workers} workers", file=sys.stderr)


if __name__ == "__main__":
    main()
