"""Sign-in rate limits: failed attempts per account and per client address.

Kept in memory, per server process, in a sliding window. Why not in the
database: a failed attempt would then be a write, and an attacker's flood of
them would contend for SQLite's single writer with the real players; the
limit exists to stop guessing, and a guesser gains little from a restart
(the window is minutes, a restart is rare and visible). ``fido serve`` runs
one process; behind several workers each counts on its own, so the
effective limit is that many times higher (docs/server.md).
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable

__all__ = ["RateLimiter"]


class RateLimiter:
    """At most ``limit`` failures per key within ``window`` seconds.

    Thread-safe (the API's handlers run in a thread pool). Memory is bounded:
    past ``max_keys`` keys, those without a failure in the window are dropped.
    """

    def __init__(
        self,
        limit: int,
        window: float,
        *,
        max_keys: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit, self.window, self.max_keys, self.clock = limit, window, max_keys, clock
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, key: str, now: float) -> deque[float]:
        times = self._failures.get(key, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        return times

    def retry_after(self, key: str) -> int:
        """Seconds until ``key`` may try again; 0: it may now."""
        with self._lock:
            now = self.clock()
            times = self._recent(key, now)
            if len(times) < self.limit:
                return 0
            return max(1, math.ceil(times[-self.limit] + self.window - now))

    def failed(self, key: str) -> None:
        with self._lock:
            now = self.clock()
            if key not in self._failures and len(self._failures) >= self.max_keys:
                self._prune(now)
            times = self._recent(key, now)
            times.append(now)
            while len(times) > self.limit:  # older ones no longer decide anything
                times.popleft()
            self._failures[key] = times

    def reserve(self, key: str) -> float | None:
        """Count an attempt as failed before it is checked, so that attempts at the same
        moment cannot all pass the limit: None when it is reached (:meth:`retry_after`
        says how long), else the attempt's mark for :meth:`release` if it succeeds."""
        with self._lock:
            now = self.clock()
            if key not in self._failures and len(self._failures) >= self.max_keys:
                self._prune(now)
            times = self._recent(key, now)
            self._failures[key] = times
            if len(times) >= self.limit:
                return None
            times.append(now)
            return now

    def release(self, key: str, mark: float) -> None:
        """The attempt reserved with ``mark`` succeeded: it is not a failure."""
        with self._lock:
            times = self._failures.get(key)
            if times is not None and mark in times:
                times.remove(mark)

    def reset(self, key: str) -> None:
        with self._lock:
            self._failures.pop(key, None)

    def _prune(self, now: float) -> None:
        for key in list(self._failures):
            if not self._recent(key, now):
                del self._failures[key]
        if len(self._failures) >= self.max_keys:  # a flood of live keys: forget the oldest
            oldest = sorted(self._failures, key=lambda k: self._failures[k][-1])
            for key in oldest[: len(oldest) // 2]:
                del self._failures[key]
