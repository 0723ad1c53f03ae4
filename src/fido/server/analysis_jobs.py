"""Analyses of finished games, run in their own worker process, stored with the game.

A player asks for the analysis of her moves once the game is over
(:mod:`fido.analysis`: every decision judged from her view only). It takes
seconds to a minute of CPU, so it never runs on the event loop, nor in the
bots' pool (a bot's move would wait behind it): one worker process of its
own, at a lower priority, judges the decisions. It serves the people asking in
a fair order (:mod:`fido.server.fair`), one decision at a time: the address (or
account) with the least recent work goes first, so the next person's analysis
does not wait behind everything one address of many guests asked for.

Nothing asked for is lost: the request is a row (``queued``) committed
before the answer, the worker claims it (``running``, with an UPDATE that
only one process can win) and stores the result (``done``) or the reason
(``failed``). A server that starts again runs what was queued, and what a
dead process left ``running`` for longer than :data:`STALE` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import logging
import os
import secrets
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from multiprocessing import get_context
from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from fido.engine.rules import Ruleset
from fido.i18n import N_, _, ngettext
from fido.server.botpool import end_with_parent
from fido.server.errors import ApiError
from fido.server.fair import FairShare
from fido.store import AnalysisRow, Store, TableRow

__all__ = ["STALE", "AnalysisJobs", "analysis_json"]

log = logging.getLogger("fido.server")

STALE = 5 * 60  # seconds a "running" analysis may take before another process retries it


def _worker_start() -> None:
    """The analysis worker yields to the server and the bots (nice 10), and ends with it."""
    end_with_parent()
    with contextlib.suppress(OSError):  # not allowed here: the same priority then
        os.nice(10)


def _jobs(record_json: str, seat: int, samples: int, seed: int) -> tuple[Any, list[Any]]:
    """The record read and replayed (ValueError: refused, with its reason) and each
    decision of ``seat`` as a job for the worker."""
    from fido.analysis.report import check_settings, decision_jobs  # noqa: PLC0415
    from fido.record import GameRecord  # noqa: PLC0415

    record = GameRecord.from_json(record_json)
    seats = check_settings(record, [seat], samples)
    return record, decision_jobs(record, seats, samples, seed)


def _result(record: Any, seat: int, samples: int, seed: int, decisions: list[Any]) -> str:
    """The judged decisions as the analysis's JSON text."""
    from fido.analysis.report import assemble  # noqa: PLC0415

    return json.dumps(assemble(record, [seat], samples, seed, decisions).to_dict())


def _decide(job: Any) -> Any:
    """What the worker runs: one decision judged."""
    from fido.analysis.report import analyse_decision  # noqa: PLC0415 (only in the worker)

    return analyse_decision(job)


def analysis_json(row: AnalysisRow) -> dict[str, Any]:
    """An analysis as the API shows it: its status, and its result when done."""
    out: dict[str, Any] = {"seat": row.seat, "status": row.status, "samples": row.samples,
                           "requested_at": row.requested_at.isoformat()}
    if row.status == "done" and row.result is not None:
        out["result"] = json.loads(row.result)
    if row.status == "failed":
        # stored in English (the marked sentences below, or the engine's reason): shown in the
        # reader's language where the catalog has it
        out["error"] = _(row.error or N_("the analysis failed"))
    return out


