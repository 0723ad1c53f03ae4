"""The monthly ranking: compute a month from the stored results, publish it once.

Results received before the end of a month (UTC) count in that month's
ranking, if they were played in the 365 days up to its last day and were not
disputed-and-unsettled (or rejected) at that moment. :func:`compute_month`
computes it from the store without writing; :func:`publish` stores it as an
immutable snapshot (once per month, after the month has ended);
:func:`verify` recomputes a published month and compares bit for bit.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from dataclasses import dataclass
from itertools import chain

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session

from fido.ranking.clock import utc, utcnow
from fido.ranking.errors import ResultError
from fido.ranking.fladub import Fladub, Params, compute
from fido.store import EntryRow, GameRow, LineRow, Player, ReviewRow, SnapshotRow

__all__ = [
    "Entry",
    "MonthData",
    "Ranking",
    "compute_month",
    "load_month",
    "month_bounds",
    "previous_month",
    "publish",
    "published",
    "verify",
]


def month_bounds(month: str) -> tuple[dt.date, dt.datetime]:
    """(the month's last day, the cutoff: the next month's first instant, UTC)."""
    m = re.fullmatch(r"([0-9]{4})-([0-9]{2})", month.strip(), re.ASCII)
    if not m or not 1 <= int(m.group(2)) <= 12:
        shown = repr(month) if len(month) <= 40 else repr(month[:40]) + "..."
        raise ResultError(f"a month is written YYYY-MM, e.g. 2026-11, not {shown}")
    if not 1 <= int(m.group(1)) <= 9998:  # the cutoff, the next month's start, is a datetime
        raise ResultError(f"a month's year is from 0001 to 9998, not {m.group(1)}")
    y, mo = int(m.group(1)), int(m.group(2))
    nxt = dt.date(y + mo // 12, mo % 12 + 1, 1)
    cutoff = dt.datetime(nxt.year, nxt.month, 1, tzinfo=dt.UTC)
    return nxt - dt.timedelta(days=1), cutoff


def previous_month(month: str) -> str:
    last, _ = month_bounds(month)
    first = last.replace(day=1) - dt.timedelta(days=1)
    return f"{first.year:04d}-{first.month:02d}"


@dataclass(frozen=True)
class MonthData:
    """The inputs of one month, in a fixed order (games by id, lines by seat)."""

    month: str
    last_day: dt.date
    game_ids: np.ndarray
    age_days: np.ndarray
    line_game: np.ndarray  # index into game_ids
    line_player: np.ndarray  # index into player_ids
    line_final: np.ndarray
    player_ids: np.ndarray  # store ids, ascending
    game_group: np.ndarray  # per game: its (set, divisor) numbered 0, 1, ... in order


def _excluded(s: Session, cutoff: dt.datetime, game_ids: set[int] | None = None) -> set[int]:
    """Games disputed and not accepted, or rejected, by the reviews before ``cutoff``."""
    q = (
        select(ReviewRow.game_id, ReviewRow.verdict)
        .where(ReviewRow.at < cutoff, ReviewRow.verdict.in_(("dispute", "accept", "reject")))
        .order_by(ReviewRow.id)
    )
    state: dict[int, str] = {}
    for gid, verdict in s.execute(q):
        if state.get(gid) != "reject":
            state[gid] = verdict
    return {g for g, v in state.items() if v in ("dispute", "reject")}


def load_month(s: Session, month: str, params: Params | None = None) -> MonthData:
    params = params or Params()
    last_day, cutoff = month_bounds(month)
    first_day = last_day - dt.timedelta(days=params.window_days - 1)
    where = (
        GameRow.received_at < cutoff,
        GameRow.played_on >= first_day,
        GameRow.played_on <= last_day,
    )
    games = s.execute(
        select(GameRow.id, GameRow.played_on, GameRow.set, GameRow.divisor)
        .where(*where)
        .order_by(GameRow.id)
    ).all()
    excluded = _excluded(s, cutoff)
    games = [g for g in games if g[0] not in excluded]
    if not games:
        z = np.zeros(0, dtype=np.int64)
        return MonthData(month, last_day, z, z, z, z, z, z, z)
    game_ids = np.fromiter((g[0] for g in games), dtype=np.int64, count=len(games))
    kind = np.array([(g[2], g[3]) for g in games], dtype=np.int64)  # set, divisor
    game_group = np.unique(kind, axis=0, return_inverse=True)[1].ravel().astype(np.int64)
    ordinal = last_day.toordinal()
    age = np.fromiter((ordinal - g[1].toordinal() for g in games), dtype=np.int64, count=len(games))
    # the lines, millions of rows: plain integers straight from the driver, no
    # parameters (game ids are filtered here), the same SQL on every backend
    table = LineRow.__tablename__
    cur = s.connection().connection.cursor()
    try:
        cur.execute(
            f"SELECT game_id, player_id, final FROM {table} "
            f"WHERE game_id >= {int(game_ids[0])} AND game_id <= {int(game_ids[-1])} "
            "ORDER BY game_id, seat"
        )
        rows = cur.fetchall()
    finally:
        cur.close()
    flat = np.fromiter(chain.from_iterable(rows), dtype=np.int64, count=3 * len(rows))
    del rows
    lines = flat.reshape(-1, 3)
    lines = lines[np.isin(lines[:, 0], game_ids)]
    line_game = np.searchsorted(game_ids, lines[:, 0])
    player_ids, line_player = np.unique(lines[:, 1], return_inverse=True)
    fin = np.ascontiguousarray(lines[:, 2])
    return MonthData(
        month, last_day, game_ids, age, line_game, line_player, fin, player_ids, game_group
    )


@dataclass(frozen=True)
class Entry:
    position: int
    player_id: int
    number: int
    name: str
    fladub: float
    strength: float
    games: int
    provisional: bool
    previous_position: int | None
    previous_fladub: float | None

    @property
    def change(self) -> float | None:
        """FLADUB change since last month's ranking (None: not ranked then)."""
        return None if self.previous_fladub is None else self.fladub - self.previous_fladub

    def to_dict(self) -> dict[str, object]:
        return {
            "position": self.position,
            "player": self.number,
            "name": self.name,
            "fladub": self.fladub,
            "strength": self.strength,
            "games": self.games,
            "provisional": self.provisional,
            "previous_position": self.previous_position,
            "previous_fladub": self.previous_fladub,
            "change": self.change,
        }


