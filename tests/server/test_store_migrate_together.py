"""Several processes started at once on one empty PostgreSQL database all open it: one
migrates, the others wait for it and find the schema at its head (docs/deploy.md,
*Upgrades*). Without the migration's lock the second failed on a duplicate table.

PostgreSQL only (SQLite's write lock already serialises it): skipped without
``FIDO_TEST_POSTGRES_URL``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, text

from fido.store import MIGRATIONS
from support.postgres import POSTGRES, empty_postgres
from support.server_procs import SRC

pytestmark = pytest.mark.skipif(
    not POSTGRES, reason="FIDO_TEST_POSTGRES_URL is not set (tests/with_postgres.py sets it)")

# each process waits for the same moment, then opens the store (and migrates it)
OPEN_AT = """
import sys, time
from fido.store import StoreError, open_store
at = float(sys.argv[1])
while time.time() < at:
    pass
try:
    open_store(sys.argv[2]).close()
except StoreError as e:
    print(f"error: {e}")
    sys.exit(1)
print("opened")
"""


def head() -> str:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    found = ScriptDirectory.from_config(cfg).get_current_head()
    assert found is not None
    return found


@pytest.mark.parametrize("processes", [2, 3])
def test_processes_started_together_all_open_an_empty_database(processes: int) -> None:
    assert POSTGRES
    env = {**os.environ, "PYTHONPATH": SRC}
    for _attempt in range(2):
        empty_postgres(POSTGRES)
        at = time.time() + 2.0  # all of them loaded by then
        procs = [subprocess.Popen([sys.executable, "-c", OPEN_AT, str(at), POSTGRES],
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, env=env) for _ in range(processes)]
        outs = [p.communicate(timeout=120)[0] for p in procs]
        assert [p.returncode for p in procs] == [0] * processes, outs
        engine = create_engine(POSTGRES)
        try:
            with engine.connect() as conn:
                versions = conn.execute(text("SELECT version_num FROM alembic_version")).all()
        finally:
            engine.dispose()
        assert [v for (v,) in versions] == [head()]
