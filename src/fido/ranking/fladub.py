"""FLADUB, fido's world-ranking number: the formula on plain arrays.

The input is one month's view of the results: per game its age in days at the
month's cutoff, per line (one player in one game) its game, player and final
(points - pips). Lines of a game are contiguous. With the parameters of
:class:`Params` (``docs/ranking.md`` has the formula and a worked example):

1. **Weight.** A game ``a`` days old weighs ``w = 1 - (a / 365)^2``: it fades
   slowly at first and faster towards the year's end; from 365 days on it
   weighs nothing and is left out. A result sent late has the weight of the
   day it was played.
2. **Finals in units of the set**: ``y = f / G``, ``G`` the mean gap between
   two finals in the window's games on the same set and divisor.
3. **The table model** ``y = level[set] + x_i - beta * mean x_j + noise`` over
   her opponents ``j``: strengths, levels and ``beta`` (how much a strong
   table lowers a final; read from the data, within [-1, 1]) by weighted
   least squares with ``K = 2`` virtual games at ``x = 0``; conjugate
   gradients for ``x`` and the levels, alternating with ``beta``.
4. **Strength** ``R = 1500 + 400 x``; **performance** of a player in a game
   ``1500 + 400 (y - level + beta * mean x_j)``: her final against the table,
   the mean of her performances against each opponent.
5. **FLADUB** = sum over her counted games of ``w * performance``, divided by
   ``max(sum of w, 6)``. So each game *contributes* ``w * performance /
   max(sum of w, 6)`` and the contributions add up to the FLADUB: a weighted
   mean of her performances while her games weigh 6 or more together, and a
   number that shrinks month by month as they age below that, down to nothing a
   year after her last game. A game's own contribution shrinks as it ages.
   Players with fewer than 10 counted games are listed as provisional.

Formula 4 (now) changes what is published, not the fit: finals count up to
``final_cap`` G from their set's mean final (bounds settled on the clipped
finals), a late result weighs ``late_damping`` per ranking it missed, and
FLADUB is ``(12 - k) / 12`` of her strength, ``k`` the months since her
newest counted game; a player without a new result carries last month's
number on, times ``(12 - k) / (13 - k)``, so a quitter falls by 1/12 of her
number after her last game each month; and in the month late results enter,
no ranked non-provisional player moves more than ``max(2 %, 5)`` places
against the same month without them. Contributions are then
``(F / R) * (w / W) * q`` with ``q`` her performance shrunk by ``K`` virtual
games: the fit makes ``R`` exactly their weighted mean (``_compute_v4``).
Steps 1-5 above are formula 3.

Formulas 1 and 2 (snapshots published before the table model, with linear
ageing ``w = 1 - a / 365``) read pair results instead: ``m = 400 * clip((f_i
- f_j) / G, -3, 3)`` (formula 2) or +-400 / 0 (``margin_cap = 0``, version
1), strengths solving ``R_i = (sum v (R_j + m_ij) + K 1500) / (sum v + K)``
with ``v = w / (n - 1)``; the performance is the mean of ``R_j + m_ij``.

Everything is numpy on arrays in a fixed order, so the same input gives the
same bits (sums use numpy's pairwise summation and ``bincount``, not BLAS).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from fido.ranking.errors import ResultError

__all__ = [
    "Fladub",
    "Params",
    "compute",
    "months_since",
    "pair_performance",
    "pair_result",
    "win_probability",
]

FloatArray = npt.NDArray[Any]  # float64 throughout
IntArray = npt.NDArray[Any]  # int64 throughout


@dataclass(frozen=True)
class Params:
    formula: int = 4  # 4: table model, visible ageing, late results capped; 3: table model;
    # 1 and 2: pair results (see margin_cap)
    window_days: int = 365  # a game this old or older counts for nothing
    age_power: float = 2.0  # w = 1 - (age / window) ** age_power; 1: linear (before version 3)
    scale: float = 400.0  # strength points per G of final (formula 3); a won pair (1, 2)
    margin_cap: float = 3.0  # pair result: scale * clip(margin / gap, +-cap); 0: win/draw/loss
    base: float = 1500.0  # the strength of the virtual opponent (and of a newcomer)
    prior_games: float = 2.0  # K: virtual games at `base` (draws against it, formulas 1, 2)
    min_weight: float = 6.0  # the divisor is at least this: fewer weighted games shrink FLADUB
    min_games: int = 10  # fewer counted games: provisional
    tolerance: float = 1e-10  # relative residual at which the solver stops
    max_iterations: int = 500
    beta_rounds: int = 50  # formula 3: at most this many alternations of x and beta
    beta_tolerance: float = 1e-9  # ... until beta moves less than this
    beta_limit: float = 1.0  # |beta| at most this (1: a final says only how the table went)
    # formula 4 only (earlier versions ignore these, so their snapshots recompute alike)
    final_cap: float = 3.0  # a final counts up to this many G from its set's mean final
    late_damping: float = 0.5  # a result k rankings late weighs late_damping ** k as much
    late_share: float = 0.02  # a late result moves no ranked player more than this share
    late_min_places: int = 5  # ... of the ranked field or this many places, the larger
    age_steps: int = 12  # the number is (age_steps - k) / age_steps of it, k months on

    def to_dict(self) -> dict[str, float | int]:
        return asdict(self)


@dataclass(frozen=True)
class Fladub:
    """The month's numbers.

    Per player (index 0..P-1): ``fladub``, ``strength``, ``games`` (counted),
    ``weight_sum`` (their weights), ``provisional``. Per line: ``weight`` (its
    game's), ``performance``, ``contribution`` (0 where the game does not count).
    Per game: ``gap``, the ``G`` its finals are read in, and ``level``. The
    month's ``beta``.
    """

    fladub: FloatArray
    strength: FloatArray
    games: IntArray
    weight_sum: FloatArray
    provisional: npt.NDArray[Any]
    weight: FloatArray
    performance: FloatArray
    contribution: FloatArray
    gap: FloatArray  # per game: G, the mean gap of two finals on its set (0: win/draw/loss)
    level: FloatArray  # per game: its set's level in the table model (formula 3; else 0)
    beta: float  # how much the opponents' strength lowers a final (formula 3; else 0)
    iterations: int
    # formula 4 (None before): why each number is what it is
    late_factor: FloatArray | None = None  # per line: late_damping ** rankings it missed
    months: IntArray | None = None  # per player: months since her newest counted game
    factor: FloatArray | None = None  # per player: FLADUB / her mean shrunk performance
    carried: npt.NDArray[Any] | None = None  # per player: last month's number, aged
    capped: npt.NDArray[Any] | None = None  # per player: held back from a late result's jump
    low: FloatArray | None = None  # per game: a final counts from low * G ...
    high: FloatArray | None = None  # ... up to high * G
    table_x: FloatArray | None = None  # per game: the sum of its players' x
    sizes: IntArray | None = None  # per game: its players

    def size_of(self, game: int) -> int:
        assert self.sizes is not None
        return int(self.sizes[game])


def weights(age_days: IntArray, params: Params) -> FloatArray:
    """A game's weight from its age in days: 1 - (age / window)^p, 0 outside [0, window)."""
    age = np.asarray(age_days, dtype=np.float64)
    w = 1.0 - (age / params.window_days) ** params.age_power
    w[(age < 0) | (age >= params.window_days)] = 0.0
    return w


def win_probability(r_i: FloatArray | float, r_j: FloatArray | float, params: Params) -> FloatArray:
    """Predicted chance that a player of strength ``r_i`` finishes ahead of one of ``r_j``.

    A logistic curve of scale ``scale / 2``: a difference of ``scale`` (one ``G``
    of final in the table model) gives e / (1 + e) = 0.73. A slope from the
    model's residual noise predicted worse on the simulated leagues.
    """
    d = np.asarray(r_i, dtype=np.float64) - np.asarray(r_j, dtype=np.float64)
    return np.asarray(1.0 / (1.0 + np.exp(-d * 4.0 / (2.0 * params.scale))), dtype=np.float64)


def pair_result(margin: FloatArray | float, gap: FloatArray | float, params: Params) -> FloatArray:
    """What a final ``margin`` over one opponent is worth, in a game whose set has ``gap``."""
    d = np.asarray(margin, dtype=np.float64)
    if params.margin_cap <= 0:
        return np.asarray(params.scale * np.sign(d), dtype=np.float64)
    g = np.asarray(gap, dtype=np.float64)
    ratio = np.divide(d, g, out=np.zeros(np.broadcast(d, g).shape), where=g > 0)
    return np.asarray(
        params.scale * np.clip(ratio, -params.margin_cap, params.margin_cap), dtype=np.float64
    )


def pair_performance(
    own_final: int,
    opponent_final: int,
    opponent_strength: float,
    *,
    fit: Fladub,
    game: int,
    params: Params,
) -> float:
    """Her performance against one opponent in ``game``; a line's performance is their mean.

    Formula 4: as formula 3 with the final clipped to its set's bound, less
    ``beta`` times the opponent's residual (how far her final beat the model);
    the mean over the opponents is the line's performance, and with it her
    strength is exactly the weighted mean of her shrunk performances.
    Formula 3: her final in units of ``G`` above her set's level, plus ``beta``
    times the opponent's strength above ``base``. Formulas 1 and 2: the
    opponent's strength plus the pair result.
    """
    gap = float(fit.gap[game])
    if params.formula >= 4:
        assert fit.low is not None and fit.high is not None and fit.table_x is not None
        low, high, level = float(fit.low[game]), float(fit.high[game]), float(fit.level[game])

        def read(final: int) -> float:
            return min(max(final / gap, low), high) if gap > 0 else 0.0

        x_j = (opponent_strength - params.base) / params.scale
        others = (float(fit.table_x[game]) - x_j) / (fit.size_of(game) - 1)  # x_j's table
        # the opponent's residual in the model: what her final said beyond it
        residual_j = read(opponent_final) - level - x_j + fit.beta * others
        return params.base + params.scale * (
            read(own_final) - level + fit.beta * x_j - fit.beta * residual_j
        )
    if params.formula >= 3:
        y = own_final / gap if gap > 0 else 0.0
        return (
            params.base
            + params.scale * (y - float(fit.level[game]))
            + fit.beta * (opponent_strength - params.base)
        )
    return opponent_strength + float(pair_result(own_final - opponent_final, gap, params))


def _gaps(lg: IntArray, lf: IntArray, w_game: FloatArray, group: IntArray) -> FloatArray:
    """Per game, its group's G: the mean |f_a - f_b| over the ordered pairs of counted games.

    Without listing the pairs: in a game with finals sorted f_1 <= ... <= f_n,
    the sum of |f_a - f_b| over its ordered pairs is 2 * sum f_k (2k - n - 1);
    integer terms, so the sum is exact.
    """
    n_games, n_groups = group.size, int(group.max()) + 1 if group.size else 0
    if lg.size == 0:
        return np.zeros(n_games)
    sizes, start = _game_starts(lg, n_games)
    low = int(lf.min())
    span = int(lf.max()) - low + 1
    ordered = np.sort(lg * span + (lf - low)) % span + low  # finals sorted within each game
    rank = np.arange(lg.size, dtype=np.int64) - start[lg] + 1  # lg is sorted: the k of position
    n = sizes[lg]
    term = 2 * ordered * (2 * rank - n - 1)
    counted = w_game[lg] > 0
    # float sums of integers far below 2**53: exact, whatever the order
    total = np.bincount(group[lg][counted], weights=term[counted], minlength=n_groups)
    kept = w_game > 0
    pairs = np.bincount(group[kept], weights=sizes[kept] * (sizes[kept] - 1), minlength=n_groups)
    gap = total / np.maximum(pairs, 1)
    return np.asarray(gap[group], dtype=np.float64)


def _game_starts(line_game: IntArray, n_games: int) -> tuple[IntArray, IntArray]:
    """Per game (lines sorted by game): how many lines it has, and where they start."""
    sizes = np.bincount(line_game, minlength=n_games)
    start = np.zeros(n_games, dtype=np.int64)
    np.cumsum(sizes[:-1], out=start[1:])
    return sizes, start


def _pairs(line_game: IntArray, n_games: int) -> tuple[IntArray, IntArray, IntArray]:
    """Every ordered pair of lines in the same game: (line a, line b, size of the game)."""
    sizes, start = _game_starts(line_game, n_games)
    a_parts, b_parts, n_parts = [], [], []
    for n in np.unique(sizes):
        if n < 2:
            continue
        games = np.flatnonzero(sizes == n)
        lines = start[games][:, None] + np.arange(n)[None, :]
        aa, bb = np.nonzero(~np.eye(n, dtype=bool))
        a_parts.append(lines[:, aa].ravel())
        b_parts.append(lines[:, bb].ravel())
        n_parts.append(np.full(games.size * aa.size, n, dtype=np.int64))
    if not a_parts:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    return np.concatenate(a_parts), np.concatenate(b_parts), np.concatenate(n_parts)


def compute(
    age_days: IntArray,
    line_game: IntArray,
    line_player: IntArray,
    line_final: IntArray,
    n_players: int,
    *,
    params: Params | None = None,
    game_group: IntArray | None = None,
    age_months: IntArray | None = None,
    late_months: IntArray | None = None,
    previous: FloatArray | None = None,
    last_day: dt.date | None = None,
) -> Fladub:
    """FLADUB for players 0..n_players-1 from games (``age_days`` per game) and lines.

    ``line_game`` must be sorted (a game's lines contiguous) and every game
    must have at least two lines. ``game_group`` numbers each game's set and
    divisor (0, 1, ...; default: all one group): ``G`` and the table model's
    level are per group.

    Formula 4 reads three more things, each with a fallback: per game
    ``age_months``, the calendar months from its month to the ranking's (else
    from ``last_day``, the ranking's last day; else ``age_days * 12 // 365``)
    and ``late_months``, how many monthly rankings it missed (0: on time); per
    player ``previous``, her number in last month's formula-4 ranking (NaN:
    none), which a player without new results carries on, aged.
    """
    params = params or Params()
    age = np.asarray(age_days, dtype=np.int64)
    lg = np.asarray(line_game, dtype=np.int64)
    lp = np.asarray(line_player, dtype=np.int64)
    lf = np.asarray(line_final, dtype=np.int64)
    if lg.size and np.any(np.diff(lg) < 0):
        raise ValueError("the lines must be sorted by game")
    group = (
        np.zeros(age.size, dtype=np.int64)
        if game_group is None
        else np.asarray(game_group, dtype=np.int64)
    )
    if params.formula >= 4:
        months = (
            np.asarray(age_months, dtype=np.int64)
            if age_months is not None
            else months_since(age, last_day)
        )
        late = (
            np.zeros(age.size, dtype=np.int64)
            if late_months is None
            else np.asarray(late_months, dtype=np.int64)
        )
        prev = (
            np.full(n_players, np.nan)
            if previous is None
            else np.asarray(previous, dtype=np.float64)
        )
        if months.shape != age.shape or late.shape != age.shape or prev.shape != (n_players,):
            raise ResultError("age_months and late_months go per game, previous per player")
        if np.any(late < 0) or np.any(months < 0) or np.any(late > months):
            raise ResultError("a game is received from the month it was played on, not before")
        return _compute_v4(
            _Lines(lg, lp, lf, np.zeros(lg.size), group, np.zeros(age.size), n_players),
            age,
            months=months,
            late=late,
            previous=prev,
            params=params,
        )
    if age_months is not None or late_months is not None or previous is not None:
        raise ResultError(f"formula {params.formula} reads no months, lateness or last month")
    w_game = weights(age, params)
    w_line = w_game[lg] if lg.size else np.zeros(0)
    if params.formula >= 3:
        lines = _Lines(lg, lp, lf, w_line, group, _gaps(lg, lf, w_game, group), n_players)
        strength, performance, beta, game_level, iterations = _table_model(lines, params)
    else:
        a, b, n = _pairs(lg, age.size)
        margin = (lf[a] - lf[b]).astype(np.float64)
        keep = w_line[a] > 0
        game_gap = np.zeros(age.size)
        if params.margin_cap > 0:  # G per group: mean |margin| of its pairs
            groups = int(group.max()) + 1 if group.size else 0
            pair_group = group[lg[a]][keep]
            gap_sum = np.bincount(pair_group, weights=np.abs(margin[keep]), minlength=groups)
            gap_n = np.bincount(pair_group, minlength=groups)
            game_gap = (gap_sum / np.maximum(gap_n, 1))[group]
        lines = _Lines(lg, lp, lf, w_line, group, game_gap, n_players)
        strength, performance, iterations = _pair_model(lines, params, a=a, b=b, n=n, margin=margin)
        beta, game_level = 0.0, np.zeros(age.size)
    counted = w_line > 0
    games = np.bincount(lp[counted], minlength=n_players).astype(np.int64)
    weight_sum = np.bincount(lp, weights=w_line, minlength=n_players)
    divisor = np.maximum(weight_sum, params.min_weight)
    contribution = np.where(counted, w_line * performance / divisor[lp], 0.0)
    fladub = np.bincount(lp, weights=contribution, minlength=n_players)
    return Fladub(
        fladub=fladub,
        strength=np.where(games > 0, strength, params.base),
        games=games,
        weight_sum=weight_sum,
        provisional=games < params.min_games,
        weight=w_line,
        performance=np.where(counted, performance, 0.0),
        contribution=contribution,
        gap=lines.gap,
        level=game_level,
        beta=beta,
        iterations=iterations,
    )


@dataclass(frozen=True)
class _Lines:
    """One month's lines as the models read them."""

    game: IntArray
    player: IntArray
    final: IntArray
    weight: FloatArray  # its game's
    group: IntArray  # per game: set and divisor
    gap: FloatArray  # per game: G
    n_players: int


def _table_model(
    lines: _Lines, params: Params, y_read: FloatArray | None = None
) -> tuple[FloatArray, FloatArray, float, FloatArray, int]:
    """Formula 3: ``y = level[set] + x_i - beta * mean of the opponents' x + noise``.

    ``y`` is a final in units of its set's ``G``. Weighted least squares (weights
    ``w``, ``K`` virtual games at ``x = 0``) for ``x`` and the levels with
    ``beta`` fixed, then ``beta`` by least squares with ``x`` fixed, until
    ``beta`` settles. Returns strength, performance per line, beta, level per
    game, CG iterations.
    """
    lg, lp, lf, w_line = lines.game, lines.player, lines.final, lines.weight
    group, game_gap, n_players = lines.group, lines.gap, lines.n_players
    if not np.any(w_line > 0):  # nothing counts: everyone at the base, no level to read
        return (
            np.full(n_players, params.base),
            np.full(lg.size, params.base),
            0.0,
            np.zeros(group.size),
            0,
        )
    n_groups = int(group.max()) + 1 if group.size else 0
    gap_line = game_gap[lg]
    y = np.divide(lf, gap_line, out=np.zeros(lg.size), where=gap_line > 0)
    if y_read is not None:  # formula 4: finals as clipped to their set's bound
        y = y_read
    line_group = group[lg]
    sizes, starts = _game_starts(lg, int(lg.max()) + 1)
    played = sizes > 0  # the games' line counts and starts, in line order (lg is sorted)
    sizes, starts = sizes[played], starts[played]
    inv_opponents = 1.0 / (np.repeat(sizes, sizes) - 1)  # per line: 1 / (n - 1)
    k = params.prior_games

    # per line, its game among the played ones: spreading a per-game value over the
    # lines by this index is the same copy as np.repeat(value, sizes), and faster
    spread = np.repeat(np.arange(sizes.size), sizes)

    def game_total(v: FloatArray) -> FloatArray:  # per line: the sum of v over its game
        return np.asarray(np.add.reduceat(v, starts)[spread], dtype=np.float64)

    def opp_mean(x: FloatArray) -> FloatArray:  # per line: the mean x of her opponents
        xv = x[lp]
        return np.asarray((game_total(xv) - xv) * inv_opponents, dtype=np.float64)

    def opp_sum_t(u: FloatArray) -> FloatArray:  # transposed: per line, the others' u/(n-1)
        share = u * inv_opponents
        return np.asarray(game_total(share) - share, dtype=np.float64)

    def normal(u: FloatArray, beta: float) -> FloatArray:  # D^T u for a per-line u
        own = u - beta * opp_sum_t(u) if beta != 0.0 else u
        gx = np.bincount(lp, weights=own, minlength=n_players)
        return np.concatenate([gx, np.bincount(line_group, weights=u, minlength=n_groups)])

    def predict(z: FloatArray, beta: float) -> FloatArray:  # D z per line
        x = z[:n_players]
        t = x[lp] + z[n_players:][line_group]
        return np.asarray(t - beta * opp_mean(x) if beta != 0.0 else t, dtype=np.float64)

    own_w = np.bincount(lp, weights=w_line, minlength=n_players)
    opp_w = np.bincount(lp, weights=opp_sum_t(w_line * inv_opponents), minlength=n_players)
    group_w = np.bincount(line_group, weights=w_line, minlength=n_groups)
    beta, z, iterations, solved_with = 0.0, np.zeros(n_players + n_groups), 0, 0.0
    for _ in range(params.beta_rounds):
        diag = np.concatenate([own_w + beta * beta * opp_w + k, np.maximum(group_w, 1e-300)])

        def matvec(v: FloatArray, beta: float = beta) -> FloatArray:
            out = normal(w_line * predict(v, beta), beta)
            out[:n_players] += k * v[:n_players]
            return out

        z, its = _pcg(matvec, normal(w_line * y, beta), diag, params, start=z)
        iterations += its
        solved_with = beta
        x = z[:n_players]
        o = opp_mean(x)
        residual = y - x[lp] - z[n_players:][line_group]
        denominator = float(np.sum(w_line * o * o))
        new_beta = -float(np.sum(w_line * o * residual)) / denominator if denominator else 0.0
        new_beta = min(max(new_beta, -params.beta_limit), params.beta_limit)
        if abs(new_beta - beta) <= params.beta_tolerance:
            break
        beta = new_beta
    else:  # out of rounds: report the beta the strengths were solved with
        beta = solved_with
    x, level = z[:n_players], z[n_players:]
    performance = params.base + params.scale * (y - level[line_group] + beta * opp_mean(x))
    game_level = level[group]
    return params.base + params.scale * x, performance, beta, game_level, iterations


def _pair_model(
    lines: _Lines,
    params: Params,
    *,
    a: IntArray,
    b: IntArray,
    n: IntArray,
    margin: FloatArray,
) -> tuple[FloatArray, FloatArray, int]:
    """Formulas 1 and 2: strengths from pair results; performance per line."""
    lg, lp, w_line, game_gap = lines.game, lines.player, lines.weight, lines.gap
    n_players = lines.n_players
    v = w_line[a] / (n - 1)
    keep = v > 0
    m = pair_result(margin, game_gap[lg[a]], params)
    pa, pb, v, m_kept = lp[a][keep], lp[b][keep], v[keep], m[keep]

    # strength: (W + K) x_i - sum v x_j = sum v m  with  R = base + x
    diag = np.bincount(pa, weights=v, minlength=n_players) + params.prior_games
    rhs = np.bincount(pa, weights=v * m_kept, minlength=n_players)

    def matvec(x: FloatArray) -> FloatArray:
        return np.asarray(
            diag * x - np.bincount(pa, weights=v * x[pb], minlength=n_players), dtype=np.float64
        )

    x, iterations = _pcg(matvec, rhs, diag, params)
    strength = params.base + x

    # performance per line: mean over the opponents of (their strength + result)
    perf_pair = (strength[lp[b]] + m) / (n - 1)
    performance = np.bincount(a, weights=perf_pair, minlength=lg.size)
    return strength, performance, iterations


def _pcg(
    matvec: object,
    rhs: FloatArray,
    diag: FloatArray,
    params: Params,
    start: FloatArray | None = None,
) -> tuple[FloatArray, int]:
    """Jacobi-preconditioned conjugate gradients from ``start`` (or 0); deterministic."""
    assert callable(matvec)
    x = np.zeros_like(rhs) if start is None else start.copy()
    r = rhs - matvec(x) if start is not None else rhs.copy()
    norm0 = float(np.sqrt(np.sum(rhs * rhs)))
    if norm0 == 0.0:
        return np.zeros_like(rhs), 0
    if float(np.sqrt(np.sum(r * r))) <= params.tolerance * norm0:
        return x, 0
    z = r / diag
    p = z.copy()
    rz = float(np.sum(r * z))
    for k in range(1, params.max_iterations + 1):
        ap = matvec(p)
        alpha = rz / float(np.sum(p * ap))
        x += alpha * p
        r -= alpha * ap
        if float(np.sqrt(np.sum(r * r))) <= params.tolerance * norm0:
            return x, k
        z = r / diag
        rz_new = float(np.sum(r * z))
        p = z + (rz_new / rz) * p
        rz = rz_new
    return x, params.max_iterations


def months_since(age_days: IntArray, last_day: dt.date | None = None) -> IntArray:
    """Per game, the calendar months from the month it was played in to the ranking's.

    With ``last_day`` (the ranking month's last day) exact: a game of this month
    is 0, of last month 1. Without it ``age_days * 12 // 365``, which is 0 for
    the month's own games and at most 11 inside the window, but can stand still
    for a month (28-31 days): the store always passes the calendar.
    """
    age = np.asarray(age_days, dtype=np.int64)
    if last_day is None:
        return np.asarray(np.maximum(age, 0) * 12 // 365, dtype=np.int64)
    played = np.datetime64(last_day, "D") - age.astype("timedelta64[D]")
    month = played.astype("datetime64[M]").astype(np.int64)
    return np.asarray(np.datetime64(last_day, "M").astype(np.int64) - month, dtype=np.int64)


def _bounded_finals(
    lg: IntArray, lf: IntArray, w_age: FloatArray, group: IntArray, params: Params
) -> tuple[FloatArray, FloatArray, FloatArray, IntArray]:
    """Per game G and the bounds (low, high) of a final on its set; the finals clipped.

    A final counts from ``floor(mean - final_cap G)`` up to ``ceil(mean +
    final_cap G)``, the mean final and ``G`` of its set measured on the finals
    so clipped: from the raw finals, clipped and measured again until the
    bounds settle (each pass can only narrow them; a far outlier settles where
    a near one does).
    """
    n_groups = int(group.max()) + 1 if group.size else 0
    line_group = group[lg]
    counted = w_age[lg] > 0
    f_n = np.bincount(line_group[counted], minlength=n_groups)
    clipped = lf
    for _ in range(100):
        gap = _gaps(lg, clipped, w_age, group)
        group_gap = np.zeros(n_groups)
        group_gap[group] = gap
        f_sum = np.bincount(line_group[counted], weights=clipped[counted], minlength=n_groups)
        mean = f_sum / np.maximum(f_n, 1)
        low = np.floor(mean - params.final_cap * group_gap)
        high = np.ceil(mean + params.final_cap * group_gap)
        again = np.clip(lf, low[line_group], high[line_group]).astype(np.int64)
        if np.array_equal(again, clipped):
            break
        clipped = again
    return gap, low[group], high[group], clipped


def _per_unit(bound: FloatArray, gap: FloatArray) -> FloatArray:
    """A bound on the finals in units of G (0 where a set has no G)."""
    return np.divide(bound, gap, out=np.zeros(gap.size), where=gap > 0)


def _positions(numbers: FloatArray) -> IntArray:
    """Ranking positions: 1 + how many numbers are strictly larger (ties share)."""
    ordered = np.sort(numbers)
    return np.asarray(
        1 + numbers.size - np.searchsorted(ordered, numbers, side="right"), dtype=np.int64
    )


def _compute_v4(
    lines: _Lines,
    age: IntArray,
    *,
    months: IntArray,
    late: IntArray,
    previous: FloatArray,
    params: Params,
) -> Fladub:
    """Formula 4: the table model on clipped, lateness-damped finals; the number is
    her strength aged by the months since her newest game, carried on from last
    month while she has no new result, and held within a few places of where it
    would be without the late results entering this month."""
    lg, lp, lf, group, n_players = (
        lines.game,
        lines.player,
        lines.final,
        lines.group,
        lines.n_players,
    )
    n_games = age.size
    w_age = weights(age, params)
    late_factor_game = np.where(w_age > 0, params.late_damping ** late.astype(np.float64), 1.0)
    w_game = w_age * late_factor_game
    sizes = np.bincount(lg, minlength=n_games).astype(np.int64)
    # the games whose late results enter this month: the same month without them is
    # computed first, while nothing else of this one is held (it peaks like this one)
    arriving_game = (w_game > 0) & (late == months) & (late > 0) & (sizes > 0)
    without: tuple[FloatArray, IntArray, npt.NDArray[Any]] | None = None
    if arriving_game.any():
        aged = np.where(arriving_game, params.window_days, age)
        base = _compute_v4(
            lines,
            aged,
            months=months,
            late=np.where(aged >= params.window_days, 0, late),
            previous=previous,
            params=params,
        )
        without = (base.fladub, base.games, base.provisional)
        del base, aged
    w_line = w_game[lg] if lg.size else np.zeros(0)
    counted = w_line > 0
    gap, low_f, high_f, clipped = _bounded_finals(lg, lf, w_age, group, params)
    low, high = _per_unit(low_f, gap), _per_unit(high_f, gap)
    gap_line = gap[lg]
    y = np.divide(clipped, gap_line, out=np.zeros(lg.size), where=gap_line > 0)
    del clipped, gap_line
    fit_lines = _Lines(lg, lp, lf, w_line, group, gap, n_players)
    strength, _, beta, game_level, iterations = _table_model(fit_lines, params, y_read=y)
    del fit_lines
    x = (strength - params.base) / params.scale

    table_x = np.bincount(lg, weights=x[lp], minlength=n_games)
    inv = 1.0 / np.maximum(sizes[lg] - 1, 1)
    opp = (table_x[lg] - x[lp]) * inv  # her opponents' mean x
    level_line = game_level[lg]
    residual = y - level_line - x[lp] + beta * opp
    res_sum = np.bincount(lg, weights=residual, minlength=n_games)
    rho = (res_sum[lg] - residual) * inv  # her opponents' mean residual
    del residual, inv
    performance = np.where(
        counted, params.base + params.scale * (y - level_line + beta * opp - beta * rho), 0.0
    )
    del y, level_line, opp, rho
    # her strength is exactly (K base + sum w p) / (W + K): the weighted mean of her
    # performances shrunk towards base by K virtual games, game by game
    k = params.prior_games
    weight_sum = np.bincount(lp, weights=w_line, minlength=n_players)
    w_her = weight_sum[lp]
    shrunk = (w_her * performance + k * params.base) / np.maximum(w_her + k, 1e-300)
    share = np.divide(w_line, w_her, out=np.zeros(lg.size), where=w_her > 0)
    del w_her
    mean_shrunk = np.bincount(
        lp, weights=np.where(counted, share * shrunk, 0.0), minlength=n_players
    )

    games = np.bincount(lp[counted], minlength=n_players).astype(np.int64)
    ranked = games > 0
    newest = np.full(n_players, params.age_steps, dtype=np.int64)
    np.minimum.at(newest, lp[counted], months[lg][counted])
    steps = float(params.age_steps)
    age_factor = np.maximum(steps - newest, 0.0) / steps
    entering = (late == months)[lg] & counted
    fresh = np.bincount(lp[entering], minlength=n_players) > 0
    carried = ranked & ~fresh & np.isfinite(previous) & (newest >= 1)
    # carried on: each month (steps - k) / (steps - k + 1) of last month's number, so
    # (steps - k) / steps of the number after her last game, to 0 when she leaves
    remaining = np.maximum(steps - newest, 0.0)
    kept = np.divide(remaining, remaining + 1.0)
    number = np.where(
        carried, np.where(np.isfinite(previous), previous, 0.0) * kept, age_factor * mean_shrunk
    )
    number = np.where(ranked, number, 0.0)
    provisional = games < params.min_games

    capped = np.zeros(n_players, dtype=bool)
    if without is not None:
        held = _hold_places(number, ranked, without, params)
        capped = held != number
        number = held

    factor = np.divide(number, mean_shrunk, out=np.zeros(n_players), where=mean_shrunk != 0)
    contribution = np.where(counted, factor[lp] * share * shrunk, 0.0)
    return Fladub(
        fladub=number,
        strength=np.where(ranked, strength, params.base),
        games=games,
        weight_sum=weight_sum,
        provisional=provisional,
        weight=w_line,
        performance=performance,
        contribution=contribution,
        gap=gap,
        level=game_level,
        beta=beta,
        iterations=iterations,
        late_factor=late_factor_game[lg] if lg.size else np.zeros(0),
        months=np.where(ranked, newest, -1),
        factor=factor,
        carried=carried,
        capped=capped,
        low=low,
        high=high,
        table_x=table_x,
        sizes=sizes,
    )


def _hold_places(
    number: FloatArray,
    ranked: npt.NDArray[Any],
    without: tuple[FloatArray, IntArray, npt.NDArray[Any]],
    params: Params,
) -> FloatArray:
    """The numbers with late results in, held so that no ranked (non-provisional)
    player's position moves more than max(late_share of them, late_min_places)
    from where it is without them.

    Each player of the ranking without them stays between the numbers of the
    players ``h`` places above and below her there, so at most ``2 h`` players
    can pass her either way; a player only the late results bring in is put no
    higher than the lowest. ``h`` starts at half the allowance and shrinks if
    ties would still let a move through (at 0 nothing moves).
    """
    base_fladub, base_games, base_provisional = without  # the month without them
    before = base_games > 0
    n_ranked = int(np.count_nonzero(before & ~base_provisional))
    allowed = max(int(np.floor(params.late_share * n_ranked)), params.late_min_places)
    idx = np.flatnonzero(before)
    if idx.size == 0:
        return number
    b = base_fladub[idx]
    order = np.argsort(-b, kind="stable")
    sorted_b = b[order]
    slot = np.empty(idx.size, dtype=np.int64)
    slot[order] = np.arange(idx.size)
    watched = ~base_provisional[idx]
    pos_before = _positions(b)
    newcomers = ranked & ~before
    held = number
    for h in range(allowed // 2, -1, -1):
        held = number.copy()
        top = sorted_b[np.maximum(slot - h, 0)]
        bottom = sorted_b[np.minimum(slot + h, idx.size - 1)]
        held[idx] = np.clip(number[idx], bottom, top)
        held[newcomers] = np.minimum(number[newcomers], sorted_b[-1])
        now = np.flatnonzero(ranked)
        pos_now = _positions(held[now])[np.searchsorted(now, idx)]
        if np.all(np.abs(pos_now - pos_before)[watched] <= allowed):
            break
    return held
