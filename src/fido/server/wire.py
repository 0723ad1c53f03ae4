"""What goes over the wire about a game: a seat's view as JSON, and nothing else.

Every game state a client receives is :func:`view_json` of
``game.view(seat)`` (``None``: a spectator), the engine's one view function:
what a view does not hold (other hands, the stock's order, the deal, the
seed) cannot be sent. The JSON is a translation, field by field, plus the
canonical one-line position (:func:`fido.position.view_text`) from which an
outside bot can rebuild the view (:func:`fido.position.parse_view`).
"""

from __future__ import annotations

from typing import Any

from fido.moves import Placement, Turn
from fido.position import view_text
from fido.views import SeatView

__all__ = ["turn_json", "view_json"]


def turn_json(turn: Turn) -> dict[str, Any]:
    """One history entry; ``drawn`` only when the view may see it (the views hide it)."""
    out: dict[str, Any] = {
        "seat": turn.seat, "move": turn.move.text(), "points": turn.points, "sum": turn.ends_sum,
    }
    if turn.drawn is not None:
        out["drawn"] = turn.drawn.text()
    return out


def view_json(view: SeatView, *, history: bool = False) -> dict[str, Any]:
    """The view as the protocol sends it (docs/protocol.md, "The view")."""
    table = view.table
    rules = view.rules
    slots = table.open_slots()
    playable = {code for code, _v in table.playable()}
    out: dict[str, Any] = {
        "position": view_text(view),
        "ruleset": rules.text(),
        "players": view.players,
        "seat": view.seat,
        "hand": [t.text() for t in view.hand],
        "hand_counts": list(view.hand_counts),
        "stock": view.stock_count,
        "scores": list(view.scores),
        "turn": view.to_move,
        "opener": view.opener,
        "passes": view.passes,
        "sum": view.ends_sum,
        "divisor": rules.divisor,
        "table": [p.text() for p in table.placements],
        "open": [
            {"slot": table.slot_name(code), "value": value, "kind": kind,
             "playable": code in playable}
            for code, (value, kind) in slots.items()
        ],
        "legal": [
            {"move": m.text(), "points": view.points_for(m)}
            | ({"tile": m.tile.text(), "slot": table.slot_name(m.slot) if m.slot >= 0 else None}
               if isinstance(m, Placement) else {})
            for m in view.legal_moves
        ],
        "outcome": view.outcome.to_dict() if view.outcome is not None else None,
    }
    if history:
        out["history"] = [turn_json(t) for t in view.history]
    return out
