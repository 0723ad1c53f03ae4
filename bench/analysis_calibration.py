"""Is a reported loss of k points a real loss of k points? And does a second seed agree?

    nice -n 10 .venv/bin/python bench/analysis_calibration.py [--positions 2000]
        [--rules "fido set=9"] [--players 4] [--samples 400] [--continuations 200]
        [--jobs 2] [--out bench/results/analysis-calibration.jsonl] [--agreement 3]
        [--policy smart] [--truth-policy smart] [--also greedy]

Positions: every decision with two or more legal moves, of any seat, in hands
played by fido's bots (``expert`` and ``search:sims=100,time=0`` in turn
around the table; deal ``g`` from seed ``g``).

Reported: :func:`fido.analysis.evaluate` from the seat's view, as
``fido analyze`` runs it (``--samples`` worlds, the seed and the position's
number keying the generator).

Measured: the same position in the *true* game (the real hidden hands, which
the analysis never saw). Every legal move is played there and the hand
played on ``--continuations`` times, duplicate: continuation ``c`` shuffles
the stock the same way for every move (the stock's order is hidden from
every player, so it is sampled as the analysis samples it) and uses the same
dice, with ``--truth-policy`` (default: the analysis's own ``--policy``,
``smart``: the champion's rollouts; ``greedy``: the search bot's playout,
what the analysis used before). A move's measured loss is the analysis's
best move's measured value minus its own. Over many positions the true
hands are draws from what the seat could not see, so a calibrated analysis
reports, band by band, what is measured.

Per band of reported loss (0-1, 1-3, 3-10, 10+ points; every non-best legal
move of every position is a pair) the mean reported and measured losses; the
95 % interval of the measured mean is clustered by position (the moves of a
position share their worlds). The requirement: measured at least 0.8 x
reported on average in every band above 1 point. Also how often the
analysis's best move is the measured best, and within a point of it.

``--also POLICY`` analyses every position a second time with that
continuation policy (same worlds' generator) and reports it against the
same measured truth: two analyses compared like with like. Hands already in
``--out`` without it get it added (replayed, their truth kept).

Agreement (``--agreement N``): N whole hands (double-12, 4 players, seats 0
and 1) analysed with seeds 0 and 1; the overlap of the five biggest mistakes.

Resumable: each finished hand is one line of ``--out``; a rerun skips the
hands already there and adds new ones until ``--positions`` are done.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from fido import Game
from fido.analysis import analyse_game, decision_rng, evaluate
from fido.analysis.estimate import POLICIES, play_on
from fido.analysis.parallel import run_decisions
from fido.bots.registry import make_bot
from fido.bots.runner import bot_move
from fido.bots.solver import margin
from fido.record import GameRecord

BANDS = ((0.0, 1.0), (1.0, 3.0), (3.0, 10.0), (10.0, math.inf))
Z95 = 1.959963984540054
BOTS = ("expert", "search:sims=100,time=0")


def measured_values(
    game: Game, continuations: int, rng: random.Random, policy: str
) -> dict[str, list[float]]:
    """Per legal move: its margin in each duplicate continuation of the true game."""
    seat = game.turn
    view = game.view(seat)
    hands = [game.hand(s) for s in range(game.players)]
    left = list(game.stock[game.stock_pos :])
    out: dict[str, list[float]] = {m.text(): [] for m in view.legal_moves}
    for _ in range(continuations):
        stock = left[:]
        rng.shuffle(stock)
        world = Game.from_view(view, hands, stock)
        dice = rng.getrandbits(64)
        for m in view.legal_moves:
            g = world.copy()
            g.push(m)
            out[m.text()].append(margin(play_on(g, dice, policy), seat))
    return out


def losses_against(measured: dict[str, list[float]], best: str) -> dict[str, float]:
    """Each move's measured loss against ``best``, paired continuation by continuation."""
    return {
        k: statistics.fmean(b - x for b, x in zip(measured[best], v, strict=True))
        for k, v in measured.items()
    }


