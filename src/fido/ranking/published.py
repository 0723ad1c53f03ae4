"""The published ranking as the pages read it, kept where it never changes: the months
published, a month with today's names and countries (:class:`Snapshots`), a month's
whole computation for the players' pages (:class:`Computations`).

A published month never changes, so each process keeps a few; each read still checks
the snapshot's row (id, digest), so a snapshot replaced under the same month is read
again and a renamed player shows under her new name at once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import replace as dc_replace

from sqlalchemy import select
from sqlalchemy.orm import Session

from fido.ranking.report import MonthComputation, month_computation
from fido.ranking.snapshot import Ranking, published
from fido.store import EntryRow, Player, SnapshotRow

__all__ = ["Computations", "Snapshots", "published_months"]


def published_months(s: Session) -> list[str]:
    """The published months, newest first."""
    return list(s.scalars(select(SnapshotRow.month).order_by(SnapshotRow.month.desc())))


def _people(s: Session, snapshot_id: int) -> dict[int, tuple[str, str | None]]:
    """Store id -> (name, country) of everyone in a snapshot, as they are now (a
    renamed player shows under her new name, as ``fido ranking show`` has her)."""
    q = (
        select(EntryRow.player_id, Player.name, Player.country)
        .join(Player, Player.id == EntryRow.player_id)
        .where(EntryRow.snapshot_id == snapshot_id)
    )
    return {pid: (name, country) for pid, name, country in s.execute(q)}


class Snapshots:
    """Published rankings read once and kept (a few months, the most recently used).

    A published month never changes, and reading 5,000 entries through the ORM
    and checking their digest takes longer than drawing the page; each page
    still reads the snapshot's row (id, digest) and its players' names and
    countries, so a rename shows at once and a snapshot replaced under the same
    month is read again.
    """

    def __init__(self, size: int = 4) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[int, str], Ranking] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, s: Session, month: str) -> tuple[Ranking, dict[int, str | None]] | None:
        """The month's ranking with today's names, and every player's country; None if
        not published. A snapshot that does not check out raises :class:`ResultError`."""
        row = s.execute(
            select(SnapshotRow.id, SnapshotRow.digest).where(SnapshotRow.month == month)
        ).first()
        if row is None:
            return None
        key = (int(row[0]), str(row[1]))
        with self._lock:
            ranking = self._kept.get(key)
            if ranking is not None:
                self._kept.move_to_end(key)
        if ranking is None:
            ranking = published(s, month)
            if ranking is None:
                return None
            with self._lock:
                self._kept[key] = ranking
                while len(self._kept) > self.size:
                    self._kept.popitem(last=False)
        people = _people(s, key[0])
        if any(people.get(e.player_id, (e.name,))[0] != e.name for e in ranking.entries):
            ranking = dc_replace(ranking, entries=tuple(
                dc_replace(e, name=people[e.player_id][0]) if e.player_id in people else e
                for e in ranking.entries))
        return ranking, {pid: country for pid, (_, country) in people.items()}


class Computations:
    """Published months computed once for the players' pages, and kept (a few months).

    A player's page explains every counted game, which needs the month's whole
    computation (seconds on a federation's year of results); a published month
    never changes, so each process computes it once per snapshot (its id and
    digest key it: a snapshot replaced under the same month is computed again).
    """

    def __init__(self, size: int = 2) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[int, str], MonthComputation] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, s: Session, month: str) -> MonthComputation:
        row = s.execute(
            select(SnapshotRow.id, SnapshotRow.digest).where(SnapshotRow.month == month)
        ).first()
        if row is None:
            return month_computation(s, month)  # not published: nothing to keep
        key = (int(row[0]), str(row[1]))
        with self._lock:
            done = self._kept.get(key)
            if done is not None:
                self._kept.move_to_end(key)
                return done
        done = month_computation(s, month)
        with self._lock:
            self._kept[key] = done
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return done
