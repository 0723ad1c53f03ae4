"""Several commands on one database at once: real threads and processes, no mocks.

Registrations get distinct numbers, the same game sent at once is stored
once, two imports on one SQLite file both finish (the second waits its turn),
and a writer that waits too long gets a clear message, never a raw
``OperationalError``. Runs on SQLite and, with ``FIDO_TEST_POSTGRES_URL``,
PostgreSQL (the process tests are SQLite's: its locking is what they test).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from typer.testing import CliRunner

import fido.store
from fido.cli import app
from fido.ranking import register_player, submit
from fido.store import GameRow, Player, Store, open_store

SRC = str(Path(__file__).resolve().parents[2] / "src")
NOW = dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC)
THREADS = 6


def at_once(store_url: str, work: Callable[[Store, int], Any]) -> list[Any]:
    """Run ``work(its own store, i)`` in THREADS threads started together."""
    start = threading.Barrier(THREADS)
    results: list[Any] = [None] * THREADS

    def run(i: int) -> None:
        store = open_store(store_url)
        try:
            start.wait()
            results[i] = work(store, i)
        except Exception as e:  # collected: the test asserts there were none
            results[i] = e
        finally:
            store.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    return results


def test_concurrent_registrations_get_distinct_numbers(store: Store, store_url: str) -> None:
    def add(st: Store, i: int) -> int:
        with st.session() as s:
            return register_player(s, f"Player {i}", now=NOW).number

    numbers = at_once(store_url, add)
    assert sorted(numbers) == list(range(1, THREADS + 1)), numbers
    with store.session() as s:
        assert s.scalar(select(func.count()).select_from(Player)) == THREADS


def test_the_same_game_sent_at_once_is_stored_once(store: Store, store_url: str) -> None:
    with store.session() as s:
        for name in ("Anna", "Bert", "Cora"):
            register_player(s, name, now=NOW)
    sheet = {
        "date": "2026-11-14",
        "event": "Rostock round",
        "lines": [
            {"player": 1, "points": 31, "pips": 4},
            {"player": 2, "points": 12, "pips": 0},
            {"player": 3, "points": 20, "pips": 17},
        ],
    }

    def send(st: Store, _i: int) -> tuple[int, bool]:
        with st.session() as s:
            game, new = submit(s, sheet, now=NOW)
            return game.id, new

    results = at_once(store_url, send)
    assert all(isinstance(r, tuple) for r in results), results
    assert len({gid for gid, _ in results}) == 1
    assert sum(new for _, new in results) == 1
    with store.session() as s:
        assert s.scalar(select(func.count()).select_from(GameRow)) == 1


def fido_process(db: str, *args: str) -> subprocess.Popen[str]:
    code = "import sys; from fido.cli import app; app(sys.argv[1:], prog_name='fido')"
    return subprocess.Popen(
        [sys.executable, "-c", code, *args, "--db", db],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PYTHONPATH": SRC, "COLUMNS": "200"},
    )


def season(path: Path, event: str, games: int) -> Path:
    results = [
        {
            "date": "2026-11-01",
            "event": event,
            "lines": [
                {"player": 1, "points": 10 + g % 50, "pips": 0},
                {"player": 2, "points": g % 37, "pips": 3},
            ],
        }
        for g in range(games)
    ]
    path.write_text(json.dumps(results))
    return path


def test_two_imports_at_once_on_sqlite_both_finish(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'fido.db'}"
    store = open_store(db)
    with store.session() as s:
        register_player(s, "Anna", now=NOW)
        register_player(s, "Bert", now=NOW)
    a = season(tmp_path / "a.json", "Kiel", 400)
    b = season(tmp_path / "b.json", "Rostock", 400)
    procs = [fido_process(db, "results", "import", str(f)) for f in (a, b, a)]
    procs.append(fido_process(db, "players", "add", "Cora"))
    outs = [p.communicate(timeout=300)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], outs
    assert not any("OperationalError" in o or "locked" in o for o in outs)
    # a's two imports: one stored its 400 games, the other found them stored
    news = sorted(int(o.split("imported ")[1].split()[0]) for o in outs[:3])
    assert news == [0, 400, 400]
    with store.session() as s:
        assert s.scalar(select(func.count()).select_from(GameRow)) == 800
        assert sorted(s.scalars(select(Player.number))) == [1, 2, 3]
    store.close()


def test_a_writer_that_waits_too_long_gets_a_clear_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "fido.db"
    db = f"sqlite:///{path}"
    open_store(db).close()
    # the wait the message names and SQLite's busy timeout itself (set on each new
    # connection from _BUSY_TIMEOUT, computed at import): 0.3 s instead of 30
    monkeypatch.setattr(fido.store, "BUSY_SECONDS", 0.3)
    monkeypatch.setattr(fido.store, "_BUSY_TIMEOUT", "PRAGMA busy_timeout=300")
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    try:
        started = time.monotonic()
        out = CliRunner().invoke(app, ["players", "add", "Anna", "--db", db])
        waited = time.monotonic() - started
        assert out.exit_code == 1
        assert 0.3 <= waited < 10, waited  # it waited its turn, then gave up
        assert out.output.startswith("error: database: the database is busy"), out.output
        # a reading command does not wait for the writer
        out = CliRunner().invoke(app, ["players", "list", "--db", db])
        assert out.exit_code == 0, out.output
    finally:
        holder.rollback()
        holder.close()
    store = open_store(db)
    with store.session() as s:
        assert s.scalar(select(func.count()).select_from(Player)) == 0
    store.close()
