"""A month's ranking as CSV or JSON, its numbers rounded as ``fido ranking show``
prints them (2 decimals): a spreadsheet then shows what the table showed.
The exact values stay in the store (``fido ranking verify`` checks them)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import TextIO

from fido.ranking.snapshot import Ranking

__all__ = [
    "COLUMNS",
    "DECIMALS",
    "FORMULA_STARTS",
    "cell",
    "csv_text",
    "json_data",
    "json_text",
    "rounded",
    "to_csv",
    "to_json",
    "write_csv",
]

DECIMALS = 2  # as the ranking table prints FLADUB and its change
ROUNDED = ("fladub", "strength", "previous_fladub", "change")

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


def rounded(row: dict[str, object]) -> dict[str, object]:
    """An entry's numbers rounded to what the table shows (the change as printed,
    from the exact values, not the difference of two rounded ones)."""
    out = dict(row)
    for k in ROUNDED:
        v = out.get(k)
        if isinstance(v, float):
            out[k] = round(v, DECIMALS) + 0.0  # + 0.0: no "-0.0"
    return out


def write_csv(ranking: Ranking, out: TextIO) -> None:
    """One row per ranked player, numbers rounded as shown, onto ``out`` (a file or
    a :class:`io.StringIO`: the web app's download is the same text as the file)."""
    w = csv.DictWriter(out, fieldnames=COLUMNS)
    w.writeheader()
    for e in ranking.entries:
        row = rounded(e.to_dict())
        w.writerow({k: cell(row[k]) for k in COLUMNS})


def csv_text(ranking: Ranking) -> str:
    out = io.StringIO(newline="")
    write_csv(ranking, out)
    return out.getvalue()


def json_data(ranking: Ranking) -> dict[str, object]:
    return {
        "month": ranking.month,
        "cutoff": ranking.cutoff.isoformat(),
        "published": ranking.computed_at.isoformat() if ranking.computed_at else None,
        "games": ranking.games,
        "params": ranking.params.to_dict(),
        "digest": ranking.digest,  # of the exact numbers (fido ranking verify)
        "decimals": DECIMALS,
        "entries": [rounded(e.to_dict()) for e in ranking.entries],
    }


def json_text(ranking: Ranking) -> str:
    return json.dumps(json_data(ranking), indent=1, ensure_ascii=False) + "\n"


def to_csv(ranking: Ranking, path: str | Path) -> None:
    """One row per ranked player, numbers rounded as shown."""
    with Path(path).open("w", newline="", encoding="utf-8") as f:
        write_csv(ranking, f)


def to_json(ranking: Ranking, path: str | Path) -> None:
    Path(path).write_text(json_text(ranking), encoding="utf-8")
