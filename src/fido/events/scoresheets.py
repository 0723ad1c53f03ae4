"""An event's tables at real tables: their score sheets.

The sheet of a drawn table is entered on the web's score sheet page, filled
in from the draw (the event's round and table as its event text, the set,
the players in seat order, the round's day of the event as its date); it
is a result like any other (the other players confirm it, it goes into the
world ranking) and the event reads its
finals from it. Only the table's players, the event's organiser or the
federation enter it, and only with the table's players on it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from sqlalchemy.orm import Session

from fido.events.championships import seats_of
from fido.events.errors import EventError
from fido.i18n import _
from fido.store import Account, Championship, ChampionshipTable, GameRow

__all__ = ["attach_sheet", "check_sheet", "round_day", "sheet_key", "sheet_players",
           "sheet_table"]


def sheet_table(s: Session, table_id: int, *,
                lock: bool = False) -> tuple[Championship, ChampionshipTable]:
    """The drawn table whose sheet is to be entered (an error if it has one already).
    ``lock``: held until the transaction ends (entering the sheet: two players sending it
    at once take turns, and the second is told it is there)."""
    table = (s.get(ChampionshipTable, table_id, with_for_update=lock, populate_existing=lock)
             if 1 <= table_id <= 2**31 - 1 else None)
    if table is None or table.championship.mode != "tables":
        raise EventError(_("there is no such table of an event played at real tables"))
    if table.game_id is not None:
        raise EventError(_("the sheet of {event}, round {round}, table {table} has been "
                           "entered already (sheet {sheet})").format(
                               event=table.championship.name, round=table.round,
                               table=table.number, sheet=table.game_id))
    return table.championship, table


def round_day(event: Championship, round_no: int) -> dt.date:
    """The day a round of an event is played, as its sheet's date defaults: the event's
    days shared out between its rounds in order (a one-day event: its day)."""
    days = max(1, (event.ends_on - event.starts_on).days + 1)
    rounds = max(1, event.rounds)
    return event.starts_on + dt.timedelta(days=min(days - 1, (round_no - 1) * days // rounds))


def sheet_players(s: Session, table: ChampionshipTable) -> list[int]:
    """The ranking numbers of the table's players, seat 0 first."""
    numbers = []
    for account_id in seats_of(table):
        account = s.get(Account, account_id)
        if account is None or account.player is None:
            raise EventError(_("a player of this table has no ranking player any more"))
        numbers.append(account.player.number)
    return numbers


def check_sheet(s: Session, table: ChampionshipTable, account: Account,
                numbers: Iterable[int], *, federation: bool = False) -> None:
    """Refuse a sheet for ``table`` not entered by one of its players, its event's
    organiser or the federation, or whose players are not the table's."""
    event = table.championship
    if account.id not in seats_of(table) and account.id != event.organiser_id and not federation:
        raise EventError(_("a table's sheet is entered by one of its players, the event's "
                           "organiser or the federation"))
    want = sheet_players(s, table)
    if sorted(numbers) != sorted(want):
        raise EventError(_("the players of {event}, round {round}, table {table} are "
                           "{numbers}: the sheet must list them").format(
                               event=event.name, round=table.round, table=table.number,
                               numbers=", ".join(f"#{n}" for n in want)))


def sheet_key(table: ChampionshipTable) -> str:
    """The result's key in the ranking store: one sheet a table, sent twice stored once."""
    return f"event-table:{table.id}"


def attach_sheet(table: ChampionshipTable, game: GameRow) -> None:
    table.game_id = game.id