def play_hand_positions(  # noqa: PLR0917 (the run's settings, to a worker)
    rules: str, players: int, deal: int, samples: int, continuations: int,
    policy: str = "greedy", truth: str = "greedy", also: str | None = None,
) -> dict[str, Any]:
    """One hand of bots; every decision reported and measured (one line of the output)."""
    bots = [make_bot(BOTS[s % len(BOTS)]) for s in range(players)]
    rngs = [random.Random(deal * 100 + s) for s in range(players)]
    game = Game.new(rules, players, seed=deal)
    positions = []
    start = time.perf_counter()
    while not game.is_over:
        if len(game.legal_moves()) >= 2:
            number = len(game) + 1
            view = game.view(game.turn)
            ev = evaluate(view, samples=samples, rng=decision_rng(deal, number), policy=policy)
            measured = measured_values(game, continuations, decision_rng(-1 - deal, number),
                                       truth)
            position: dict[str, Any] = {
                "number": number,
                "seat": game.turn,
                "exact": ev.exact,
                "best": ev.best.move.text(),
                "reported": {v.move.text(): [v.loss, v.loss_ci] for v in ev.moves},
                "measured": {k: statistics.fmean(v) for k, v in measured.items()},
                # the same on each half of the continuations: how far the measurement
                # agrees with itself (the ceiling for "the analysis's best is the best")
                "measured_halves": [
                    {k: statistics.fmean(v[h::2]) for k, v in measured.items()} for h in (0, 1)
                ],
                "measured_loss": losses_against(measured, ev.best.move.text()),
            }
            if also:  # the same position analysed with the other policy, the same truth
                ev2 = evaluate(view, samples=samples, rng=decision_rng(deal, number),
                               policy=also)
                position["also"] = {
                    "best": ev2.best.move.text(),
                    "reported": {v.move.text(): [v.loss, v.loss_ci] for v in ev2.moves},
                    "measured_loss": losses_against(measured, ev2.best.move.text()),
                }
            positions.append(position)
        bot_move(game, bots[game.turn], rngs[game.turn])
    return {"deal": deal, "rules": rules, "players": players, "samples": samples,
            "continuations": continuations, "policy": policy, "truth_policy": truth,
            "also": also, "seconds": time.perf_counter() - start, "positions": positions}


def replayed_positions(row: dict[str, Any]) -> Iterator[tuple[Game, dict[str, Any]]]:
    """The hand of ``row`` replayed by the same bots and seeds: the game at each of its
    stored positions, with the position (the game moves on after each)."""
    players, deal = row["players"], row["deal"]
    bots = [make_bot(BOTS[s % len(BOTS)]) for s in range(players)]
    rngs = [random.Random(deal * 100 + s) for s in range(players)]
    game = Game.new(row["rules"], players, seed=deal)
    todo = {p["number"]: p for p in row["positions"]}
    while not game.is_over:
        p = todo.get(len(game) + 1)
        if p is not None and len(game.legal_moves()) >= 2:
            yield game, p
        bot_move(game, bots[game.turn], rngs[game.turn])


def second_analysis(row: dict[str, Any], also: str) -> dict[str, Any]:
    """``row`` (one hand) with every position analysed again with ``also``, against the
    truth already measured: the hand is replayed by the same bots, no continuation rerun."""
    for game, p in replayed_positions(row):
        ev = evaluate(game.view(game.turn), samples=row["samples"],
                      rng=decision_rng(row["deal"], p["number"]), policy=also)
        best = ev.best.move.text()
        p["also"] = {
            "best": best,
            "reported": {v.move.text(): [v.loss, v.loss_ci] for v in ev.moves},
            "measured_loss": {k: v - p["measured_loss"][best]
                              for k, v in p["measured_loss"].items()},
        }
    return {**row, "also": also}


