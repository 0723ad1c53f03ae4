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
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from itertools import chain
from typing import Any

import numpy as np
from sqlalchemy import func, insert, select
from sqlalchemy.orm import Session

from fido.errors import FidoError
from fido.i18n import _
from fido.ranking.clock import utc, utcnow
from fido.ranking.errors import ResultError
from fido.ranking.fladub import Fladub, Params, compute
from fido.ranking.players import month_merges
from fido.store import EntryRow, GameRow, LineRow, Player, ReviewRow, SnapshotRow

__all__ = [
    "DIGEST_VERSION",
    "Entry",
    "MonthData",
    "Ranking",
    "closed_until",
    "compute_month",
    "content_digest",
    "late_games",
    "load_month",
    "month_bounds",
    "month_key",
    "month_of",
    "previous_month",
    "publish",
    "published",
    "same_ranking",
    "verify",
]


DIGEST_VERSION = 2  # the digest covers month, cutoff, parameters and game count (0002)


def month_key(month: str) -> str:
    """The month's one canonical spelling, ``YYYY-MM`` in ASCII digits.

    Spaces around it are dropped; anything else (fullwidth digits, ``2026-1``,
    a tab inside) is refused, so a month can never be stored twice under two
    spellings. The database checks the same form (migration 0002).
    """
    m = re.fullmatch(r"([0-9]{4})-([0-9]{2})", month.strip(), re.ASCII)
    if not m or not 1 <= int(m.group(2)) <= 12:
        shown = repr(month) if len(month) <= 40 else repr(month[:40]) + "..."
        raise ResultError(f"a month is written YYYY-MM, e.g. 2026-11, not {shown}")
    if not 1 <= int(m.group(1)) <= 9998:  # the cutoff, the next month's start, is a datetime
        raise ResultError(f"a month's year is from 0001 to 9998, not {m.group(1)}")
    return f"{m.group(1)}-{m.group(2)}"


def month_of(day: dt.date | dt.datetime) -> str:
    """The canonical key of the month ``day`` falls in."""
    return f"{day.year:04d}-{day.month:02d}"


