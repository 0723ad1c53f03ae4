"""The analysis of a game record: every decision of the chosen seats, and summaries.

A *decision* is a turn of an analysed seat with two or more legal moves; a
turn with one legal move (a forced draw, a pass, a single placement) has
nothing to judge. Each decision is judged from ``game.view(seat)`` at that
moment (:func:`fido.analysis.estimate.evaluate`), with a generator keyed by
the run's seed and the move's number, so a decision's result does not
depend on which process ran it or in which order.

The result is JSON-able (:meth:`GameAnalysis.to_dict`, documented in
docs/analysis.md); :func:`analyse_record` is the one call a worker process
needs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from fido.analysis.estimate import POLICIES, PositionEval, decision_rng, evaluate
from fido.engine.game import Game
from fido.engine.moves import Move
from fido.engine.rules import Ruleset
from fido.engine.views import SeatView
from fido.errors import ArgumentError, ConfigurationError
from fido.record import GameRecord

__all__ = [
    "FORMAT",
    "MAX_SAMPLES",
    "VERSION",
    "Decision",
    "DecisionJob",
    "GameAnalysis",
    "SeatSummary",
    "analyse_decision",
    "analyse_game",
    "analyse_record",
    "assemble",
    "check_settings",
    "decision_jobs",
    "default_samples",
]

FORMAT = "fido-analysis"
VERSION = 1
MAX_SAMPLES = 100_000  # worlds per decision; far past any use, refused beyond
NEAR = 1.0  # a decision within this many points of the best counts as a good one


def default_samples(rules: Ruleset) -> int:
    """Worlds per decision when none are asked for: a whole double-12 game for one seat
    in 15 to 20 s on two cores with the champion's rollouts, double-18 with 6 players
    in about 75 s (docs/performance.md, at load 2 to 3; the bounds are 30 s and 2 minutes)."""
    return 1000 if rules.max_pips <= 12 else 600


@dataclass(frozen=True, slots=True)
class DecisionJob:
    """One decision to judge: what a worker needs (the view only, never the game)."""

    number: int  # the move's number in the record, from 1
    view: SeatView
    played: Move
    samples: int
    seed: int
    continuations: int = 1
    game: int = 0  # which record of a batch
    policy: str = "smart"  # who plays the continuations (fido.analysis.estimate.POLICIES)


@dataclass(frozen=True, slots=True)
class Decision:
    number: int
    seat: int
    played: Move
    eval: PositionEval
    game: int = 0

    @property
    def loss(self) -> float:
        return self.eval.of(self.played).loss

    @property
    def loss_ci(self) -> float:
        return self.eval.of(self.played).loss_ci

    def to_dict(self) -> dict[str, Any]:
        mine = self.eval.of(self.played)
        return {
            "number": self.number,
            "seat": self.seat,
            "played": self.played.text(),
            "best": self.eval.best.move.text(),
            "loss": round(mine.loss, 3),
            "loss_ci": round(mine.loss_ci, 3),
            "exact": self.eval.exact,
            "worlds": self.eval.worlds,
            "moves": [m.to_dict() for m in self.eval.moves],
        }


@dataclass(frozen=True, slots=True)
class SeatSummary:
    seat: int
    player: str
    decisions: int
    lost: float  # points lost in all
    lost_ci: float  # its 95 % half-width (decisions are independent estimates)
    within_one: float  # share of decisions within NEAR points of the best (nan: none)
    mistakes: tuple[int, ...]  # move numbers, biggest loss first

    @property
    def per_decision(self) -> float:
        return self.lost / self.decisions if self.decisions else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "player": self.player,
            "decisions": self.decisions,
            "lost": round(self.lost, 3),
            "lost_ci": round(self.lost_ci, 3),
            "lost_per_decision": round(self.per_decision, 3),
            "within_one": None if math.isnan(self.within_one) else round(self.within_one, 4),
            "mistakes": list(self.mistakes),
        }


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    ruleset: str
    players: tuple[str, ...]
    seats: tuple[int, ...]
    samples: int
    seed: int
    decisions: tuple[Decision, ...]  # in move order
    policy: str = "smart"  # the continuations' policy

    def summary(self, seat: int) -> SeatSummary:
        mine = [d for d in self.decisions if d.seat == seat]
        lost = math.fsum(d.loss for d in mine)
        half = math.sqrt(math.fsum(d.loss_ci**2 for d in mine))
        near = sum(1 for d in mine if d.loss < NEAR)
        order = sorted(mine, key=lambda d: (-d.loss, d.number))
        return SeatSummary(
            seat,
            self.players[seat],
            len(mine),
            lost,
            half,
            near / len(mine) if mine else math.nan,
            tuple(d.number for d in order if d.loss > 0),
        )

    @property
    def nothing_to_analyse(self) -> bool:
        return not self.decisions

    @property
    def message(self) -> str:
        if self.decisions:
            return f"{len(self.decisions)} decisions analysed"
        return (
            "nothing to analyse: the chosen seats never had more than one legal move"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "ruleset": self.ruleset,
            "players": list(self.players),
            "seats": list(self.seats),
            "samples": self.samples,
            "seed": self.seed,
            "value": "margin",
            "policy": self.policy,
            "nothing_to_analyse": self.nothing_to_analyse,
            "message": self.message,
            "summaries": [self.summary(s).to_dict() for s in self.seats],
            "decisions": [d.to_dict() for d in self.decisions],
        }


def check_settings(
    record: GameRecord, seats: Sequence[int] | None, samples: int, policy: str = "smart"
) -> list[int]:
    """The seats to analyse (None: all), refused with one clear line when out of range
    (and an unknown continuation policy with them, before any work)."""
    players = len(record.players)
    if policy not in POLICIES:
        raise ConfigurationError(
            f"the continuation policy is {' or '.join(POLICIES)}, not {policy!r}"
        )
    if isinstance(samples, bool) or not isinstance(samples, int) or not 2 <= samples <= MAX_SAMPLES:
        raise ConfigurationError(f"samples is 2 to {MAX_SAMPLES:,} worlds, not {samples!r}")
    if seats is None:
        return list(range(players))
    out: list[int] = []
    for s in seats:
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < players:
            raise ConfigurationError(
                f"seat {s!r} is not in this game: its seats are 0 to {players - 1}"
            )
        if s not in out:
            out.append(s)
    if not out:
        raise ConfigurationError("give at least one seat to analyse")
    return out


def decision_jobs(
    record: GameRecord,
    seats: Sequence[int],
    samples: int,
    seed: int,
    continuations: int = 1,
    *,
    game: int = 0,
    policy: str = "smart",
) -> list[DecisionJob]:
    """Replay (and so verify) the record; every decision of ``seats`` as a job."""
    wanted = set(seats)
    jobs: list[DecisionJob] = []

    def look(g: Game) -> SeatView | None:
        """The view of the seat to move, when she is analysed and has a choice."""
        if g.is_over or g.turn not in wanted or len(g.legal_moves()) < 2:
            return None
        return g.view(g.turn)

    pending = look(record.new_game())
    for number, turn, g in record.steps():  # g: after move ``number``, before the next
        if pending is not None:
            jobs.append(
                DecisionJob(
                    number, pending, turn.move, samples, seed, continuations, game, policy
                )
            )
        pending = look(g)
    return jobs


def analyse_decision(job: DecisionJob) -> Decision:
    """Judge one decision (picklable in and out: the unit of work of a pool or a cluster)."""
    seat = job.view.seat
    assert seat is not None
    ev = evaluate(
        job.view,
        samples=job.samples,
        rng=decision_rng(job.seed, job.number),
        continuations=job.continuations,
        keep=job.played,
        policy=job.policy,
    )
    return Decision(job.number, seat, job.played, ev, job.game)


def analyse_game(
    record: GameRecord,
    seats: Sequence[int] | None = None,
    *,
    samples: int = 400,
    seed: int = 0,
    run: Callable[[list[DecisionJob]], Iterable[Decision]] | None = None,
    policy: str = "smart",
) -> GameAnalysis:
    """Analyse every decision of ``seats`` (None: every seat) in ``record``.

    ``run`` maps the jobs to decisions (in any order); by default one by one
    in this process. :mod:`fido.analysis.parallel` gives pools and Ray.
    ``policy`` plays the continuations (``"greedy"``: the figures before the
    champion's rollouts).
    """
    chosen = check_settings(record, seats, samples, policy)
    jobs = decision_jobs(record, chosen, samples, seed, policy=policy)
    done = map(analyse_decision, jobs) if run is None else run(jobs)
    return assemble(record, chosen, samples, seed, done, policy=policy)


def assemble(
    record: GameRecord,
    seats: Sequence[int],
    samples: int,
    seed: int,
    decisions: Iterable[Decision],
    *,
    policy: str = "smart",
) -> GameAnalysis:
    """The analysis of ``record`` from its judged decisions (in any order)."""
    ordered = sorted(decisions, key=lambda d: d.number)
    return GameAnalysis(
        record.ruleset.text(), record.players, tuple(seats), samples, seed, tuple(ordered),
        policy,
    )


def analyse_record(
    record_json: str, seats: list[int], samples: int, seed: int, policy: str = "smart"
) -> dict[str, Any]:
    """The analysis of a record's JSON as JSON-able data: what a server worker runs.

    Raises :class:`~fido.errors.RecordError` for a malformed or illegal record
    and :class:`~fido.errors.ConfigurationError` for seats or samples out of
    range (both are ``ValueError``). Runs in this process, one decision after
    another.
    """
    if not isinstance(record_json, str):
        raise ArgumentError("the record is JSON text")
    record = GameRecord.from_json(record_json)
    return analyse_game(record, seats, samples=samples, seed=seed, policy=policy).to_dict()
