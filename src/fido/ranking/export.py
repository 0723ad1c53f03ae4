"""A month's ranking as CSV or JSON, its numbers rounded as ``fido ranking show``
prints them (2 decimals): a spreadsheet then shows what the table showed.
The exact values stay in the store (``fido ranking verify`` checks them)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from fido.ranking.snapshot import Ranking

__all__ = ["COLUMNS", "DECIMALS", "FORMULA_STARTS", "cell", "rounded", "to_csv", "to_json"]

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


def to_csv(ranking: Ranking, path: str | Path) -> None:
    """One row per ranked player, numbers rounded as shown."""
    with Path(path).open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        for e in ranking.entries:
            row = rounded(e.to_dict())
            w.writerow({k: cell(row[k]) for k in COLUMNS})


def to_json(ranking: Ranking, path: str | Path) -> None:
    data = {
        "month": ranking.month,
        "cutoff": ranking.cutoff.isoformat(),
        "published": ranking.computed_at.isoformat() if ranking.computed_at else None,
        "games": ranking.games,
        "params": ranking.params.to_dict(),
        "digest": ranking.digest,  # of the exact numbers (fido ranking verify)
        "decimals": DECIMALS,
        "entries": [rounded(e.to_dict()) for e in ranking.entries],
    }
    Path(path).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
