"""A season, or a federation's million results, imported in batches.

:func:`import_results` reads its results twice over, never all at once:

1. every result is checked as :func:`fido.ranking.submission.submit` would
   (the sheet, its players, its receipt against the published months) and
   written, compact, to a temporary spool file; the first fault raises,
   naming its row, and nothing has been stored;
2. the spool is stored in batches of :data:`BATCH` games, each batch its own
   short transaction with bulk INSERTs, so other commands (another import,
   ``players add``) get their turn between batches and memory stays bounded.

A stored game sent again is recognised by its key, as with ``submit``; an
import that stops half way (a month published meanwhile, the machine turned
off) is completed by running it again.
"""

from __future__ import annotations

import datetime as dt
import json
import pickle
import tempfile
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from fido.ranking.clock import utc, utcnow
from fido.ranking.errors import ResultError
from fido.ranking.players import find_player
from fido.ranking.snapshot import closed_until
from fido.ranking.submission import SOURCES, check_received, check_result, parse_result, stored_key
from fido.store import Base, GameRow, LineRow, Player, Store

__all__ = ["BATCH", "import_results"]

BATCH = 5000  # games per transaction: a fraction of a second of writing
GAMES = Base.metadata.tables[GameRow.__tablename__]
LINES = Base.metadata.tables[LineRow.__tablename__]

# one spooled game: key, whether the caller gave the key, played_on, event,
# set, divisor, source, received_at, submitter id, record, lines (player id, points,
# pips), and the content's key when the caller gave her own
Spooled = tuple[
    str, bool, dt.date, str, int, int, str, dt.datetime, int | None, str | None,
    tuple[tuple[int, int, int], ...], str | None,
]


def _check(
    label: str,
    data: dict[str, Any],
    now: dt.datetime,
    players: dict[int, int],
    merged: dict[int, str],
    *,
    closed: tuple[str, dt.datetime] | None,
) -> Spooled:
    data = dict(data)
    received = utc(data.pop("received", None) or now)
    r = parse_result(data)
    if r.source not in SOURCES:
        raise ResultError(f"unknown source {r.source!r} (one of: {', '.join(SOURCES)})")
    rules = check_result(r, today=received.date())
    check_received(received, closed)
    for n in [ln.player for ln in r.lines] + (
        [r.submitted_by] if r.submitted_by is not None else []
    ):
        if n not in players:
            if n in merged:
                raise ResultError(merged[n])
            raise ResultError(f"no registered player has number {n}")
    return (
        r.key or r.content_key(),
        r.key is not None,
        r.date,
        " ".join(r.event.split()),
        rules.max_pips,
        rules.divisor,
        r.source,
        received,
        players[r.submitted_by] if r.submitted_by is not None else None,
        json.dumps(r.record, sort_keys=True) if r.record is not None else None,
        tuple((players[ln.player], ln.points, ln.pips) for ln in r.lines),
        r.content_key() if r.key is not None else None,
    )


def _merged_messages(s: Session) -> dict[int, str]:
    """Per merged player's number, the message that refuses it (naming her survivor)."""
    out = {}
    for p in s.scalars(select(Player).where(Player.merged_into.is_not(None))):
        try:
            find_player(s, p.number, live=True)
        except ResultError as e:
            out[p.number] = str(e)
    return out


def _spool(
    store: Store, items: Iterable[tuple[str, dict[str, Any]]], now: dt.datetime, out: IO[bytes]
) -> int:
    """Pass 1: check every result, spool the checked ones; returns how many."""
    with store.session(write=False) as s:
        players = dict(
            s.execute(
                select(Player.number, Player.id).where(Player.merged_into.is_(None))
            ).all()
        )
        merged = _merged_messages(s)
        closed = closed_until(s)
    count = 0
    batch: list[Spooled] = []
    labels: list[str] = []
    for label, data in items:
        try:
            batch.append(_check(label, data, now, players, merged, closed=closed))
        except ResultError as e:
            raise ResultError(f"{label}: {e}") from None
        labels.append(label)
        if len(batch) == BATCH:
            _caller_keys(store, batch, labels)
            pickle.dump(batch, out)
            count += len(batch)
            batch, labels = [], []
    if batch:
        _caller_keys(store, batch, labels)
        pickle.dump(batch, out)
        count += len(batch)
    return count


