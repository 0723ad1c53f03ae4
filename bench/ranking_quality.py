"""How good is FLADUB? Simulated leagues where the truth is known.

    .venv/bin/python bench/ranking_quality.py [--seeds 3] [--bot-games 1560] [--bot-seeds 1]
        [--leagues "clubs zero-sum,open own finals,bots"]

Each league runs 13 months. The ratings are computed from months 1-12 (as the
ranking at the end of month 12 would be) and judged two ways:

* **Kendall tau** (tau-b) between the ranking and the players' true strengths;
* **prediction of month 13**: for every pair of players in every month-13
  game who did not finish level, the predicted chance that the one who
  finished ahead would; reported as pairwise accuracy and log-loss.

Methods: mean final per game (APG; for log-loss a logistic curve on the APG
difference, its scale fitted on months 1-12), the same mean with each game
weighted by FLADUB's age weight (tau only: what APG would do under the ageing
FLADUB must apply), openskill's Plackett-Luce model replayed game by game over
months 1-12 (ranked by mu; ``predict_win`` on the pair), and FLADUB (ranked by
the FLADUB number; predictions from the strength R,
``fido.ranking.fladub.win_probability``), with its versions 2 and 1 beside;
the tau of R is shown as well. A second table gives FLADUB's tau minus APG's
league by league (paired: the same games), with its standard error.

Leagues:

* ``clubs zero-sum``: 400 players in 20 clubs of different levels, 85% of
  games within the club on the club's favourite set (double-6 ... double-18),
  15% open games on double-12; a player's final is the set's scale x (her
  strength + luck - the table's mean of that): the points in play are
  shared, a final says only how she did against the table.
* ``open zero-sum``: 400 players, every game drawn from everyone, double-12
  only (the league where APG is at its best: no opponent or set effects).
* ``clubs own finals``, ``open own finals``: the same, but a final is the
  set's scale x (her strength + luck) alone, as fido's bots' real FIDO games
  say it nearly is (their fitted beta is about -0.1, not 1).
* ``bot clubs``: fido's bots as players, 8 each of random, greedy, expert and
  search (sims=8, time=0) in four clubs of different mixes (mostly random ...
  mostly search), each club with a favourite set drawn from double-6, -9 and
  -12; real FIDO games of 4, 85% within a club, 15% open on double-9.
* ``bots``: 6 bots of each level, real FIDO double-9 games of 4 drawn at
  random from all 24.

In the bot leagues the true order is the level; two bots of one level are tied.
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from openskill.models import PlackettLuce
from rich.console import Console
from rich.table import Table

from fido.bots import Bot, make_bot, play_hand
from fido.ranking.fladub import Fladub, Params, compute, weights, win_probability

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
    late: dict[int, int] = field(default_factory=dict)  # game: monthly rankings it missed
    quit_month: dict[int, int] = field(default_factory=dict)  # player: her last month

    def arrived(self, g: int) -> int:
        """The month the result reached the ranking (its own, unless late)."""
        return self.month_of(g) + self.late.get(g, 0)

    def month_of(self, g: int) -> int:
        d = START + dt.timedelta(days=self.days[g])
        return (d.year - START.year) * 12 + d.month - START.month + 1


def month_days(m: int) -> tuple[int, int]:
    """Days since START of month m's first and last day (m from 1)."""
    y, mo = START.year + (START.month - 1 + m - 1) // 12, (START.month - 1 + m - 1) % 12 + 1
    first = dt.date(y, mo, 1)
    nxt = dt.date(y + mo // 12, mo % 12 + 1, 1)
    return (first - START).days, (nxt - START).days - 1


def synthetic(
    name: str,
    rng: np.random.Generator,
    clubs: int,
    games_per_month: int,
    shared: bool = True,
    *,
    quitters: float = 0.0,
    late: float = 0.0,
) -> League:
    """A ``quitters`` share of players plays no game after a month drawn from 2-9;
    a ``late`` share of results reaches the ranking 1-3 months late."""
    players = 400
    club = np.arange(players) % clubs
    level = rng.normal(0, 0.8, clubs) if clubs > 1 else np.zeros(1)
    truth = level[club] + rng.normal(0, 0.6, players)
    favourite = rng.choice(SETS, clubs) if clubs > 1 else np.array([12])
    activity = rng.lognormal(0, 0.5, players)
    league = League(name, truth, [], [], [], [])
    stop = np.where(rng.random(players) < quitters, rng.integers(2, 10, players), MONTHS + 1)
    league.quit_month = {int(p): int(stop[p]) for p in np.flatnonzero(stop <= MONTHS)}
    for m in range(1, MONTHS + 1):
        lo, hi = month_days(m)
        for _ in range(games_per_month):
            n = int(rng.integers(3, 6))
            if clubs > 1 and rng.random() < 0.85:
                c = int(rng.integers(clubs))
                pool, set_ = np.flatnonzero((club == c) & (stop >= m)), int(favourite[c])
            else:
                pool, set_ = np.flatnonzero(stop >= m), 12
            if pool.size < n:
                continue
            if rng.random() < late:
                league.late[len(league.days)] = int(rng.integers(1, 4))
            p = activity[pool] / activity[pool].sum()
            seats = rng.choice(pool, n, replace=False, p=p)
            perf = truth[seats] + rng.normal(0, 1.5, n)
            # shared: a final says only how she played against the table (zero-sum);
            # else a final is her own, as in the bots' real games
            table = perf.mean() if shared else 0.0
            finals = np.round(set_ * 2 * (perf - table) + set_).astype(int)
            league.days.append(int(rng.integers(lo, hi + 1)))
            league.seats.append([int(s) for s in seats])
            league.finals.append([int(f) for f in finals])
            league.sets.append(set_)
    return league


BOT_LEVELS = ("random", "greedy", "expert", "search:sims=8,time=0")


def bots_league(rng: np.random.Generator, games: int) -> League:
    levels = BOT_LEVELS
    per = 6
    made = {spec: make_bot(spec) for spec in levels}
    truth = np.repeat(np.arange(len(levels), dtype=float), per)
    league = League("bots", truth, [], [], [], [])
    per_month = games // MONTHS
    for m in range(1, MONTHS + 1):
        lo, hi = month_days(m)
        for _ in range(per_month):
            seats = rng.choice(truth.size, 4, replace=False)
            bots = [made[levels[int(truth[s])]] for s in seats]
            play_into(league, rng, bots, seats=seats, set_=9, days=(lo, hi))
    return league


def play_into(
    league: League,
    rng: np.random.Generator,
    bots: list[Bot],
    *,
    seats: np.ndarray,
    set_: int,
    days: tuple[int, int],
) -> None:
    """One real FIDO game of ``bots`` on ``set_``, recorded on a day within ``days``."""
    game = play_hand(f"fido set={set_}", bots, seed=int(rng.integers(2**31)))
    assert game.outcome is not None
    league.days.append(int(rng.integers(days[0], days[1] + 1)))
    league.seats.append([int(s) for s in seats])
    league.finals.append([r.final for r in game.outcome.seats])
    league.sets.append(set_)


# bot clubs: how many of each level (random, greedy, expert, search) a club has
BOT_CLUBS = ((5, 2, 1, 0), (2, 4, 1, 1), (1, 1, 4, 2), (0, 1, 2, 5))


def bot_clubs_league(rng: np.random.Generator, games: int) -> League:
    """The bots in four clubs of different mixes, each with a favourite set; 15% open games."""
    made = {spec: make_bot(spec) for spec in BOT_LEVELS}
    favourite = rng.choice((6, 9, 12), len(BOT_CLUBS))
    truth_parts, club_parts = [], []
    for c, counts in enumerate(BOT_CLUBS):
        for level, k in enumerate(counts):
            truth_parts += [float(level)] * k
            club_parts += [c] * k
    truth, club = np.array(truth_parts), np.array(club_parts)
    league = League("bot clubs", truth, [], [], [], [])
    per_month = games // MONTHS
    for m in range(1, MONTHS + 1):
        lo, hi = month_days(m)
        for _ in range(per_month):
            if rng.random() < 0.85:
                c = int(rng.integers(len(BOT_CLUBS)))
                pool, set_ = np.flatnonzero(club == c), int(favourite[c])
            else:
                pool, set_ = np.arange(truth.size), 9
            seats = rng.choice(pool, 4, replace=False)
            bots = [made[BOT_LEVELS[int(truth[s])]] for s in seats]
            play_into(league, rng, bots, seats=seats, set_=set_, days=(lo, hi))
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


def evaluate(
    league: League,
) -> tuple[dict[str, tuple[float, float, float]], dict[str, Promises]]:
    """(per method: tau, pairwise accuracy, log-loss; per FLADUB version: its promises)."""
    train = [
        g
        for g in range(len(league.days))
        if league.month_of(g) < MONTHS and league.arrived(g) < MONTHS
    ]
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

    # FLADUB, month by month as the ranking is published (version 4 carries last
    # month's number for players without new results)
    fits = {label: run_months(league, params) for label, params in VERSIONS}
    v4, v3 = fits["FLADUB"][-1], fits["FLADUB version 3"][-1]
    keep, age, months, _, lg, lp, lf, group = month_arrays(league, MONTHS - 1)

    # APG aged as FLADUB ages: the mean final in units of its set's G (from its
    # set's mean), each game weighted as in FLADUB, times FLADUB's age factor
    counted = v4.weight > 0
    mean = np.bincount(group[lg][counted], weights=lf[counted]) / np.maximum(
        np.bincount(group[lg][counted]), 1
    )
    y = np.divide(lf - mean[group[lg]], v4.gap[lg], out=np.zeros(lf.size), where=v4.gap[lg] > 0)
    z = np.bincount(lp, weights=v4.weight * y, minlength=n) / np.maximum(
        np.bincount(lp, weights=v4.weight, minlength=n), 1e-12
    )
    assert v4.months is not None
    factor = np.where(v4.months >= 0, (12 - v4.months) / 12, 0.0)
    aged = factor * (1500 + 400 * z)
    out["APG aged like FLADUB"] = (kendall_tau_b(aged[seen], truth), math.nan, math.nan)
    # ... and as version 3 aged (each game by its age weight, no factor)
    w3 = weights(age, Params(formula=3))[lg]
    aged3 = np.bincount(lp, weights=w3 * lf, minlength=n) / np.maximum(
        np.bincount(lp, weights=w3, minlength=n), 1e-12
    )
    out["APG aged like version 3"] = (kendall_tau_b(aged3[seen], truth), math.nan, math.nan)
    del keep, months, v3

    for label, params in VERSIONS:
        f = fits[label][-1]
        r = f.strength
        acc, ll = score(lambda a, b: float(win_probability(r[a], r[b], params)), pairs)  # noqa: B023
        out[label] = (kendall_tau_b(f.fladub[seen], truth), acc, ll)
        if label == "FLADUB":
            out[f"{label}: strength R"] = (kendall_tau_b(r[seen], truth), acc, ll)
    kept = {label: promises(league, params, fits[label]) for label, params in VERSIONS[:2]}
    return out, kept


VERSIONS: tuple[tuple[str, Params], ...] = (
    ("FLADUB", Params()),
    ("FLADUB version 3", Params(formula=3)),
    ("FLADUB version 2 (margin pairs)", Params(formula=2, age_power=1.0)),
    ("FLADUB version 1 (win/draw/loss pairs)", Params(formula=2, margin_cap=0, age_power=1)),
)


def month_arrays(
    league: League, m: int, drop: frozenset[int] = frozenset()
) -> tuple[
    list[int], np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray
]:
    """Month m's input as the store gives it: the games received by its end and
    played in the 365 days up to it (less ``drop``)."""
    _, last = month_days(m)
    keep = [
        g
        for g in range(len(league.days))
        if 0 <= last - league.days[g] < 365 and league.arrived(g) <= m and g not in drop
    ]
    age = np.array([last - league.days[g] for g in keep], dtype=np.int64)
    months = np.array([m - league.month_of(g) for g in keep], dtype=np.int64)
    late = np.array([league.late.get(g, 0) for g in keep], dtype=np.int64)
    lg = np.repeat(np.arange(len(keep)), [len(league.seats[g]) for g in keep])
    lp = np.array([p for g in keep for p in league.seats[g]], dtype=np.int64)
    lf = np.array([f for g in keep for f in league.finals[g]], dtype=np.int64)
    group = np.unique([league.sets[g] for g in keep], return_inverse=True)[1].ravel()
    return keep, age, months, late, lg, lp, lf, group.astype(np.int64)


def fit_month(
    league: League,
    m: int,
    params: Params,
    previous: np.ndarray | None,
    drop: frozenset[int] = frozenset(),
) -> Fladub:
    _, age, months, late, lg, lp, lf, group = month_arrays(league, m, drop)
    extra: dict[str, Any] = {}
    if params.formula >= 4:
        extra = {"age_months": months, "late_months": late, "previous": previous}
    return compute(age, lg, lp, lf, league.truth.size, params=params, game_group=group, **extra)


def run_months(league: League, params: Params) -> list[Fladub]:
    """Months 1 .. MONTHS - 1 in order (index m - 1), each carrying the one before."""
    out: list[Fladub] = []
    for m in range(1, MONTHS):
        out.append(fit_month(league, m, params, out[-1].fladub if out else None))
    return out


def places_moved(now: Fladub, without: Fladub) -> int:
    """The largest move of a ranked, non-provisional player between two rankings."""
    before, after = np.flatnonzero(without.games > 0), np.flatnonzero(now.games > 0)
    v, u = without.fladub[before], now.fladub[after]
    pos_b = 1 + (v[None, :] > v[:, None]).sum(axis=1)
    pos_a = 1 + (u[None, :] > u[:, None]).sum(axis=1)
    pos_a = pos_a[np.searchsorted(after, before)]
    watched = ~without.provisional[before]
    return int(np.abs(pos_a - pos_b)[watched].max(initial=0))


@dataclass
class Promises:
    falls: list[float]  # per quitter and month after her last game: the fall / her number then
    rises: int  # quitters whose number rose in some month without a game
    quitters: int
    months_to_10: list[int]  # per quitter: months until 10% below her number after her last game
    jump: int  # largest place move a late result caused in the month it entered
    allowed: int  # the allowance in that month: max(2% of the ranked field, 5)


def promises(league: League, params: Params, fits: list[Fladub]) -> Promises:
    """How the three promises fare: quitters' monthly falls, late results' jumps."""
    out = Promises([], 0, 0, [], 0, 0)
    last_month: dict[int, int] = {}
    for g in range(len(league.days)):
        for p in league.seats[g]:
            last_month[p] = max(last_month.get(p, 0), league.month_of(g))
    for p in league.quit_month:
        stop = last_month.get(p, 0)
        if not 1 <= stop < MONTHS - 2:
            continue
        out.quitters += 1
        numbers = [float(fits[m - 1].fladub[p]) for m in range(stop, MONTHS)]
        if numbers[0] <= 0:
            continue
        steps = np.diff(numbers)
        out.falls += list(-steps / numbers[0])
        out.rises += int((steps > 0).any())
        below = [k for k, x in enumerate(numbers) if x <= 0.9 * numbers[0]]
        out.months_to_10.append(below[0] if below else MONTHS)
    for m in range(2, MONTHS):
        arriving = frozenset(g for g, k in league.late.items() if k > 0 and league.arrived(g) == m)
        if not arriving:
            continue
        previous = fits[m - 2].fladub if params.formula >= 4 else None
        without = fit_month(league, m, params, previous, arriving)
        moved = places_moved(fits[m - 1], without)
        if moved >= out.jump:
            ranked = int(np.count_nonzero((without.games > 0) & ~without.provisional))
            out.jump = moved
            out.allowed = max(int(ranked * params.late_share), params.late_min_places)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--seeds", type=int, default=3, help="synthetic leagues per kind")
    ap.add_argument("--bot-games", type=int, default=1560, help="games in a bot league")
    ap.add_argument("--bot-seeds", type=int, default=1, help="bot leagues of each kind")
    ap.add_argument(
        "--leagues",
        default="clubs zero-sum,open zero-sum,clubs own finals,open own finals,"
        "clubs quitters,clubs late,bot clubs,bots",
        help="which kinds, separated by commas",
    )
    args = ap.parse_args()
    console = Console(width=120)
    table = Table(title="Ranking quality: months 1-12 rate, month 13 is predicted")
    for col in ("league", "method", "Kendall tau", "pairwise acc", "log-loss"):
        table.add_column(col, justify="left" if col in ("league", "method") else "right")
    kinds: list[tuple[str, Callable[[np.random.Generator], League], int]] = [
        ("clubs zero-sum", lambda rng: synthetic("clubs", rng, 20, 500), args.seeds),
        ("open zero-sum", lambda rng: synthetic("open", rng, 1, 500), args.seeds),
        ("clubs own finals", lambda rng: synthetic("clubs", rng, 20, 500, False), args.seeds),
        (
            "clubs quitters",
            lambda rng: synthetic("clubs", rng, 20, 500, False, quitters=0.2),
            args.seeds,
        ),
        (
            "clubs late",
            lambda rng: synthetic("clubs", rng, 20, 500, False, late=0.15),
            args.seeds,
        ),
        ("open own finals", lambda rng: synthetic("open", rng, 1, 500, False), args.seeds),
        ("bot clubs", lambda rng: bot_clubs_league(rng, args.bot_games), args.bot_seeds),
        ("bots", lambda rng: bots_league(rng, args.bot_games), args.bot_seeds),
    ]
    promise_rows = Table(
        title="The promises: quitters' monthly fall (share of the number after her last "
        "game; the promise: at least 1/12 = 0.083), late results' largest place jump"
    )
    for col in (
        "league",
        "version",
        "smallest monthly fall",
        "median fall",
        "quitters who rose",
        "months to -10% (max)",
        "largest late jump",
    ):
        promise_rows.add_column(col, justify="left" if col in ("league", "version") else "right")
    diffs = Table(title="Kendall tau, FLADUB minus a peer, paired by league")
    for col in ("league", "peer", "mean", "std. error", "FLADUB ahead", "leagues"):
        diffs.add_column(col, justify="left" if col in ("league", "peer") else "right")
    wanted = {k.strip() for k in args.leagues.split(",")}
    for kind, make, seeds in kinds:
        if kind not in wanted:
            continue
        t = time.perf_counter()
        both = [evaluate(make(np.random.default_rng(seed))) for seed in range(seeds)]
        runs = [run for run, _ in both]
        for label in ("FLADUB", "FLADUB version 3"):
            kept = [k[label] for _, k in both]
            falls = [x for k in kept for x in k.falls]
            to_10 = [x for k in kept for x in k.months_to_10]
            quitters = sum(k.quitters for k in kept)
            worst = max(kept, key=lambda k: (k.jump, -k.allowed))
            promise_rows.add_row(
                kind,
                label,
                f"{min(falls):.3f}" if falls else "-",
                f"{np.median(falls):.3f}" if falls else "-",
                f"{sum(k.rises for k in kept)} of {quitters}" if quitters else "-",
                f"{np.median(to_10):.0f} ({max(to_10)})" if to_10 else "-",
                f"{worst.jump} (allowed {worst.allowed})" if worst.allowed else "-",
            )
        for method in runs[0]:
            vals = np.mean([run[method] for run in runs], axis=0)
            table.add_row(
                f"{kind} ({seeds} seed{'s' if seeds > 1 else ''})",
                method,
                f"{vals[0]:.3f}",
                "-" if math.isnan(vals[1]) else f"{vals[1]:.3f}",
                "-" if math.isnan(vals[2]) else f"{vals[2]:.4f}",
            )
        for peer in ("mean final per game (APG)", "APG aged like FLADUB"):
            d = np.array([run["FLADUB"][0] - run[peer][0] for run in runs])
            se = d.std(ddof=1) / math.sqrt(d.size) if d.size > 1 else math.nan
            diffs.add_row(
                kind, peer, f"{d.mean():+.4f}", f"{se:.4f}", str(int((d > 0).sum())), str(d.size)
            )
        console.print(f"{kind}: {time.perf_counter() - t:.0f} s")
    console.print(table)
    console.print(diffs)
    console.print(promise_rows)


if __name__ == "__main__":
    main()
