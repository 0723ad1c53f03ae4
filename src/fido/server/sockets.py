"""The table sockets a server process holds open: counted per account and address (a
cap on opening many), grouped by the session they were opened with, so that the
end of a session closes them at once, and all of them, so that a process told to stop
closes them with :data:`CLOSE_RESTART` once what is being written is written
(:class:`Drain`; :mod:`fido.server.play` serves them)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fido.server.tables import Conn

__all__ = ["CLOSE_RESTART", "RECHECK", "Drain", "SessionSockets", "SocketCount"]

log = logging.getLogger("fido.server")

RECHECK = 30.0  # seconds: how long a socket may outlive its session's end elsewhere
CLOSE_RESTART = 1012  # "Service Restart": this process stops, connect again (elsewhere)
DRAIN_SECONDS = 5.0  # at most this long for the moves being written and the last frames


class Drain:
    """Every table socket of the process, and the messages being handled on them, so that
    a process told to stop (SIGTERM: :func:`fido.cli.serve`) stops cleanly: no new socket
    is served (a handshake is answered with :data:`CLOSE_RESTART`), the moves being
    committed are committed (each one's ack and update queued as always), and every
    socket is closed with :data:`CLOSE_RESTART` after the frames queued before it, so
    that its client connects again at once, to another process or to this one restarted,
    and resends a move that got no answer (the same id: never played twice)."""

    def __init__(self) -> None:
        self.conns: set[Conn] = set()
        self.busy = 0  # messages being handled (a move being committed...)
        self.closing = False

    @contextlib.contextmanager
    def handling(self) -> Iterator[None]:
        """Around the handling of one message: :meth:`__call__` waits for it to end."""
        self.busy += 1
        try:
            yield
        finally:
            self.busy -= 1

    async def __call__(self, within: float = DRAIN_SECONDS) -> int:
        """Close every socket for a restart (once what is being handled is done, or
        ``within`` seconds); wait, within the same bound, for their last frames to go.
        How many sockets were closed."""
        self.closing = True
        deadline = time.monotonic() + within
        while self.busy and time.monotonic() < deadline:
            await asyncio.sleep(0.005)
        closed = list(self.conns)
        for conn in closed:
            conn.restarting = True
            conn.close()  # after what is queued: an ack, its update
        while self.conns and time.monotonic() < deadline:
            await asyncio.sleep(0.005)
        if self.busy or self.conns:
            log.warning("restart: %d messages still handled, %d sockets still open",
                        self.busy, len(self.conns))
        return len(closed)


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