def add_second_analysis(args: argparse.Namespace, out: Path, console: Console) -> None:
    """``--also`` for the hands already in ``--out`` that lack it (rewrites the file)."""
    if not out.exists():
        return
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    mine = [i for i, r in enumerate(rows) if not r.get("also") and (
        r["rules"], r["players"], r["samples"], r["continuations"],
        r.get("policy", "greedy"), r.get("truth_policy", "greedy"),
    ) == (args.rules, args.players, args.samples, args.continuations, args.policy,
          args.truth_policy)]
    console.print(f"a {args.also} analysis added to {len(mine)} hands of {out}")
    with ProcessPoolExecutor(args.jobs) as pool:
        done = pool.map(second_analysis, [rows[i] for i in mine], [args.also] * len(mine))
        for i, row in zip(mine, done, strict=True):
            rows[i] = row
    out.write_text("".join(json.dumps(r) + "\n" for r in rows))


def run_positions(args: argparse.Namespace, out: Path, console: Console) -> list[dict[str, Any]]:
    done: list[dict[str, Any]] = []
    if out.exists():
        for line in out.read_text().splitlines():
            row = json.loads(line)
            # rows of before the policies were named: greedy analysis and truth
            if (row["rules"], row["players"], row["samples"], row["continuations"],
                    row.get("policy", "greedy"), row.get("truth_policy", "greedy"),
                    row.get("also")) == (
                args.rules, args.players, args.samples, args.continuations,
                args.policy, args.truth_policy, args.also,
            ):
                done.append(row)
    have = {r["deal"] for r in done}
    count = sum(len(r["positions"]) for r in done)
    console.print(f"{len(done)} hands, {count} positions already in {out}")
    next_deal = 0
    deadline = time.time() + args.minutes * 60 if args.minutes else math.inf
    with ProcessPoolExecutor(args.jobs) as pool, out.open("a") as f:
        pending: set[Future[dict[str, Any]]] = set()
        while count < args.positions or pending:
            while (count < args.positions and time.time() < deadline
                   and len(pending) < args.jobs):
                while next_deal in have:
                    next_deal += 1
                pending.add(pool.submit(play_hand_positions, args.rules, args.players,
                                        next_deal, args.samples, args.continuations,
                                        args.policy, args.truth_policy, args.also))
                have.add(next_deal)
            if not pending:
                break
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in finished:
                row = fut.result()
                f.write(json.dumps(row) + "\n")
                f.flush()
                done.append(row)
                count += len(row["positions"])
                console.print(f"deal {row['deal']}: {len(row['positions'])} positions in "
                              f"{row['seconds']:.0f} s; {count} in all", highlight=False)
    return done


def clustered(pairs: list[tuple[int, float]]) -> tuple[float, float]:
    """Mean of the values and its 95 % half-width, clustered by position (ratio estimator)."""
    by: dict[int, list[float]] = {}
    for pos, v in pairs:
        by.setdefault(pos, []).append(v)
    n = sum(len(v) for v in by.values())
    mean = math.fsum(v for _p, v in pairs) / n
    c = len(by)
    if c < 2:
        return mean, math.inf
    s = math.fsum((math.fsum(v) - mean * len(v)) ** 2 for v in by.values())
    return mean, Z95 * math.sqrt(c / (c - 1) * s) / n


