"""A test's ``fido serve`` is the process that answers on its port, never a stranger.

A port from ``free_port()`` is anybody's once it is returned, and the suite
starts servers on many at once. Where another process listens on it before
``fido serve`` binds, the health check used to get its answer from the
stranger: the test then talked to the wrong server (or to nothing), a flake
that names no cause. Now the answer counts only from a socket the process
holds; a port of the test's own choosing is chosen again, and a port the test
gave (a restart's) fails with the reason.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from support.server_live import stranger
from support.server_procs import PortTaken, ServerProcess


def test_a_port_taken_meanwhile_is_chosen_again(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'fido.db'}", tmp_path / "serve.log")
    with stranger() as taken:
        server.port = taken  # what free_port() returned, taken before the server bound it
        try:
            server.start()
            assert server.port != taken
            health = httpx.get(f"{server.base}/api/health", timeout=5)
            assert health.status_code == 200 and health.text != "stranger"
            assert server.proc is not None and server.proc.poll() is None
        finally:
            server.ensure_dead()


def test_a_given_port_taken_is_an_error_that_says_so(tmp_path: Path) -> None:
    with stranger() as taken:
        server = ServerProcess(f"sqlite:///{tmp_path / 'fido.db'}", tmp_path / "serve.log",
                               port=taken)
        try:
            with pytest.raises(PortTaken, match=f"port {taken}"):
                server.start()
        finally:
            server.ensure_dead()
