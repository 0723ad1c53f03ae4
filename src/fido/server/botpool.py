"""Bots decide in worker processes, never on the event loop.

A search decision takes most of a second of CPU; in a thread it would hold
the GIL and slow every table's messages. A process pool keeps the event
loop free, and the bot sees exactly what crosses the process boundary: the
seat's view (pickled), never the game.
"""

from __future__ import annotations

import asyncio
import os
import random
import secrets
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from functools import cache
from multiprocessing import get_context

from fido.bots import Bot, make_bot
from fido.moves import Move
from fido.views import SeatView

__all__ = ["BotPool", "decide"]


@cache
def _bot(spec: str) -> Bot:
    return make_bot(spec)


def decide(spec: str, view: SeatView, seed: int) -> str:
    """The move bot ``spec`` makes from ``view`` (runs in a worker): its notation."""
    move: Move = _bot(spec).choose(view, random.Random(seed))
    return move.text()


class BotPool:
    """``processes`` workers (default: the cores); 0 decides in threads (tests, small hosts)."""

    def __init__(self, processes: int | None = None) -> None:
        n = (os.cpu_count() or 1) if processes is None else processes
        self.executor: Executor
        if n > 0:
            # spawn, not fork: the server has threads, and a forked lock may never open
            self.executor = ProcessPoolExecutor(max_workers=n, mp_context=get_context("spawn"))
        else:
            self.executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="fido-bot")

    async def decide(self, spec: str, view: SeatView) -> Move:
        loop = asyncio.get_running_loop()
        seed = secrets.randbits(64)
        text = await loop.run_in_executor(self.executor, decide, spec, view, seed)
        return Move.from_text(text)

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
