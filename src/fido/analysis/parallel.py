"""Decisions judged on every local core, or on a Ray cluster (as ``fido simulate`` does).

The unit of work is one decision (:class:`~fido.analysis.report.DecisionJob`:
a view, the move played, the settings): seats and games are spread over
the same pool, biggest jobs first so that no core idles at the end. A
decision's generator is keyed by the seed and its move number, so a pool, a
cluster and one process give the same numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from fido.analysis.report import Decision, DecisionJob, analyse_decision
from fido.errors import ConfigurationError
from fido.parallel import check_ray_address, run_jobs

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
    out = []
    for done, decision in enumerate(run_jobs(analyse_decision, order, workers=workers,
                                             ray_address=ray_address, ordered=False), 1):
        out.append(decision)
        if progress:
            progress(done)
    return out
