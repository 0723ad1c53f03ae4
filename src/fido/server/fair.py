"""Shared workers serve their owners in a fair order: the least served goes first.

The bots' workers and the analyses' worker are everyone's. Handed to them in the
order asked (an executor's queue), they serve whoever asks most: one person with
ten tables of strong bots had ten times another's share, and an address of fifty
guests queued its analyses before the next person's. :class:`FairShare` keeps the
queue itself, one line per owner (a table's opener, an address), and hands a
worker to the owner with the least work done for her lately: the seconds her jobs
took, halved every ``half_life`` seconds (so a person who comes back after a pause
is served first, and an owner busy all day does not wait for ever once the others
have had their turn). Within one owner, jobs go in the order asked.

One owner never holds every worker when there are several: one is always left
for the next person, so her first job starts at once rather than after the
longest job running. A job once handed to a worker runs to its end (a process
cannot be paused), so the unit of work is small: one bot decision, one decision
of an analysis.

Counted in this process (each of several server processes has its own workers).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

__all__ = ["FairShare"]

T = TypeVar("T")

HALF_LIFE = 300.0  # seconds: the work done for an owner counts half after five minutes
_FORGET = 0.01  # seconds of decayed work below which an idle owner is forgotten


class FairShare:
    """``workers`` slots of ``executor``, handed out by least recent work per owner."""

    def __init__(self, executor: Executor, workers: int, *, half_life: float = HALF_LIFE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.executor, self.workers = executor, max(1, workers)
        # the most one owner holds at once: all but one when there are several
        self.cap = self.workers - 1 if self.workers > 1 else 1
        self.half_life, self.clock = half_life, clock
        self._lines: dict[str, deque[tuple[int, asyncio.Future[None]]]] = {}
        self._held: dict[str, int] = {}  # owner -> workers her jobs hold now
        self._work: dict[str, tuple[float, float]] = {}  # owner -> (seconds, as of when)
        self._busy = 0
        self._order = itertools.count()  # ties: the job asked first

    def waiting(self) -> int:
        """Jobs waiting for a worker (not yet handed one)."""
        return sum(len(line) for line in self._lines.values())

    def work(self, owner: str) -> float:
        """The seconds of work done for ``owner`` lately (decayed to now)."""
        seconds, at = self._work.get(owner, (0.0, 0.0))
        if not seconds:
            return 0.0
        decay: float = 0.5 ** ((self.clock() - at) / self.half_life)
        return seconds * decay

    async def run(self, owner: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on a worker, when ``owner``'s turn comes: its result."""
        loop = asyncio.get_running_loop()
        ticket: asyncio.Future[None] = loop.create_future()
        self._lines.setdefault(owner, deque()).append((next(self._order), ticket))
        self._dispatch()
        try:
            await ticket
        except asyncio.CancelledError:
            if ticket.done() and not ticket.cancelled():  # handed a worker just now
                self._release(owner, 0.0)
            else:
                self._drop(owner, ticket)
            raise
        started = self.clock()
        try:
            job: Future[T] = self.executor.submit(fn, *args)
        except BaseException:
            self._release(owner, 0.0)
            raise

        def done(_: Future[T]) -> None:  # on the worker's thread: back to the loop
            with contextlib.suppress(RuntimeError):  # the loop has closed: nothing to free
                loop.call_soon_threadsafe(self._release, owner, self.clock() - started)

        # the slot is freed when the job ends, even if its caller stopped waiting
        job.add_done_callback(done)
        return await asyncio.wrap_future(job)

    def _drop(self, owner: str, ticket: asyncio.Future[None]) -> None:
        line = self._lines.get(owner)
        if line is None:
            return
        for item in line:
            if item[1] is ticket:
                line.remove(item)
                break
        if not line:
            del self._lines[owner]

    def _release(self, owner: str, seconds: float) -> None:
        self._busy -= 1
        held = self._held.get(owner, 0) - 1
        if held > 0:
            self._held[owner] = held
        else:
            self._held.pop(owner, None)
        now = self.clock()
        self._work[owner] = (self.work(owner) + seconds, now)
        if len(self._work) > 1000:  # bounded: owners idle long enough are forgotten
            for key in [k for k in self._work if k not in self._held and self.work(k) < _FORGET]:
                del self._work[key]
        self._dispatch()

    def _dispatch(self) -> None:
        """Hand the free workers to the owners with the least recent work."""
        while self._busy < self.workers:
            best: tuple[float, int, str] | None = None
            for owner, line in self._lines.items():
                if self._held.get(owner, 0) >= self.cap:
                    continue
                key = (self.work(owner), line[0][0], owner)
                if best is None or key < best:
                    best = key
            if best is None:
                return
            owner = best[2]
            line = self._lines[owner]
            _, ticket = line.popleft()
            if not line:
                del self._lines[owner]
            self._busy += 1
            self._held[owner] = self._held.get(owner, 0) + 1
            ticket.set_result(None)