def month_bounds(month: str) -> tuple[dt.date, dt.datetime]:
    """(the month's last day, the cutoff: the next month's first instant, UTC)."""
    key = month_key(month)
    y, mo = int(key[:4]), int(key[5:])
    nxt = dt.date(y + mo // 12, mo % 12 + 1, 1)
    cutoff = dt.datetime(nxt.year, nxt.month, 1, tzinfo=dt.UTC)
    return nxt - dt.timedelta(days=1), cutoff


def previous_month(month: str) -> str | None:
    """The month before, or None before 0001-01 (no date exists then)."""
    last, _ = month_bounds(month)
    if last.year == 1 and last.month == 1:
        return None
    return month_of(last.replace(day=1) - dt.timedelta(days=1))


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
    # per game: the monthly rankings it missed (received in a later month than it
    # was played in); formula 4 damps and holds late results by it
    late_months: np.ndarray


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


CHUNK = 100_000  # rows fetched at a time: the month never holds a million rows as objects


@contextmanager
def _cursor(s: Session) -> Iterator[Any]:
    """A DB-API cursor in the session's transaction whose rows stream in chunks:
    a server-side cursor on PostgreSQL (a plain one would hold every row in the
    client at once); SQLite's cursor steps through the rows as they are fetched."""
    conn = s.connection().connection
    if s.get_bind().dialect.name == "postgresql":
        raw: Any = conn.dbapi_connection
        cur = raw.cursor(name="fido_month")
    else:
        cur = conn.cursor()
    try:
        yield cur
    finally:
        cur.close()


def _chunks(s: Session, sql: str) -> Iterator[list[tuple[Any, ...]]]:
    """The rows of ``sql`` (no parameters), ``CHUNK`` at a time, as the driver gives them:
    no SQLAlchemy rows (for millions of rows they cost several times the query)."""
    with _cursor(s) as cur:
        cur.execute(sql)
        while rows := cur.fetchmany(CHUNK):
            yield rows


def _days(values: tuple[Any, ...]) -> np.ndarray:
    """Dates (SQLite: ``YYYY-MM-DD`` text; PostgreSQL: date objects) as datetime64[D]."""
    return np.array(values, dtype="datetime64[D]")


def _instants(values: tuple[Any, ...]) -> np.ndarray:
    """Times as UTC datetime64[us]: SQLite's text is UTC already (the store writes
    UTC, :func:`utc` reads a naive time as UTC); PostgreSQL's aware times converted."""
    if values and not isinstance(values[0], str):
        values = tuple(utc(v).replace(tzinfo=None) for v in values)
    return np.array(values, dtype="datetime64[us]")


def load_month(s: Session, month: str, params: Params | None = None) -> MonthData:
    """The month's inputs, read in chunks straight into arrays.

    The games played in the window are read with their day, set, divisor and
    receipt; those received at or after the cutoff, and those disputed or
    rejected before it, are dropped; then their lines, in game and seat order.
    """
    params = params or Params()
    last_day, cutoff = month_bounds(month)
    # the window may reach before 0001-01-01 (a date that does not exist)
    first_day = dt.date.fromordinal(max(1, last_day.toordinal() - (params.window_days - 1)))
    played_in = (GameRow.played_on >= first_day, GameRow.played_on <= last_day)
    # the ids the window's games lie between (from the index on the day): the games
    # are then read in id order, which SQLite does without sorting them
    low, high = s.execute(
        select(func.min(GameRow.id), func.max(GameRow.id)).where(*played_in)
    ).one()
    q = s.get_bind().dialect.identifier_preparer.quote
    g = GameRow.__table__.c
    # literal ISO dates (from dt.date, nothing else): compared as dates on PostgreSQL
    # and as the text SQLAlchemy writes on SQLite, as a bound date would be
    games_sql = (
        f"SELECT {q(g.id.name)}, {q(g.played_on.name)}, {q(g.set.name)}, "
        f"{q(g.divisor.name)}, {q(g.received_at.name)} FROM {q(GameRow.__tablename__)} "
        f"WHERE {q(g.id.name)} >= {int(low or 0)} AND {q(g.id.name)} <= {int(high or 0)} "
        f"AND {q(g.played_on.name)} >= '{first_day.isoformat()}' "
        f"AND {q(g.played_on.name)} <= '{last_day.isoformat()}' ORDER BY {q(g.id.name)}"
    )
    limit = np.datetime64(utc(cutoff).replace(tzinfo=None), "us")
    parts: list[tuple[np.ndarray, ...]] = []
    for rows in _chunks(s, games_sql) if low is not None else ():
        cols = tuple(zip(*rows, strict=True))
        received = _instants(cols[4])
        keep = received < limit
        parts.append((
            np.array(cols[0], dtype=np.int64)[keep],
            _days(cols[1])[keep],
            np.array(cols[2], dtype=np.int64)[keep],
            np.array(cols[3], dtype=np.int64)[keep],
            received[keep],
        ))
        del rows, cols
    excluded = _excluded(s, cutoff)
    if parts:
        game_ids, played, sets, divisors, received = (
            np.concatenate(col) for col in zip(*parts, strict=True)
        )
    else:
        game_ids = np.zeros(0, dtype=np.int64)
    del parts
    if excluded and game_ids.size:
        out = np.fromiter(excluded, dtype=np.int64, count=len(excluded))
        keep = ~np.isin(game_ids, out)
        game_ids, played, sets, divisors, received = (
            game_ids[keep], played[keep], sets[keep], divisors[keep], received[keep]
        )
    if not game_ids.size:
        z = np.zeros(0, dtype=np.int64)
        return MonthData(month, last_day, z, z, z, z, z, z, z, z)
    # per game its (set, divisor) numbered 0, 1, ... in their order: by the ranks of
    # its set and its divisor (a few values each), one key for the pair
    set_values, set_rank = np.unique(sets, return_inverse=True)
    divisor_values, divisor_rank = np.unique(divisors, return_inverse=True)
    pair = set_rank.ravel().astype(np.int64) * divisor_values.size + divisor_rank.ravel()
    game_group = np.unique(pair, return_inverse=True)[1].ravel().astype(np.int64)
    del set_values, set_rank, divisor_rank, pair
    age = (np.datetime64(last_day, "D") - played).astype(np.int64)
    # months between the month it was played in and the month it was received in (UTC)
    late = np.maximum(
        0,
        received.astype("datetime64[M]").astype(np.int64)
        - played.astype("datetime64[M]").astype(np.int64),
    )
    # the lines, millions of rows: plain integers straight from the driver, no
    # parameters (game ids are filtered here), the same SQL on every backend;
    # each chunk is cut down to the month's games as it comes
    table = LineRow.__tablename__
    lines_sql = (
        f"SELECT game_id, player_id, final FROM {table} "
        f"WHERE game_id >= {int(game_ids[0])} AND game_id <= {int(game_ids[-1])} "
        "ORDER BY game_id, seat"
    )
    n_games = game_ids.size
    pieces: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    for rows in _chunks(s, lines_sql):
        flat = np.fromiter(chain.from_iterable(rows), dtype=np.int64, count=3 * len(rows))
        del rows
        chunk = flat.reshape(-1, 3)
        at = np.searchsorted(game_ids, chunk[:, 0])
        hit = game_ids[np.minimum(at, n_games - 1)] == chunk[:, 0]
        pieces.append((at[hit], chunk[hit, 1], chunk[hit, 2]))
        del flat, chunk, at, hit
    empty = np.zeros(0, dtype=np.int64)
    line_game = np.concatenate([empty, *(p[0] for p in pieces)])
    players = np.concatenate([empty, *(p[1] for p in pieces)])
    fin = np.concatenate([empty, *(p[2] for p in pieces)])
    del pieces
    _apply_merges(players, month_merges(s, month_key(month)))
    player_ids, line_player = _numbered(players)
    return MonthData(
        month, last_day, game_ids, age, line_game, line_player, fin, player_ids, game_group, late
    )


def _numbered(players: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the distinct store ids, ascending; each line's index into them): np.unique's
    answer, through a table over the ids when it is no larger than the lines
    (store ids are dense: a tenth of a second instead of a sort of every line)."""
    if not players.size or players.min() < 0 or players.max() >= players.size:
        ids, inverse = np.unique(players, return_inverse=True)
        return ids, inverse.ravel().astype(np.int64)
    present = np.zeros(int(players.max()) + 1, dtype=bool)
    present[players] = True
    index = np.cumsum(present, dtype=np.int64) - 1
    return np.flatnonzero(present).astype(np.int64), index[players]


def _apply_merges(players: np.ndarray, merges: dict[int, int]) -> None:
    """A merged player's lines count for her survivor (the merges the month applies)."""
    if not merges or not players.size:
        return
    merged = np.fromiter(merges, dtype=np.int64, count=len(merges))
    order = np.argsort(merged)
    merged = merged[order]
    survivor = np.fromiter(merges.values(), dtype=np.int64, count=len(merges))[order]
    pos = np.minimum(np.searchsorted(merged, players), merged.size - 1)
    hit = merged[pos] == players
    players[hit] = survivor[pos[hit]]


def _month_index(day: dt.date) -> int:
    return day.year * 12 + day.month - 1


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
    digest_version: int = DIGEST_VERSION  # 1: entries only (snapshots before migration 0002)

    def entry(self, number: int) -> Entry | None:
        return next((e for e in self.entries if e.number == number), None)


def entries_digest(entries: tuple[Entry, ...]) -> str:
    """Version 1: sha256 of every entry's values, floats as their exact hex form."""
    return _digest_of(hashlib.sha256(), entries)


def _digest_of(h: Any, entries: tuple[Entry, ...]) -> str:
    for e in entries:
        prev = "-" if e.previous_fladub is None else e.previous_fladub.hex()
        h.update(
            f"{e.position} {e.number} {e.fladub.hex()} {e.strength.hex()} {e.games} "
            f"{int(e.provisional)} {e.previous_position} {prev}\n".encode()
        )
    return str(h.hexdigest())


def params_text(params: Params) -> str:
    """The parameters as stored: canonical JSON, the same text for the same values."""
    return json.dumps(params.to_dict(), sort_keys=True)


def digest(
    month: str, cutoff: dt.datetime, params: Params, games: int, entries: tuple[Entry, ...]
) -> str:
    """Version 2: sha256 of the month, its cutoff, parameters and game count, then
    every entry; so a changed count or cutoff is caught like a changed FLADUB."""
    h = hashlib.sha256()
    h.update(
        f"fido-ranking 2 {month} {utc(cutoff).isoformat()} {games} {params_text(params)}\n"
        .encode()
    )
    return _digest_of(h, entries)


def content_digest(r: Ranking) -> str:
    """The digest of ``r``'s contents by its version's rule."""
    if r.digest_version == 1:
        return entries_digest(r.entries)
    return digest(r.month, r.cutoff, r.params, r.games, r.entries)


def compute_month(
    s: Session, month: str, params: Params | None = None
) -> tuple[Ranking, MonthData, Fladub]:
    """The month's ranking from the stored results (nothing is written)."""
    params = params or Params()
    _, cutoff = month_bounds(month)
    data = load_month(s, month, params)
    before_month = previous_month(month)
    prev = published(s, before_month) if before_month else None
    before = {e.player_id: e for e in prev.entries} if prev else {}
    extra: dict[str, Any] = {}
    if params.formula >= 4:
        extra = {
            "last_day": data.last_day,
            "late_months": data.late_months,
            "previous": _carried(s, data, prev, cutoff),
        }
    result = compute(
        data.age_days,
        data.line_game,
        data.line_player,
        data.line_final,
        int(data.player_ids.size),
        params=params,
        game_group=data.game_group,
        **extra,
    )
    ranked = np.flatnonzero(result.games > 0)
    ids, numbers, names = _players(s)
    at = np.searchsorted(ids, data.player_ids[ranked])  # every line's player is stored
    order = np.lexsort((numbers[at], -result.fladub[ranked]))
    ranked, at = ranked[order], at[order]
    entries = []
    position = 0
    last = None
    # plain Python values, column by column (tolist gives each float's exact value)
    for k, (pid, number, j, f, strength, games_, provisional) in enumerate(
        zip(
            data.player_ids[ranked].tolist(),
            numbers[at].tolist(),
            at.tolist(),
            result.fladub[ranked].tolist(),
            result.strength[ranked].tolist(),
            result.games[ranked].tolist(),
            result.provisional[ranked].tolist(),
            strict=True,
        ),
        1,
    ):
        if f != last:
            position, last = k, f
        old = before.get(pid)
        entries.append(
            Entry(
                position=position,
                player_id=pid,
                number=number,
                name=names[j],
                fladub=f,
                strength=strength,
                games=games_,
                provisional=bool(provisional),
                previous_position=old.position if old else None,
                previous_fladub=old.fladub if old else None,
            )
        )
    es = tuple(entries)
    key, games = month_key(month), int(data.game_ids.size)
    ranking = Ranking(key, cutoff, params, games, es, digest(key, cutoff, params, games, es))
    return ranking, data, result


def _players(s: Session) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Every player's store id (ascending), number and name, read in chunks."""
    ids: list[int] = []
    numbers: list[int] = []
    names: list[str] = []
    p = Player.__table__.c
    q = s.get_bind().dialect.identifier_preparer.quote
    for rows in _chunks(
        s,
        f"SELECT {q(p.id.name)}, {q(p.number.name)}, {q(p.name.name)} "
        f"FROM {q(Player.__tablename__)} ORDER BY {q(p.id.name)}",
    ):
        for pid, number, name in rows:
            ids.append(pid)
            numbers.append(number)
            names.append(name)
    return np.array(ids, dtype=np.int64), np.array(numbers, dtype=np.int64), names


def _carried(
    s: Session, data: MonthData, prev: Ranking | None, cutoff: dt.datetime
) -> np.ndarray:
    """Per player, last month's published number that formula 4 carries on (NaN: none).

    Only a formula-4 month is carried on (older formulas do not age the same
    way), and not for a player one of whose games was disputed, accepted or
    rejected during this month: a withdrawn or restored game must show.
    """
    carried = np.full(data.player_ids.size, np.nan)
    if prev is None or prev.params.formula < 4 or not data.player_ids.size:
        return carried
    ids = data.player_ids
    prev_ids = np.fromiter((e.player_id for e in prev.entries), np.int64, len(prev.entries))
    prev_f = np.fromiter((e.fladub for e in prev.entries), np.float64, len(prev.entries))
    at = np.minimum(np.searchsorted(ids, prev_ids), ids.size - 1)
    hit = ids[at] == prev_ids
    carried[at[hit]] = prev_f[hit]
    reviewed = s.scalars(
        select(LineRow.player_id)
        .join(ReviewRow, ReviewRow.game_id == LineRow.game_id)
        .where(ReviewRow.at >= prev.cutoff, ReviewRow.at < cutoff)
    ).all()
    if reviewed:
        out = np.unique(np.array(reviewed, dtype=np.int64))
        at = np.minimum(np.searchsorted(ids, out), ids.size - 1)
        carried[at[ids[at] == out]] = np.nan
    return carried


def closed_until(s: Session) -> tuple[str, dt.datetime] | None:
    """(the latest published month, its cutoff), or None if none is published.

    No result may be received before that cutoff any more: it would change a
    published month (see :func:`fido.ranking.submission.submit`).
    """
    row = s.execute(
        select(SnapshotRow.month, SnapshotRow.cutoff).order_by(SnapshotRow.cutoff.desc()).limit(1)
    ).first()
    return None if row is None else (row[0], utc(row[1]))


def late_games(s: Session, month: str) -> tuple[int, int]:
    """(games received during ``month``, games played in it but received after its cutoff)."""
    last_day, cutoff = month_bounds(month)
    first = last_day.replace(day=1)
    start = dt.datetime(first.year, first.month, 1, tzinfo=dt.UTC)
    received = s.scalar(
        select(func.count())
        .select_from(GameRow)
        .where(GameRow.received_at >= start, GameRow.received_at < cutoff)
    )
    late = s.scalar(
        select(func.count())
        .select_from(GameRow)
        .where(
            GameRow.played_on >= first,
            GameRow.played_on <= last_day,
            GameRow.received_at >= cutoff,
        )
    )
    return int(received or 0), int(late or 0)


def publish(
    s: Session,
    month: str,
    *,
    now: dt.datetime | None = None,
    params: Params | None = None,
    allow_empty: bool = False,
    dry_run: bool = False,
) -> Ranking:
    """Compute and store the month's ranking; a month is published once, after it ends.

    A month in which no result was received while results played in it came
    in later is refused unless ``allow_empty``: it is what an organiser who
    imported last month's sheets without ``--received`` would publish, for
    good. ``dry_run`` checks and computes everything and stores nothing.
    """
    now = utc(now or utcnow())
    month = month_key(month)
    _, cutoff = month_bounds(month)
    if now < cutoff:
        raise ResultError(
            f"{month} has not ended yet: its ranking can be computed from "
            f"{cutoff:%Y-%m-%d %H:%M} UTC on"
        )
    if s.scalar(select(SnapshotRow.id).where(SnapshotRow.month == month)) is not None:
        raise ResultError(f"the ranking of {month} is already published; it never changes")
    received, late = late_games(s, month)
    if received == 0 and late and not allow_empty:
        raise ResultError(
            f"no result was received in {month}, but {late} game(s) played in it were "
            f"received after its cutoff ({cutoff:%Y-%m-%d %H:%M} UTC), so they do not count "
            f"in it; if the sheets arrived in time, import them again with --received "
            f"YYYY-MM-DD (the day they arrived); to publish {month} without them, "
            "use --allow-empty"
        )
    ranking = compute_month(s, month, params)[0]  # the month's arrays go at once
    if dry_run:
        return ranking
    row = SnapshotRow(
        month=month,
        cutoff=cutoff,
        computed_at=now,
        params=params_text(ranking.params),
        games=ranking.games,
        digest=ranking.digest,
        digest_version=DIGEST_VERSION,
    )
    s.add(row)
    s.flush()
    # plain rows in chunks (no ORM object per entry): 100,000 entries in a second
    conn, step = s.connection(), 20_000
    for lo in range(0, len(ranking.entries), step):
        conn.execute(
            insert(EntryRow),
            [
                {
                    "snapshot_id": row.id,
                    "player_id": e.player_id,
                    "position": e.position,
                    "fladub": e.fladub,
                    "strength": e.strength,
                    "games": e.games,
                    "provisional": int(e.provisional),
                    "previous_position": e.previous_position,
                    "previous_fladub": e.previous_fladub,
                }
                for e in ranking.entries[lo : lo + step]
            ],
        )
    return replace(ranking, computed_at=now)


def published(s: Session, month: str) -> Ranking | None:
    """The published ranking of ``month``, or None.

    A snapshot whose stored parameters are not readable, or whose digest does
    not match what it holds, raises "tampered with" (never a JSON traceback).
    """
    month = month_key(month)
    row = s.scalar(select(SnapshotRow).where(SnapshotRow.month == month))
    if row is None:
        return None
    q = (
        select(
            EntryRow.position,
            EntryRow.player_id,
            Player.number,
            Player.name,
            EntryRow.fladub,
            EntryRow.strength,
            EntryRow.games,
            EntryRow.provisional,
            EntryRow.previous_position,
            EntryRow.previous_fladub,
        )
        .join(Player, Player.id == EntryRow.player_id)
        .where(EntryRow.snapshot_id == row.id)
        .order_by(EntryRow.position, Player.number)
    )
    entries = tuple(  # columns, not ORM objects: a month holds every ranked player
        Entry(
            position=position,
            player_id=player_id,
            number=number,
            name=name,
            fladub=float(fladub),
            strength=float(strength),
            games=games,
            provisional=bool(provisional),
            previous_position=previous_position,
            previous_fladub=None if previous_fladub is None else float(previous_fladub),
        )
        for (position, player_id, number, name, fladub, strength, games, provisional,
             previous_position, previous_fladub) in s.execute(q)
    )
    try:
        params = stored_params(row.params)
    except (ValueError, TypeError, RecursionError, FidoError):
        raise ResultError(_("the published ranking of {month} has been tampered with: its "
                            "parameters are not readable").format(month=month)) from None
    r = Ranking(
        month,
        utc(row.cutoff),
        params,
        row.games,
        entries,
        row.digest,
        utc(row.computed_at),
        row.digest_version,
    )
    if r.digest_version not in (1, DIGEST_VERSION) or content_digest(r) != r.digest:
        raise ResultError(_("the published ranking of {month} has been tampered with: its "
                            "digest does not match what it holds").format(month=month))
    if r.cutoff != month_bounds(month)[1]:
        raise ResultError(_("the published ranking of {month} has been tampered with: its "
                            "cutoff {cutoff} UTC is wrong").format(
                                month=month, cutoff=f"{r.cutoff:%Y-%m-%d %H:%M}"))
    return r


def stored_params(text: str) -> Params:
    """A snapshot's parameters, which keep its formula: one without ``formula``
    predates the table model (formula 2, linear ageing), one without
    ``margin_cap`` margin pairs too (version 1)."""
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("parameters are a JSON object")
    return Params(**{"formula": 2, "margin_cap": 0.0, "age_power": 1.0, **data})


def same_ranking(stored: Ranking, again: Ranking) -> bool:
    """Whether a recomputation gives a published ranking back, metadata and all."""
    if again.entries != stored.entries or again.games != stored.games:
        return False
    if again.cutoff != stored.cutoff or again.params != stored.params:
        return False
    return stored.digest_version == 1 or again.digest == stored.digest


def verify(s: Session, month: str) -> Ranking:
    """Recompute a published month from the stored results; refuse any difference."""
    stored = published(s, month)
    if stored is None:
        raise ResultError(f"the ranking of {month_key(month)} has not been published")
    again, _, _ = compute_month(s, month, stored.params)
    if not same_ranking(stored, again):
        raise ResultError(f"recomputing {stored.month} does not give the published ranking back")
    return stored
