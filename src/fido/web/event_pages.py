"""The events' pages: the list and the form to create one, an event (players,
rounds, standings, the organiser's buttons) and a round's printable table cards.

Every action calls the service the JSON API calls (:mod:`fido.server.events_service`),
so the rules of events live in one place.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse

from fido.accounts import notifications as notes
from fido.engine.rules import FIDO_DIVISORS
from fido.errors import Refused
from fido.events.championships import ChampionshipIn
from fido.i18n import N_, _, format_date
from fido.safe_text import whole_or_none
from fido.server import events_service as events
from fido.server.errors import status_of
from fido.web.kit import Form, checked, render, see_other, viewer

__all__ = ["router"]

DEFAULTS = {"name": "", "starts_on": "", "ends_on": "", "set": "9", "table_size": "5",
            "rounds": "3", "mode": "online", "grace": "60", "clock": ""}
FLAGS = ("invitation", "duplicate", "seeded")
# what parted two level players in the standings (fido.events.standings.CRITERIA)
CRITERIA = {"total": N_("total"), "wins": N_("wins"), "best": N_("best final"),
            "head-to-head": N_("head-to-head"), "lot": N_("draw number")}


def _day(text: Any) -> str:
    """An API's ISO date (or the date of a timestamp) the current language's way;
    anything else as it is."""
    try:
        return format_date(dt.date.fromisoformat(str(text)[:10]))
    except ValueError:
        return str(text or "")


def _shown(event: dict[str, Any]) -> dict[str, Any]:
    """An event of the API with its dates as a person reads them."""
    start, end = _day(event.get("starts_on")), _day(event.get("ends_on"))
    return event | {"dates": start if start == end else f"{start} – {end}",
                    "cancelled_on": _day(event.get("cancelled_at"))}


def _event_body(form: dict[str, str]) -> dict[str, Any]:
    """The create form as the service's input (:func:`checked` checks every value)."""
    body: dict[str, Any] = {k: form.get(k, "").strip() for k in
                            ("name", "starts_on", "ends_on", "mode")}
    for k in ("set", "table_size", "rounds", "grace", "clock"):
        value = form.get(k, "").strip()
        if value:
            n = whole_or_none(value.removeprefix("-"))
            body[k] = value if n is None else -n if value.startswith("-") else n
    for k in FLAGS:
        body[k] = form.get(k) == "on"
    return body


def _answer_read(request: Request, account_id: int) -> None:
    """The federation's answer to her request to organise is read: the events page says it."""
    with request.app.state.server.store.session() as s:
        notes.mark_read(s, account_id, requests=True)


def _valid_id(event_id: str) -> int | None:
    n = whole_or_none(event_id)
    return n if n is not None and 0 < n < 2**31 else None


router = APIRouter(include_in_schema=False)


async def _events_page(request: Request, form: dict[str, str] | None = None,
                       error: str = "", status: int = 200,
                       ask: dict[str, str] | None = None) -> HTMLResponse:
    me = await asyncio.to_thread(viewer, request)
    listed = await asyncio.to_thread(events.list_events, request)
    asked = listed.get("organiser_request")
    if me is not None and asked is not None and asked["status"] != "pending":
        await asyncio.to_thread(_answer_read, request, me["id"])  # this page shows it
        me = await asyncio.to_thread(viewer, request)  # her inbox's count without it
    return render(request, "events.html", status, me=me, form=form or DEFAULTS,
                  error=error, events=[_shown(e) for e in listed["events"]],
                  sets=FIDO_DIVISORS, may_organise=listed["may_organise"],
                  asked=asked, ask=ask or {})


@router.get("/events", response_class=HTMLResponse)
async def events_list(request: Request) -> HTMLResponse:
    return await _events_page(request)


@router.post("/events")
async def create(request: Request, form: Form) -> Response:
    try:
        body = checked(ChampionshipIn, _event_body(form))
        event = await asyncio.to_thread(events.create_event, request, body)
    except Refused as e:
        return await _events_page(request, form, e.message, status_of(e))
    return see_other(f"/events/{event['id']}")


