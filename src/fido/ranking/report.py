"""A player's report: her FLADUB explained game by game, and her history as a plot."""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session

from fido.ranking.errors import ResultError
from fido.ranking.fladub import Fladub, pair_performance
from fido.ranking.players import find_player, month_merges
from fido.ranking.snapshot import (
    Entry,
    MonthData,
    Ranking,
    compute_month,
    month_key,
    published,
    same_ranking,
)
from fido.safe_text import printable
from fido.store import EntryRow, GameRow, LineRow, Player, SnapshotRow

__all__ = ["GameLine", "MonthComputation", "Opponent", "Report", "month_computation",
           "player_report", "plot_report"]

# whether the month is published, its ranking, its data and the formula's result
MonthComputation = tuple[bool, Ranking, MonthData, Fladub]


@dataclass(frozen=True)
class Opponent:
    number: int
    name: str
    final: int
    strength: float
    performance: float  # her performance against this opponent (the game's is their mean)


@dataclass(frozen=True)
class GameLine:
    game_id: int
    played_on: dt.date
    event: str
    final: int
    opponents: tuple[Opponent, ...]
    weight: float
    performance: float
    contribution: float
    gap: float  # G of its set: finals are read in these units
    level: float  # its set's level in the table model (formula 3)
    late_factor: float = 1.0  # formula 4: late_damping ** the rankings it missed (in weight)


@dataclass(frozen=True)
class Report:
    month: str
    number: int
    name: str
    entry: Entry | None  # None: not ranked this month
    published: bool
    games: tuple[GameLine, ...]  # newest first
    history: tuple[tuple[str, int, float], ...]  # (month, position, FLADUB), published months
    formula: int = 3
    beta: float = 0.0  # the month's: how much a strong table lowers a final
    # formula 4: why her number is what it is (None before)
    months: int | None = None  # months from her newest counted game to this ranking
    factor: float | None = None  # FLADUB / her weighted mean shrunk performance
    carried: bool = False  # no new result: last month's number carried on, aged
    capped: bool = False  # held within a few places of where it was without late results
    age_steps: int = 12

    @property
    def total(self) -> float:
        """The sum of the contributions: her FLADUB."""
        return math.fsum(g.contribution for g in self.games)


def month_computation(s: Session, month: str) -> MonthComputation:
    """The month computed as its published ranking was (whether it is published, the
    ranking, its data, the formula's result): what every player's report of the
    month reads. A published month never changes, so a caller may keep this."""
    month = month_key(month)
    stored = published(s, month)
    ranking, data, result = compute_month(s, month, stored.params if stored else None)
    if stored is not None and not same_ranking(stored, ranking):
        raise ResultError(f"recomputing {month} does not give the published ranking back")
    return stored is not None, ranking, data, result


def player_report(s: Session, month: str, number: int,
                  computed: MonthComputation | None = None) -> Report:
    """Player ``number``'s ranking in ``month`` with every counted game explained
    (``computed``: the month's :func:`month_computation`, if the caller kept it)."""
    month = month_key(month)
    player = find_player(s, number)
    is_published, ranking, data, result = computed or month_computation(s, month)
    entry = ranking.entry(number)
    lines: list[GameLine] = []
    index = np.searchsorted(data.player_ids, player.id)
    if entry is not None and index < data.player_ids.size:
        mine = np.flatnonzero((data.line_player == index) & (result.weight > 0))
        wanted = [int(data.game_ids[data.line_game[i]]) for i in mine]
        games = {g.id: g for g in s.scalars(select(GameRow).where(GameRow.id.in_(wanted)))}
        names = {pid: name for pid, name in s.execute(select(Player.id, Player.name))}
        numbers = {pid: n for pid, n in s.execute(select(Player.id, Player.number))}
        merges = month_merges(s, month)  # as the month's ranking reads the lines
        for i in mine:
            game = games[int(data.game_ids[data.line_game[i]])]
            own = int(data.line_final[i])
            opponents = []
            for ln in s.scalars(select(LineRow).where(LineRow.game_id == game.id)):
                pid = merges.get(ln.player_id, ln.player_id)
                if pid == player.id:
                    continue
                j = int(np.searchsorted(data.player_ids, pid))
                opponents.append(
                    Opponent(
                        numbers[pid],
                        names[pid],
                        ln.final,
                        float(result.strength[j]),
                        pair_performance(
                            own,
                            ln.final,
                            float(result.strength[j]),
                            fit=result,
                            game=int(data.line_game[i]),
                            params=ranking.params,
                        ),
                    )
                )
            lines.append(
                GameLine(
                    game.id,
                    game.played_on,
                    game.event,
                    own,
                    tuple(opponents),
                    float(result.weight[i]),
                    float(result.performance[i]),
                    float(result.contribution[i]),
                    float(result.gap[data.line_game[i]]),
                    float(result.level[data.line_game[i]]),
                    1.0 if result.late_factor is None else float(result.late_factor[i]),
                )
            )
    lines.sort(key=lambda g: (g.played_on, g.game_id), reverse=True)
    history = tuple(
        (m, pos, float(f))
        for m, pos, f in s.execute(
            select(SnapshotRow.month, EntryRow.position, EntryRow.fladub)
            .join(EntryRow, EntryRow.snapshot_id == SnapshotRow.id)
            .where(EntryRow.player_id == player.id)
            .order_by(SnapshotRow.month)
        )
    )
    ranked = entry is not None and index < data.player_ids.size
    return Report(
        month,
        number,
        player.name,
        entry,
        is_published,
        tuple(lines),
        history,
        ranking.params.formula,
        float(result.beta),
        months=int(result.months[index]) if ranked and result.months is not None else None,
        factor=float(result.factor[index]) if ranked and result.factor is not None else None,
        carried=bool(ranked and result.carried is not None and result.carried[index]),
        capped=bool(ranked and result.capped is not None and result.capped[index]),
        age_steps=ranking.params.age_steps,
    )


def plot_report(report: Report, path: str | Path) -> Path:
    """Her FLADUB over the published months and this month's contributions (PNG or SVG)."""
    import matplotlib  # noqa: PLC0415 (only reports need it; slow to import)

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    path = Path(path)
    if path.suffix.lower() not in (".png", ".svg"):
        raise ResultError(f"a plot is written as .png or .svg, not {path.name!r}")
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(8, 6), constrained_layout=True)
    months = [m for m, _, _ in report.history]
    top.plot(months, [f for _, _, f in report.history], marker="o")
    # a name is shown as typed: "$" would start matplotlib's mathtext (and may not parse)
    top.set_title(
        f"{printable(report.name)} (player {report.number}): FLADUB by month", parse_math=False
    )
    top.set_ylabel("FLADUB")
    top.tick_params(axis="x", rotation=45)
    # one bar per game, in the order played: two games on one day stand side by side
    games = sorted(report.games, key=lambda g: (g.played_on, g.game_id))
    positions = list(range(len(games)))
    bottom.bar(positions, [g.contribution for g in games], width=0.8, color="tab:green")
    step = max(1, math.ceil(len(games) / 25))  # at most 25 labels: readable
    bottom.set_xticks(
        positions[::step],
        [f"{g.played_on:%m-%d} #{g.game_id}" for g in games[::step]],
        rotation=90,
        fontsize=7,
    )
    bottom.set_xlabel("game (date played, game number)")
    bottom.set_title(f"{report.month}: each counted game's contribution (sum {report.total:.2f})")
    bottom.set_ylabel("contribution")
    with plt.rc_context({"svg.fonttype": "none"}):  # an SVG's text stays text
        fig.savefig(path)
    plt.close(fig)
    return path
