"""The table sockets a server process holds open: counted per account and address (a
cap on opening many), and grouped by the session they were opened with, so that the
end of a session closes them at once (:mod:`fido.server.play` serves them)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fido.server.tables import Conn

__all__ = ["RECHECK", "SessionSockets", "SocketCount"]

log = logging.getLogger("fido.server")

RECHECK = 30.0  # seconds: how long a socket may outlive its session's end elsewhere


class SessionSockets:
    """The table sockets of each session (by its stored id), so that signing out, in or
    up closes them at once in this process; a session ended in another process (or
    expired) is found by :meth:`sweep`, which reads every open socket's session in one
    query every :data:`RECHECK` seconds."""

    def __init__(self) -> None:
        self.conns: dict[str, set[Conn]] = {}

    def add(self, key: str, conn: Conn) -> None:
        self.conns.setdefault(key, set()).add(conn)

    def remove(self, key: str, conn: Conn) -> None:
        group = self.conns.get(key)
        if group is not None:
            group.discard(conn)
            if not group:
                del self.conns[key]

    async def sweep(self, alive_of: Callable[[list[str]], set[str]]) -> None:
        """Close, every :data:`RECHECK` seconds, the sockets whose session has ended or
        expired (``alive_of``: the stored ids still alive, read in a worker thread)."""
        last = time.monotonic()
        while True:
            await asyncio.sleep(min(RECHECK, 1.0))  # a shorter RECHECK (tests) is seen soon
            if time.monotonic() - last < RECHECK:
                continue
            last = time.monotonic()
            keys = list(self.conns)
            if not keys:
                continue
            try:
                alive = await asyncio.to_thread(alive_of, keys)
            except Exception:  # the store is busy or away: the next sweep tries again
                log.warning("the sweep of the sockets' sessions failed", exc_info=True)
                continue
            for key in keys:
                if key not in alive:
                    self.end(key)

    def end(self, key: str | None) -> int:
        """Close the sockets of session ``key`` (on the event loop); how many."""
        group = self.conns.pop(key, set()) if key is not None else set()
        for conn in group:
            conn.signed_out = True
            conn.close()
        return len(group)



class SocketCount:
    """Open table connections per account and per address, capped: the credit
    counter limits one connection, this limits opening many."""

    def __init__(self, per_account: int = 20, per_address: int = 200) -> None:
        self.limits = {"account": per_account, "address": per_address}
        self.count: dict[str, int] = {}

    def open(self, keys: list[str]) -> bool:
        if any(self.count.get(k, 0) >= self.limits[k.split(":", 1)[0]] for k in keys):
            return False
        for k in keys:
            self.count[k] = self.count.get(k, 0) + 1
        return True

    def close(self, keys: list[str]) -> None:
        for k in keys:
            left = self.count.get(k, 0) - 1
            if left > 0:
                self.count[k] = left
            else:
                self.count.pop(k, None)
