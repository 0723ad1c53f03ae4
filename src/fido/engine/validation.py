"""Why a move is refused: the rules asked in order, for a message a player understands.

Legality itself is decided by :mod:`fido.engine.movegen` alone (a move is legal when
it is one of the generated moves); this module only names the reason, so a
refusal never disagrees with the generator. The first rule that the move
breaks is the one reported.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fido.engine.movegen import DRAW_FREE, can_draw, can_place, placements
from fido.engine.moves import PORTS, Draw, Move, Pass, Placement
from fido.engine.rules import Opener, Stuck
from fido.engine.table import SIDE
from fido.engine.tiles import Tile
from fido.errors import quote

if TYPE_CHECKING:
    from fido.engine.game import Game

__all__ = ["explain", "opening_text"]


def opening_text(game: Game) -> str:
    if game.opening_tile is None:
        return "any tile of the first seat"
    rule = "lowest" if game.rules.opener is Opener.LOWEST_DOUBLE else "highest"
    return f"{game.opening_tile} (the {rule} double dealt)"


def explain(game: Game, move: object) -> str:
    """The reason ``move`` is not legal now (assumes it is not among the legal moves)."""
    if isinstance(move, Placement):
        return _placement(game, move)
    if isinstance(move, Draw):
        return _draw(game)
    if isinstance(move, Pass):
        return _pass(game)
    if isinstance(move, Move):
        return f"{quote(move)} is not a move fido knows"
    return f"not a move: {quote(move)} (use Move.from_text, e.g. Move.from_text('6-4@0n'))"


def _placement(game: Game, move: Placement) -> str:
    tile, anchor, port = move.tile, move.anchor, move.port
    if not isinstance(tile, Tile):
        return f"not a tile: {quote(tile)}"
    if anchor.__class__ is not int or port.__class__ is not int:
        return f"a placement's anchor and direction are whole numbers, not {quote(move)}"
    if not game.hands[game.turn] & tile.bit or tile not in game.set:
        return f"you do not hold {tile}"
    table = game.table
    n_placed = len(table.placements)
    if not n_placed:
        if anchor != -1 or port != -1:
            return f"the table is empty: the game opens with {opening_text(game)}, written alone"
        return f"the game opens with {opening_text(game)}"
    if anchor < 0:
        return f"the table is open: say where {tile} goes, e.g. {tile}@0n"
    if not 0 <= port <= 3:
        return f"no such direction {quote(port)} (use n, e, s, w)"
    if anchor >= n_placed:
        return f"no tile #{quote(anchor)} on the table (tiles are numbered 0 to {n_placed - 1})"
    code = anchor * 4 + port
    slot = table.open.get(code)
    if slot is None:
        open_slots = " ".join(table.slot_name(c) for c in table.open) or "none"
        return (
            f"no such slot: tile #{anchor} ({table.placements[anchor].tile}) has no open "
            f"{PORTS[port]} side (open slots: {open_slots})"
        )
    value, kind, _w = slot
    if tile.high != value and tile.low != value:
        where = f"{anchor}{PORTS[port]}"
        return f"values do not match: {tile} does not show {value}, the number at {where}"
    only_sides, only_arms = table.slot_filter()
    if only_sides and kind != SIDE:
        return "the second move must go on a free side of the opening double (crosswise)"
    if only_arms and code >= 4:
        return "the first four tiles after the opening double go on its empty arms"
    if kind == SIDE and game.mother_theresa:
        return (
            "Mother Theresa: this free side takes only a scoring tile while you can play "
            "on an end"
        )
    return f"{move.text()} is not legal now"


def _draw(game: Game) -> str:
    rules = game.rules
    if rules.stuck is Stuck.PASS:
        return f"{rules.name} has no drawing: pass when you cannot place"
    if not game.table.placements:
        return f"the game opens first, with {opening_text(game)}"
    left = game.stock_count
    if not can_draw(game):
        if rules.keep_in_stock:
            return f"only {left} tiles are left and the last {rules.keep_in_stock} stay in the pile"
        return "the stock is empty"
    if game.stuck != DRAW_FREE and can_place(game):
        return f"you can place a tile, so you must (e.g. {placements(game)[0].text()})"
    return "you cannot draw now"


def _pass(game: Game) -> str:
    if can_place(game):
        options = placements(game)
        if options:
            return f"you can place a tile, so you must (e.g. {options[0].text()})"
    if can_draw(game):
        return "you cannot place, so you must draw from the stock"
    return "you cannot pass now"