@dataclass(frozen=True)
class Ranking:
    month: str
    cutoff: dt.datetime
    params: Params
    games: int
    entries: tuple[Entry, ...]
    digest: str
    computed_at: dt.datetime | None = None  # set when published

    def entry(self, number: int) -> Entry | None:
        return next((e for e in self.entries if e.number == number), None)


def digest(entries: tuple[Entry, ...]) -> str:
    """sha256 of every entry's values, floats as their exact hex form."""
    h = hashlib.sha256()
    for e in entries:
        prev = "-" if e.previous_fladub is None else e.previous_fladub.hex()
        h.update(
            f"{e.position} {e.number} {e.fladub.hex()} {e.strength.hex()} {e.games} "
            f"{int(e.provisional)} {e.previous_position} {prev}\n".encode()
        )
    return h.hexdigest()


def compute_month(
    s: Session, month: str, params: Params | None = None
) -> tuple[Ranking, MonthData, Fladub]:
    """The month's ranking from the stored results (nothing is written)."""
    params = params or Params()
    _, cutoff = month_bounds(month)
    data = load_month(s, month, params)
    result = compute(
        data.age_days,
        data.line_game,
        data.line_player,
        data.line_final,
        int(data.player_ids.size),
        params=params,
        game_group=data.game_group,
    )
    prev = published(s, previous_month(month))
    before = {e.player_id: e for e in prev.entries} if prev else {}
    info = {
        pid: (number, name)
        for pid, number, name in s.execute(select(Player.id, Player.number, Player.name))
    }
    ranked = np.flatnonzero(result.games > 0)
    numbers = np.array([info[int(data.player_ids[i])][0] for i in ranked], dtype=np.int64)
    order = ranked[np.lexsort((numbers, -result.fladub[ranked]))]
    entries = []
    position = 0
    last = None
    for k, i in enumerate(order, 1):
        f = float(result.fladub[i])
        if f != last:
            position, last = k, f
        pid = int(data.player_ids[i])
        old = before.get(pid)
        entries.append(
            Entry(
                position=position,
                player_id=pid,
                number=info[pid][0],
                name=info[pid][1],
                fladub=f,
                strength=float(result.strength[i]),
                games=int(result.games[i]),
                provisional=bool(result.provisional[i]),
                previous_position=old.position if old else None,
                previous_fladub=old.fladub if old else None,
            )
        )
    es = tuple(entries)
    ranking = Ranking(month, cutoff, params, int(data.game_ids.size), es, digest(es))
    return ranking, data, result