class AnalysisJobs:
    """The worker and the queue of one server process (``processes`` 0: a thread, tests)."""

    def __init__(self, store: Store, samples: int | None = None, processes: int = 1,
                 per_account: int = 3, per_address: int = 6) -> None:
        self.store, self.samples, self.per_account = store, samples, per_account
        # the analyses asked for from each address and not done yet, in this process: a
        # guest is an account, so one address of many guests would multiply per_account
        self.per_address = per_address
        self._by_address: dict[str, set[int]] = {}
        self._address_of: dict[int, str] = {}
        self._addresses = threading.Lock()
        self.executor: Executor
        if processes > 0:
            self.executor = ProcessPoolExecutor(
                max_workers=processes, mp_context=get_context("spawn"),
                initializer=_worker_start)
        else:
            self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fido-analysis")
        self._tasks: set[asyncio.Task[None]] = set()
        self.workers = max(processes, 1)
        self.share = FairShare(self.executor, self.workers)
        self._owner_of: dict[int, str] = {}  # whose turn an analysis takes (start)
        self._running = 0  # begun: some of their decisions judged or in the worker

    def counts(self) -> tuple[int, int]:
        """This process's analyses: (waiting, running), for the metrics."""
        return len(self._tasks) - self._running, self._running

    def queue(self, table_id: str, seat: int, account_id: int | None,
              address: str | None = None) -> AnalysisRow:
        """The analysis of ``seat`` at ``table_id``: the stored one, or a new queued one
        (committed before this returns: the caller then runs :meth:`start`), asked for
        from ``address`` (counted there until it is done)."""
        try:
            return self._queue(table_id, seat, account_id, address)
        except IntegrityError:  # asked twice at the same moment: the other request's row
            return self._queue(table_id, seat, account_id, address)

    def _check_address(self, address: str | None) -> None:
        if address is None or self.per_address <= 0:
            return
        with self._addresses:
            waiting = len(self._by_address.get(address, ()))
        if waiting >= self.per_address:
            raise ApiError(429, "analyses_waiting_here", ngettext(
                "{n} analysis asked for from your address is waiting or running: ask for "
                "this one when it is done",
                "{n} analyses asked for from your address are waiting or running: ask for "
                "this one when one of them is done", waiting).format(n=waiting))

    def _counted(self, analysis_id: int, address: str | None) -> None:
        if address is None:
            return
        with self._addresses:
            self._by_address.setdefault(address, set()).add(analysis_id)
            self._address_of[analysis_id] = address

    def _done_here(self, analysis_id: int) -> None:
        with self._addresses:
            address = self._address_of.pop(analysis_id, None)
            if address is None:
                return
            ids = self._by_address[address]
            ids.discard(analysis_id)
            if not ids:
                del self._by_address[address]

    def _queue(self, table_id: str, seat: int, account_id: int | None,
               address: str | None) -> AnalysisRow:
        with self.store.session() as s:
            # read before the new row exists: a query autoflushes it, and samples is NOT NULL
            samples = self._samples(s, table_id)
            row = s.scalar(select(AnalysisRow).where(AnalysisRow.table_id == table_id,
                                                     AnalysisRow.seat == seat))
            if row is not None and row.status != "failed":
                s.expunge(row)
                return row
            if account_id is not None:  # one player's archive must not hold up everyone's
                waiting = s.scalar(select(func.count()).select_from(AnalysisRow).where(
                    AnalysisRow.requested_by == account_id,
                    AnalysisRow.status.in_(("queued", "running")))) or 0
                if waiting >= self.per_account:
                    raise ApiError(429, "analyses_waiting", ngettext(
                        "{n} analysis of yours is waiting or running: ask for this one when "
                        "it is done",
                        "{n} analyses of yours are waiting or running: ask for this one when "
                        "one of them is done", waiting).format(n=waiting))
            self._check_address(address)
            if row is None:
                row = AnalysisRow(table_id=table_id, seat=seat)
                s.add(row)
            row.status, row.requested_by = "queued", account_id
            row.requested_at = dt.datetime.now(dt.UTC)
            row.samples, row.seed = samples, secrets.randbits(62)
            row.started_at = row.finished_at = row.result = row.error = None
            s.flush()
            s.expunge(row)
        self._counted(row.id, address)  # committed: counted until it is done
        # its turn in the worker's fair order: its address's (kept in memory only)
        self._owner_of[row.id] = (f"address:{address}" if address is not None
                                  else f"account:{account_id}")
        return row

    def _samples(self, s: Session, table_id: str) -> int:
        """Worlds per decision: the server's setting, else the analysis's own default
        for the table's set (docs/analysis.md: its speed)."""
        if self.samples is not None:
            return self.samples
        from fido.analysis.report import default_samples  # noqa: PLC0415

        table = s.get(TableRow, table_id)
        return default_samples(Ruleset.from_text(table.ruleset)) if table else 600

    def start(self, analysis_id: int, owner: str | None = None) -> None:
        """Run the analysis in the background (its task kept until done), in the worker's
        fair order as ``owner``'s (None: as the one who asked for it here)."""
        owner = owner or self._owner_of.get(analysis_id) or f"analysis:{analysis_id}"
        task = asyncio.ensure_future(self._run(analysis_id, owner))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _claim(self, analysis_id: int) -> tuple[str, int, int, int] | None:
        """Take the analysis for this process (None: another has it, or it is done)."""
        now = dt.datetime.now(dt.UTC)
        stale = now - dt.timedelta(seconds=STALE)
        with self.store.session() as s:
            won = s.execute(  # a CursorResult: rowcount is the rows it changed
                update(AnalysisRow)
                .where(AnalysisRow.id == analysis_id,
                       or_(AnalysisRow.status == "queued",
                           (AnalysisRow.status == "running") & (AnalysisRow.started_at < stale)))
                .values(status="running", started_at=now)
            ).rowcount  # type: ignore[attr-defined]
            if not won:
                return None
            row = s.get(AnalysisRow, analysis_id)
            assert row is not None
            table = s.get(TableRow, row.table_id)
            if table is None or table.record is None:
                row.status, row.error = "failed", N_("the game has no record")
                return None
            return table.record, row.seat, row.samples, row.seed

    def _finish(self, analysis_id: int, result: str | None, error: str | None) -> None:
        with self.store.session() as s:
            row = s.get(AnalysisRow, analysis_id)
            if row is None:
                return
            row.status = "done" if error is None else "failed"
            row.result, row.error = result, error
            row.finished_at = dt.datetime.now(dt.UTC)

    async def _run(self, analysis_id: int, owner: str) -> None:
        try:
            job = await asyncio.to_thread(self._claim, analysis_id)
            if job is None:
                return
            result, error = await self._judge(analysis_id, owner, job)
            await asyncio.to_thread(self._finish, analysis_id, result, error)
        finally:
            self._done_here(analysis_id)
            self._owner_of.pop(analysis_id, None)

    async def _judge(self, analysis_id: int, owner: str, claimed: tuple[str, int, int, int]
                     ) -> tuple[str | None, str | None]:
        """The analysis's JSON text, or why it failed: the record replayed here, each
        decision judged in the worker when ``owner``'s turn comes."""
        record_json, seat, samples, seed = claimed
        try:
            record, jobs = await asyncio.to_thread(_jobs, record_json, seat, samples, seed)
        except ValueError as e:  # a record the analysis refuses: its reason
            return None, str(e)
        self._running += 1
        touched = time.monotonic()

        async def judged(job: Any) -> Any:
            nonlocal touched
            decision = await self.share.run(owner, _decide, job)
            if time.monotonic() - touched > STALE / 2:  # still alive: no other takes it
                touched = time.monotonic()
                await asyncio.to_thread(self._touch, analysis_id)
            return decision

        try:
            decisions = await asyncio.gather(*(judged(j) for j in jobs))
            return await asyncio.to_thread(_result, record, seat, samples, seed,
                                           list(decisions)), None
        except ValueError as e:
            return None, str(e)
        except Exception as e:  # the worker died, or a bug: logged, the request kept
            log.error("analysis %s failed: %s", analysis_id, type(e).__name__)
            return None, N_("the analysis failed: ask for it again")
        finally:
            self._running -= 1

    def _touch(self, analysis_id: int) -> None:
        """A long analysis (its decisions waiting their turns) is still this process's."""
        with self.store.session() as s:
            s.execute(update(AnalysisRow).where(AnalysisRow.id == analysis_id,
                                                AnalysisRow.status == "running")
                      .values(started_at=dt.datetime.now(dt.UTC)))

    async def resume(self) -> None:
        """At start: run what was queued, and what a dead process left running."""
        stale = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=STALE)

        def waiting() -> list[tuple[int, int | None]]:
            with self.store.session(write=False) as s:
                return [(r.id, r.requested_by) for r in s.execute(
                    select(AnalysisRow.id, AnalysisRow.requested_by).where(or_(
                        AnalysisRow.status == "queued",
                        (AnalysisRow.status == "running") & (AnalysisRow.started_at < stale))))]

        for analysis_id, account_id in await asyncio.to_thread(waiting):
            self.start(analysis_id, f"account:{account_id}" if account_id else None)

    def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        self.executor.shutdown(wait=False, cancel_futures=True)
