"""FLADUB, fido's world-ranking number: the formula on plain arrays.

The input is one month's view of the results: per game its age in days at the
month's cutoff, per line (one player in one game) its game, player and final
(points - pips). Lines of a game are contiguous. With the parameters of
:class:`Params` (``docs/ranking.md`` has the formula and a worked example):

1. **Weight.** A game ``a`` days old weighs ``w = 1 - a / 365``; from 365 days
   on it weighs nothing and is left out. A result sent late has the weight of
   the day it was played.
2. **Pair results.** In a game of ``n`` players each player meets each of the
   ``n - 1`` others: ``m = 400 * clip((f_i - f_j) / G, -3, 3)``, her margin
   over the other in units of ``G``, the mean gap between two finals in the
   window's games on the same set and divisor (so a margin on double-18 and
   one on double-6 weigh alike). With ``margin_cap = 0`` (the version-1
   formula) ``m`` is only +400, 0 or -400 for a better, equal or worse final.
3. **Strength.** The strengths ``R`` solve, for every player ``i``,
   ``R_i = (sum of v * (R_j + m_ij) + K * 1500) / (sum of v + K)`` over her
   pairs, with pair weight ``v = w / (n - 1)`` and ``K = 2`` virtual draws
   against a 1500 player: a weighted mean of "opponent's strength + result",
   pulled towards 1500 while she has few games. A symmetric positive definite
   linear system; solved by preconditioned conjugate gradients.
4. **Performance** of a player in a game: the mean of ``R_j + m_ij`` over her
   opponents ``j`` in it.
5. **FLADUB** = sum over her counted games of ``w * performance``, divided by
   ``max(sum of w, 6)``. So each game *contributes* ``w * performance /
   max(sum of w, 6)`` and the contributions add up to the FLADUB: a weighted
   mean of her performances while her games weigh 6 or more together, and a
   number that shrinks month by month as they age below that, down to nothing a
   year after her last game. A game's own contribution shrinks as it ages.
   Players with fewer than 10 counted games are listed as provisional.

Everything is numpy on arrays in a fixed order, so the same input gives the
same bits (sums use numpy's pairwise summation and ``bincount``, not BLAS).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["Fladub", "Params", "compute", "pair_result", "win_probability"]

FloatArray = npt.NDArray[Any]  # float64 throughout
IntArray = npt.NDArray[Any]  # int64 throughout


@dataclass(frozen=True)
class Params:
    window_days: int = 365  # a game this old or older counts for nothing
    scale: float = 400.0  # a won pair is worth the opponent's strength + scale
    margin_cap: float = 3.0  # pair result: scale * clip(margin / gap, +-cap); 0: win/draw/loss
    base: float = 1500.0  # the strength of the virtual opponent (and of a newcomer)
    prior_games: float = 2.0  # K: virtual draws against `base`
    min_weight: float = 6.0  # the divisor is at least this: fewer weighted games shrink FLADUB
    min_games: int = 10  # fewer counted games: provisional
    tolerance: float = 1e-10  # relative residual at which the solver stops
    max_iterations: int = 500

    def to_dict(self) -> dict[str, float | int]:
        return asdict(self)


@dataclass(frozen=True)
class Fladub:
    """The month's numbers.

    Per player (index 0..P-1): ``fladub``, ``strength``, ``games`` (counted),
    ``weight_sum`` (their weights), ``provisional``. Per line: ``weight`` (its
    game's), ``performance``, ``contribution`` (0 where the game does not count).
    Per game: ``gap``, the ``G`` its pair results were measured in.
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
    iterations: int


def weights(age_days: IntArray, params: Params) -> FloatArray:
    """A game's weight from its age in days: 1 - age / window, 0 outside [0, window)."""
    age = np.asarray(age_days, dtype=np.float64)
    w = 1.0 - age / params.window_days
    w[(age < 0) | (age >= params.window_days)] = 0.0
    return w


def win_probability(r_i: FloatArray | float, r_j: FloatArray | float, params: Params) -> FloatArray:
    """Predicted chance that a player of strength ``r_i`` finishes ahead of one of ``r_j``.

    A logistic curve with the linear model's slope at equal strengths: a
    difference of ``scale`` is worth half a pair result.
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


def _pairs(line_game: IntArray, n_games: int) -> tuple[IntArray, IntArray, IntArray]:
    """Every ordered pair of lines in the same game: (line a, line b, size of the game)."""
    sizes = np.bincount(line_game, minlength=n_games)
    start = np.zeros(n_games, dtype=np.int64)
    np.cumsum(sizes[:-1], out=start[1:])
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
) -> Fladub:
    """FLADUB for players 0..n_players-1 from games (``age_days`` per game) and lines.

    ``line_game`` must be sorted (a game's lines contiguous) and every game
    must have at least two lines. ``game_group`` numbers each game's set and
    divisor (0, 1, ...; default: all one group): ``G`` is measured per group.
    """
    params = params or Params()
    age = np.asarray(age_days, dtype=np.int64)
    lg = np.asarray(line_game, dtype=np.int64)
    lp = np.asarray(line_player, dtype=np.int64)
    lf = np.asarray(line_final, dtype=np.int64)
    if lg.size and np.any(np.diff(lg) < 0):
        raise ValueError("the lines must be sorted by game")
    w_game = weights(age, params)
    w_line = w_game[lg] if lg.size else np.zeros(0)
    a, b, n = _pairs(lg, age.size)
    margin = (lf[a] - lf[b]).astype(np.float64)
    v = w_line[a] / (n - 1)
    keep = v > 0
    game_gap = np.zeros(age.size)
    if params.margin_cap > 0:  # G per group: the mean |margin| over its counted pairs
        group = (
            np.zeros(age.size, dtype=np.int64)
            if game_group is None
            else np.asarray(game_group, dtype=np.int64)
        )
        groups = int(group.max()) + 1 if group.size else 0
        pair_group = group[lg[a]][keep]
        gap_sum = np.bincount(pair_group, weights=np.abs(margin[keep]), minlength=groups)
        gap_n = np.bincount(pair_group, minlength=groups)
        game_gap = (gap_sum / np.maximum(gap_n, 1))[group]
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
        gap=game_gap,
        iterations=iterations,
    )


def _pcg(
    matvec: object, rhs: FloatArray, diag: FloatArray, params: Params
) -> tuple[FloatArray, int]:
    """Jacobi-preconditioned conjugate gradients from x = 0; deterministic."""
    assert callable(matvec)
    x = np.zeros_like(rhs)
    r = rhs.copy()
    norm0 = float(np.sqrt(np.sum(rhs * rhs)))
    if norm0 == 0.0:
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
