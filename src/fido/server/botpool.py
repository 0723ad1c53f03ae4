"""Bots that think decide in worker processes, never on the event loop.

A search decision takes most of a second of CPU; in a thread it would hold
the GIL and slow every table's messages. A process pool keeps the event
loop free, and the bot sees exactly what crosses the process boundary: the
seat's view (pickled), never the game. The quick bots (:data:`INLINE`) decide
in the server's process, from the same view: pickling it cost more than they do.

A worker ends with the server, however the server ends: it watches its
parent's sentinel, so a server killed with SIGKILL (or one that ends on
SIGTERM without running its exit handlers, as uvicorn does) leaves no
orphan worker behind; the resource tracker then ends too.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from functools import cache
from multiprocessing import get_context
from multiprocessing.connection import wait

from fido.bots import Bot, make_bot
from fido.engine.moves import Move
from fido.engine.views import SeatView
from fido.server.fair import FairShare

__all__ = ["INLINE", "BotPool", "decide"]

# the bots that decide on the event loop: greedy in ~10 us, expert in ~0.2 ms a decision
# (bench/server_load.py), less than sending the view to a worker costs; a search takes
# most of a second and always goes to the pool
INLINE = frozenset({"random", "greedy", "expert"})


@cache
def _bot(spec: str) -> Bot:
    return make_bot(spec)


def decide(spec: str, view: SeatView, seed: int) -> str:
    """The move bot ``spec`` makes from ``view`` (runs in a worker): its notation."""
    move: Move = _bot(spec).choose(view, random.Random(seed))
    return move.text()


def end_with_parent() -> None:
    """A worker's initializer: a thread ends the worker when its parent has ended."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="fido-parent-watch", daemon=True).start()


class BotPool:
    """``processes`` workers (default: the cores); 0 decides in threads (tests, small hosts).

    The workers serve the tables' owners in a fair order (:mod:`fido.server.fair`): the
    owner with the least recent work first, and never one owner on every worker."""

    def __init__(self, processes: int | None = None) -> None:
        n = (os.cpu_count() or 1) if processes is None else processes
        self.executor: Executor
        if n > 0:
            # spawn, not fork: the server has threads, and a forked lock may never open
            self.executor = ProcessPoolExecutor(
                max_workers=n, mp_context=get_context("spawn"), initializer=end_with_parent
            )
        else:
            self.executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="fido-bot")
        self.share = FairShare(self.executor, n if n > 0 else 2)
        # told each decision's bot and seconds (the server's metrics)
        self.decided: Callable[[str, float], None] | None = None

    async def decide(self, spec: str, view: SeatView, owner: str = "") -> Move:
        """Bot ``spec``'s move from ``view``, for a table of ``owner`` (whose turn in the
        workers' fair order it takes: the address the table was opened from,
        :attr:`fido.server.tables.timers.Clock.owner`)."""
        seed = secrets.randbits(64)
        started = time.perf_counter()
        if spec in INLINE:  # decided in microseconds: cheaper than pickling the view
            move = _bot(spec).choose(view, random.Random(seed))
        else:
            move = Move.from_text(await self.share.run(owner, decide, spec, view, seed))
        if self.decided is not None:
            self.decided(spec, time.perf_counter() - started)
        return move

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
