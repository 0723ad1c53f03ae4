"""The monthly close: every ended month's ranking is published once, by itself.

The server runs :class:`MonthlyClose` in its lifespan: it wakes every few
minutes and publishes, in order, every month that has ended (its cutoff, the
next month's first instant UTC, plus an optional delay) and is not published
yet, through :func:`fido.ranking.snapshot.publish`. ``fido ranking close``
does the same once, for installations that prefer cron (:func:`close_due`).

Several server processes may run it on one database; exactly one publishes
a month. PostgreSQL: the publishing transaction first takes a transaction-level
advisory lock (``pg_try_advisory_xact_lock``); a process that does not get it
leaves the month to the one that did. SQLite: a writing transaction holds the
database's write lock from its start (``BEGIN IMMEDIATE``), so the second
process reads the month as published. Behind both, the unique month of
``ranking_snapshots`` refuses a second snapshot: that conflict is logged as
"already published", never raised. An error is logged and the job goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from sqlalchemy import func, select, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from fido.accounts.notifications import notify_published
from fido.errors import FidoError
from fido.ranking.clock import utc, utcnow
from fido.ranking.snapshot import Ranking, closed_until, month_bounds, month_of, previous_month
from fido.ranking.snapshot import publish as publish_month
from fido.safe_text import printable
from fido.store import GameRow, SnapshotRow, Store, db_message

__all__ = [
    "Closed",
    "MonthlyClose",
    "MonthlySettings",
    "close_due",
    "close_one",
    "last_ended",
    "next_due",
    "publish_month",
]

log = logging.getLogger("fido.server.monthly")

# pg_try_advisory_xact_lock's key: "fidoclos" in ASCII, one lock for the whole database
LOCK_KEY = 0x6669646F636C6F73
MAX_MONTHS = 1200  # a run publishes at most a century of months (a guard, not a limit met)

Outcome = Literal["published", "already", "busy", "refused"]


@dataclass(frozen=True)
class MonthlySettings:
    """How often the server looks for an ended month (seconds; 0: never, cron does
    it) and how long after a month's cutoff it waits before publishing (seconds:
    time for paper sheets received in the month to be entered with their date)."""

    every: float = 600.0
    delay: float = 0.0


@dataclass(frozen=True)
class Closed:
    """What one attempt did: published ``month``, found it already published,
    found another process at it (``busy``), or was refused (the reason)."""

    month: str | None
    outcome: Outcome
    message: str
    ranking: Ranking | None = None


def last_ended(now: dt.datetime, delay: dt.timedelta = dt.timedelta(0)) -> str | None:
    """The latest month whose cutoff plus ``delay`` is at or before ``now``."""
    return previous_month(month_of(utc(now) - delay))


def _next_month(month: str) -> str:
    return month_of(month_bounds(month)[1])


def next_due(
    s: Session, now: dt.datetime, delay: dt.timedelta = dt.timedelta(0)
) -> str | None:
    """The first ended month not published yet (None: nothing to do).

    After the latest published month comes the next; with none published,
    the month the first result was received in (it is the first whose ranking
    counts anything). Months are published in order: each carries the
    previous one's numbers on.
    """
    ended = last_ended(now, delay)
    if ended is None:
        return None
    latest = closed_until(s)
    if latest is not None:
        start = _next_month(latest[0])
    else:
        first = s.scalar(select(func.min(GameRow.received_at)))
        if first is None:
            return None
        start = month_of(utc(first))
    return start if start <= ended else None


def _is_published(store: Store, month: str) -> bool:
    with store.session(write=False) as s:
        return s.scalar(select(SnapshotRow.id).where(SnapshotRow.month == month)) is not None


def close_one(
    store: Store, now: dt.datetime, delay: dt.timedelta = dt.timedelta(0)
) -> Closed | None:
    """Publish the first due month in one transaction; None when none is due."""
    month: str | None = None
    try:
        with store.session() as s:
            if s.get_bind().dialect.name == "postgresql" and not s.scalar(
                text("SELECT pg_try_advisory_xact_lock(:key)"), {"key": LOCK_KEY}
            ):
                return Closed(None, "busy", "another process is publishing a month")
            month = next_due(s, now, delay)
            if month is None:
                return None
            ranking = publish_month(s, month, now=now)
            notify_published(s, month, now=now)  # the federation checks it (its inbox)
    except (FidoError, SQLAlchemyError) as e:
        # the unique month (or publish's own check) stopped a second snapshot:
        # another process got there between our reading and our writing
        if month is not None and _is_published(store, month):
            return Closed(month, "already", f"{month} was already published by another process")
        why = db_message(e) if isinstance(e, SQLAlchemyError) else str(e)
        return Closed(month, "refused", printable(why, 500))
    return Closed(
        month,
        "published",
        f"published {month}: {len(ranking.entries)} players, {ranking.games} games, "
        f"digest {ranking.digest[:16]}",
        ranking,
    )


def close_due(
    store: Store, *, now: dt.datetime | None = None, delay: dt.timedelta = dt.timedelta(0)
) -> list[Closed]:
    """Publish every ended, unpublished month, oldest first, each in its own
    transaction; stops at the first month not published (refused, or left to
    another process): a later month must not be published before it."""
    now = utc(now or utcnow())
    done: list[Closed] = []
    for _ in range(MAX_MONTHS):
        closed = close_one(store, now, delay)
        if closed is None:
            break
        done.append(closed)
        if closed.outcome != "published":
            break
    return done


class MonthlyClose:
    """The server's background task: :func:`close_due` every ``settings.every`` seconds.

    ``clock`` gives "now" (tests set ``$FIDO_NOW``, which :func:`utcnow` reads).
    """

    def __init__(
        self, store: Store, settings: MonthlySettings, clock: Callable[[], dt.datetime] = utcnow,
        done: Callable[[], None] | None = None,
    ) -> None:
        self.store, self.settings, self.clock = store, settings, clock
        self.done = done  # told after each wake-up that ran to its end (a metric's time)
        self._task: asyncio.Task[None] | None = None
        self._stopping: asyncio.Event | None = None
        self._said: set[tuple[str | None, str]] = set()  # what was logged once already

    async def start(self) -> None:
        if self.settings.every <= 0:
            log.info("monthly close: off (fido ranking close publishes ended months)")
            return
        self._stopping = asyncio.Event()
        self._task = asyncio.create_task(self._run(), name="fido-monthly-close")

    async def stop(self) -> None:
        """Stop waking; a publication under way is finished first (it is one transaction)."""
        if self._task is None or self._stopping is None:
            return
        self._stopping.set()
        await self._task
        self._task = None

    async def _run(self) -> None:
        assert self._stopping is not None
        while not self._stopping.is_set():
            try:
                done = await asyncio.to_thread(self.run_once)
            except Exception as e:  # never the server's end: logged, tried again later
                log.error("monthly close: %s: %s", type(e).__name__, printable(str(e), 300))
            else:
                if self.done is not None and all(c.outcome in ("published", "already", "busy")
                                                 for c in done):
                    self.done()
            with contextlib.suppress(TimeoutError):  # the interval passed: wake up
                await asyncio.wait_for(self._stopping.wait(), self.settings.every)

    def _once(self, key: tuple[str | None, str], level: int, message: str) -> None:
        """Log ``message`` the first time only (a refused month is not news every 10 min)."""
        if key not in self._said:
            self._said.add(key)
            log.log(level, "monthly close: %s", message)

    def run_once(self) -> list[Closed]:
        """One wake-up: publish what is due, and say what happened."""
        now = utc(self.clock())
        delay = dt.timedelta(seconds=self.settings.delay)
        done = close_due(self.store, now=now, delay=delay)
        for c in done:
            if c.outcome == "published":
                log.info("monthly close: %s", c.message)
                self._said.add((c.month, "already"))
            elif c.outcome == "already":
                self._once((c.month, "already"), logging.INFO, c.message)
            elif c.outcome == "busy":
                log.info("monthly close: %s; left to it", c.message)
            else:
                self._once(
                    (c.month, c.message), logging.ERROR,
                    f"{c.month} cannot be published: {c.message} (put it right, then "
                    f"`fido ranking compute --month {c.month}`; the job tries again)",
                )
        if not done:
            ended = last_ended(now, delay)
            if ended is not None and _is_published(self.store, ended):
                _, cutoff = month_bounds(_next_month(ended))
                self._once(
                    (ended, "already"), logging.INFO,
                    f"{ended} is already published; the next month closes at "
                    f"{cutoff + delay:%Y-%m-%d %H:%M} UTC",
                )
        return done