@router.post("/events/organise")
async def ask_to_organise(request: Request, form: Form) -> Response:
    """She asks the federation for an organiser's role (a club or an event by name)."""
    kind = "event" if form.get("kind") == "event" else "club"
    name = " ".join(form.get("scope", "").split())
    try:
        body = checked(events.OrganiserRequestIn, {"scope": f"{kind}:{name}"[:200]})
        await asyncio.to_thread(events.ask_to_organise, request, body)
    except Refused as e:
        return await _events_page(request, error=e.message, status=status_of(e),
                                  ask={"kind": kind, "scope": name})
    return see_other("/events#organise")


async def _event_page(request: Request, event_id: int, error: str = "",
                      status: int = 200) -> HTMLResponse:
    me = await asyncio.to_thread(viewer, request)
    try:
        event = _shown(await asyncio.to_thread(events.event, request, event_id))
    except Refused as e:
        return render(request, "message.html", status_of(e), me=me,
                      title=_("No such event"), message=e.message, back="/events")
    rounds = [[t for t in event["tables"] if t["round"] == r]
              for r in range(1, event["drawn"] + 1)]
    retired = {p["account"] for p in event["players"] if p["retired_after"] is not None}
    criteria = {k: _(v) for k, v in CRITERIA.items()}
    return render(request, "event.html", status, me=me, event=event, rounds=rounds,
                  error=error, retired=retired, criteria=criteria)


@router.get("/events/{event_id}", response_class=HTMLResponse)
async def event(request: Request, event_id: str) -> HTMLResponse:
    eid = _valid_id(event_id)
    if eid is None:
        return render(request, "message.html", 404, title=_("No such event"),
                      message=_("There is no event with this address."), back="/events")
    return await _event_page(request, eid)


async def _act(request: Request, event_id: str,
               work: Callable[[int], Awaitable[object] | object]) -> Response:
    """The organiser's or a player's button: ``work`` on the event, then its page (with
    the refusal's sentence when refused)."""
    eid = _valid_id(event_id)
    if eid is None:
        return see_other("/events")
    try:
        done = await asyncio.to_thread(work, eid)
        if inspect.isawaitable(done):
            await done
    except Refused as e:
        return await _event_page(request, eid, e.message, status_of(e))
    return see_other(f"/events/{eid}")


@router.post("/events/{event_id}/register")
async def register(request: Request, form: Form, event_id: str) -> Response:
    name = form.get("name", "").strip()
    return await _act(request, event_id, lambda eid: events.register(
        request, eid, checked(events.RegisterIn, {"name": name} if name else {})))


@router.post("/events/{event_id}/withdraw")
async def withdraw(request: Request, form: Form, event_id: str) -> Response:
    return await _act(request, event_id, lambda eid: events.withdraw(request, eid))


@router.post("/events/{event_id}/players/{account_id}/retire")
async def retire(request: Request, form: Form, event_id: str, account_id: str) -> Response:
    """The organiser takes a player off the rounds still to draw."""
    aid = _valid_id(account_id) or 0
    return await _act(request, event_id, lambda eid: events.retire(request, eid, aid))


@router.post("/events/{event_id}/cancel")
async def cancel(request: Request, form: Form, event_id: str) -> Response:
    return await _act(request, event_id, lambda eid: events.cancel(request, eid))


@router.post("/events/{event_id}/rounds")
async def draw(request: Request, form: Form, event_id: str) -> Response:
    return await _act(request, event_id, lambda eid: events.draw_round(request, eid))


@router.get("/events/{event_id}/rounds/{round_no}/cards", response_class=HTMLResponse)
async def cards(request: Request, event_id: str, round_no: int) -> HTMLResponse:
    """The round's table cards, one a table, to print (one card a page)."""
    eid = _valid_id(event_id)
    me = await asyncio.to_thread(viewer, request)
    try:
        event = await asyncio.to_thread(events.event, request, eid or 0)
    except Refused:
        event = None
    if eid is None or event is None:
        return render(request, "message.html", 404, title=_("No such event"),
                      message=_("There is no event with this address."), back="/events")
    tables = [t for t in event["tables"] if t["round"] == round_no]
    if not tables:
        return render(request, "message.html", 404, title=_("No such round"),
                      message=_("Round {n} has not been drawn.").format(n=round_no),
                      back=f"/events/{eid}")
    return render(request, "event_cards.html", me=me, event=event, round_no=round_no,
                  tables=tables)
