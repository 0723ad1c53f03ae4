"""A server process whose clock the test moves on: days pass in seconds.

libfaketime (Debian's ``libfaketime``, installed by ``make system-deps``) is preloaded
into ``fido serve``; it reads the offset from a file the test rewrites
(``FAKETIME_TIMESTAMP_FILE``, "+86400" for a day later), for the wall clock and the
monotonic one alike, so the server's own timers (asyncio's, the tables' clocks) see the
time pass as the process would. Nothing in fido knows: it runs its real defaults.
"""

from __future__ import annotations

import glob
import time
from pathlib import Path

__all__ = ["FakeTime"]


class FakeTime:
    """The offset a server process lives at, and the environment that makes it so."""

    def __init__(self, directory: Path) -> None:
        found = sorted(glob.glob("/usr/lib/*/faketime/libfaketime.so.1"))
        assert found, "libfaketime is missing: make system-deps installs it (apt-get)"
        self.library = found[0]
        self.file = directory / "faketime"
        self.offset = 0.0
        self._write()

    def env(self) -> dict[str, str]:
        """For the server's environment (its bot workers inherit it)."""
        return {"LD_PRELOAD": self.library, "FAKETIME_TIMESTAMP_FILE": str(self.file),
                # read again once a second (not at every look at the clock: the
                # library's reading is not thread-safe, and the server has threads)
                "FAKETIME_CACHE_DURATION": "1", "DONT_FAKE_MONOTONIC": "0"}

    def advance(self, seconds: float) -> None:
        """The server's clocks jump ``seconds`` ahead (read within a second)."""
        self.offset += seconds
        self._write()
        time.sleep(1.1)  # the library's cache: the server sees the new time from now

    def _write(self) -> None:
        tmp = self.file.with_suffix(".new")
        tmp.write_text(f"{self.offset:+.0f}\n")
        tmp.replace(self.file)  # never read half-written
