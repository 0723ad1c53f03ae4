"""The sentences of a refused move, in the language of the socket that sent it.

The engine says why a move is illegal in English (its :class:`~fido.errors.IllegalMoveError`
is for programs and the command line), so the table does not pass its text on: it chooses
one of its own sentences from the game's public state, translated (:mod:`fido.i18n`).
A tile that is not hers gets one answer whether it is in another hand or in the stock:
the sentence tells nothing she cannot see.
"""

from __future__ import annotations

from fido.engine.game import Game
from fido.engine.moves import Draw, Pass, Placement
from fido.engine.rules import Stuck
from fido.i18n import _, ngettext
from fido.safe_text import printable
from fido.server.protocol import Reason
from fido.server.tables.types import Refusal

__all__ = ["chat_full", "check_move", "illegal", "not_a_move"]


def chat_full(written: int) -> Refusal:
    """She has written ``written`` lines at this table, its most (its log is kept)."""
    return Refusal(Reason.RATE_LIMITED, ngettext(
        "you have written {n} line at this table: it keeps no more of yours",
        "you have written {n} lines at this table: it keeps no more of yours",
        written).format(n=written))


def check_move(seat: int | None, seq: int, *, status: str, game: Game | None, table_seq: int,
               move_seq: int) -> Refusal | None:
    """Why a move of ``seat`` sent at event ``seq`` is not judged at all (a spectator's,
    before the start or after the end, out of turn, or after a move she had not seen):
    None when the engine is to judge it. ``table_seq``: the table's last event;
    ``move_seq``: the last move's."""
    if seat is None:
        return Refusal(Reason.NOT_SEATED, _("spectators cannot move"))
    if status == "open":
        return Refusal(Reason.NOT_STARTED, _("the game has not started: seats are open"))
    if game is None or game.outcome is not None or status != "running":
        return Refusal(Reason.GAME_OVER, _("the game is over"))
    if seq > table_seq:
        return Refusal(Reason.BAD_SEQ, _("this table has reached event {seq}, not {sent}")
                       .format(seq=table_seq, sent=seq))
    if seat != game.turn:
        return Refusal(Reason.NOT_YOUR_TURN, _("it is seat {seat}'s turn").format(seat=game.turn))
    if seq < move_seq:
        return Refusal(Reason.STALE, _("event {seq} changed the game after the {seen} you saw")
                       .format(seq=move_seq, seen=seq))
    return None


def not_a_move(text: str) -> str:
    """A move's text that is not fido's notation (``Move.from_text`` refused it)."""
    return _("'{move}' is not a move: write a tile and where it goes (9-4@3e), draw or "
             "pass").format(move=printable(text, 40))


def illegal(game: Game, move: Draw | Pass | Placement | object) -> str:
    """Why ``move`` is not allowed now, for its mover (the game's turn)."""
    if isinstance(move, Placement) and move.tile not in game.hand(game.turn):
        return _("you do not hold {tile}").format(tile=move.tile.text())
    if not game.table.placements:
        if game.opening_tile is None:
            return _("the game opens first: place one of your tiles")
        return _("the game opens first, with {tile}").format(tile=game.opening_tile.text())
    if isinstance(move, Draw) and game.rules.stuck is Stuck.PASS:
        return _("this game has no drawing: pass when you cannot place")
    if isinstance(move, Draw | Pass):
        placements = [m for m in game.legal_moves() if isinstance(m, Placement)]
        if placements:
            return _("you can place a tile, so you must (e.g. {move})").format(
                move=placements[0].text())
        if isinstance(move, Pass) and any(isinstance(m, Draw) for m in game.legal_moves()):
            return _("you cannot place, so you must draw from the stock")
    text = move.text() if isinstance(move, Draw | Pass | Placement) else "?"
    return _("this move is not allowed now: {move}").format(move=text)
