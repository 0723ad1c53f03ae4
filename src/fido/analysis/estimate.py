"""What each legal move is worth from one seat's view: sampled worlds, shared dice.

The input is a :class:`~fido.engine.views.SeatView` and nothing else, exactly what
the ``search`` bot gets (:mod:`fido.bots.search`), so the judgement uses only
what the player could know when she moved. A move's value is the seat's
*margin* (:func:`fido.bots.solver.margin`: her final, her team's in team
games, minus the mean of the others'), the quantity the search bot
maximises; the seat's own expected final is reported beside it.

How a value is estimated:

* **Worlds.** The hidden tiles are dealt by :mod:`fido.bots.sampling`,
  consistently with everything the view shows (voids, the opening double).
* **Common random numbers.** Every candidate move is played in the same
  worlds, and each world is played on with the same dice for every move.
  The loss of a move against the best is the mean of the
  per-world differences, so the luck of the deal cancels and the confidence
  interval (95 %, normal, over worlds) is that of the difference itself.
* **Strong continuations.** The hands are played on by the ``champion``'s
  rollout policy (``policy="smart"``, :func:`fido.engine.rollout.smart_outcome`:
  the expert's main FIDO terms, a random move 10 % of the time), so a move
  whose worth shows only against good play (a joker kept, a double shed in
  time) is valued as good players would realise it. ``policy="greedy"`` is
  the search bot's fast playout (the most points now, 80 % of the time),
  which the analysis used before, kept so that old figures can be rerun.
* **Successive halving.** Every legal move gets the first eighth of the
  worlds; the better half of the moves the next eighth, the better half of
  those the next quarter, and the best two the last half. The move she
  played stays to the end whatever its rank, so her loss is measured on all
  the worlds; a dropped move keeps the estimate (and the wider interval) of
  the worlds it saw. The budget goes to the close calls that matter.
* **No winner's curse.** The best of many noisy estimates looks better than
  it is; a loss measured against it on the same worlds would be too large.
  Losses are cross-fitted: on odd worlds a move is compared with the best of
  the even worlds and the other way round (see :func:`_summarise`).
* **Exact endgames.** When the view leaves nothing hidden (two sides, the
  stock empty: the one other hand is the unseen tiles) every move is solved
  exactly by :func:`fido.bots.solver.solve`; the losses are exact (interval
  of width 0).
"""

from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass

from fido.bots.sampling import hidden_deal
from fido.bots.solver import SolveBudgetExceeded, margin, solve
from fido.engine.game import Game
from fido.engine.moves import Move, Placement
from fido.engine.results import Outcome
from fido.engine.rollout import playout_outcome, smart_outcome
from fido.engine.views import SeatView
from fido.errors import ArgumentError

__all__ = [
    "EXPLORE",
    "FINALISTS",
    "GREEDY",
    "POLICIES",
    "SOLVER_NODES",
    "Z95",
    "MoveValue",
    "PositionEval",
    "check_policy",
    "decision_rng",
    "evaluate",
    "play_on",
    "side_final",
]

Z95 = 1.959963984540054
GREEDY = 0.8  # the search bot's playout policy ("greedy")
EXPLORE = 0.1  # the champion's rollouts ("smart"): a random move this often
POLICIES = ("smart", "greedy")  # continuation policies, the default first
MIN_STAGED = 96  # fewer worlds than this: every move sees all of them
FINALISTS = 2  # moves in the last stage, besides the one she played
SOLVER_NODES = 200_000  # exact endgames: positions searched at most per move


@dataclass(frozen=True, slots=True)
class MoveValue:
    """One legal move: its expected margin and final, and its loss against the best."""

    move: Move
    expected: float  # mean margin over the worlds it was played in
    ci: float  # 95 % half-width of ``expected``
    final: float  # the seat's (side's) mean final
    loss: float  # best's margin minus this move's, paired over shared worlds (0 for the best)
    loss_ci: float  # 95 % half-width of ``loss`` (0 when exact)
    worlds: int  # how many worlds it was played in

    def to_dict(self) -> dict[str, object]:
        return {
            "move": self.move.text(),
            "expected": round(self.expected, 3),
            "ci": round(self.ci, 3),
            "final": round(self.final, 3),
            "loss": round(self.loss, 3),
            "loss_ci": round(self.loss_ci, 3),
            "worlds": self.worlds,
        }


