"""Events, the one way: create one, register, draw its rounds, read its tables and
standings, ask to organise.

The rules of events live in :mod:`fido.events`; the routes of
:mod:`fido.server.events_api` and the events' pages (:mod:`fido.web.event_pages`) both
call these with the request that asks. Drawing a round of an online event also seats its
players at the server's tables and deals: a round starts whether everyone is there or
not, so a player not connected is away from the start, and after the event's grace the
stand-in bot plays for her until she comes. A process stopped between the draw's commit
and the seating seats those tables when the server starts again
(:func:`seat_waiting_rounds`).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from fractions import Fraction
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from fido.accounts import roles
from fido.accounts.signup import name_key
from fido.errors import Refused
from fido.events import championships as champs
from fido.events import rounds
from fido.events.championships import ChampionshipIn, EventError
from fido.i18n import N_, _
from fido.server import deps, policy
from fido.server.errors import ApiError
from fido.store import (
    Account,
    Championship,
    ChampionshipTable,
    OrganiserRequest,
    TableRow,
)

if TYPE_CHECKING:
    from fido.server.hub import Hub
    from fido.server.tables import Room

__all__ = [
    "OrganiserRequestIn",
    "RegisterIn",
    "ask_to_organise",
    "cancel",
    "create_event",
    "draw_round",
    "event",
    "event_json",
    "list_events",
    "register",
    "retire",
    "seat_waiting_rounds",
    "withdraw",
]

log = logging.getLogger(__name__)


class RegisterIn(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    name: str | None = Field(default=None, min_length=1, max_length=40,
                             description="the organiser registers this account (invitation)")


def _name(account: Account | None) -> str:
    if account is None:
        return "?"
    return account.name or f"guest {account.id}"


def _locked(s: Session, event_id: int) -> Championship | None:
    """The event, locked until the transaction ends (PostgreSQL: ``FOR UPDATE``): two
    registrations, two clicks on "draw" or a draw and a withdrawal at once take turns,
    so the second sees what the first did (SQLite writes one transaction at a time)."""
    return s.get(Championship, event_id, with_for_update=True, populate_existing=True)


def _acting(request: Request, s: Session, event_id: int,
            organiser_only: str | None = None) -> tuple[Account, Championship]:
    """The signed-in account and the event she acts on, locked (:func:`_locked`); with
    ``organiser_only`` (the refusal's sentence, marked with ``N_``: what only the organiser
    does), hers or the federation's only."""
    me = deps.signed_in(request, s)
    event = _locked(s, event_id)
    if event is None:
        raise ApiError(404, "no_event", _("there is no such event"))
    if organiser_only is not None and not _organises(s, event, me):
        raise ApiError(403, "organiser", _(organiser_only))
    return me, event


def _organises(s: Session, event: Championship, account: Account | None) -> bool:
    """The event's organiser, or the federation, acts for the event."""
    return account is not None and (account.id == event.organiser_id
                                    or roles.is_federation(s, account.id))


def _status(s: Session, event: Championship,
            known: list[rounds.TableResult] | None = None) -> str:
    """registration, running, finished once the last round's tables all have results, or
    cancelled."""
    if event.cancelled_at is not None:
        return "cancelled"
    drawn = max((t.round for t in event.tables), default=0)
    if drawn == event.rounds and rounds.round_over(s, event, known):
        return "finished"
    return event.status


def _number(x: Fraction) -> int | float:
    """A normalised total: whole when it is (tables of the event's size), else 2 decimals."""
    return int(x) if x.denominator == 1 else round(float(x), 2)


