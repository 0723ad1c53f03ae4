"""What goes over the wire about a game: a seat's view as JSON, and nothing else.

Every game state a client receives is :func:`view_json` of
``game.view(seat)`` (``None``: a spectator), the engine's one view function:
what a view does not hold (other hands, the stock's order, the deal, the
seed) cannot be sent. The JSON is a translation, field by field, plus the
canonical one-line position (:func:`fido.position.view_text`) from which an
outside bot can rebuild the view (:func:`fido.position.parse_view`).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

from fido.announcements import Knocked, Wiped, events_of
from fido.engine.moves import Placement, Turn
from fido.engine.rules import Ruleset
from fido.engine.sorting import ratzek_rows
from fido.engine.table import Table
from fido.engine.tiles import Tile
from fido.engine.views import SeatView
from fido.layout import Layouter, Placed
from fido.position import view_text

__all__ = ["TableDrawing", "hand_rows_json", "layout_json", "placed_json", "public_json",
           "seat_json", "sum_note", "table_event", "target_slot", "turn_json", "view_json"]


def placed_json(p: Placed) -> dict[str, Any]:
    """One tile where it is drawn (:mod:`fido.layout`), as ``board.js`` draws it."""
    return {"index": p.index, "x": p.x, "y": p.y, "angle": p.angle, "first": p.first,
            "second": p.second}


def target_slot(table: Table, move: Placement) -> str:
    """Where the board draws a move's target: its slot's name, ``open`` for the first tile
    (``board.js`` puts that in the middle of the empty table)."""
    return table.slot_name(move.slot) if move.slot >= 0 else "open"


def layout_json(layouter: Layouter, kept: dict[Placed, dict[str, Any]] | None = None
                ) -> dict[str, Any]:
    """Where every tile and open slot is drawn (:mod:`fido.layout`), in units. ``kept``:
    the tiles' JSON of the last drawing, reused for a tile drawn where it was (the same
    object: the next delta passes over it at once), and updated."""
    tiles = []
    fresh: dict[Placed, dict[str, Any]] = {}
    for p in layouter.placed:
        tile = kept.get(p) if kept is not None else None
        if tile is None:
            tile = placed_json(p)
        fresh[p] = tile
        tiles.append(tile)
    if kept is not None:
        kept.clear()
        kept.update(fresh)
    return {
        "tiles": tiles,
        "markers": [
            {"slot": m.slot, "x": m.x, "y": m.y, "angle": m.angle, "value": m.value,
             "kind": m.kind}
            for m in layouter.markers()
        ],
    }


class TableDrawing:
    """One table's layout kept in step with its game: extended move by move, built again
    only when the table shrank (a move taken back) or changed under it."""

    def __init__(self) -> None:
        self._layouter: Layouter | None = None
        self._json: dict[str, Any] | None = None
        self._placements: tuple[Placement, ...] = ()
        self._tiles: dict[Placed, dict[str, Any]] = {}
        self._lock = threading.Lock()  # a worker thread may be laying out (Feed.lay_out)

    def json(self, table: Table, max_pips: int) -> dict[str, Any]:
        placements = tuple(table.placements)
        with self._lock:
            if self._json is not None and placements == self._placements:
                return self._json
            layouter = self._layouter
            n = len(self._placements)
            if layouter is None or placements[:n] != self._placements:
                layouter = Layouter.from_table(table, max_pips)
            else:
                layouter.extend(placements[n:])
            self._layouter, self._placements = layouter, placements
            self._json = layout_json(layouter, self._tiles)
            return self._json


def table_event(turn: Turn, rules: Ruleset) -> str | None:
    """The Rostock knock or the Basel wipe this turn makes, if any (docs/rules.md): said
    by the server with the move, so no client repeats the rule."""
    for event in events_of(turn, rules):
        if isinstance(event, Wiped):
            return "wipe"
        if isinstance(event, Knocked):
            return "knock"
    return None


def turn_json(turn: Turn, rules: Ruleset) -> dict[str, Any]:
    """One history entry; ``drawn`` only when the view may see it (the views hide it);
    ``table_event``: :func:`table_event`."""
    out: dict[str, Any] = {
        "seat": turn.seat, "move": turn.move.text(), "points": turn.points, "sum": turn.ends_sum,
        "table_event": table_event(turn, rules),
    }
    if turn.drawn is not None:
        out["drawn"] = turn.drawn.text()
    return out


def hand_rows_json(hand: Iterable[Tile], divisor: int) -> list[dict[str, Any]]:
    """The hand in Daniela Ratzek's rows (:func:`fido.engine.sorting.ratzek_rows`), as the
    pages draw it: each row's classes, whether it is the jokers', and its tiles
    oriented (``left``, ``right``) with their class. Sent by the server so that no page
    repeats the rule."""
    out = []
    for row in ratzek_rows(hand, divisor):
        joker = row.classes == (divisor,)
        k, other = row.classes[0], row.classes[-1]
        out.append({
            "classes": list(row.classes), "joker": joker,
            "tiles": [{"left": a, "right": b, "text": Tile(a, b).text(), "cls": k}
                      for a, b in row.left]
                     + [{"left": a, "right": b, "text": Tile(a, b).text(), "cls": other}
                        for a, b in row.right],
        })
    return out


def sum_note(rules: Ruleset, ends_sum: int) -> str | None:
    """Why the open ends' sum scores, as the pages show it beside the sum: "20 = 4 TIMES
    5" (fives and threes: "15 = 3 TIMES 5 = 5 TIMES 3"), with the multiplication sign
    for TIMES, or None when it scores nothing. Said by the server, so that no page
    repeats the scoring rule; no word in it, as every seat is sent the same note."""
    if rules.points(ends_sum) <= 0:
        return None
    parts = [f"{ends_sum // d} \u00d7 {d}" for d in rules.scoring_divisors
             if ends_sum % d == 0]
    return f"{ends_sum} = {' = '.join(parts)}"


def public_json(view: SeatView, layout: dict[str, Any] | None = None) -> dict[str, Any]:
    """The part of :func:`view_json` every seat's view shares (the table, its drawing,
    the counts, scores and turn): a broadcast builds it once, from the spectator's view,
    which holds nothing hidden."""
    table = view.table
    rules = view.rules
    slots = table.open_slots()
    playable = {code for code, _v in table.playable()}
    out: dict[str, Any] = {
        "ruleset": rules.text(),
        "players": view.players,
        "hand_counts": list(view.hand_counts),
        "stock": view.stock_count,
        "scores": list(view.scores),
        "turn": view.to_move,
        "opener": view.opener,
        "passes": view.passes,
        "sum": view.ends_sum,
        "divisor": rules.divisor,
        # what the sum scores by: none in a blocking game (block, draw), 5 and 3 in fives
        # and threes; the bar shows these, not ``divisor`` (the hand's rows use that)
        "divisors": list(rules.scoring_divisors),
        "teams": _teams(rules, view.players),
        "sum_note": sum_note(rules, view.ends_sum),
        "table": [p.text() for p in table.placements],
        "open": [
            {"slot": table.slot_name(code), "value": value, "kind": kind,
             "playable": code in playable}
            for code, (value, kind) in slots.items()
        ],
        "outcome": view.outcome.to_dict() if view.outcome is not None else None,
    }
    if layout is not None:
        out["layout"] = layout
    return out


def _teams(rules: Ruleset, players: int) -> list[list[int]] | None:
    teams = rules.teams(players)
    return [list(team) for team in teams] if teams is not None else None


def seat_json(view: SeatView, hand_rows: list[dict[str, Any]] | None = None
              ) -> dict[str, Any]:
    """The part of :func:`view_json` that is the seat's own: her hand (and its rows,
    ``hand_rows`` when the caller kept them from this hand's last view) and, when she is
    to move, her legal moves with their points."""
    table = view.table
    return {
        "seat": view.seat,
        "hand": [t.text() for t in view.hand],
        "hand_rows": (hand_rows if hand_rows is not None
                      else hand_rows_json(view.hand, view.rules.divisor)),
        "legal": [
            {"move": m.text(), "points": view.points_for(m)}
            | ({"tile": m.tile.text(), "slot": table.slot_name(m.slot) if m.slot >= 0 else None}
               if isinstance(m, Placement) else {})
            for m in view.legal_moves
        ],
    }


def view_json(
    view: SeatView, *, history: bool = False, layout: dict[str, Any] | None = None,
    position: bool = True,
) -> dict[str, Any]:
    """The view as the protocol sends it (docs/protocol.md, "The view"): the shared part
    (:func:`public_json`) and the seat's own (:func:`seat_json`); ``layout``: the table's
    drawing (:func:`layout_json`), public like the table; ``position``: with the
    position line (version 2 sends it only in a welcome, beside the view)."""
    out = public_json(view, layout) | seat_json(view)
    if position:
        out = {"position": view_text(view)} | out
    if history:
        out["history"] = [turn_json(t, view.rules) for t in view.history]
    return out