def report(rows: list[dict[str, Any]], console: Console, also: bool = False) -> dict[str, Any]:
    """The bands and the best-move shares of the analysis (``also``: of the second one)."""
    positions = [p for r in rows for p in r["positions"]]
    if also:  # the second analysis in the place of the first, against the same truth
        positions = [{**p, **p["also"]} for p in positions]
    policy = rows[0].get("also") if also else rows[0].get("policy", "greedy")
    truth = rows[0].get("truth_policy", "greedy")
    band_data: list[dict[str, Any]] = []
    by_analysis = by_measure = 0
    table = Table(title=f"reported against measured loss, {len(positions)} positions "
                        f"({rows[0]['rules']}, {rows[0]['players']} players, "
                        f"{rows[0]['samples']} worlds, {policy} analysis; truth: "
                        f"{rows[0]['continuations']} {truth} continuations)")
    for col in ("band (points)", "moves", "positions", "reported", "measured ± 95%",
                "measured / reported", ">= 0.8 k"):
        table.add_column(col, justify="right")
    for low, high in BANDS:
        pairs_r: list[tuple[int, float]] = []
        pairs_m: list[tuple[int, float]] = []
        for i, p in enumerate(positions):
            for move, (loss, _ci) in p["reported"].items():
                if move == p["best"] or not low <= loss < high:
                    continue
                pairs_r.append((i, loss))
                pairs_m.append((i, p["measured_loss"][move]))
        if not pairs_r:
            continue
        rep = math.fsum(v for _i, v in pairs_r) / len(pairs_r)
        mea, half = clustered(pairs_m)
        ok = mea >= 0.8 * rep
        band = f"{low:g}-{high:g}" if high < math.inf else f"{low:g}+"
        band_data.append({"band": band, "moves": len(pairs_r),
                          "positions": len({i for i, _v in pairs_r}), "reported": rep,
                          "measured": mea, "measured_ci": half, "ok": ok})
        table.add_row(band, str(len(pairs_r)), str(band_data[-1]["positions"]), f"{rep:.2f}",
                      f"{mea:.2f} ± {half:.2f}", f"{mea / rep:.2f}" if rep else "-",
                      ("yes" if ok else "NO") if low >= 1 else "(not required)")
    console.print(table)
    argmax = sum(1 for p in positions if max(p["measured"], key=p["measured"].get) == p["best"])
    near = sum(1 for p in positions
               if max(p["measured"].values()) - p["measured"][p["best"]] < 1.0)
    exact = sum(1 for p in positions if p["exact"])
    # what choosing the analysis's best costs against the measured best: an upper bound,
    # since the measured best is itself the best of noisy means
    regret = statistics.fmean(max(p["measured"].values()) - p["measured"][p["best"]]
                              for p in positions)
    played_like = statistics.fmean(
        statistics.fmean(max(p["measured"].values()) - v for v in p["measured"].values())
        for p in positions
    )
    halves = [p for p in positions if "measured_halves" in p]
    if halves:
        # the target: the best on one half of the continuations; who names it more often,
        # the analysis (from the view) or the other half (from the true hands)?
        def top(values: dict[str, float]) -> str:
            return max(values, key=values.__getitem__)

        by_analysis = sum(1 for p in halves if p["best"] == top(p["measured_halves"][0]))
        by_measure = sum(1 for p in halves
                         if top(p["measured_halves"][1]) == top(p["measured_halves"][0]))
        console.print(
            f"the best of half the continuations is the analysis's best in "
            f"{100 * by_analysis / len(halves):.1f}% of positions, the best of the other half "
            f"(played in the true hands) in {100 * by_measure / len(halves):.1f}%",
            highlight=False,
        )
    console.print(
        f"the analysis's best is the measured best in {100 * argmax / len(positions):.1f}% of "
        f"positions, within 1 point of it in {100 * near / len(positions):.1f}% "
        f"({exact} positions exact); mean legal moves "
        f"{statistics.fmean(len(p['reported']) for p in positions):.1f}; measured regret of "
        f"the analysis's best {regret:.2f} points (a random legal move: {played_like:.2f})",
        highlight=False,
    )
    return {"positions": len(positions), "policy": policy, "truth_policy": truth,
            "bands": band_data,
            "best_is_measured_best": argmax / len(positions),
            "best_within_one": near / len(positions), "exact": exact,
            "regret_of_best": regret, "regret_of_random_move": played_like,
            "half_target_by_analysis": by_analysis / len(halves) if halves else None,
            "half_target_by_other_half": by_measure / len(halves) if halves else None,
            "worker_seconds": math.fsum(r["seconds"] for r in rows)}


