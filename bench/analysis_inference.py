"""Analyses that read the others' plays, or use more worlds, against a truth already measured.

    nice -n 10 .venv/bin/python bench/analysis_inference.py \
        --truth bench/results/analysis-calibration-d9-truth-smart.jsonl.gz \
        --truth bench/results/analysis-calibration-d9-truth-greedy.jsonl.gz \
        --variant hard:3 --variant soft:0.5:4 --variant worlds:2000 \
        --jobs 2 --out bests.jsonl [--json summary.json]

The truths are ``bench/analysis_calibration.py`` outputs (one hand a line,
gzipped or not): every position's legal moves measured in the true game, and
the analysis's best move (``smart`` continuations, the default worlds). The
hands of the first truth are replayed (the same bots and seeds) and each
position analysed again by every ``--variant``:

* ``hard:T``: worlds from :func:`fido.bots.champion.likely_deal` (no opponent
  holds an unseen tile that would have scored ``T`` points more than a
  placement she made since her last draw);
* ``soft:BETA:POOL``: each world the pick among ``POOL`` uniform worlds, in
  proportion to ``exp(-BETA * points passed up)`` (a softmax player: per
  placement since her last draw, the most an unseen tile in her sampled hand
  would have scored above what she took: :func:`fido.bots.champion.passed_up`);
* ``worlds:N``: the uniform worlds, ``N`` of them instead of the truth's;
* ``oracle``: not an analysis but its ceiling: every world holds the true
  hands (the stock reshuffled), so the judge sees what the seat could not;
  the gap between it and the others is what the hidden hands cost
  (``oracle:greedy``: the same, played on by the greedy continuations).

Reported per truth: how often each variant's best move is the measured best
(and the stored analysis's, on the same positions), the McNemar 95 % interval
of the difference, and the measured value of the variant's best minus the
stored best's (paired by position). Resumable: a (hand, variant) already in
``--out`` is not redone.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import random
import statistics
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from analysis_calibration import Z95, replayed_positions
from fido import Game
from fido.analysis import decision_rng, evaluate
from fido.analysis import estimate as estimate_module
from fido.bots.champion import PassedUp, likely_deal, passed_up, points_passed_up
from fido.bots.sampling import HiddenDeal, hidden_deal
from fido.engine.views import SeatView


@dataclass(frozen=True)
class WeightedDeal:
    """Sampling-importance-resampling of ``deal``'s worlds by the points passed up."""

    deal: HiddenDeal
    evidence: dict[int, list[PassedUp]]
    beta: float
    pool: int

    def sample(self, rng: random.Random) -> Game:
        if not self.evidence or self.pool < 2:
            return self.deal.sample(rng)
        worlds = [self.deal.sample(rng) for _ in range(self.pool)]
        weights = [
            math.exp(-self.beta * sum(points_passed_up(w.hands[seat], evidence)
                                      for seat, evidence in self.evidence.items()))
            for w in worlds
        ]
        pick = rng.random() * math.fsum(weights)
        for w, x in zip(worlds, weights, strict=True):
            pick -= x
            if pick < 0:
                return w
        return worlds[-1]


@dataclass(frozen=True)
class TrueDeal:
    """The ceiling, not an analysis: every world holds the true hands (the stock reshuffled),
    as the truth's continuations do; what a judge who saw every hand would name."""

    game: Game

    def sample(self, rng: random.Random) -> Game:
        g = self.game
        stock = list(g.stock[g.stock_pos :])
        rng.shuffle(stock)
        return Game.from_view(g.view(g.turn), [g.hand(s) for s in range(g.players)], stock)


def dealer(variant: str, game: Game | None = None) -> tuple[Callable[[SeatView], Any], int | None]:
    """The sampler a variant uses, and its worlds (None: the truth file's)."""
    kind, *args = variant.split(":")
    if kind == "oracle" and args in ([], ["greedy"]) and game is not None:
        truth = game
        return (lambda v: TrueDeal(truth)), None
    if kind == "hard" and len(args) == 1:
        return (lambda v: likely_deal(v, float(args[0]))), None
    if kind == "soft" and len(args) == 2:
        beta, pool = float(args[0]), int(args[1])
        return (lambda v: WeightedDeal(hidden_deal(v), passed_up(v), beta, pool)), None
    if kind == "worlds" and len(args) == 1:
        return hidden_deal, int(args[0])
    raise SystemExit(
        f"a variant is hard:T, soft:BETA:POOL, worlds:N, oracle or oracle:greedy, not {variant!r}"
    )


