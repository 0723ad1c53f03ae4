"""The body of ``fido analyze``: records in, a report per game and optional JSON out.

Every input is checked before the long work (records read and replayed,
seats in range, the output file writable, the cluster reachable); a bad
one is one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from fido.analysis.report import (
    Decision,
    DecisionJob,
    GameAnalysis,
    assemble,
    check_settings,
    decision_jobs,
    default_samples,
)
from fido.errors import ConfigurationError, FidoError
from fido.record import GameRecord
from fido.rich_text import safe
from fido.safe_text import printable

__all__ = ["MAX_RECORDS", "analyze", "collect_records", "mistakes_table", "summary_table"]

MAX_RECORDS = 100_000  # records per run (a directory is read whole)
BAD_INPUT = 2  # exit code for input fido refuses


def _fail(err: Console, message: str) -> typer.Exit:
    err.print(Text.assemble(("error:", "bold red"), " ", printable(message)), soft_wrap=True)
    return typer.Exit(code=BAD_INPUT)


def collect_records(paths: list[Path]) -> list[tuple[Path, GameRecord]]:
    """Every record named (a directory: its ``*.json`` files), read and checked."""
    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            found = sorted(p.glob("*.json"))
            if not found:
                raise ConfigurationError(f"{printable(p, 200)}: no *.json records in it")
            files += found
        else:
            files.append(p)
        if len(files) > MAX_RECORDS:
            raise ConfigurationError(f"at most {MAX_RECORDS:,} records per run")
    out = []
    for f in files:
        try:
            record = GameRecord.load(f)
            record.replay()
        except FidoError as e:
            raise ConfigurationError(f"{printable(f, 200)}: record refused: {e}") from None
        out.append((f, record))
    return out


def _loss(d: Decision) -> str:
    if d.eval.exact:
        return f"{d.loss:.1f} (exact)"
    return f"{d.loss:.1f} ± {d.loss_ci:.1f}"


def summary_table(a: GameAnalysis, title: str) -> RichTable:
    t = RichTable(title=title)
    for col in ("seat", "player", "decisions", "lost per decision", "lost in all", "within 1 pt"):
        t.add_column(col, justify="left" if col == "player" else "right")
    for seat in a.seats:
        s = a.summary(seat)
        near = "-" if s.decisions == 0 else f"{100 * s.within_one:.0f}%"
        t.add_row(
            str(seat),
            safe(s.player, 24),
            str(s.decisions),
            f"{s.per_decision:.2f}",
            f"{s.lost:.1f} ± {s.lost_ci:.1f}",
            near,
        )
    return t


def mistakes_table(a: GameAnalysis, top: int) -> RichTable:
    """Decisions, biggest loss first (``top`` rows; 0 for all)."""
    order = sorted(a.decisions, key=lambda d: (-d.loss, d.number))
    if top:
        order = order[:top]
    t = RichTable(title="biggest mistakes first" if top else "every decision, biggest loss first")
    for col in ("move", "player", "played", "best", "loss (points)", "moves"):
        t.add_column(col, justify="right" if col in ("move", "moves") else "left")
    for d in order:
        same = d.played == d.eval.best.move
        t.add_row(
            str(d.number),
            safe(a.players[d.seat], 24),
            d.played.text(),
            "=" if same else d.eval.best.move.text(),
            _loss(d),
            str(len(d.eval.moves)),
        )
    return t


def analyze(  # noqa: PLR0917 (the command's options, passed through)
    records: list[Path],
    seat: int | None,
    all_seats: bool,
    json_out: Path | None,
    samples: int | None,
    seed: int,
    jobs: int | None,
    ray: str | None,
    top: int,
    console: Console,
    err: Console,
    policy: str = "smart",
) -> None:
    from rich.progress import Progress  # noqa: PLC0415 (only this command needs it)

    from fido.analysis.parallel import check_parallel, run_decisions  # noqa: PLC0415
    from fido.options import check_output_file  # noqa: PLC0415

    try:
        if seat is not None and all_seats:
            raise ConfigurationError("give --seat N or --all, not both")
        if not 0 <= top <= 10_000:
            raise ConfigurationError(f"--top is 0 (all) to 10,000 rows, not {top}")
        if json_out is not None:
            check_output_file(json_out, "--json")
        check_parallel(jobs, ray)
        games = collect_records(records)
        worlds = [default_samples(r.ruleset) if samples is None else samples for _f, r in games]
        chosen = [
            check_settings(r, None if seat is None else [seat], k, policy)
            for (_f, r), k in zip(games, worlds, strict=True)
        ]
        work: list[DecisionJob] = []
        for i, ((_f, r), seats, k) in enumerate(zip(games, chosen, worlds, strict=True)):
            work += decision_jobs(r, seats, k, seed, game=i, policy=policy)
    except FidoError as e:
        raise _fail(err, str(e)) from None
    try:
        with Progress(console=err, transient=True) as bar:
            task = bar.add_task("decisions", total=len(work))
            done = run_decisions(
                work,
                workers=jobs,
                ray_address=ray,
                progress=lambda n: bar.update(task, completed=n),
            )
    except FidoError as e:
        raise _fail(err, str(e)) from None
    analyses = [
        assemble(r, seats, k, seed, (d for d in done if d.game == i), policy=policy)
        for i, ((_f, r), seats, k) in enumerate(zip(games, chosen, worlds, strict=True))
    ]
    for (f, r), a in zip(games, analyses, strict=True):
        title = f"{safe(f.name, 60)}: {safe(r.ruleset.text())}"
        if a.nothing_to_analyse:
            console.print(Text(f"{printable(f.name, 60)}: {a.message}"))
            continue
        console.print(summary_table(a, title))
        console.print(mistakes_table(a, top))
    console.print(
        f"points are the seat's margin (her final minus the others' mean); ± : 95% interval; "
        f"{', '.join(map(str, sorted(set(worlds))))} sampled worlds per decision, seed {seed}, "
        f"continuations played by the {policy} policy"
    )
    if json_out is not None:
        data: Any
        if len(analyses) == 1:
            data = {**analyses[0].to_dict(), "record": printable(games[0][0].name, 200)}
        else:
            data = {
                "format": "fido-analysis-set",
                "version": 1,
                "analyses": [
                    {**a.to_dict(), "record": printable(f.name, 200)}
                    for (f, _r), a in zip(games, analyses, strict=True)
                ],
            }
        try:
            json_out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
        except OSError as e:
            err.print(Text(f"error: cannot write {printable(json_out, 200)}: {e.strerror or e}"))
            raise typer.Exit(code=1) from None
        console.print(f"analysis saved to {safe(json_out, 200)}")
