"""Truncated rollouts with a fitted leaf value: an experiment of issue 27, not a level.

    .venv/bin/python bench/truncated.py fit --games 3000 --set 12 --players 4
    .venv/bin/python bench/duels.py --register trunc=truncated:TruncatedBot \\
        --duel "12:4,trunc:sims=2000,time=0,rounds=2,B=search:sims=2000,time=0" ...

A full rollout's margin is mostly the luck of the rest of the hand: on
double-12 with four, the paired difference of two candidates over the same
worlds spreads as widely as one rollout's value (standard deviation 24 points
against 25, explore 0 or 0.1 alike), while after one round of plies it
spreads 7 and after two 10, with the same mean size of difference (about 4.5
points). :class:`TruncatedBot` is the champion whose rollouts stop after
``rounds`` rounds and value the table by each seat's points so far plus a
linear guess of the rest of her hand (pips, tiles and doubles held, each
alone and times the share of tiles still in hands, and the seats until her
turn), fitted by :func:`fit` on the champion's own rollout policy. The fit
explains little (R^2 0.035 on double-12 with four, 0.011 on double-18 with
six): the rest of a hand is luck, which is why the variance falls. It did not
play better than ``search`` (docs/bots.md, "champion").
"""

from __future__ import annotations

import argparse
import random

import numpy as np

from fido.bots.champion import ChampionBot
from fido.bots.search import margin
from fido.engine.game import Game
from fido.engine.movegen import generate
from fido.engine.rollout import smart_now

# fitted by `fit` (3,000 games of double-12 with four, 1,000 of double-18 with six, seed 0..)
WEIGHTS = {
    (12, 4): (-0.284, -2.936, -5.462, 0.253, 9.809, 3.117, -2.848, 3.476),
    (18, 6): (-0.177, -3.132, -4.468, 0.15, 13.55, 2.642, -1.685, 2.498),
}


def features(g: Game, seat: int, total: int) -> list[float]:
    """Pips, tiles and doubles held, each also times the share of tiles in hands; seats to go."""
    hand = g.hand(seat)
    pips = sum(t.pips for t in hand)
    n = len(hand)
    doubles = sum(t.is_double for t in hand)
    until = (seat - g.turn) % g.players
    phase = sum(g.hand_counts()) / total
    return [pips, n, doubles, pips * phase, n * phase, doubles * phase, until, until * phase]


def _smart_steps(g: Game, rng: random.Random, plies: int, explore: float) -> None:
    partner = [-1] * g.players
    spare = 1.0 / max(1, g.players - 1)
    done = 0
    while g.outcome is None and done < plies:
        moves = generate(g)
        move = moves[0]
        if len(moves) > 1:
            if explore and rng.random() < explore:
                move = moves[int(rng.random() * len(moves))]
            else:
                move = smart_now(g, moves, partner, spare)
        g.apply_legal(move)
        done += 1


class TruncatedBot(ChampionBot):
    """The champion with rollouts of ``rounds`` rounds and a fitted leaf value."""

    def __init__(
        self,
        sims: int = 2000,
        time: float = 0.9,
        *,
        rounds: int = 2,
        width: int = 4,
        doubt: float = 1.645,
        explore: float = 0.0,
    ) -> None:
        super().__init__(sims, time, width=width, doubt=doubt, explore=explore)
        self.rounds = rounds
        self.name = f"trunc:sims={sims},time={time},rounds={rounds}"

    def _evaluate(self, g: Game, seat: int, dice: int, solve_at: int) -> tuple[float, int]:
        _smart_steps(g, random.Random(dice), self.rounds * g.players, self.explore)
        if g.outcome is not None:
            return margin(g.outcome, seat), 1
        w = WEIGHTS.get((g.rules.max_pips, g.players), WEIGHTS[(12, 4)])
        total = max(1, sum(h.bit_count() for h in g.initial_hands))
        v = [g.scores[s] + float(np.dot(w, features(g, s, total))) for s in range(g.players)]
        return v[seat] - (sum(v) - v[seat]) / (g.players - 1), 1


def fit(size: int, players: int, games: int) -> None:
    """Least squares of each seat's rest-of-hand margin on the feature differences."""
    xs: list[list[float]] = []
    ys: list[float] = []
    for seed in range(games):
        g = Game.new(f"fido set={size}", players, seed=seed)
        rng = random.Random(seed)
        total = sum(g.hand_counts())
        snaps = []
        while g.outcome is None:
            if rng.random() < 0.2:
                snaps.append((list(g.scores), [features(g, s, total) for s in range(players)]))
            _smart_steps(g, rng, 1, 0.1)
        assert g.outcome is not None
        final = [r.final for r in g.outcome.seats]
        for scores, feats in snaps:
            rest = np.array([final[s] - scores[s] for s in range(players)], float)
            f = np.array(feats, float)
            for s in range(players):
                others = [t for t in range(players) if t != s]
                xs.append(list(f[s] - f[others].mean(0)))
                ys.append(float(rest[s] - rest[others].mean()))
    x, y = np.array(xs), np.array(ys)
    w, *_ = np.linalg.lstsq(x, y, rcond=None)
    r2 = 1 - float(((y - x @ w) ** 2).mean() / y.var())
    print(f"{len(y)} samples, R^2 {r2:.3f}, weights {np.round(w, 3).tolist()}")


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("what", choices=["fit"])
    ap.add_argument("--set", type=int, default=12)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=3000)
    args = ap.parse_args()
    fit(args.set, args.players, args.games)


if __name__ == "__main__":
    main()
