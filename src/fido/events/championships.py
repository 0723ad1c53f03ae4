"""Events (championships and cups) in the store: create one, register, draw its rounds.

An event has registered players (accounts linked to ranking players, since
every result goes into the world ranking), a table size and a number of
rounds. The organiser draws each round when the last one is over
(:func:`draw_round`): the seat draw of :mod:`fido.events.seating` spreads the
meetings; an online event gets one server table per group, created here with
every seat reserved for its player (the server seats them and deals:
:mod:`fido.server.events_api`), an event at real tables gets table cards and
its results as score sheets.

Every function takes an open :class:`~sqlalchemy.orm.Session`; an
:class:`EventError` stores nothing of the caller's block.
"""

from __future__ import annotations

import datetime as dt
import json
import secrets
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from fido.engine.rules import FIDO_DIVISORS, ruleset
from fido.errors import FidoError
from fido.events.deals import duplicate_game
from fido.events.errors import EventError
from fido.i18n import _
from fido.ranking.fields import Text
from fido.ranking.players import first_error
from fido.store import (
    Account,
    Championship,
    ChampionshipEntry,
    ChampionshipTable,
    SeatRow,
    TableRow,
)

__all__ = [
    "ChampionshipIn",
    "EventError",
    "cancel",
    "create_event",
    "event_label",
    "find_event",
    "register",
    "seats_of",
    "table_ruleset",
    "withdraw",
]


class ChampionshipIn(BaseModel):
    """An event as its organiser creates it."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    name: Text = Field(min_length=1, max_length=190)  # "event:NAME" is its organiser's scope
    starts_on: dt.date
    ends_on: dt.date
    set: Literal[6, 9, 12, 15, 18, 21] = 9
    divisor: int | None = Field(default=None, ge=2, le=99, description="default: the set's")
    table_size: Annotated[int, Field(ge=3, le=9)] = 5
    rounds: Annotated[int, Field(ge=1, le=30)] = 3
    mode: Literal["online", "tables"] = "online"
    invitation: bool = False
    duplicate: bool = False
    seeded: bool = False
    clock: Annotated[int, Field(ge=10, le=3600)] | None = None
    grace: Annotated[int, Field(ge=0, le=3600)] = 60

    @model_validator(mode="after")
    def _check(self) -> ChampionshipIn:
        if self.ends_on < self.starts_on:
            raise ValueError(_("the event cannot end before it starts"))
        if self.divisor is None:
            self.divisor = FIDO_DIVISORS[self.set]
        try:
            ruleset("fido", set=self.set, divisor=self.divisor)
        except FidoError as e:
            raise ValueError(str(e)) from None
        return self


def create_event(s: Session, organiser: Account, data: ChampionshipIn | dict[str, object],
                 now: dt.datetime | None = None) -> Championship:
    """A new event, its organiser the account that creates it."""
    if organiser.guest or organiser.name is None:
        raise EventError(_("a guest cannot organise an event: sign up first"))
    try:
        d = data if isinstance(data, ChampionshipIn) else ChampionshipIn.model_validate(data)
    except ValidationError as e:
        raise EventError(first_error(e, "event")) from None
    assert d.divisor is not None
    event = Championship(
        name=d.name, starts_on=d.starts_on, ends_on=d.ends_on, set=d.set, divisor=d.divisor,
        table_size=d.table_size, rounds=d.rounds, mode=d.mode, invitation=d.invitation,
        duplicate=d.duplicate, seeded=d.seeded, clock=d.clock, grace=d.grace,
        status="registration", secret=secrets.token_hex(32), organiser_id=organiser.id,
        created_at=now or dt.datetime.now(dt.UTC),
    )
    s.add(event)
    s.flush()
    return event


def find_event(s: Session, event_id: int) -> Championship:
    event = s.get(Championship, event_id) if 1 <= event_id <= 2**31 - 1 else None
    if event is None:
        raise EventError(_("there is no event {number}").format(number=event_id))
    return event


def cancel(event: Championship, now: dt.datetime | None = None) -> None:
    """The organiser calls the event off: no further registration, leaving nor round; the
    tables already played stand, in the standings and the ranking (they were real games),
    and a round being played online plays on."""
    if event.cancelled_at is not None:
        raise EventError(_("the event was cancelled already"))
    if _drawn(event) >= event.rounds and event.status != "registration":
        raise EventError(_("every round has been drawn: there is nothing left to cancel"))
    event.cancelled_at = now or dt.datetime.now(dt.UTC)


def _not_cancelled(event: Championship) -> None:
    if event.cancelled_at is not None:
        raise EventError(_("the event was cancelled"))


def _drawn(event: Championship) -> int:
    return max((t.round for t in event.tables), default=0)


def register(s: Session, event: Championship, account: Account, *,
             organiser: bool = False, now: dt.datetime | None = None) -> ChampionshipEntry:
    """Register ``account`` (herself, or by the ``organiser`` for an event by invitation);
    once the event has started, the organiser only brings back a player who left."""
    _not_cancelled(event)
    entry = next((e for e in event.entries if e.account_id == account.id), None)
    if event.status != "registration":
        if entry is not None and entry.retired_after is not None and organiser:
            if _drawn(event) >= event.rounds:
                raise EventError(_("every round has been drawn: there is none left to play"))
            entry.retired_after = None  # back for the next round drawn
            s.flush()
            return entry
        raise EventError(_("registration is closed: the first round has been drawn"))
    if event.invitation and not organiser:
        raise EventError(_("this event is by invitation: its organiser registers the players"))
    if account.guest or account.name is None:
        raise EventError(_("a guest cannot play an event: sign up first"))
    if account.player_id is None:
        raise EventError(_("{name} has no ranking player: an event's results go into the "
                           "world ranking, so link the account to a player number first")
                         .format(name=account.name))
    if entry is not None:
        raise EventError(_("{name} is registered already").format(name=account.name))
    number = (s.scalar(select(func.max(ChampionshipEntry.number))
                       .where(ChampionshipEntry.championship_id == event.id)) or 0) + 1
    entry = ChampionshipEntry(championship_id=event.id, account_id=account.id, number=number,
                              registered_at=now or dt.datetime.now(dt.UTC))
    event.entries.append(entry)
    s.flush()
    return entry


def withdraw(s: Session, event: Championship, account: Account) -> None:
    """``account`` leaves: before the first round she is off the list; after it her
    results stand and the rounds still to draw leave her out (the table she sits at
    now plays on: online, a bot takes her seat when she is away)."""
    _not_cancelled(event)
    entry = next((e for e in event.entries if e.account_id == account.id), None)
    if entry is None:
        raise EventError(_("{name} is not registered").format(name=account.name))
    if event.status == "registration":
        event.entries.remove(entry)
    elif entry.retired_after is not None:
        raise EventError(_("{name} left the event after round {round}").format(
            name=account.name, round=entry.retired_after))
    elif _drawn(event) >= event.rounds:
        raise EventError(_("every round has been drawn: there is none left to leave"))
    else:
        entry.retired_after = _drawn(event)
    s.flush()


def table_ruleset(event: Championship) -> str:
    return ruleset("fido", set=event.set, divisor=event.divisor).text()


def event_label(event: Championship, table: ChampionshipTable) -> str:
    """The event text of a table's result in the ranking: the event, its round and table."""
    return f"{event.name}, round {table.round}, table {table.number}"


