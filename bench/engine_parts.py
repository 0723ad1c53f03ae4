"""What a search spends, part by part, in CPU seconds: this tree against another.

    .venv/bin/python bench/engine_parts.py                       # this tree alone
    .venv/bin/python bench/engine_parts.py --against /tmp/base   # a checkout built in place
    .venv/bin/python bench/engine_parts.py --against /tmp/base --only search,champion

Each workload is fixed and seeded: the same deals, positions and random numbers in
both trees. The two trees run in separate processes, interleaved (A B A B ...), and
every figure is the median of ``--runs`` runs of CPU time (``time.process_time``),
so load on the machine moves both alike. Workloads:

* ``deal``: ``Game.new`` (shuffle, hands, the index by value, the opener);
* ``moves``: ``make bench``'s loop, ``push(choice(legal_moves()))`` from fresh deals
  (a FIDO deal plays in C while only its moves are asked for);
* ``reading``: the same loop reading the sum of the ends after every move, so the
  game goes on in Python from its first move (what a server or a bot's game does);
* ``random``: ``Game.playout`` from a fresh deal, a uniformly random policy, in place;
* ``greedy``, ``smart``: a fresh deal played out the way the searches play their
  worlds: search's policy (greedy 0.8) and the champion's, through
  ``playout_outcome`` and ``smart_outcome`` (the C playouts where built; a tree from
  before them plays ``Game.playout`` and ``smart_playout`` in place, what its
  searches called);
* ``sample``: one sampled world of a mid-game view (``hidden_deal(view).sample``);
* ``search``: whole decisions of ``search:sims=2000,time=0`` at mid-game;
* ``champion``: whole decisions of the champion without its clock, at the budgets it
  had by the set when the workload was written (8,000 on double-6, 4,000 on double-12,
  2,000 on double-18; named, so that two trees with other defaults compare alike).

Figures are per second of CPU: placements for ``moves``, ``reading`` and ``random``,
playouts for ``greedy`` and
``smart`` (the outcome alone is returned), deals, worlds, and decisions.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from search_time import mid_game  # noqa: E402  (bench/, beside this file)

# (name, rules, players, count): count = games, worlds or decisions per run
WORKLOADS: list[tuple[str, str, int, int]] = [
    ("deal", "fido set=12", 4, 20000),
    ("moves", "fido set=12", 4, 3000),
    ("reading", "fido set=12", 4, 3000),
    ("random", "fido set=12", 4, 2000),
    ("random", "fido set=18", 6, 400),
    ("random", "block hand=7", 4, 6000),
    ("greedy", "fido set=12", 4, 2000),
    ("greedy", "fido set=18", 6, 400),
    ("smart", "fido set=12", 4, 1500),
    ("smart", "fido set=18", 6, 300),
    ("sample", "fido set=12", 4, 4000),
    ("sample", "fido set=18", 6, 2000),
    ("search", "fido set=12", 4, 6),
    ("search", "fido set=6", 3, 30),
    ("champion", "fido set=6", 3, 16),
    ("champion", "fido set=12", 4, 6),
    ("champion", "fido set=18", 6, 6),
]
# the champion's simulations in its workloads: its defaults by the set at 8cbc4db
CHAMPION_SIMS: dict[str, int] = {"fido set=6": 8000, "fido set=12": 4000, "fido set=18": 2000}


def workload(name: str, rules_text: str, players: int, count: int) -> Callable[[], float]:
    """A function doing one run of the workload and returning its units of work."""
    from fido import Game, Placement, Ruleset  # noqa: PLC0415
    from fido.bots import make_bot  # noqa: PLC0415
    from fido.bots.sampling import hidden_deal  # noqa: PLC0415
    from fido.engine import rollout  # noqa: PLC0415
    from fido.engine.rollout import smart_playout  # noqa: PLC0415

    # a tree from before the C playouts: its searches played their worlds in place
    smart_outcome = getattr(rollout, "smart_outcome", smart_playout)
    playout_outcome = getattr(
        rollout, "playout_outcome", lambda g, rng, greedy: g.playout(rng, greedy)
    )

    rules = Ruleset.from_text(rules_text)
    if name == "deal":
        return lambda: float(
            sum(1 for _ in (Game.new(rules, players, rng=random.Random(i)) for i in range(count)))
        )
    if name in ("moves", "reading"):

        def api() -> float:
            rng = random.Random(11)
            choice = rng.choice
            placed = sums = 0
            for _ in range(count):
                g = Game.new(rules, players, rng=rng)
                while g.outcome is None:
                    move = choice(g.legal_moves())
                    g.push(move)
                    if move.__class__ is Placement:
                        placed += 1
                    if name == "reading":  # the game goes on in Python
                        sums += g.table.ends_sum
            assert sums >= 0
            return float(placed)

        return api
    if name in ("random", "greedy", "smart"):
        greedy = 0.8 if name == "greedy" else 0.0

        def play() -> float:
            rng = random.Random(7)
            placed = 0
            for _ in range(count):
                g = Game.new(rules, players, rng=rng)
                if name == "smart":
                    smart_outcome(g, rng)
                elif name == "greedy":
                    playout_outcome(g, rng, greedy)
                else:
                    g.playout(rng, greedy)
                    placed += len(g.table)
            return float(placed if name == "random" else count)

        return play
    views = [g.view(g.turn) for g in (mid_game(rules_text, players, s) for s in range(8))]
    if name == "sample":
        deals = [hidden_deal(v) for v in views]

        def sample() -> float:
            rng = random.Random(3)
            for i in range(count):
                deals[i % len(deals)].sample(rng)
            return float(count)

        return sample
    sims = CHAMPION_SIMS[rules_text] if name == "champion" else 2000
    bot = make_bot(f"{name}:sims={sims},time=0")

    def decide() -> float:
        for i in range(count):
            bot.choose(views[i % len(views)], random.Random(i))
        return float(count)

    return decide


def worker(only: set[str]) -> None:
    """Run every workload (of ``only``, when given) once; print {key: units per CPU second}
    as JSON."""
    out: dict[str, float] = {}
    for name, rules, players, count in WORKLOADS:
        if only and name not in only:
            continue
        run = workload(name, rules, players, count)
        start = time.process_time()
        units = run()
        out[f"{name}|{rules}|{players}"] = units / (time.process_time() - start)
    print(json.dumps(out))


def run_tree(tree: Path, only: str) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--worker", "--only", only],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--against", type=Path, help="another checkout, built in place")
    ap.add_argument("--runs", type=int, default=3, help="interleaved runs of each tree (median)")
    ap.add_argument("--only", default="", help="these workloads, comma-separated (search,champion)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    only = {w for w in args.only.split(",") if w}
    unknown = only - {w[0] for w in WORKLOADS}
    if unknown:
        ap.error(f"no workload {', '.join(sorted(unknown))}")
    if args.worker:
        worker(only)
        return
    trees = [ROOT, *([args.against.resolve()] if args.against else [])]
    results: dict[Path, list[dict[str, float]]] = {t: [] for t in trees}
    for r in range(args.runs):
        for tree in trees:
            results[tree].append(run_tree(tree, args.only))
        print(f"run {r + 1}/{args.runs} done; load {os.getloadavg()[0]:.2f}", flush=True)
    units = {
        "deal": "deals", "greedy": "playouts", "smart": "playouts", "sample": "worlds",
        "search": "decisions", "champion": "decisions",
    }  # fmt: skip
    header = f"{'workload':34} {'this tree':>14}"
    if args.against:
        header += f" {'against':>14} {'ratio':>7}"
    print(header)
    for name, rules, players, _count in WORKLOADS:
        if only and name not in only:
            continue
        key = f"{name}|{rules}|{players}"
        mine = statistics.median(r[key] for r in results[ROOT])
        unit = units.get(name, "placements")
        line = f"{name + ', ' + rules + ', ' + str(players):34} {mine:>14,.1f}"
        if args.against:
            theirs = statistics.median(r[key] for r in results[args.against.resolve()])
            line += f" {theirs:>14,.1f} {mine / theirs:>6.2f}x"
        print(f"{line}  {unit}/CPU s")


if __name__ == "__main__":
    main()
