"""A duel fixed before it is played: the deals, the seed and both bots' specs first, the
figure only after the last deal.

    .venv/bin/python bench/duel.py run --game 12:4 --a champion --b search \\
        --deals 100 --seed 917600 [--workers 2] --out bench/results/NAME.jsonl \\
        [--register wworlds=weighed_worlds:WeighedChampion]
    .venv/bin/python bench/duel.py run --resume bench/results/NAME.jsonl [--workers 2]
    .venv/bin/python bench/duel.py report bench/results/NAME.jsonl

``run`` writes the plan as the file's first line before any deal is played (the command
that made it, the game, the specs, the number of deals, the seed, the commit, the
time), then one line per deal as it ends (every rotation of the deal, A's seats against
B's, duplicate deals: :func:`fido.tournament.play_deal`; ``--seatings distinct`` plays
each different seating once, two on an even table, where the other rotations repeat a
seating with other dice); it prints how many deals are
done and nothing of how they went. After the last deal it writes the result line: A's
mean margin over B a hand, with its 95 % interval over deals. ``report`` prints the
result of a finished file and refuses an unfinished one ("37 of 100 deals: no figure
before the last deal"), so a run cannot be stopped where it happens to look good: the
issue's seed-4 champion run, stopped at 17 deals and extended by 16, is what this
forbids. ``--resume`` plays the deals a stopped run did not, under its own plan.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import shlex
import statistics
import subprocess
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

# bench/, beside this file: what bench/duels.py used
from duels import register_bots, registration, seats_of
from fido.bots.registry import make_bot
from fido.errors import FidoError
from fido.tournament import Estimate, distinct_rotations, hand_difference, play_deal

PLAN = "plan"
DEAL = "deal"
RESULT = "result"


def _commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, check=False, cwd=Path(__file__).parent)
    except OSError:
        return "unknown"
    return out.stdout.strip() or "unknown"


def _deal(job: tuple[str, list[str], str, str, int, int, list[int] | None]) -> dict[str, Any]:
    rules, seats, a, b, seed, deal, rotations = job
    start = time.perf_counter()
    hands = play_deal(rules, seats, seed, deal, rotations=rotations)
    diffs = [d for h in hands if (d := hand_difference(h, a, b)) is not None]
    return {"kind": DEAL, "deal": deal, "diff": round(statistics.fmean(diffs), 4),
            "hands": len(hands), "seconds": round(time.perf_counter() - start, 1)}


def read(path: Path) -> tuple[dict[str, Any], dict[int, float], dict[str, Any] | None]:
    """The plan, each played deal's A - B a hand, and the result (None: not finished)."""
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
             if line.strip()]
    if not lines or lines[0].get("kind") != PLAN:
        raise SystemExit(f"{path}: not a duel file (its first line is not a plan)")
    plan = lines[0]
    deals = {int(x["deal"]): float(x["diff"]) for x in lines if x.get("kind") == DEAL}
    result = next((x for x in lines if x.get("kind") == RESULT), None)
    return plan, deals, result


def _finish(path: Path, plan: dict[str, Any], deals: dict[int, float]) -> dict[str, Any]:
    e = Estimate.of([deals[d] for d in sorted(deals)])
    result = {"kind": RESULT, "deals": e.n, "mean": round(e.mean, 3),
              "low": round(e.low, 3), "high": round(e.high, 3),
              "finished": dt.datetime.now(dt.UTC).isoformat(timespec="seconds")}
    with path.open("a", encoding="utf-8") as f:
        f.write(json.dumps(result) + "\n")
    return result


def _say(plan: dict[str, Any], result: dict[str, Any]) -> str:
    return (f"{plan['a']} - {plan['b']}, {plan['rules']} with {plan['players']}: "
            f"{result['mean']:+.2f} a hand [{result['low']:+.2f}, {result['high']:+.2f}] "
            f"over {result['deals']} deals (seed {plan['seed']}, planned {plan['deals']})")


def run(args: argparse.Namespace) -> None:
    if args.resume:
        path = args.resume
        plan, deals, result = read(path)
        if result is not None:
            raise SystemExit(f"{path} is finished: {_say(plan, result)}")
    else:
        if args.out.exists():
            raise SystemExit(f"{args.out} exists: a plan is written once (--resume goes on "
                             "with it)")
        size, players = (int(x) for x in args.game.split(":"))
        register_bots(args.register)
        for spec in (args.a, args.b):  # a spec that builds no bot: said before any plan
            try:
                make_bot(spec)
            except (FidoError, ImportError, AttributeError) as e:
                raise SystemExit(f"--a/--b {spec!r}: {e}") from None
        plan = {"kind": PLAN, "command": shlex.join([sys.executable, *sys.argv]),
                "rules": f"fido set={size}", "players": players, "a": args.a, "b": args.b,
                "deals": args.deals, "seed": args.seed, "seatings": args.seatings,
                "register": args.register, "commit": _commit(),
                "planned": dt.datetime.now(dt.UTC).isoformat(timespec="seconds")}
        path = args.out
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(plan) + "\n", encoding="utf-8")  # before any deal
        deals = {}
    seats = seats_of(int(plan["players"]), plan["a"], plan["b"])
    rotations = distinct_rotations(seats) if plan.get("seatings") == "distinct" else None
    todo = [(plan["rules"], seats, plan["a"], plan["b"], int(plan["seed"]), d, rotations)
            for d in range(int(plan["deals"])) if d not in deals]
    print(f"{path}: {len(deals)} of {plan['deals']} deals played; playing {len(todo)}",
          flush=True)
    extra = list(plan.get("register", []))  # bots from elsewhere: the plan's, resumed too
    with Pool(args.workers, register_bots, (extra,)) as pool, path.open("a", encoding="utf-8") as f:
        for line in pool.imap_unordered(_deal, todo):
            f.write(json.dumps(line) + "\n")
            f.flush()
            deals[line["deal"]] = line["diff"]
            print(f"{len(deals)} of {plan['deals']} deals", flush=True)  # no figure yet
    print(_say(plan, _finish(path, plan, deals)))


def report(args: argparse.Namespace) -> None:
    plan, deals, result = read(args.file)
    if result is None:
        raise SystemExit(f"{args.file}: {len(deals)} of {plan['deals']} deals: no figure "
                         "before the last deal")
    print(_say(plan, result))
    print(f"planned {plan['planned']} at {plan['commit']}: {plan['command']}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    r = sub.add_parser("run")
    r.add_argument("--game", default="12:4", help="set:players (FIDO)")
    r.add_argument("--a", default="champion")
    r.add_argument("--b", default="search")
    r.add_argument("--deals", type=int, default=100)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--seatings", choices=("every", "distinct"), default="every",
                   help="every rotation of a deal, or each different seating once (A and B "
                   "alternate: an even table has two)")
    r.add_argument("--workers", type=int, default=2)
    r.add_argument("--out", type=Path, default=Path("duel.jsonl"))
    r.add_argument("--register", action="append", default=[], type=registration,
                   help="name=module:factory: a bot that is not (yet) a level, on the path "
                   "(bench/ is); the plan keeps it")
    r.add_argument("--resume", type=Path)
    p = sub.add_parser("report")
    p.add_argument("file", type=Path)
    args = ap.parse_args()
    run(args) if args.what == "run" else report(args)


if __name__ == "__main__":
    main()