def analyse_hand(row: dict[str, Any], variant: str) -> dict[str, Any]:
    """The hand of ``row`` replayed; each of its positions analysed with ``variant``."""
    best: dict[str, str] = {}
    for game, p in replayed_positions(row):
        deal_of, worlds = dealer(variant, game)
        setattr(estimate_module, "hidden_deal", deal_of)  # noqa: B010 (evaluate's sampler, this process)
        ev = evaluate(game.view(game.turn), samples=worlds or row["samples"],
                      rng=decision_rng(row["deal"], p["number"]),
                      policy="greedy" if variant == "oracle:greedy" else "smart")
        best[str(p["number"])] = ev.best.move.text()
    return {"rules": row["rules"], "deal": row["deal"], "variant": variant, "best": best}


def read_rows(path: Path) -> list[dict[str, Any]]:
    if path.suffix == ".gz":
        with gzip.open(path, "rt") as f:
            text = f.read()
    else:
        text = path.read_text()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def score(truth: list[dict[str, Any]], bests: list[dict[str, Any]], variant: str
          ) -> dict[str, Any] | None:
    """The variant's share of measured bests against the stored analysis's, same positions."""
    mine = {(b["rules"], b["deal"]): b["best"] for b in bests if b["variant"] == variant}
    pairs = [(p, mine[(r["rules"], r["deal"])][str(p["number"])])
             for r in truth if (r["rules"], r["deal"]) in mine for p in r["positions"]]
    if not pairs:
        return None
    n = len(pairs)
    win = lose = hits = base_hits = 0
    gains = []
    for p, best in pairs:
        top = max(p["measured"], key=p["measured"].get)
        a, b = best == top, p["best"] == top
        hits += a
        base_hits += b
        win += a and not b
        lose += b and not a
        gains.append(p["measured"][best] - p["measured"][p["best"]])
    se = math.sqrt(max(0.0, win + lose - (win - lose) ** 2 / n)) / n
    return {"variant": variant, "positions": n, "share": hits / n, "stored_share": base_hits / n,
            "difference": (win - lose) / n, "difference_ci": Z95 * se,
            "value_gain": statistics.fmean(gains),
            "value_gain_ci": Z95 * statistics.stdev(gains) / math.sqrt(n)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--truth", type=Path, action="append", required=True)
    ap.add_argument("--variant", action="append", default=[])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    for v in args.variant:
        dealer(v, Game.new("fido set=6", 3, seed=0))  # refused here, before the work
    try:
        truths = {t: read_rows(t) for t in args.truth}
    except (OSError, ValueError) as e:  # a missing file, not gzip, not JSON lines
        ap.error(f"a --truth is not a calibration output: {e}")
    done = read_rows(args.out) if args.out.exists() else []
    have = {(b["rules"], b["deal"], b["variant"]) for b in done}
    first = truths[args.truth[0]]
    tasks = [(r, v) for v in args.variant for r in first
             if (r["rules"], r["deal"], v) not in have]
    with ProcessPoolExecutor(args.jobs) as pool, args.out.open("a") as f:
        futures = [pool.submit(analyse_hand, r, v) for r, v in tasks]
        for fut in as_completed(futures):
            b = fut.result()
            f.write(json.dumps(b) + "\n")
            f.flush()
            done.append(b)
            print(f"{b['rules']} deal {b['deal']} {b['variant']}: {len(b['best'])} positions",
                  flush=True)
    summary = []
    for path, rows in truths.items():
        truth_policy = rows[0].get("truth_policy", "greedy")
        print(f"{path} ({rows[0]['rules']}, truth: {truth_policy} continuations)")
        for v in sorted({b["variant"] for b in done}):
            s = score(rows, done, v)
            if s is None:
                continue
            summary.append({"truth": path.name, "truth_policy": truth_policy, **s})
            print(f"  {v:12} {s['positions']:4} positions  share {s['share']:.3f} "
                  f"(stored {s['stored_share']:.3f}, difference {s['difference']:+.3f} "
                  f"± {s['difference_ci']:.3f})  value of its best {s['value_gain']:+.2f} "
                  f"± {s['value_gain_ci']:.2f}")
    if args.json:
        args.json.write_text(json.dumps(summary, indent=1) + "\n")


if __name__ == "__main__":
    main()
