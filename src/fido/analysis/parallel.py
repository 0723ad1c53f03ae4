"""Decisions judged on every local core, or on a Ray cluster (as ``fido simulate`` does).

The unit of work is one decision (:class:`~fido.analysis.report.DecisionJob`:
a view, the move played, the settings): seats and games are spread over
the same pool, biggest jobs first so that no core idles at the end. A
decision's generator is keyed by the seed and its move number, so a pool, a
cluster and one process give the same numbers.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

from fido.analysis.report import Decision, DecisionJob, analyse_decision
from fido.errors import ConfigurationError
from fido.tournament import check_ray_address

__all__ = ["check_parallel", "run_decisions"]

Progress = Callable[[int], None]  # called with how many decisions are done


def check_parallel(workers: int | None, ray_address: str | None) -> None:
    """Refuse a bad worker count or an unreachable cluster before any work."""
    if workers is not None and not 1 <= workers <= 1024:
        raise ConfigurationError(f"--jobs is 1 to 1024 processes, not {workers}")
    if ray_address:
        check_ray_address(ray_address)


def _cost(job: DecisionJob) -> int:
    """Roughly how long a decision takes: moves times tiles left to play out."""
    return len(job.view.legal_moves) * (sum(job.view.hand_counts) + job.view.stock_count)


def run_decisions(
    jobs: Sequence[DecisionJob],
    *,
    workers: int | None = None,
    ray_address: str | None = None,
    progress: Progress | None = None,
) -> list[Decision]:
    """Judge every job; ``workers`` processes here (None: all cores, 1: this process),
    or a Ray cluster at ``ray_address`` ('local' starts one here)."""
    check_parallel(workers, ray_address)
    order = sorted(jobs, key=_cost, reverse=True)
    if ray_address:
        results = _ray(order, ray_address)
    elif workers == 1 or len(order) <= 1:
        results = map(analyse_decision, order)
    else:
        results = _pool(order, workers or os.cpu_count() or 1)
    out = []
    for done, decision in enumerate(results, 1):
        out.append(decision)
        if progress:
            progress(done)
    return out


def _pool(jobs: list[DecisionJob], workers: int) -> Iterator[Decision]:
    with ProcessPoolExecutor(min(workers, len(jobs))) as pool:
        pending: set[Future[Decision]] = {pool.submit(analyse_decision, j) for j in jobs}
        try:
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in finished:
                    yield f.result()
        finally:
            for f in pending:
                f.cancel()


def _ray(jobs: list[DecisionJob], address: str) -> Iterator[Decision]:
    os.environ.setdefault("RAY_BACKEND_LOG_LEVEL", "error")
    try:
        import ray  # noqa: PLC0415 (optional: the cluster extra)
    except ImportError:
        raise ConfigurationError(
            "--ray needs Ray: pip install 'fido[cluster]' (or drop --ray to use local cores)"
        ) from None
    if not ray.is_initialized():
        try:
            if address == "local":
                ray.init(include_dashboard=False, log_to_driver=False)
            else:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
        except Exception as e:  # Ray raises ConnectionError, RuntimeError, ...
            text = str(e).strip()
            message = text.splitlines()[0][:200] if text else type(e).__name__
            raise ConfigurationError(f"cannot start Ray at {address}: {message}") from None
    remote = ray.remote(analyse_decision)
    pending = [remote.remote(job) for job in jobs]
    while pending:
        finished, pending = ray.wait(pending, num_returns=1)
        for ref in finished:
            yield ray.get(ref)