def event_json(s: Session, event: Championship, me: Account | None) -> dict[str, Any]:
    """An event as anyone may see it (never its secret), with its tables and standings."""
    names = {e.account_id: _name(e.account) for e in event.entries}
    known = rounds.results(s, event)  # read once: a table may end while this runs
    shown = policy.open_results(s, event, known)
    results = {(r.round, r.number): r for r in shown}
    ended = {(r.round, r.number) for r in known if r.seats is not None}
    tables = []
    for t in event.tables:
        seats = champs.seats_of(t)
        result = results[(t.round, t.number)].seats
        tables.append({
            "id": t.id, "round": t.round, "number": t.number, "table": t.table_id,
            "game": t.game_id,
            "seats": [{"account": a, "name": names.get(a, "?"),
                       "final": result[i].final if result else None}
                      for i, a in enumerate(seats)],
            "done": (t.round, t.number) in ended,
        })
    drawn = max((t.round for t in event.tables), default=0)
    return {
        "id": event.id, "name": event.name, "starts_on": event.starts_on.isoformat(),
        "ends_on": event.ends_on.isoformat(), "set": event.set, "divisor": event.divisor,
        "table_size": event.table_size, "rounds": event.rounds, "mode": event.mode,
        "invitation": event.invitation, "duplicate": event.duplicate, "seeded": event.seeded,
        "clock": event.clock, "grace": event.grace, "status": _status(s, event, known),
        "organiser": _name(s.get(Account, event.organiser_id)) if event.organiser_id else None,
        "mine": _organises(s, event, me),
        "registered": me is not None and any(e.account_id == me.id for e in event.entries),
        "players": [{"account": e.account_id, "number": e.number, "name": names[e.account_id],
                     "retired_after": e.retired_after} for e in event.entries],
        "drawn": drawn, "round_over": rounds.round_over(s, event, known),
        "cancelled_at": event.cancelled_at.isoformat() if event.cancelled_at else None,
        "tables": tables,
        "standings": [
            {"place": x.position, "account": x.player, "name": names.get(x.player, "?"),
             "total": _number(x.total), "games": x.games, "wins": x.wins,
             "decided_by": x.decided_by}
            for x in rounds.standings_of(s, event, shown)
        ],
    }


async def _seat(room: Room, people: list[Account]) -> None:
    """Seat a round's table: each player in her seat (one seated already is left so), then
    everyone not connected is away, so the stand-in plays for her after the grace."""
    for seat, person in enumerate(people):
        try:
            await room.join(person, seat, room.invite)
        except Refused as e:
            if e.code not in ("seated", "taken", "started"):  # else: seated by another process
                raise
    await room.absent_away()


def _players_of(s: Session, table: ChampionshipTable) -> list[Account]:
    """The accounts at ``table``, seat 0 first, loaded to be seated once the session ends."""
    people = [a for a in (s.get(Account, i) for i in champs.seats_of(table)) if a is not None]
    for p in people:
        s.expunge(p)
    return people


async def seat_waiting_rounds(hub: Hub) -> int:
    """At start: seat the online event tables a round drew but did not seat (the process
    stopped between the draw's commit and the seating). How many tables."""
    def waiting() -> list[tuple[str, list[Account]]]:
        with hub.store.session(write=False) as s:
            tables = s.scalars(select(ChampionshipTable)
                               .join(TableRow, TableRow.id == ChampionshipTable.table_id)
                               .where(TableRow.status == "open")).all()
            return [(t.table_id or "", _players_of(s, t)) for t in tables]

    tables = await asyncio.to_thread(waiting)
    for table_id, people in tables:
        try:
            await _seat(await hub.room(table_id), people)
        except (LookupError, Refused) as e:
            log.error("event table %s cannot be seated: %s", table_id, getattr(e, "message", e))
    return len(tables)


class OrganiserRequestIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    scope: Annotated[str, Field(min_length=1, max_length=200, examples=["club:Rostock"])]


def _request_json(request: OrganiserRequest | None) -> dict[str, Any] | None:
    """Her request to organise as the events page shows it."""
    if request is None:
        return None
    status = ("pending" if request.decided_at is None
              else "approved" if request.approved else "refused")
    return {"id": request.id, "scope": request.scope, "status": status,
            "asked_at": request.asked_at.isoformat()}


def _in_store(request: Request, work: Any) -> Any:
    """``work`` in a writing session; an event's refusal is a 409."""
    with deps.server(request).store.session() as s:
        try:
            return work(s)
        except EventError as e:
            raise ApiError(409, "event", str(e)) from None


def list_events(request: Request) -> dict[str, Any]:
    """Every event, newest first: name, dates, status and players registered."""
    with deps.server(request).store.session(write=False) as s:
        rows = s.scalars(select(Championship).order_by(Championship.id.desc())).all()
        me = deps.me(request, s)
        asked = roles.latest_request(s, me.id) if me is not None else None
        return {"may_organise": policy.may_organise(s, me),
                "organiser_request": _request_json(asked), "events": [
            {"id": e.id, "name": e.name, "starts_on": e.starts_on.isoformat(),
             "ends_on": e.ends_on.isoformat(), "status": _status(s, e), "mode": e.mode,
             "set": e.set, "table_size": e.table_size, "rounds": e.rounds,
             "players": len(e.entries)} for e in rows]}