def publish(
    s: Session, month: str, *, now: dt.datetime | None = None, params: Params | None = None
) -> Ranking:
    """Compute and store the month's ranking; a month is published once, after it ends."""
    now = utc(now or utcnow())
    _, cutoff = month_bounds(month)
    if now < cutoff:
        raise ResultError(
            f"{month} has not ended yet: its ranking can be computed from "
            f"{cutoff:%Y-%m-%d %H:%M} UTC on"
        )
    if s.scalar(select(SnapshotRow.id).where(SnapshotRow.month == month)) is not None:
        raise ResultError(f"the ranking of {month} is already published; it never changes")
    ranking, _, _ = compute_month(s, month, params)
    row = SnapshotRow(
        month=month,
        cutoff=cutoff,
        computed_at=now,
        params=json.dumps(ranking.params.to_dict(), sort_keys=True),
        games=ranking.games,
        digest=ranking.digest,
    )
    s.add(row)
    s.flush()
    s.add_all(
        EntryRow(
            snapshot_id=row.id,
            player_id=e.player_id,
            position=e.position,
            fladub=e.fladub,
            strength=e.strength,
            games=e.games,
            provisional=int(e.provisional),
            previous_position=e.previous_position,
            previous_fladub=e.previous_fladub,
        )
        for e in ranking.entries
    )
    s.flush()
    return Ranking(
        month, cutoff, ranking.params, ranking.games, ranking.entries, ranking.digest, now
    )


def published(s: Session, month: str) -> Ranking | None:
    """The published ranking of ``month``, or None."""
    month_bounds(month)
    row = s.scalar(select(SnapshotRow).where(SnapshotRow.month == month))
    if row is None:
        return None
    q = (
        select(EntryRow, Player.number, Player.name)
        .join(Player, Player.id == EntryRow.player_id)
        .where(EntryRow.snapshot_id == row.id)
        .order_by(EntryRow.position, Player.number)
    )
    entries = tuple(
        Entry(
            position=e.position,
            player_id=e.player_id,
            number=number,
            name=name,
            fladub=float(e.fladub),
            strength=float(e.strength),
            games=e.games,
            provisional=bool(e.provisional),
            previous_position=e.previous_position,
            previous_fladub=None if e.previous_fladub is None else float(e.previous_fladub),
        )
        for e, number, name in s.execute(q)
    )
    return Ranking(
        month,
        utc(row.cutoff),
        stored_params(row.params),
        row.games,
        entries,
        row.digest,
        utc(row.computed_at),
    )


def stored_params(text: str) -> Params:
    """A snapshot's parameters, which keep its formula: one without ``formula``
    predates the table model (formula 2, linear ageing), one without
    ``margin_cap`` margin pairs too (version 1)."""
    return Params(**{"formula": 2, "margin_cap": 0.0, "age_power": 1.0, **json.loads(text)})


def verify(s: Session, month: str) -> Ranking:
    """Recompute a published month from the stored results; refuse any difference."""
    stored = published(s, month)
    if stored is None:
        raise ResultError(f"the ranking of {month} has not been published")
    again, _, _ = compute_month(s, month, stored.params)
    if again.entries != stored.entries or again.digest != stored.digest:
        raise ResultError(f"recomputing {month} does not give the published ranking back")
    return stored
