"""An analysis shown beside a replay: one short note per analysed move.

``fido replay FILE --analysis ANALYSIS.json`` reads the file written by
``fido analyze --json`` and calls :func:`replay_notes`; ``fido replay FILE
--analyse`` computes the analysis of every seat on the spot
(:func:`live_notes`, all cores, a progress bar). The replay itself (owned by
:mod:`fido.terminal.replay`) only adds a column. The file is
checked against the record: the same ruleset and players, and every
analysed move is the record's move at that number, so the notes of one game
are never shown beside another.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, StrictBool, StrictInt, StrictStr, ValidationError
from rich.console import Console

from fido.analysis.report import (
    FORMAT,
    VERSION,
    Decision,
    DecisionJob,
    analyse_game,
    default_samples,
)
from fido.engine.moves import Move
from fido.errors import FidoError
from fido.record import GameRecord
from fido.safe_text import printable

__all__ = ["MAX_ANALYSIS_BYTES", "AnalysisFileError", "live_notes", "note", "replay_notes"]

MAX_ANALYSIS_BYTES = 32 * 1024 * 1024


class AnalysisFileError(FidoError):
    """An analysis file that cannot be read, or that belongs to another game."""


class _Decision(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    number: StrictInt
    seat: StrictInt
    played: StrictStr
    best: StrictStr
    loss: float
    loss_ci: float
    exact: StrictBool


class _Analysis(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)
    format: StrictStr
    version: StrictInt
    ruleset: StrictStr
    players: list[StrictStr]
    decisions: list[_Decision]


def note(played: str, best: str, loss: float, loss_ci: float, exact: bool) -> str:
    """What the replay shows beside a move: best, or what was best and what it cost."""
    if played == best or loss == 0:
        return "best"
    cost = f"{loss:.1f}" if exact else f"{loss:.1f} ± {loss_ci:.1f}"
    return f"best {best}, lost {cost}"


def replay_notes(path: Path, record: GameRecord) -> dict[int, str]:
    """Per move number of ``record``: the note to show (analysed moves only)."""
    where = printable(path, 200)
    try:
        data = path.read_bytes()[: MAX_ANALYSIS_BYTES + 1]
    except OSError as e:
        raise AnalysisFileError(f"cannot read {where}: {e.strerror or e}") from None
    if len(data) > MAX_ANALYSIS_BYTES:
        raise AnalysisFileError(f"{where} is too large for an analysis")
    try:
        raw = json.loads(data.decode("utf-8-sig"))
        a = _Analysis.model_validate(raw)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError, ValueError) as e:
        first = e.errors()[0]["msg"] if isinstance(e, ValidationError) else type(e).__name__
        raise AnalysisFileError(
            f"{where} is not an analysis from fido analyze --json ({printable(first, 80)})"
        ) from None
    if a.format != FORMAT or a.version != VERSION:
        raise AnalysisFileError(f"{where} is not a {FORMAT} version {VERSION} file")
    if a.ruleset != record.ruleset.text() or tuple(a.players) != record.players:
        raise AnalysisFileError(f"{where} is the analysis of another game (ruleset or players)")
    played = [Move.from_text(m.move).text() for m in record.moves]  # a checked record's
    notes: dict[int, str] = {}
    for d in a.decisions:
        if not 1 <= d.number <= len(played) or played[d.number - 1] != d.played:
            raise AnalysisFileError(
                f"{where} is the analysis of another game (move {d.number} differs)"
            )
        notes[d.number] = printable(note(d.played, d.best, d.loss, d.loss_ci, d.exact), 60)
    return notes


def live_notes(record: GameRecord, console: Console, samples: int | None = None) -> dict[int, str]:
    """The notes of every seat's decisions, analysed now on every core (seed 0)."""
    if samples is None:
        samples = default_samples(record.ruleset)
    from rich.progress import Progress  # noqa: PLC0415

    from fido.analysis.parallel import run_decisions  # noqa: PLC0415

    seats = list(range(len(record.players)))
    with Progress(console=console, transient=True) as bar:
        task = bar.add_task("analysis", total=None)

        def run(jobs: list[DecisionJob]) -> list[Decision]:
            bar.update(task, total=len(jobs))
            return run_decisions(jobs, progress=lambda n: bar.update(task, completed=n))

        a = analyse_game(record, seats, samples=samples, seed=0, run=run)
    return {
        d.number: note(d.played.text(), d.eval.best.move.text(), d.loss, d.loss_ci, d.eval.exact)
        for d in a.decisions
    }
