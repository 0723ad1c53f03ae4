"""How long ``fido analyze`` takes for one seat of a whole game, and how wide its intervals are.

    nice -n 10 .venv/bin/python bench/analysis_speed.py [--jobs 2] [--games 2]
        [--case "fido set=12:4:400" --case "fido set=18:6:250"] [--policy greedy --policy smart]

A case is ``ruleset:players:samples``. Each game is a hand of four (six)
``expert`` bots from a fixed seed; seat 0 is analysed with ``--samples``
worlds per decision on ``--jobs`` processes, as ``fido analyze --seat 0``
does. Prints the wall-clock time, the decisions and legal moves judged, and
the 95 % half-widths of the losses (the move she played, and every move that
saw all the worlds), and the CPU seconds of this process and its workers (a
figure a loaded machine changes less than the wall-clock time). Each
``--policy`` (default: ``smart``, the champion's rollouts; ``greedy``: the
playout the analysis used before) analyses the same games, one after the
other, so their times compare. The issue's bounds: double-12 with 4 players under 30 s,
double-18 with 6 players under 2 minutes, on the 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import time

from rich.console import Console
from rich.table import Table

from fido import Game
from fido.analysis import analyse_game
from fido.analysis.estimate import POLICIES
from fido.analysis.parallel import run_decisions
from fido.bots.registry import make_bot
from fido.bots.runner import play_out
from fido.record import GameRecord


def expert_game(rules: str, players: int, seed: int) -> GameRecord:
    g = Game.new(rules, players, seed=seed)
    play_out(g, [make_bot("expert")] * players, [random.Random(seed + s) for s in range(players)])
    return GameRecord.from_game(g)


def cpu_seconds() -> float:
    """CPU time of this process and of its finished workers (a pool is shut down after
    each analysis, so its workers are counted once it returns)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--case", action="append", help="ruleset:players:samples")
    ap.add_argument("--games", type=int, default=2, help="games per case")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--json", help="write the figures here")
    ap.add_argument("--policy", action="append", choices=POLICIES,
                    help="continuation policy (repeat to compare on the same games)")
    args = ap.parse_args()
    cases = args.case or ["fido set=12:4:400", "fido set=18:6:250"]
    policies = args.policy or ["smart"]
    table = Table(title=f"fido analyze --seat 0, {args.jobs} processes")
    for col in ("game", "policy", "samples", "seconds", "cpu s", "decisions", "moves",
                "played ± med",
                "played ± p90", "all ± med", "load"):
        table.add_column(col, justify="right")
    rows = []
    for case in cases:
        rules, players_text, samples_text = case.rsplit(":", 2)
        players, samples = int(players_text), int(samples_text)
        for game, policy in ((g, p) for g in range(args.games) for p in policies):
            record = expert_game(rules, players, seed=1000 + game)
            load = os.getloadavg()[0]
            cpu0 = cpu_seconds()
            start = time.perf_counter()
            a = analyse_game(
                record, [0], samples=samples, seed=game, policy=policy,
                run=lambda jobs: run_decisions(jobs, workers=args.jobs),
            )
            secs = time.perf_counter() - start
            cpu = cpu_seconds() - cpu0
            played = [d.loss_ci for d in a.decisions if d.played != d.eval.best.move]
            every = [m.loss_ci for d in a.decisions for m in d.eval.moves
                     if m.worlds == samples and m.move != d.eval.best.move]
            judged = sum(len(d.eval.moves) for d in a.decisions)
            row = {
                "rules": rules, "players": players, "game": game, "samples": samples,
                "policy": policy, "seconds": secs, "cpu_seconds": cpu,
                "decisions": len(a.decisions), "moves": judged,
                "played_ci_median": statistics.median(played) if played else 0.0,
                "played_ci_p90": statistics.quantiles(played, n=10)[-1] if len(played) > 1
                else 0.0,
                "all_ci_median": statistics.median(every) if every else 0.0,
                "load": load,
            }
            rows.append(row)
            table.add_row(
                f"{rules.removeprefix('fido ')} {players}p #{game}", policy, str(samples),
                f"{secs:.1f}", f"{cpu:.1f}",
                str(row["decisions"]), str(judged), f"{row['played_ci_median']:.1f}",
                f"{row['played_ci_p90']:.1f}", f"{row['all_ci_median']:.1f}", f"{load:.1f}",
            )
            Console().print(f"{rules} {players}p game {game} ({policy}): {secs:.1f} s, "
                            f"{cpu:.1f} CPU s, load {load:.1f}", highlight=False)
    Console().print(table)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
