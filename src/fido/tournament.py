"""Tournaments between bots: duplicate deals, seeds, all cores or a Ray cluster.

Every deal is played once per seating rotation: with P seats and the bot list
``bots`` (one spec per seat), rotation r seats ``bots[i]`` at seat
``(i + r) % P``, so every bot plays every seat's cards and the luck of the
deal cancels. A deal with all its rotations is the unit of work and of the
statistics: its hands are correlated, so confidence intervals are computed
over per-deal means (normal approximation, 95 %).

Per bot spec (a spec in several seats is one entry): mean final, win rate
(first place, shared or not), mean place, and the mean *margin*: the seat's
score minus the mean score of the other seats, where a seat's score is its
team's final in team games and its own final otherwise.

The deals are a function of the public seed (``Game.new(seed=...)``); the
bots' generators are not: they come from a secret drawn once per tournament
(:func:`fido.bots.runner.bot_rng`), since a generator derived from the seed
lets a bot read the seed off its state and rebuild every hand. Given the same
``bot_secret`` (the result keeps it, to be revealed after the run), one worker,
many workers and a Ray cluster give the same numbers (time-limited bots aside:
give ``search`` ``time=0`` for exact reproducibility).
"""

from __future__ import annotations

import csv
import statistics
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from fido.bots.registry import make_bot
from fido.bots.runner import bot_rng, new_secret, play_out
from fido.engine.game import Game
from fido.engine.results import Outcome
from fido.engine.rules import Ruleset
from fido.errors import ConfigurationError
from fido.parallel import check_ray_address, run_jobs
from fido.record import GameRecord

__all__ = [
    "BotStats",
    "Estimate",
    "HandResult",
    "TournamentResult",
    "check_tournament",
    "compare",
    "hand_difference",
    "play_deal",
    "run_tournament",
]

Z95 = statistics.NormalDist().inv_cdf(0.975)
MAX_DEALS = 1_000_000  # the jobs are listed up front; a million deals is days of play


@dataclass(frozen=True, slots=True)
class Estimate:
    """A mean with its 95 % confidence half-width over ``n`` independent units."""

    mean: float
    half_width: float
    n: int

    @classmethod
    def of(cls, values: Sequence[float]) -> Estimate:
        n = len(values)
        if n == 0:
            return cls(float("nan"), float("nan"), 0)
        mean = statistics.fmean(values)
        half = Z95 * statistics.stdev(values) / n**0.5 if n > 1 else float("inf")
        return cls(mean, half, n)

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width

    def excludes_zero(self) -> bool:
        return self.low > 0 or self.high < 0

    def __str__(self) -> str:
        return f"{self.mean:+.2f} ± {self.half_width:.2f}"


@dataclass(frozen=True, slots=True)
class HandResult:
    """One hand: which bot sat where and how each seat did."""

    deal: int
    rotation: int
    bots: tuple[str, ...]  # spec per seat
    finals: tuple[int, ...]
    scores: tuple[int, ...]  # team final in team games, else the seat's final
    places: tuple[int, ...]
    record: str | None = None  # the game record as JSON, when kept


@dataclass(frozen=True, slots=True)
class BotStats:
    bot: str
    hands: int
    final: Estimate
    margin: Estimate
    win_rate: Estimate
    place: Estimate