def _caller_keys(store: Store, batch: list[Spooled], labels: list[str]) -> None:
    """A key the caller gave, stored before with other results, is an error (as in submit)."""
    given = {g[0]: (g, label) for g, label in zip(batch, labels, strict=True) if g[1]}
    if not given:
        return
    with store.session(write=False) as s:
        for old in s.scalars(select(GameRow).where(GameRow.key.in_(given))):
            g, label = given[old.key]
            if g[11] != stored_key(old):
                raise ResultError(
                    f"{label}: game {old.key!r} was already submitted with other results"
                )


def _batches(spool: IO[bytes]) -> Iterator[list[Spooled]]:
    spool.seek(0)
    while True:
        try:
            yield pickle.load(spool)
        except EOFError:
            return


def _store_batch(store: Store, batch: list[Spooled]) -> int:
    """Pass 2, one batch in one transaction; returns how many games were new."""
    with store.session() as s:
        closed = closed_until(s)  # a month published since pass 1 refuses what it closed
        for g in batch:
            check_received(g[7], closed)
        keys = list({g[0] for g in batch})
        stored = {
            key: utc(at)
            for key, at in s.execute(
                select(GameRow.key, GameRow.received_at).where(GameRow.key.in_(keys))
            )
        }
        earlier: dict[str, dt.datetime] = {}
        fresh: dict[str, Spooled] = {}
        for g in batch:
            key, received = g[0], g[7]
            if key in stored:
                if received < earlier.get(key, stored[key]):
                    earlier[key] = received
            elif key not in fresh or received < fresh[key][7]:
                fresh[key] = g
        for key, received in earlier.items():
            s.execute(update(GameRow).where(GameRow.key == key).values(received_at=received))
        if not fresh:
            return 0
        rows = [
            {
                "key": g[0], "played_on": g[2], "event": g[3], "set": g[4], "divisor": g[5],
                "source": g[6], "received_at": g[7], "submitted_by": g[8], "record": g[9],
            }
            for g in fresh.values()
        ]
        # Core statements, not the ORM's: a batch's rows go to executemany as they are
        conn = s.connection()
        conn.execute(insert(GAMES), rows)
        ids = dict(
            conn.execute(
                select(GameRow.key, GameRow.id).where(GameRow.key.in_(list(fresh)))
            ).all()
        )
        conn.execute(
            insert(LINES),
            [
                {
                    "game_id": ids[g[0]], "seat": seat, "player_id": p,
                    "points": a, "pips": b, "final": a - b,
                }
                for g in fresh.values()
                for seat, (p, a, b) in enumerate(g[10])
            ],
        )
        return len(fresh)


def import_results(
    store: Store,
    items: Iterable[tuple[str, dict[str, Any]]],
    *,
    now: dt.datetime | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[int, int]:
    """Check, then store, labelled results; returns (new games, games already stored).

    A bad result raises a :class:`ResultError` naming its label before anything
    is stored. ``progress(done, total)`` is called after each stored batch.
    """
    now = utc(now or utcnow())
    with tempfile.TemporaryFile() as spool:
        total = _spool(store, items, now, spool)
        new = done = 0
        for batch in _batches(spool):
            for _attempt in range(3):
                try:
                    new += _store_batch(store, batch)
                    break
                except IntegrityError:
                    # another session stored some of these games meanwhile
                    # (PostgreSQL): the batch again finds them stored
                    continue
            else:
                raise ResultError("other imports kept storing the same games; run it again")
            done += len(batch)
            if progress is not None:
                progress(done, total)
    return new, total - new