@dataclass(frozen=True, slots=True)
class PositionEval:
    """Every legal move of one decision, best first."""

    seat: int
    moves: tuple[MoveValue, ...]  # best first
    exact: bool
    worlds: int  # worlds sampled in all (1 when exact)

    @property
    def best(self) -> MoveValue:
        return self.moves[0]

    def of(self, move: Move) -> MoveValue:
        for m in self.moves:
            if m.move == move:
                return m
        raise ArgumentError(f"{move.text()} is not a legal move of this position")


def decision_rng(seed: int, number: int) -> random.Random:
    """The generator of one decision: from the run's seed and the move's number only,
    so a decision gets the same worlds in any process, in any order."""
    digest = hashlib.sha256(f"fido-analysis:{seed}:{number}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def check_policy(policy: object) -> str:
    """The continuation policy's name, refused with one clear line when unknown."""
    if policy not in POLICIES:
        raise ArgumentError(
            f"the continuation policy is {' or '.join(POLICIES)}, not {policy!r}"
        )
    return str(policy)


def play_on(game: Game, dice: int, policy: str) -> Outcome:
    """The outcome of playing ``game`` to its end with the continuation policy and these
    dice; ``game`` is not changed (the calibration bench plays the true hands on with it
    too)."""
    if policy == "smart":
        return smart_outcome(game, random.Random(dice), EXPLORE)
    return playout_outcome(game, random.Random(dice), GREEDY)


def side_final(outcome: Outcome, seat: int) -> int:
    """The seat's final, her team's in team games."""
    if outcome.teams is not None:
        return next(t.final for t in outcome.teams if seat in t.seats)
    return outcome.seats[seat].final


def _mean_ci(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    mean = math.fsum(xs) / n
    if n < 2:
        return mean, math.inf
    var = math.fsum((x - mean) ** 2 for x in xs) / (n - 1)
    return mean, Z95 * math.sqrt(var / n)


def evaluate(
    view: SeatView,
    *,
    samples: int = 400,
    rng: random.Random,
    continuations: int = 1,
    keep: Move | None = None,
    policy: str = "smart",
) -> PositionEval:
    """Value every legal move of ``view`` (its seat must be to move, with 2+ moves).

    ``samples`` worlds for the moves in contention, ``continuations`` rollouts
    per world and move (the same dice for every move) played by ``policy``
    (:data:`POLICIES`); ``keep`` (the move she played) is sampled to the end
    whatever its rank.
    """
    check_policy(policy)
    seat = view.seat
    moves = list(view.legal_moves)
    if seat is None or not view.is_my_turn or len(moves) < 2:
        raise ArgumentError("a decision to analyse is a seat to move with two or more moves")
    if samples < 2 or continuations < 1:
        raise ArgumentError("samples is 2 or more worlds, continuations 1 or more")
    deal = hidden_deal(view)
    if _settled(view):
        exact = _exact(deal.sample(rng), moves, seat)
        if exact is not None:
            return exact
    n = len(moves)
    margins: list[list[float]] = [[] for _ in range(n)]  # per move, per world it saw
    finals: list[list[float]] = [[] for _ in range(n)]
    alive = list(range(n))
    kept = moves.index(keep) if keep in moves else None
    world_no = 0
    stages = _stages(samples)
    for stage, stage_worlds in enumerate(stages):
        for _ in range(stage_worlds):
            world = deal.sample(rng)
            dice = [rng.getrandbits(64) for _ in range(continuations)]
            world_no += 1
            for i in alive:
                mg = fn = 0.0
                g = world.copy()  # play_on leaves it as it is: one copy serves every die
                g.push(moves[i])
                for d in dice:
                    out = play_on(g, d, policy)
                    mg += margin(out, seat)
                    fn += side_final(out, seat)
                margins[i].append(mg / continuations)
                finals[i].append(fn / continuations)
        if stage + 1 < len(stages):
            size = FINALISTS if stage + 2 == len(stages) else math.ceil(len(alive) / 2)
            alive = _survivors(margins, alive, size, kept)
    return _summarise(seat, moves, margins, finals, world_no)


def _stages(samples: int) -> list[int]:
    """Worlds per stage: an eighth, an eighth, a quarter, a half (one stage when few)."""
    if samples < MIN_STAGED:
        return [samples]
    first = second = samples // 8
    third = samples // 4
    return [first, second, third, samples - first - second - third]


def _survivors(
    margins: list[list[float]], alive: list[int], size: int, keep: int | None
) -> list[int]:
    """The ``size`` best of ``alive`` so far, and ``keep`` (the move she played).

    Ranked on the even worlds only: a dropped move's loss is then measured on
    the odd ones, which the ranking never saw, so a move dropped on bad luck
    is not reported with that luck.
    """
    ranked = sorted(alive, key=lambda i: math.fsum(margins[i][0::2]), reverse=True)
    out = ranked[: max(2, size)]
    if keep is not None and keep not in out:
        out.append(keep)
    return out


def _summarise(
    seat: int,
    moves: list[Move],
    margins: list[list[float]],
    finals: list[list[float]],
    worlds: int,
) -> PositionEval:
    """Means, the best move, and every move's loss, cross-fitted.

    The best of many noisy means is too good by luck (the winner's curse), and
    a loss measured against it on the same worlds too large. So the worlds are
    split by parity: on the odd worlds a move is compared with the best of
    the even worlds, and on the even worlds with the best of the odd ones. The
    reported best is the best on all worlds; its own loss is 0, and a move
    the cross-check finds as good as the best gets 0 rather than a negative loss.
    """
    n = len(moves)
    full = max(len(m) for m in margins)
    complete = [i for i in range(n) if len(margins[i]) == full]

    def best_on(parity: int) -> int:
        return max(complete, key=lambda i: math.fsum(margins[i][parity::2]))

    best = max(complete, key=lambda i: math.fsum(margins[i]))
    rival = (best_on(1), best_on(0))  # per world parity: the best of the other half
    values = []
    for i in range(n):
        k = len(margins[i])
        mean, half = _mean_ci(margins[i])
        if i == best:
            loss, loss_half = 0.0, 0.0
        else:
            # a dropped move saw the first worlds only, and only the odd ones count
            # (the drops were decided on the even ones)
            ws = range(k) if k == full else range(1, k, 2)
            diffs = [margins[rival[w % 2]][w] - margins[i][w] for w in ws]
            loss, loss_half = _mean_ci(diffs)
            loss = max(0.0, loss)
        values.append(
            MoveValue(moves[i], mean, half, math.fsum(finals[i]) / k, loss, loss_half, k)
        )
    values.sort(key=lambda v: (v.move != moves[best], v.loss, -v.expected))
    return PositionEval(seat, tuple(values), exact=False, worlds=worlds)


# ---------------------------------------------------------------- exact endgames


def _settled(view: SeatView) -> bool:
    """Nothing is hidden from the seat: the stock is empty and one other hand holds tiles,
    and two sides play (so the solver's margin is the game's own value)."""
    if view.stock_count:
        return False
    others = [s for s, c in enumerate(view.hand_counts) if s != view.seat and c]
    teams = view.rules.teams(view.players)
    sides = len(teams) if teams else view.players
    return len(others) == 1 and sides == 2


def _exact(world: Game, moves: list[Move], seat: int) -> PositionEval | None:
    """Every move solved exactly in the one world the view allows (None: too big)."""
    values: list[tuple[Move, float, float]] = []
    try:
        for m in moves:
            g = world.copy()
            g.push(m)
            value = margin(g.outcome, seat) if g.outcome else solve(g, seat, SOLVER_NODES).value
            values.append((m, value, float(side_final(_principal_line(g, seat), seat))))
    except SolveBudgetExceeded:
        return None
    top = max(v for _m, v, _f in values)
    out = [MoveValue(m, v, 0.0, f, top - v, 0.0, 1) for m, v, f in values]
    out.sort(key=lambda v: (v.loss, _heavy_first(v.move)))
    return PositionEval(seat, tuple(out), exact=True, worlds=1)


def _principal_line(game: Game, seat: int) -> Outcome:
    """The outcome of perfect play from ``game`` (to report the final beside the margin)."""
    g = game.copy()
    players = len(g.hand_counts())
    teams = g.rules.teams(players)
    side = set(next(t for t in teams if seat in t)) if teams else {seat}
    while g.outcome is None:
        scored = []
        for m in g.legal_moves():
            g.push(m)
            v = margin(g.outcome, seat) if g.outcome else solve(g, seat, SOLVER_NODES).value
            g.pop()
            scored.append((v, m))
        pick = max if g.turn in side else min
        g.push(pick(scored, key=lambda vm: vm[0])[1])
    return g.outcome


def _heavy_first(move: Move) -> int:
    return -move.tile.pips if isinstance(move, Placement) else 0