def seats_of(table: ChampionshipTable) -> list[int]:
    """The account ids at ``table``, seat 0 first."""
    seats: list[int] = json.loads(table.seats)
    return seats


def duplicate_deal(event: Championship, round_number: int, players: int) -> str:
    """The deal every table of ``players`` plays in round ``round_number`` of a duplicate
    event, as the server stores it: the hands and the stock's order (secret)."""
    game = duplicate_game(table_ruleset(event), players, bytes.fromhex(event.secret),
                          round_number, 1)
    hands = [[t.text() for t in game.set.tiles_of(h)] for h in game.initial_hands]
    return json.dumps({"hands": hands, "stock": [t.text() for t in game.stock]})


def new_server_table(s: Session, event: Championship, seats: list[Account],
                     round_number: int, now: dt.datetime) -> str:
    """An online round's table: rated, private, every seat reserved for its player;
    in a duplicate event, dealt already (the deal is secret like every deal)."""
    table_id = secrets.token_urlsafe(9)
    row = TableRow(
        id=table_id, ruleset=table_ruleset(event), players=len(seats), status="open",
        rated=True, private=True, clock=event.clock, grace=event.grace,
        invite=secrets.token_urlsafe(12), created_by=event.organiser_id, created_at=now,
        seq=0, move_seq=0,
        deal=duplicate_deal(event, round_number, len(seats)) if event.duplicate else None,
    )
    row.seats = [SeatRow(seat=i, kind="reserved", reserved_for=a.name_key)
                 for i, a in enumerate(seats)]
    s.add(row)
    return table_id
