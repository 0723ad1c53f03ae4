"""Who hears that it is her turn: at a turn-based table (a clock of an hour or more) the
person the move passes to gets a notification, in the move's own transaction (at most
one a table an hour: :func:`fido.accounts.notifications.notify_turn`), which the news
mail carries if she asked for it (:mod:`fido.accounts.notices`); her own move marks her
earlier ones about that table read. A seat the stand-in has taken for the rest of the
game hears nothing more, nor does a turn the table plays for her at once (a forced draw
or pass).
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from fido.accounts import notifications as notes
from fido.engine.game import Game
from fido.engine.moves import Placement
from fido.server.tables.log import SeatsChange
from fido.server.tables.state import Live
from fido.server.tables.timers import turn_based
from fido.store import TableRow

__all__ = ["both", "forced", "told"]


def told(room: Live, game: Game, *, mover: int | None = None,
         seats_to_come: list[int | None] | None = None) -> SeatsChange | None:
    """What the transaction of a move (or of the deal) writes for the turn: a "your turn"
    to the person to move now, and her earlier ones read for ``mover`` (the account that
    moved); None when there is nothing to write. ``seats_to_come``: each seat's account
    where the room's seats are not written yet (the deal's last seat)."""
    accounts = seats_to_come or [s.account_id if s.kind == "person" else None
                                 for s in room.seats]
    to_tell = None
    if (game.outcome is None and turn_based(room.clock)
            and game.turn not in room.replaced() and not forced(room, game)):
        to_tell = accounts[game.turn]
    if to_tell is None and mover is None:
        return None
    table_id = room.id

    def write(s: Session, _row: TableRow) -> None:
        if mover is not None:
            notes.mark_read(s, mover, table_id=table_id, kind="turn")
        if to_tell is not None and to_tell != mover:
            notes.notify_turn(s, to_tell, table_id)

    return write


def forced(room: Live, game: Game) -> bool:
    """The table plays her move at once (drawing or passing is all she can do): no
    message for a turn that is over before she could read it."""
    if not room.forced:
        return False
    moves = game.legal_moves()
    return len(moves) == 1 and not isinstance(moves[0], Placement)


def both(first: SeatsChange | None, second: SeatsChange | None) -> SeatsChange | None:
    """Two changes in one transaction, in order (either may be None)."""
    if first is None or second is None:
        return first or second

    def run(s: Session, row: TableRow) -> None:
        first(s, row)
        second(s, row)

    return run
