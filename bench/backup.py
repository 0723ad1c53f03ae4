"""Time ``fido backup`` and ``fido restore`` on a store of a federation's size.

    .venv/bin/python bench/backup.py [--games 1000000] [--players 100000] [--dir DIR]
        [--postgres URL]

Fills a SQLite store with ``--games`` results (``bench/ranking_scale.py``'s league:
3 to 5 lines a game; kept in ``--dir`` and reused by the next run), then runs the
commands as an administrator (or cron) does, each in its own process: the backup
of the SQLite store, its restore into a fresh SQLite file, and with ``--postgres``
(an empty database, e.g. ``tests/with_postgres.py`` gives one) the restore into
PostgreSQL and the portable backup from there. Prints each one's wall time, the
file sizes, and the process's peak memory. Figures: docs/performance.md, "Backups".
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

import ranking_scale


def fido(*args: str) -> tuple[float, float]:
    """Run ``fido ARGS``; its wall time (s) and its peak RSS (GB)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "fido.cli", *args], capture_output=True,
                          text=True, check=False)
    wall = time.perf_counter() - t
    if done.returncode != 0:
        sys.exit(f"fido {' '.join(args)} failed: {done.stderr.strip()}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, max(peak, before) / 1024 / 1024  # ru_maxrss: KiB on Linux


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--players", type=int, default=100_000)
    ap.add_argument("--dir", type=Path, default=None,
                    help="keep the store (and reuse it) here (default: a temporary directory)")
    ap.add_argument("--postgres", default=None, help="an empty PostgreSQL database's URL")
    args = ap.parse_args()
    console = Console(width=120)
    with tempfile.TemporaryDirectory() as tmp:
        work = args.dir or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        source = work / f"store-{args.games}.db"
        url = f"sqlite:///{source}"
        if not source.exists():
            t = time.perf_counter()
            ranking_scale.fill_store(
                url, ranking_scale.league(args.games, args.players), args.players)
            console.print(f"store filled in {time.perf_counter() - t:.0f} s (not measured)")
        table = Table(title=f"fido backup / restore: {args.games:,} results, "
                            f"{args.players:,} players (database {_mb(source)})")
        for col in ("command", "seconds", "file", "peak RSS (GB)"):
            table.add_column(col, justify="left" if col == "command" else "right")
        file = work / "sqlite.tar.gz"
        wall, peak = fido("backup", str(file), "--db", url)
        table.add_row("fido backup (SQLite, online backup API)", f"{wall:.1f}", _mb(file),
                      "")
        target = work / "restored.db"
        for leftover in (target, Path(f"{target}-wal"), Path(f"{target}-shm")):
            leftover.unlink(missing_ok=True)
        wall, peak = fido("restore", str(file), "--db", f"sqlite:///{target}")
        table.add_row("fido restore (into SQLite)", f"{wall:.1f}", _mb(target), "")
        if args.postgres:
            wall, peak = fido("restore", str(file), "--db", args.postgres)
            table.add_row("fido restore (SQLite backup into PostgreSQL)", f"{wall:.1f}", "",
                          "")
            pg_file = work / "postgresql.tar.gz"
            wall, peak = fido("backup", str(pg_file), "--db", args.postgres)
            table.add_row("fido backup (PostgreSQL: JSON lines + pg_dump)", f"{wall:.1f}",
                          _mb(pg_file), "")
        table.add_row("(peak RSS of the commands, the largest)", "", "", f"{peak:.2f}")
        console.print(table)
        if args.dir is None:
            for f in work.iterdir():
                if f.is_file():
                    os.unlink(f)


def _mb(path: Path) -> str:
    return f"{path.stat().st_size / 1e6:,.0f} MB"


if __name__ == "__main__":
    main()
