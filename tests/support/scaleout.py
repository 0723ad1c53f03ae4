"""Two fido serve processes on one PostgreSQL for the scale-out tests."""

from __future__ import annotations

from pathlib import Path

from support.postgres import POSTGRES, empty_postgres
from support.server_procs import (
    ServerProcess,
)


def two_processes(tmp_path: Path, *, bot_delay: float) -> tuple[ServerProcess, ServerProcess]:
    """Two servers, not started, on an emptied PostgreSQL database (one bot worker each)."""
    assert POSTGRES
    empty_postgres(POSTGRES)
    a, b = (ServerProcess(POSTGRES, tmp_path / f"{name}.log", bot_delay=bot_delay,
                          bot_processes=1) for name in "ab")
    return a, b