def paired(rows: list[dict[str, Any]], console: Console) -> dict[str, float]:
    """The two analyses' best moves, position by position, against the same truth."""
    positions = [p for r in rows for p in r["positions"]]
    first = second = 0
    gain = []
    for p in positions:
        m = p["measured"]
        top = max(m, key=m.__getitem__)
        first += p["best"] == top != p["also"]["best"]
        second += p["also"]["best"] == top != p["best"]
        gain.append(m[p["best"]] - m[p["also"]["best"]])
    mean, half = clustered(list(enumerate(gain)))
    console.print(
        f"the analyses' best moves differ in "
        f"{statistics.fmean(p['best'] != p['also']['best'] for p in positions):.1%} of "
        f"positions; only the first's is the measured best in {first}, only the second's in "
        f"{second}; measured value of the first's best minus the second's: "
        f"{mean:.2f} ± {half:.2f} points",
        highlight=False,
    )
    return {"only_first_right": first, "only_second_right": second,
            "value_of_first_best_minus_second": mean, "ci": half}


def agreement(
    games: int, samples: int, jobs: int, console: Console, policy: str = "smart"
) -> list[float]:
    """Overlap of the top five mistakes between seeds 0 and 1, per game (seats 0 and 1)."""
    overlaps = []
    for game in range(games):
        g = Game.new("fido set=12", 4, seed=500 + game)
        bots = [make_bot(BOTS[s % 2]) for s in range(4)]
        rngs = [random.Random(game * 10 + s) for s in range(4)]
        while not g.is_over:
            bot_move(g, bots[g.turn], rngs[g.turn])
        record = GameRecord.from_game(g)
        tops = []
        losses = []
        for seed in (0, 1):
            a = analyse_game(record, [0, 1], samples=samples, seed=seed, policy=policy,
                             run=lambda js: run_decisions(js, workers=jobs))
            ranked = sorted(a.decisions, key=lambda d: (-d.loss, d.number))[:5]
            tops.append([d.number for d in ranked])
            losses.append({d.number: (d.loss, d.loss_ci) for d in a.decisions})
        overlaps.append(len(set(tops[0]) & set(tops[1])) / 5)
        shown = "; ".join(
            f"move {n}: {losses[0][n][0]:.1f} ± {losses[0][n][1]:.1f} / "
            f"{losses[1][n][0]:.1f} ± {losses[1][n][1]:.1f}"
            for n in sorted(set(tops[0]) | set(tops[1]))
        )
        console.print(f"agreement game {game}: top five {sorted(tops[0])} vs {sorted(tops[1])}"
                      f" (loss with seed 0 / seed 1: {shown})", highlight=False)
    return overlaps


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--positions", type=int, default=2000)
    ap.add_argument("--rules", default="fido set=9")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--samples", type=int, default=400)
    ap.add_argument("--continuations", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--minutes", type=float, default=0, help="stop starting hands after this")
    ap.add_argument("--out", default="bench/results/analysis-calibration.jsonl")
    ap.add_argument("--agreement", type=int, default=0, help="games for the seed agreement")
    ap.add_argument("--json", help="write the summary here")
    ap.add_argument("--policy", choices=POLICIES, default="smart",
                    help="the analysis's continuations")
    ap.add_argument("--truth-policy", choices=POLICIES,
                    help="the measured continuations in the true hands (default: --policy)")
    ap.add_argument("--also", choices=POLICIES,
                    help="a second analysis of every position with this policy")
    args = ap.parse_args()
    if args.truth_policy is None:
        args.truth_policy = args.policy
    console = Console()
    summary: dict[str, Any] = {}
    if args.positions:
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        if args.also:
            add_second_analysis(args, out, console)
        rows = run_positions(args, out, console)
        summary = report(rows, console)
        if args.also:
            summary["also"] = report(rows, console, also=True)
            summary["paired"] = paired(rows, console)
    if args.agreement:
        overlaps = agreement(args.agreement, args.samples, args.jobs, console, args.policy)
        console.print(f"top-five overlap between two seeds: mean {statistics.fmean(overlaps):.2f}"
                      f" ({', '.join(f'{o:.1f}' for o in overlaps)})", highlight=False)
        summary["agreement"] = overlaps
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
