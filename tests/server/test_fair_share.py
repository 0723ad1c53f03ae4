"""The shared workers' fair order (fido.server.fair): the owner served least lately goes
first, whoever asked first; one owner never holds every worker; a job its caller stops
waiting for keeps its worker until it ends, and one never handed a worker never runs.

Real threads as the workers (the server's are processes: the order is the same), a
clock the test moves."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from fido.server.fair import FairShare


class Jobs:
    """Jobs that say when they start and end when the test lets them."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.gates: dict[str, threading.Event] = {}
        self.lock = threading.Lock()

    def job(self, name: str) -> Callable[[], str]:
        gate = self.gates.setdefault(name, threading.Event())

        def run() -> str:
            with self.lock:
                self.started.append(name)
            assert gate.wait(10), f"{name} was never let go"
            return name

        return run

    def let_go(self, name: str) -> None:
        self.gates[name].set()


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def _until(cond: Callable[[], bool]) -> None:
    for _ in range(500):
        if cond():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("it never happened")


def test_the_owner_served_least_goes_before_one_who_asked_first() -> None:
    """A job of an owner new to the worker goes before the waiting jobs of one who has
    had it for minutes (an executor's own queue takes them in the order asked)."""
    async def main() -> list[str]:
        clock, jobs = Clock(), Jobs()
        with ThreadPoolExecutor(1) as pool:
            share = FairShare(pool, 1, clock=clock)
            greedy = [asyncio.create_task(share.run("greedy", jobs.job(f"g{i}")))
                      for i in range(4)]
            await _until(lambda: jobs.started == ["g0"])
            other = asyncio.create_task(share.run("other", jobs.job("o0")))
            await asyncio.sleep(0.05)
            assert share.waiting() == 4
            clock.now += 60  # g0 took a minute of the worker
            jobs.let_go("g0")
            await _until(lambda: len(jobs.started) == 2)
            for name in ("o0", "g1", "g2", "g3"):
                jobs.let_go(name)
            await asyncio.gather(*greedy, other)
            return jobs.started

    assert asyncio.run(main()) == ["g0", "o0", "g1", "g2", "g3"]


def test_one_owner_never_holds_every_worker() -> None:
    """With two workers one owner's jobs take one: the next person's job starts at once,
    not after the longest running; alone on one worker, an owner takes it."""
    async def main() -> None:
        jobs = Jobs()
        with ThreadPoolExecutor(2) as pool:
            share = FairShare(pool, 2)
            greedy = [asyncio.create_task(share.run("greedy", jobs.job(f"g{i}")))
                      for i in range(3)]
            await _until(lambda: jobs.started == ["g0"])
            await asyncio.sleep(0.05)
            assert jobs.started == ["g0"] and share.waiting() == 2
            other = asyncio.create_task(share.run("other", jobs.job("o0")))
            await _until(lambda: jobs.started == ["g0", "o0"])
            for name in ("g0", "o0", "g1", "g2"):
                jobs.let_go(name)
            assert await asyncio.gather(*greedy) == ["g0", "g1", "g2"]
            assert await other == "o0"
        with ThreadPoolExecutor(1) as pool:
            alone = FairShare(pool, 1)
            job = jobs.job("a0")
            jobs.let_go("a0")
            assert await alone.run("greedy", job) == "a0"

    asyncio.run(main())


def test_work_done_counts_less_as_time_passes() -> None:
    """Work halves every half-life: a person busy an hour ago is not last for ever."""
    async def main() -> tuple[float, float]:
        clock, jobs = Clock(), Jobs()
        with ThreadPoolExecutor(1) as pool:
            share = FairShare(pool, 1, clock=clock, half_life=300)
            task = asyncio.create_task(share.run("a", jobs.job("a0")))
            await _until(lambda: jobs.started == ["a0"])
            clock.now += 40
            jobs.let_go("a0")
            await task
            await _until(lambda: share._busy == 0)
            now = share.work("a")
            clock.now += 300
            return now, share.work("a")

    now, later = asyncio.run(main())
    assert now == 40 and abs(later - 20) < 1e-9


def test_a_job_nobody_waits_for_keeps_its_worker_until_it_ends() -> None:
    """A caller that stops waiting (a table's timer replaced) does not free the worker
    its job still runs on; a job still waiting is dropped and never runs."""
    async def main() -> list[str]:
        jobs = Jobs()
        with ThreadPoolExecutor(1) as pool:
            share = FairShare(pool, 1)
            running = asyncio.create_task(share.run("a", jobs.job("a0")))
            await _until(lambda: jobs.started == ["a0"])
            waiting = asyncio.create_task(share.run("a", jobs.job("a1")))
            nxt = asyncio.create_task(share.run("b", jobs.job("b0")))
            await asyncio.sleep(0.05)
            running.cancel()
            waiting.cancel()
            await asyncio.sleep(0.1)
            assert jobs.started == ["a0"]  # the worker is still a0's
            assert share.waiting() == 1  # b0's; a1 is gone
            jobs.let_go("a0")
            jobs.let_go("b0")
            assert await nxt == "b0"
            await asyncio.sleep(0.05)
            assert share._busy == 0
            return jobs.started

    assert asyncio.run(main()) == ["a0", "b0"]
