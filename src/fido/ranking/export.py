"""A month's ranking as CSV or JSON."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from fido.ranking.snapshot import Ranking

__all__ = ["COLUMNS", "FORMULA_STARTS", "cell", "to_csv", "to_json"]

COLUMNS = (
    "position",
    "player",
    "name",
    "fladub",
    "strength",
    "games",
    "provisional",
    "previous_position",
    "previous_fladub",
    "change",
)


# a spreadsheet reads a cell starting with one of these as a formula
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: object) -> object:
    """``value`` as a CSV cell a spreadsheet shows as text, never runs as a formula.

    A text (a player's name) starting with ``= + - @`` (or a tab or CR) gets a
    leading ``'``; numbers are written as they are (``-3.5`` is a number).
    """
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def to_csv(ranking: Ranking, path: str | Path) -> None:
    """One row per ranked player; floats written with every digit (``repr``)."""
    with Path(path).open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        for e in ranking.entries:
            row = e.to_dict()
            w.writerow({k: cell(row[k]) for k in COLUMNS})


def to_json(ranking: Ranking, path: str | Path) -> None:
    data = {
        "month": ranking.month,
        "cutoff": ranking.cutoff.isoformat(),
        "published": ranking.computed_at.isoformat() if ranking.computed_at else None,
        "games": ranking.games,
        "params": ranking.params.to_dict(),
        "digest": ranking.digest,
        "entries": [e.to_dict() for e in ranking.entries],
    }
    Path(path).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
