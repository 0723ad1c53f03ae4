"""An event's standings as the API shows them (placeholder until fido.events.standings)."""

from __future__ import annotations

from typing import Any

from fido.events.rounds import TableResult
from fido.store import Championship

__all__ = ["standings_of"]


def standings_of(event: Championship, results: list[TableResult],
                 names: dict[int, str]) -> list[dict[str, Any]]:
    totals: dict[int, int] = dict.fromkeys(names, 0)
    games: dict[int, int] = dict.fromkeys(names, 0)
    for r in results:
        for seat in r.seats or ():
            totals[seat.account_id] = totals.get(seat.account_id, 0) + seat.final
            games[seat.account_id] = games.get(seat.account_id, 0) + 1
    order = sorted(totals, key=lambda a: (-totals[a], names.get(a, "")))
    return [{"place": i + 1, "account": a, "name": names.get(a, "?"), "total": totals[a],
             "games": games[a]} for i, a in enumerate(order)]
