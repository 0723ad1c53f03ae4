"""How good is FLADUB? Simulated leagues where the truth is known.

    .venv/bin/python bench/ranking_quality.py [--seeds 3] [--bot-games 1560] [--bot-seeds 1]

Each league runs 13 months. The ratings are computed from months 1-12 (as the
ranking at the end of month 12 would be) and judged two ways:

* **Kendall tau** (tau-b) between the ranking and the players' true strengths;
* **prediction of month 13**: for every pair of players in every month-13
  game who did not finish level, the predicted chance that the one who
  finished ahead would; reported as pairwise accuracy and log-loss.

Methods: mean final per game (APG; for log-loss a logistic curve on the APG
difference, its scale fitted on months 1-12), openskill's Plackett-Luce model
replayed game by game over months 1-12 (ranked by mu; ``predict_win`` on the
pair), and FLADUB (ranked by the FLADUB number; predictions from the strength
R, ``fido.ranking.fladub.win_probability``); the tau of R is shown as well.

Leagues:

* ``clubs``: 400 players in 20 clubs of different levels, 85% of games within
  the club on the club's favourite set (double-6 ... double-18), 15% open
  games on double-12; a player's final is the set's scale x (her strength +
  luck - the table's mean of that): the tiles' points are shared, so a final
  says how she played relative to the table, as in a real game.
* ``open``: 400 players, every game drawn from everyone, double-12 only
  (the league where APG is at its best: no opponent or set effects).
* ``bots``: fido's bots as players, 6 each of random, greedy, expert and
  search (sims=8, time=0), real FIDO double-9 games of 4 drawn at random;
  true order: the level.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from openskill.models import PlackettLuce
from rich.console import Console
from rich.table import Table

from fido.bots import make_bot, play_hand
from fido.ranking.fladub import Params, compute, win_probability

START = dt.date(2025, 11, 1)
MONTHS = 13
SETS = (6, 9, 12, 15, 18)


@dataclass
class League:
    name: str
    truth: np.ndarray  # per player
    days: list[int]  # per game: days since START
    seats: list[list[int]]  # per game: players
    finals: list[list[int]]  # per game: finals
    sets: list[int]  # per game: the set (FLADUB measures margins per set)

    def month_of(self, g: int) -> int:
        d = START + dt.timedelta(days=self.days[g])
        return (d.year - START.year) * 12 + d.month - START.month + 1


def month_days(m: int) -> tuple[int, int]:
    """Days since START of month m's first and last day (m from 1)."""
    y, mo = START.year + (START.month - 1 + m - 1) // 12, (START.month - 1 + m - 1) % 12 + 1
    first = dt.date(y, mo, 1)
    nxt = dt.date(y + mo // 12, mo % 12 + 1, 1)
    return (first - START).days, (nxt - START).days - 1


def synthetic(name: str, rng: np.random.Generator, clubs: int, games_per_month: int) -> League:
    players = 400
    club = np.arange(players) % clubs
    level = rng.normal(0, 0.8, clubs) if clubs > 1 else np.zeros(1)
    truth = level[club] + rng.normal(0, 0.6, players)
    favourite = rng.choice(SETS, clubs) if clubs > 1 else np.array([12])
    activity = rng.lognormal(0, 0.5, players)
    league = League(name, truth, [], [], [], [])
    for m in range(1, MONTHS + 1):
        lo, hi = month_days(m)
        for _ in range(games_per_month):
            n = int(rng.integers(3, 6))
            if clubs > 1 and rng.random() < 0.85:
                c = int(rng.integers(clubs))
                pool, set_ = np.flatnonzero(club == c), int(favourite[c])
            else:
                pool, set_ = np.arange(players), 12
            p = activity[pool] / activity[pool].sum()
            seats = rng.choice(pool, n, replace=False, p=p)
            perf = truth[seats] + rng.normal(0, 1.5, n)
            # the tiles' points are shared: a final depends on play relative to the table
            finals = np.round(set_ * 2 * (perf - perf.mean()) + set_).astype(int)
            league.days.append(int(rng.integers(lo, hi + 1)))
            league.seats.append([int(s) for s in seats])
            league.finals.append([int(f) for f in finals])
            league.sets.append(set_)
    return league


def bots_league(rng: np.random.Generator, games: int) -> League:
    levels = ["random", "greedy", "expert", "search:sims=8,time=0"]
    per = 6
    made = {spec: make_bot(spec) for spec in levels}
    truth = np.repeat(np.arange(len(levels), dtype=float), per)
    league = League("bots", truth, [], [], [], [])
    per_month = games // MONTHS
    for m in range(1, MONTHS + 1):
        lo, hi = month_days(m)
        for _ in range(per_month):
            seats = rng.choice(truth.size, 4, replace=False)
            game = play_hand(
                "fido set=9",
                [made[levels[int(truth[s])]] for s in seats],
                seed=int(rng.integers(2**31)),
            )
            assert game.outcome is not None
            league.days.append(int(rng.integers(lo, hi + 1)))
            league.seats.append([int(s) for s in seats])
            league.finals.append([r.final for r in game.outcome.seats])
            league.sets.append(9)
    return league


def kendall_tau_b(x: np.ndarray, y: np.ndarray) -> float:
    dx = np.sign(x[:, None] - x[None, :])
    dy = np.sign(y[:, None] - y[None, :])
    iu = np.triu_indices(x.size, 1)
    a, b = dx[iu], dy[iu]
    return float((a * b).sum() / math.sqrt((a * a).sum() * (b * b).sum()))


def test_pairs(league: League) -> list[tuple[int, int]]:
    """(ahead, behind) for every non-level pair in every month-13 game."""
    out = []
    for g in range(len(league.days)):
        if league.month_of(g) != MONTHS:
            continue
        s, f = league.seats[g], league.finals[g]
        for i in range(len(s)):
            for j in range(len(s)):
                if f[i] > f[j]:
                    out.append((s[i], s[j]))
    return out


def score(prob: Callable[[int, int], float], pairs: list[tuple[int, int]]) -> tuple[float, float]:
    p = np.clip(np.array([prob(a, b) for a, b in pairs]), 1e-6, 1 - 1e-6)
    acc = float(np.mean(np.where(p > 0.5, 1.0, np.where(p == 0.5, 0.5, 0.0))))
    return acc, float(-np.mean(np.log(p)))


def evaluate(league: League) -> dict[str, tuple[float, float, float]]:
    train = [g for g in range(len(league.days)) if league.month_of(g) < MONTHS]
    _, last = month_days(MONTHS - 1)
    n = league.truth.size
    seen = np.zeros(n, dtype=bool)
    for g in train:
        seen[league.seats[g]] = True
    pairs = [(a, b) for a, b in test_pairs(league) if seen[a] and seen[b]]
    truth = league.truth[seen]
    out: dict[str, tuple[float, float, float]] = {}

    # APG
    total, count = np.zeros(n), np.zeros(n)
    for g in train:
        np.add.at(total, league.seats[g], league.finals[g])
        np.add.at(count, league.seats[g], 1)
    apg = total / np.maximum(count, 1)
    train_pairs = [
        (s[i], s[j])
        for g in train
        for s, f in [(league.seats[g], league.finals[g])]
        for i in range(len(s))
        for j in range(len(s))
        if f[i] > f[j]
    ]
    diffs = np.array([apg[a] - apg[b] for a, b in train_pairs])
    best = min(
        (float(np.mean(np.logaddexp(0, -diffs / s))), s) for s in np.geomspace(0.1, 1000, 200)
    )[1]
    acc, ll = score(lambda a, b: 1 / (1 + math.exp(-(apg[a] - apg[b]) / best)), pairs)
    out["mean final per game (APG)"] = (kendall_tau_b(apg[seen], truth), acc, ll)

    # openskill Plackett-Luce, game by game in date order
    model = PlackettLuce()
    ratings = [model.rating() for _ in range(n)]
    for g in sorted(train, key=lambda g: league.days[g]):
        s = league.seats[g]
        new = model.rate([[ratings[p]] for p in s], scores=[float(f) for f in league.finals[g]])
        for p, team in zip(s, new, strict=True):
            ratings[p] = team[0]
    mu = np.array([r.mu for r in ratings])
    acc, ll = score(lambda a, b: model.predict_win([[ratings[a]], [ratings[b]]])[0], pairs)
    out["openskill Plackett-Luce (mu)"] = (kendall_tau_b(mu[seen], truth), acc, ll)

    # FLADUB
    age, lg, lp, lf = [], [], [], []
    for k, g in enumerate(train):
        age.append(last - league.days[g])
        lg += [k] * len(league.seats[g])
        lp += league.seats[g]
        lf += league.finals[g]
    group = np.unique([league.sets[g] for g in train], return_inverse=True)[1]
    for label, params in (
        ("FLADUB", Params()),
        ("FLADUB version 1 (win/draw/loss pairs)", Params(margin_cap=0.0)),
    ):
        f = compute(
            np.array(age),
            np.array(lg),
            np.array(lp),
            np.array(lf),
            n,
            params=params,
            game_group=group,
        )
        r = f.strength
        acc, ll = score(lambda a, b: float(win_probability(r[a], r[b], params)), pairs)  # noqa: B023
        out[label] = (kendall_tau_b(f.fladub[seen], truth), acc, ll)
        out[f"{label}: strength R"] = (kendall_tau_b(r[seen], truth), acc, ll)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--seeds", type=int, default=3, help="synthetic leagues per kind")
    ap.add_argument("--bot-games", type=int, default=1560, help="games in the bot league")
    ap.add_argument("--bot-seeds", type=int, default=1, help="bot leagues")
    args = ap.parse_args()
    console = Console(width=120)
    table = Table(title="Ranking quality: months 1-12 rate, month 13 is predicted")
    for col in ("league", "method", "Kendall tau", "pairwise acc", "log-loss"):
        table.add_column(col, justify="left" if col in ("league", "method") else "right")
    kinds: list[tuple[str, Callable[[np.random.Generator], League], int]] = [
        ("clubs", lambda rng: synthetic("clubs", rng, 20, 500), args.seeds),
        ("open", lambda rng: synthetic("open", rng, 1, 500), args.seeds),
        ("bots", lambda rng: bots_league(rng, args.bot_games), args.bot_seeds),
    ]
    for kind, make, seeds in kinds:
        t = time.perf_counter()
        runs = [evaluate(make(np.random.default_rng(seed))) for seed in range(seeds)]
        for method in runs[0]:
            vals = np.mean([run[method] for run in runs], axis=0)
            table.add_row(
                f"{kind} ({seeds} seed{'s' if seeds > 1 else ''})",
                method,
                f"{vals[0]:.3f}",
                f"{vals[1]:.3f}",
                f"{vals[2]:.4f}",
            )
        console.print(f"{kind}: {time.perf_counter() - t:.0f} s")
    console.print(table)


if __name__ == "__main__":
    main()