def ask_to_organise(request: Request, body: OrganiserRequestIn) -> dict[str, Any]:
    """Ask the federation for an organiser's role of ``scope`` (``club:NAME`` or
    ``event:NAME``); it answers on its page. With no federation on the server the role
    is granted at once (``status``: ``approved``)."""
    def work(s: Session) -> dict[str, Any]:
        me = deps.signed_in(request, s)
        return _request_json(roles.ask_organiser(
            s, me, body.scope, free=deps.grants_freely(request))) or {}
    result: dict[str, Any] = _in_store(request, work)
    return result


def create_event(request: Request, body: ChampionshipIn) -> dict[str, Any]:
    """Create an event; you are its organiser."""
    def work(s: Session) -> dict[str, Any]:
        me = deps.signed_in(request, s)
        policy.check_organise(s, me)
        event = champs.create_event(s, me, body)
        # she organises it: she settles the disputes of its games, and no other's (a
        # scope by the event's id: the name is hers to choose, and could match others)
        s.flush()
        roles.grant(s, me, roles.ORGANISER, roles.event_scope(event.id))
        return event_json(s, event, me)
    result: dict[str, Any] = _in_store(request, work)
    return result


def event(request: Request, event_id: int) -> dict[str, Any]:
    with deps.server(request).store.session(write=False) as s:
        event = s.get(Championship, event_id)
        if event is None:
            raise ApiError(404, "no_event", _("there is no such event"))
        return event_json(s, event, deps.me(request, s))


def register(request: Request, event_id: int, body: RegisterIn) -> dict[str, Any]:
    """Register yourself, or (the organiser) the account named in the body."""
    def work(s: Session) -> dict[str, Any]:
        me, event = _acting(request, s, event_id)
        who = me
        if body.name is not None:
            if not _organises(s, event, me):
                raise ApiError(403, "organiser", _("only the organiser registers others"))
            found = s.scalar(select(Account).where(Account.name_key == name_key(body.name)))
            if found is None:
                raise ApiError(404, "no_account", _("there is no account named {name}")
                               .format(name=repr(body.name)))
            who = found
        champs.register(s, event, who, organiser=_organises(s, event, me))
        return event_json(s, event, me)
    result: dict[str, Any] = _in_store(request, work)
    return result


def withdraw(request: Request, event_id: int) -> dict[str, Any]:
    """Leave: before the first round, off the list; after, no further round."""
    def work(s: Session) -> dict[str, Any]:
        me, event = _acting(request, s, event_id)
        champs.withdraw(s, event, me)
        return event_json(s, event, me)
    result: dict[str, Any] = _in_store(request, work)
    return result


def retire(request: Request, event_id: int, account_id: int) -> dict[str, Any]:
    """The organiser takes a player off: as she would withdraw herself (a player who
    does not come back; registering her again brings her back)."""
    def work(s: Session) -> dict[str, Any]:
        me, event = _acting(request, s, event_id, N_(
            "only the event's organiser (or the federation) takes players off"))
        who = s.get(Account, account_id)
        if who is None or all(e.account_id != who.id for e in event.entries):
            raise ApiError(404, "no_entry", _("that account is not a player of this event"))
        champs.withdraw(s, event, who)
        return event_json(s, event, me)
    result: dict[str, Any] = _in_store(request, work)
    return result


def cancel(request: Request, event_id: int) -> dict[str, Any]:
    """Call the event off (the organiser or the federation): no further registration
    nor round; the tables played stand."""
    def work(s: Session) -> dict[str, Any]:
        me, event = _acting(request, s, event_id, N_(
            "only the event's organiser (or the federation) cancels it"))
        champs.cancel(event)
        return event_json(s, event, me)
    result: dict[str, Any] = _in_store(request, work)
    return result


async def draw_round(request: Request, event_id: int) -> dict[str, Any]:
    """Draw the next round (the organiser, when the last one is over); online, its
    tables start at once."""
    def work(s: Session) -> list[tuple[str, list[Account]]]:
        _organiser, event = _acting(request, s, event_id, N_(
            "only the event's organiser (or the federation) draws its rounds"))
        tables = rounds.draw_round(s, event, dt.datetime.now(dt.UTC))
        return [(t.table_id, _players_of(s, t)) for t in tables if t.table_id is not None]

    seated = await asyncio.to_thread(_in_store, request, work)
    for table_id, people in seated:
        await _seat(await deps.room(request, table_id), people)

    def read(s: Session) -> dict[str, Any]:
        event = s.get(Championship, event_id)
        assert event is not None
        return event_json(s, event, deps.me(request, s))
    result: dict[str, Any] = await asyncio.to_thread(_in_store, request, read)
    return result
