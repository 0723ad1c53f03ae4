"""Move notation resolved against a position, for people typing moves.

The canonical notation (``18-7@0n``, ``draw``, ``pass``) needs no position:
see :meth:`fido.engine.moves.Move.from_text`. People may also type just the tile
(``18-7``) when it fits only one place; :func:`parse_move` resolves that.

>>> from fido.engine.game import Game
>>> g = Game.new("fido set=6", players=3, seed=1)
>>> parse_move(g, "6-6")
Move.from_text('6-6')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from fido.engine.moves import Move, Placement
from fido.errors import AmbiguousMoveError, IllegalMoveError

__all__ = ["parse_move"]


class HasLegalMoves(Protocol):
    def legal_moves(self) -> list[Move]: ...


def _legal(position: HasLegalMoves | Sequence[Move]) -> Sequence[Move]:
    if isinstance(position, Sequence):
        return position
    return position.legal_moves()


def parse_move(position: HasLegalMoves | Sequence[Move], text: str) -> Move:
    """Parse ``text`` and check it against the legal moves of ``position``.

    ``position`` is a game or a list of legal moves (a view's ``legal_moves``).
    Raises NotationError (bad syntax), IllegalMoveError (not allowed now) or
    AmbiguousMoveError (a bare tile that fits several places).
    """
    move = Move.from_text(text)
    legal = _legal(position)
    if move in legal:
        return move
    if isinstance(move, Placement) and move.is_opening:
        fits = [m for m in legal if isinstance(m, Placement) and m.tile is move.tile]
        if len(fits) == 1:
            return fits[0]
        if len(fits) > 1:
            where = ", ".join(m.text() for m in fits)
            raise AmbiguousMoveError(f"{move.tile} fits several places: {where}")
        raise IllegalMoveError(f"{move.tile} cannot be placed now")
    options = ", ".join(m.text() for m in legal[:8]) + (" ..." if len(legal) > 8 else "")
    raise IllegalMoveError(f"{move.text()} is not legal now (legal: {options or 'none'})")
