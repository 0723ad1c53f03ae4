"""``fido backup FILE`` and ``fido restore FILE``: the store copied while the server runs,
and restored into an empty database (:mod:`fido.store.backup`, docs/server.md).

Like the other administrators' commands they take ``--db`` and stay English; a refusal
is one line, ``error: ...``, with exit code 1 and the target database unchanged.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from fido.cli.ranking import Db, refusing
from fido.safe_text import printable
from fido.store.backup import backup, inspect_file, restore

__all__ = ["backup_app", "restore_app"]

# the help texts are repeated in fido.cli's registry of lazy commands
backup_app = typer.Typer(help="Back up the database into a file, while the server runs.")
restore_app = typer.Typer(help="Restore a backup file into an empty database.")
console = Console()


def _size(n: int) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return str(n)


@backup_app.command()
def backup_command(
    file: Annotated[Path, typer.Argument(help="the backup file to write (.tar.gz)")],
    db: Db = None,
    metrics_file: Annotated[Path | None, typer.Option(
        help="after a backup, write its time and size there in Prometheus's text format "
        "(node_exporter's textfile collector: DIR/fido_backup.prom)")] = None,
) -> None:
    """Back up the database into FILE: a consistent copy while the server runs."""
    with refusing():
        manifest = backup(file, db)
        if metrics_file is not None:
            _write_metrics(metrics_file, file.stat().st_size)
        rows = sum(manifest.tables.values())
        console.print(
            f"backup written: {escape(printable(str(file)))} ({manifest.source}, schema "
            f"{manifest.revision}, {rows} rows in {len(manifest.tables)} tables, "
            f"{_size(file.stat().st_size)})", soft_wrap=True)


def _write_metrics(path: Path, size: int) -> None:
    """The backup's success for Prometheus (a cron job has no port to scrape): written
    whole or not at all (prometheus-client writes beside it, then renames)."""
    from prometheus_client import CollectorRegistry, Gauge, write_to_textfile  # noqa: PLC0415

    registry = CollectorRegistry()
    Gauge("fido_backup_last_success_timestamp_seconds",
          "Unix time of the last fido backup that was written whole",
          registry=registry).set_to_current_time()
    Gauge("fido_backup_size_bytes", "the size of the last fido backup's file",
          registry=registry).set(size)
    write_to_textfile(str(path), registry)


@restore_app.command()
def restore_command(
    file: Annotated[Path, typer.Argument(help="a backup file written by fido backup")],
    db: Annotated[str | None, typer.Option(
        "--db", help="the empty database to restore into (default: $FIDO_DB or "
        "sqlite:///fido.db, made if missing: a restore's target is a new database)")] = None,
    check: Annotated[
        bool, typer.Option("--check", help="only check the file (its manifest and checksums)")
    ] = False,
) -> None:
    """Restore FILE into an empty database (refused: a damaged file, a newer schema)."""
    with refusing():
        if check:
            m = inspect_file(file)
            console.print(
                f"{escape(printable(file.name))}: a {m.source} backup of schema {m.revision}, "
                f"taken {m.created} by fido {escape(printable(m.fido))}, "
                f"{sum(m.tables.values())} rows in {len(m.tables)} tables; checksums match",
                soft_wrap=True)
            return
        done = restore(file, db)
        console.print(
            f"restored {done.rows} rows in {len(done.manifest.tables)} tables "
            f"({done.manifest.source} backup of schema {done.manifest.revision}, taken "
            f"{done.manifest.created}) in {done.seconds:.1f} s", soft_wrap=True)
