"""Independent jobs on every local core, or on a Ray cluster.

``fido simulate`` (deals) and ``fido analyze`` (decisions) both spread pure
jobs, each seeded by itself, so one process, a pool and a cluster give the
same results. This module is the one way they do it: the worker count and
the cluster address are checked before any work (a mistyped address would
otherwise look like a hang), Ray is imported only when asked for.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, TypeVar

from fido.errors import ConfigurationError

__all__ = ["RAY_CONNECT_TIMEOUT", "check_ray_address", "run_jobs"]

J = TypeVar("J")
R = TypeVar("R")

RAY_CONNECT_TIMEOUT = 5.0  # seconds to reach a cluster's head before giving up
# A Ray head (GCS, or the Ray Client server) is a gRPC server: to an HTTP/2
# connection preface it answers with a SETTINGS frame (type 4) at once.
_H2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])
_H2_SETTINGS = 4


def check_ray_address(address: str, timeout: float = RAY_CONNECT_TIMEOUT) -> None:
    """Refuse an address whose head does not answer within ``timeout`` seconds.

    ``ray.init`` waits a long time for an unreachable head, so a mistyped
    address looks like a hang; a TCP connection and the first bytes of HTTP/2
    (what gRPC, so Ray, speaks) tell within ``timeout``.
    ``local`` and ``auto`` are left to Ray.
    """
    if address in ("local", "auto"):
        return
    rest = address.removeprefix("ray://")
    host, colon, port_text = rest.rpartition(":")
    host = host.strip("[]")
    if not colon or not host or not port_text.isascii() or not port_text.isdigit():
        raise ConfigurationError(
            f"--ray {address!r}: give host:port (e.g. 10.0.0.5:6379 or ray://10.0.0.5:10001), "
            "'local' or 'auto'"
        )
    port = int(port_text)
    if not 0 < port < 65536:
        raise ConfigurationError(f"--ray {address!r}: port {port} is not 1 .. 65535")
    try:
        with socket.create_connection((host, port), timeout=timeout) as conn:
            conn.settimeout(timeout)
            conn.sendall(_H2_PREFACE)
            answer = b""
            while len(answer) < 9:  # a frame header
                part = conn.recv(9 - len(answer))
                if not part:
                    break
                answer += part
    except OSError as e:
        reason = e.strerror or type(e).__name__
        if isinstance(e, TimeoutError):
            reason = f"no answer in {timeout:g} s"
        raise ConfigurationError(f"cannot reach the Ray cluster at {address}: {reason}") from None
    if len(answer) < 4 or answer[3] != _H2_SETTINGS:  # a Ray head speaks gRPC, i.e. HTTP/2
        raise ConfigurationError(
            f"no Ray cluster at {address}: something answers there, but not Ray"
        )


def run_jobs(
    fn: Callable[[J], R],
    jobs: Sequence[J],
    *,
    workers: int | None = None,
    ray_address: str | None = None,
    ordered: bool = True,
    chunksize: int = 1,
) -> Iterator[R]:
    """``fn`` of every job: ``workers`` processes here (None: all cores; 1: this
    process), or a Ray cluster at ``ray_address`` ('local' starts one here).
    ``ordered``: results in the jobs' order, else as they finish (no core idles
    behind a long job). ``fn`` must be a module-level function (it is pickled)."""
    if ray_address:
        yield from _ray(fn, jobs, ray_address, ordered)
    elif workers == 1 or len(jobs) <= 1:
        yield from map(fn, jobs)
    else:
        pool = ProcessPoolExecutor(min(workers or os.cpu_count() or 1, len(jobs)))
        try:
            if ordered:
                yield from pool.map(fn, jobs, chunksize=chunksize)
            else:
                pending: set[Future[R]] = {pool.submit(fn, j) for j in jobs}
                while pending:
                    finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for f in finished:
                        yield f.result()
        finally:
            pool.shutdown(cancel_futures=True)  # a consumer that stops early stops the work


def _ray_module(address: str) -> Any:
    os.environ.setdefault("RAY_BACKEND_LOG_LEVEL", "error")  # not a warning a second
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
    return ray


def _ray(fn: Callable[[J], R], jobs: Sequence[J], address: str, ordered: bool) -> Iterator[R]:
    ray = _ray_module(address)
    remote = ray.remote(fn)
    pending = [remote.remote(job) for job in jobs]
    if ordered:  # in the jobs' order, so results do not depend on the cluster
        for ref in pending:
            yield ray.get(ref)
        return
    while pending:
        finished, pending = ray.wait(pending, num_returns=1)
        for ref in finished:
            yield ray.get(ref)
