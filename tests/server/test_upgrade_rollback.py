"""An upgrade with a migration, and going back, as docs/deploy.md ("Upgrades") says:
the previous release (this repository's code just before its newest migration, from
git) and this one, each its own ``fido`` process on one database.

The previous release refuses the database this release migrated, with a line that says
what to do (not a traceback); the backup made before the upgrade, restored by the
previous release into an empty database, is served by it with the data of before; and
the trial's trap is shown: the same backup restored by *this* release is migrated to its
schema, which the previous release refuses.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from io import BytesIO
from pathlib import Path

import pytest

from fido.store import MIGRATIONS

ROOT = Path(__file__).resolve().parents[2]
NEWEST = sorted((MIGRATIONS / "versions").glob("[0-9][0-9][0-9][0-9]_*.py"))[-1]


def git(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, timeout=60,
                          check=False)


@pytest.fixture(scope="module")
def previous(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The previous release's ``src``: this repository's just before its newest migration
    was added (pure Python: the compiled engine is this build's)."""
    added = git("log", "--diff-filter=A", "--format=%H", "--",
                str(NEWEST.relative_to(ROOT))).stdout.decode().split()
    if not added:
        pytest.skip("needs the repository's git history (the previous release's code)")
    archive = git("archive", "--format=tar", f"{added[-1]}^", "src")
    if archive.returncode != 0:
        pytest.skip("needs the repository's git history (the previous release's code)")
    where = tmp_path_factory.mktemp("previous-release")
    with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
        tar.extractall(where, filter="data")
    return where / "src"


def fido(src: Path, *args: str) -> tuple[int, str]:
    """``fido ARGS`` of the release whose code is ``src``, in its own process."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("FIDO_")}
    out = subprocess.run([sys.executable, "-m", "fido.cli", *args], capture_output=True,
                         text=True, timeout=120, check=False,
                         env={**env, "PYTHONPATH": str(src), "COLUMNS": "200"})
    text = out.stdout + out.stderr
    assert "Traceback" not in text, text
    return out.returncode, text


def test_an_upgrade_and_the_way_back(previous: Path, tmp_path: Path) -> None:
    new = ROOT / "src"
    db = f"sqlite:///{tmp_path / 'fido.db'}"
    assert fido(previous, "players", "add", "Anna", "--db", db)[0] == 0
    before = tmp_path / "before-upgrade.tar.gz"
    code, out = fido(previous, "backup", str(before), "--db", db)
    assert code == 0, out
    # the upgrade: the new release migrates the database as it opens it
    code, out = fido(new, "players", "add", "Bert", "--db", db)
    assert code == 0, out
    # the old release must not serve it, and says what to do
    code, out = fido(previous, "players", "list", "--db", db)
    assert code == 1 and "Bert" not in out, out
    # going back: the old release restores the backup of before into an empty database
    back = f"sqlite:///{tmp_path / 'back.db'}"
    code, out = fido(previous, "restore", str(before), "--db", back)
    assert code == 0, out
    code, out = fido(previous, "players", "list", "--db", back)
    assert code == 0 and "Anna" in out and "Bert" not in out, out
    # the trap the doc warns of: restored by the new release, it is migrated on
    wrong = f"sqlite:///{tmp_path / 'wrong.db'}"
    assert fido(new, "restore", str(before), "--db", wrong)[0] == 0
    assert fido(previous, "players", "list", "--db", wrong)[0] == 1
    # and this release, given a database of a newer one, refuses it in a clear line
    code, out = fido(new, "players", "list", "--db", f"sqlite:///{_newer(tmp_path)}")
    assert code == 1 and "newer than this fido" in out and "docs/deploy.md" in out, out


def _newer(tmp_path: Path) -> Path:
    """A database stamped with a revision this release does not know (a later one's)."""
    import sqlite3  # noqa: PLC0415

    path = tmp_path / "newer.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) PRIMARY KEY)")
    conn.execute("INSERT INTO alembic_version VALUES ('9999')")
    conn.commit()
    conn.close()
    return path