@dataclass(slots=True)
class TournamentResult:
    rules: str
    players: int
    bots: tuple[str, ...]
    seed: int
    hands: list[HandResult] = field(default_factory=list)
    bot_secret: bytes = field(default=b"", repr=False)  # the bots' dice, told after the run

    def stats(self) -> list[BotStats]:
        """Per bot spec, in the order first seated; CIs over deals."""
        out = []
        for spec in dict.fromkeys(self.bots):
            per_deal: dict[str, dict[int, list[float]]] = {
                k: {} for k in ("final", "margin", "win", "place")
            }
            count = 0
            for h in self.hands:
                for seat, b in enumerate(h.bots):
                    if b != spec:
                        continue
                    count += 1
                    others = [s for i, s in enumerate(h.scores) if i != seat]
                    values = {
                        "final": h.finals[seat],
                        "margin": h.scores[seat] - statistics.fmean(others),
                        "win": 1.0 if h.places[seat] == 1 else 0.0,
                        "place": h.places[seat],
                    }
                    for k, v in values.items():
                        per_deal[k].setdefault(h.deal, []).append(v)

            def est(key: str, table: dict[str, dict[int, list[float]]] = per_deal) -> Estimate:
                return Estimate.of([statistics.fmean(v) for v in table[key].values()])

            out.append(BotStats(spec, count, est("final"), est("margin"), est("win"), est("place")))
        return out

    def to_json(self) -> dict[str, object]:
        return {
            "rules": self.rules,
            "players": self.players,
            "bots": list(self.bots),
            "seed": self.seed,
            "bot_secret": self.bot_secret.hex(),
            "stats": [
                {
                    "bot": s.bot,
                    "hands": s.hands,
                    **{
                        name: {"mean": e.mean, "ci95": [e.low, e.high], "deals": e.n}
                        for name, e in (
                            ("final", s.final),
                            ("margin", s.margin),
                            ("win_rate", s.win_rate),
                            ("place", s.place),
                        )
                    },
                }
                for s in self.stats()
            ],
            "hands": [{k: v for k, v in asdict(h).items() if k != "record"} for h in self.hands],
        }

    def write_csv(self, path: Path) -> None:
        with path.open("w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["bot", "hands", "deals", "stat", "mean", "ci95_low", "ci95_high"])
            for s in self.stats():
                for name, e in (
                    ("final", s.final),
                    ("margin", s.margin),
                    ("win_rate", s.win_rate),
                    ("place", s.place),
                ):
                    w.writerow([s.bot, s.hands, e.n, name, e.mean, e.low, e.high])


def distinct_rotations(bots: Sequence[str]) -> list[int]:
    """The rotations that seat ``bots`` differently: with A and B alternating around an
    even table, rotation 2 seats everyone as rotation 0 does and differs only in the
    bots' dice, so two rotations hold all the duplicate deal has to say."""
    players = len(bots)
    seen: dict[tuple[str, ...], int] = {}
    for rotation in range(players):
        seen.setdefault(tuple(bots[(s - rotation) % players] for s in range(players)), rotation)
    return sorted(seen.values())


def hand_difference(hand: HandResult, a: str, b: str) -> float | None:
    """The mean score of ``a``'s seats minus the mean of ``b``'s in one hand (None: one
    of them did not play it)."""
    sa = [s for s, bot in zip(hand.scores, hand.bots, strict=True) if bot == a]
    sb = [s for s, bot in zip(hand.scores, hand.bots, strict=True) if bot == b]
    return statistics.fmean(sa) - statistics.fmean(sb) if sa and sb else None


def compare(result: TournamentResult, a: str, b: str) -> Estimate:
    """How much more bot ``a`` scores than bot ``b`` per hand (:func:`hand_difference`),
    95 % CI over deals."""
    per_deal: dict[int, list[float]] = {}
    for h in result.hands:
        diff = hand_difference(h, a, b)
        if diff is not None:
            per_deal.setdefault(h.deal, []).append(diff)
    return Estimate.of([statistics.fmean(v) for v in per_deal.values()])


def _scores(outcome: Outcome) -> tuple[int, ...]:
    if outcome.teams is None:
        return tuple(r.final for r in outcome.seats)
    team_of = {s: t.final for t in outcome.teams for s in t.seats}
    return tuple(team_of[r.seat] for r in outcome.seats)


def deal_seed(seed: int, deal: int) -> int:
    return seed * 1_000_003 + deal


def play_deal(  # noqa: PLR0917 (the job tuple is passed positionally)
    rules: str,
    bots: Sequence[str],
    seed: int,
    deal: int,
    keep_records: bool = False,
    bot_secret: bytes | None = None,
    rotations: Sequence[int] | None = None,
) -> list[HandResult]:
    """Every rotation of one deal (the unit of work, picklable in and out).

    ``bot_secret`` keys the bots' generators (a fresh one when None); ``rotations``
    plays only those (:func:`distinct_rotations`: each seating once).
    """
    secret = bot_secret if bot_secret is not None else new_secret()
    players = len(bots)
    made = {spec: make_bot(spec) for spec in dict.fromkeys(bots)}
    out = []
    for rotation in range(players) if rotations is None else rotations:
        seating = tuple(bots[(s - rotation) % players] for s in range(players))
        game = Game.new(rules, players, seed=deal_seed(seed, deal))
        rngs = [bot_rng(secret, deal, rotation, s) for s in range(players)]
        play_out(game, [made[spec] for spec in seating], rngs)
        outcome = game.outcome
        assert outcome is not None
        record = None
        if keep_records:
            names = [f"{spec} (seat {s})" for s, spec in enumerate(seating)]
            record = GameRecord.from_game(game, names, event=f"deal {deal} rotation {rotation}")
        out.append(
            HandResult(
                deal,
                rotation,
                seating,
                tuple(r.final for r in outcome.seats),
                _scores(outcome),
                tuple(r.place for r in outcome.seats),
                record.to_json() if record else None,
            )
        )
    return out


Job = tuple[str, tuple[str, ...], int, int, bool, bytes]


def _play_job(job: Job) -> list[HandResult]:
    return play_deal(*job)


def check_tournament(
    rules: str | Ruleset,
    bots: Sequence[str],
    *,
    deals: int,
    workers: int | None = None,
    ray_address: str | None = None,
) -> Ruleset:
    """Everything :func:`run_tournament` would refuse, refused now (before any work)."""
    text = rules.text() if isinstance(rules, Ruleset) else rules
    rs = Ruleset.from_text(text)
    rs.check_players(len(bots))
    rs.hand_size(len(bots))
    if not 1 <= deals <= MAX_DEALS:
        raise ConfigurationError(f"a tournament plays 1 to {MAX_DEALS:,} deals, not {deals}")
    if workers is not None and workers < 1:
        raise ConfigurationError(f"workers is 1 or more processes, not {workers}")
    for spec in dict.fromkeys(bots):
        make_bot(spec)  # unknown bots and bad options
    if ray_address:
        check_ray_address(ray_address)
    return rs


def run_tournament(
    rules: str | Ruleset,
    bots: Sequence[str],
    *,
    deals: int,
    seed: int = 0,
    workers: int | None = None,
    ray_address: str | None = None,
    keep_records: bool = False,
    progress: Callable[[int], None] | None = None,
    bot_secret: bytes | None = None,
) -> TournamentResult:
    """Play ``deals`` deals, each in every rotation of ``bots`` (one spec per seat).

    ``workers``: processes on this machine (None: all cores; 1: in this
    process). ``ray_address``: run on a Ray cluster instead ("local" starts one
    here). ``progress`` is called with the number of deals done. ``bot_secret``
    keys the bots' generators: a fresh one each run unless given (to reproduce
    a run, give the one its result holds).
    """
    rs = check_tournament(rules, bots, deals=deals, workers=workers, ray_address=ray_address)
    secret = new_secret() if bot_secret is None else bot_secret
    if not isinstance(secret, bytes) or not secret:
        raise ConfigurationError("bot_secret is a non-empty byte string")
    specs = tuple(bots)
    result = TournamentResult(rs.text(), len(specs), specs, seed, bot_secret=secret)
    jobs = [(rs.text(), specs, seed, d, keep_records, secret) for d in range(deals)]
    results = run_jobs(_play_job, jobs, workers=workers, ray_address=ray_address,
                       chunksize=max(1, deals // 64))  # in deal order: the same on a cluster
    for done, hands in enumerate(results, 1):
        result.hands.extend(hands)
        if progress:
            progress(done)
    return result


def save_records(result: TournamentResult, directory: Path) -> int:
    """Write every kept game record as ``deal-D-rot-R.json``; returns how many."""
    directory.mkdir(parents=True, exist_ok=True)
    n = 0
    for h in result.hands:
        if h.record is not None:
            (directory / f"deal-{h.deal:05d}-rot-{h.rotation}.json").write_text(h.record)
            n += 1
    return n
