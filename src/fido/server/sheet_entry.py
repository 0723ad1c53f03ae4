"""Entering a result from a real table, the one way the score sheet page and the
table assistant both take: who may enter it, storing it, asking the others.

A sheet is entered by one of its players (her account linked to a ranking
player on it), an organiser of its event or the federation
(:func:`fido.accounts.roles.check_submit`); the sheet of an event's drawn
table by one of that table's players, the event's organiser or the
federation, with exactly the table's players
(:mod:`fido.events.scoresheets`). Then :func:`fido.ranking.submit` stores
it, and every other player with an account is notified to confirm or
dispute it.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy.orm import Session

from fido.accounts import notifications as notes
from fido.accounts.roles import check_submit, is_federation
from fido.events.scoresheets import attach_sheet, check_sheet, sheet_key, sheet_table
from fido.ranking import ResultIn, submit
from fido.store import Account, GameRow

__all__ = ["enter_sheet"]


def enter_sheet(s: Session, account: Account, result: ResultIn, numbers: Iterable[int],
                *, event_table: int | None = None) -> tuple[GameRow, bool]:
    """Store ``result`` entered by ``account`` (``numbers``: its players' ranking numbers);
    the game and whether it is new. Raises ``RoleError``, ``EventError`` or
    ``ResultError`` and stores nothing then."""
    numbers = list(numbers)
    drawn = None
    if event_table is not None:
        _event, drawn = sheet_table(s, event_table, lock=True)
        check_sheet(s, drawn, account, numbers, federation=is_federation(s, account.id))
        result = result.model_copy(update={"key": sheet_key(drawn)})
    else:
        check_submit(s, account, result.event, numbers)
    with s.begin_nested():
        game, new = submit(s, result)
        if drawn is not None:
            attach_sheet(drawn, game)
        if new:
            others = [ln.player_id for ln in game.lines if ln.player_id != account.player_id]
            notes.notify(s, [a for a in notes.accounts_of_players(s, others)
                             if a != account.id], "review", game)
    return game, new
