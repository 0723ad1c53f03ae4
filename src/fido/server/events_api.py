"""Events over HTTP: create one, register, draw its rounds, read its tables and standings.

Each route is a thin door to :mod:`fido.server.events_service`, which the events' pages
call too; the rules of events live in :mod:`fido.events`.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request

from fido.events.championships import ChampionshipIn
from fido.server import events_service as events
from fido.server.deps import CsrfChecked, errors
from fido.server.events_service import OrganiserRequestIn, RegisterIn
from fido.store import INT_MAX

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["events"])
EventId = Annotated[int, Path(ge=1, le=INT_MAX)]


@router.get("/events", responses=errors())
def list_events(request: Request) -> dict[str, Any]:
    """Every event, newest first: name, dates, status and players registered."""
    return events.list_events(request)


@router.post("/organiser-requests", status_code=201, dependencies=CsrfChecked,
             responses=errors(401, 403, 409, 422))
def ask_to_organise(body: OrganiserRequestIn, request: Request) -> dict[str, Any]:
    """Ask the federation for an organiser's role of ``scope`` (``club:NAME`` or
    ``event:NAME``); it answers on its page. With no federation on the server the role
    is granted at once (``status``: ``approved``)."""
    return events.ask_to_organise(request, body)


@router.post("/events", status_code=201, dependencies=CsrfChecked,
             responses=errors(401, 403, 409))
def create_event(body: ChampionshipIn, request: Request) -> dict[str, Any]:
    """Create an event; you are its organiser."""
    return events.create_event(request, body)


@router.get("/events/{event_id}", responses=errors(404))
def get_event(event_id: EventId, request: Request) -> dict[str, Any]:
    return events.event(request, event_id)


@router.post("/events/{event_id}/entries", status_code=201, dependencies=CsrfChecked,
             responses=errors(401, 404, 409))
def register(event_id: EventId, body: RegisterIn, request: Request) -> dict[str, Any]:
    """Register yourself, or (the organiser) the account named in the body."""
    return events.register(request, event_id, body)


@router.delete("/events/{event_id}/entries/mine", dependencies=CsrfChecked,
               responses=errors(401, 404, 409))
def withdraw(event_id: EventId, request: Request) -> dict[str, Any]:
    """Leave: before the first round, off the list; after, no further round."""
    return events.withdraw(request, event_id)


@router.delete("/events/{event_id}/entries/{account_id}", dependencies=CsrfChecked,
               responses=errors(401, 403, 404, 409))
def retire(event_id: EventId, account_id: Annotated[int, Path(ge=1, le=INT_MAX)],
           request: Request) -> dict[str, Any]:
    """The organiser takes a player off: as she would withdraw herself (a player who
    does not come back; registering her again brings her back)."""
    return events.retire(request, event_id, account_id)


@router.post("/events/{event_id}/cancel", dependencies=CsrfChecked,
             responses=errors(401, 403, 404, 409))
def cancel(event_id: EventId, request: Request) -> dict[str, Any]:
    """Call the event off (the organiser or the federation): no further registration
    nor round; the tables played stand."""
    return events.cancel(request, event_id)


@router.post("/events/{event_id}/rounds", status_code=201, dependencies=CsrfChecked,
             responses=errors(401, 403, 404, 409))
async def draw_round(event_id: EventId, request: Request) -> dict[str, Any]:
    """Draw the next round (the organiser, when the last one is over); online, its
    tables start at once."""
    return await events.draw_round(request, event_id)
