"""A finished game move by move, for replays: every hand open (the game is over).

Built from the stored record by the engine's own replay
(:meth:`fido.record.GameRecord.steps`), so a replay shows exactly what the
rules gave; only finished games have one (a running game's hands are secret).
Each step names its table event (``"knock"`` or ``"wipe"``,
:func:`fido.announcements.events_of`), so the replay page shows the Rostock knock
and the Basel wipe where the rules put them without a copy of that rule.
"""

from __future__ import annotations

from typing import Any

from fido.engine.game import Game
from fido.engine.moves import Move, Placement
from fido.engine.table import Table
from fido.errors import FidoError
from fido.layout import Layouter
from fido.record import GameRecord
from fido.server.wire import TableDrawing, hand_rows_json, placed_json, sum_note, table_event

__all__ = ["better_tiles", "replay_json"]


def _state(game: Game, table: Table, drawing: TableDrawing) -> dict[str, Any]:
    return {
        "layout": drawing.json(table, game.rules.max_pips),
        "hands": [[t.text() for t in game.hand(s)] for s in range(game.players)],
        "hand_rows": [hand_rows_json(game.hand(s), game.rules.divisor)
                      for s in range(game.players)],
        "scores": list(game.scores),
        "stock": game.stock_count,
        "turn": game.turn,
        "sum": table.ends_sum,
        "sum_note": sum_note(game.rules, table.ends_sum),
        "table": [p.text() for p in table.placements],
        "open": [
            {"slot": table.slot_name(code), "value": value, "kind": kind}
            for code, (value, kind) in table.open_slots().items()
        ],
    }


def replay_json(record: GameRecord) -> dict[str, Any]:
    """The deal, then one state per move (after it, with the table's drawing), and the
    outcome."""
    start = record.new_game()
    drawing = TableDrawing()
    steps = [{"move": None, "seat": None, "points": 0, "drawn": None, "event": None}
             | _state(start, start.table, drawing)]
    game = start
    for _i, turn, game in record.steps():
        steps.append(
            {"move": turn.move.text(), "seat": turn.seat, "points": turn.points,
             "drawn": turn.drawn.text() if turn.drawn is not None else None,
             "event": table_event(turn, record.ruleset)}
            | _state(game, game.table, drawing)
        )
    return {
        "ruleset": record.ruleset.text(),
        "players": list(record.players),
        "divisor": record.ruleset.divisor,
        # what the sum scores by, as the table's view says it (none: block, draw)
        "divisors": list(record.ruleset.scoring_divisors),
        "steps": steps,
        "outcome": game.outcome.to_dict() if game.outcome is not None else None,
    }


def better_tiles(record: GameRecord, better: dict[int, str]) -> dict[int, dict[str, Any]]:
    """Where the better move of an analysed decision (move number -> that move's text)
    would have lain on the table as it was: the replay draws it beside the tile laid
    (docs/web.md, "The analysis"). A move that lays no tile, or does not fit, has none."""
    out: dict[int, dict[str, Any]] = {}
    if not better:
        return out
    last = max(better)
    start = record.new_game()
    lay = Layouter.from_table(start.table, start.rules.max_pips)
    for number, _turn, game in record.steps():
        text = better.get(number)
        if text is not None:
            try:
                move = Move.from_text(text)
                p = lay.copy().add(move) if isinstance(move, Placement) else None
            except (FidoError, ValueError):
                p = None
            if p is not None:
                out[number] = placed_json(p)
        if number >= last:
            break
        lay.extend(game.table.placements[len(lay):])
    return out
