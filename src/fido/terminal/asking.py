"""Asking her for one move of a list, as the lesson and the puzzles do at the terminal:
by its number, its notation, or its tile alone where it fits one place (as in ``fido
play``); a typo is answered and asked again, ``q`` leaves."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console
from rich.markup import escape

from fido.engine.moves import Move, Placement
from fido.engine.views import SeatView
from fido.errors import FidoError
from fido.i18n import _
from fido.safe_text import printable
from fido.terminal.session import ambiguous

__all__ = ["ask_move"]

TYPED = 20  # characters of what she typed shown back


def _pick(typed: str, moves: Sequence[Placement], view: SeatView) -> Placement | str | None:
    """The move ``typed`` names; a string: why a bare tile names none (it fits several)."""
    if typed.isascii() and typed.isdigit():
        n = int(typed[:6])
        return moves[n - 1] if 1 <= n <= len(moves) else None
    try:
        move = Move.from_text(typed)
    except FidoError:
        return None
    found = next((m for m in moves if m == move), None)
    if found is None and isinstance(move, Placement) and move.is_opening:
        why = ambiguous(view, printable(typed, TYPED), move.tile)
        if why is not None:
            return why
        found = next((m for m in moves if m.tile == move.tile), None)
    return found


def ask_move(ask: Callable[[str], str], console: Console, view: SeatView,
             moves: Sequence[Placement]) -> Placement | None:
    """One of ``moves``, as she names it; None when she leaves (``q``, end of input)."""
    while True:
        try:
            typed = ask(_("Your move (its number or notation, q to leave): ")).strip()
        except (EOFError, KeyboardInterrupt):
            return None
        if typed.lower() in {"q", "quit"}:
            return None
        found = _pick(typed, moves, view)
        if isinstance(found, Placement):
            return found
        console.print(escape(found if isinstance(found, str) else _(
            "'{typed}' is none of your moves: type its number, 1 to {count}").format(
                typed=printable(typed, TYPED), count=len(moves))))
