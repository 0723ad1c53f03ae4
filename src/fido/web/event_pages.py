"""The events' pages: the list and the form to create one, an event (players,
rounds, standings, the organiser's buttons) and a round's printable table cards.

Every action goes through the JSON API of :mod:`fido.server.events_api`, so
the rules of events live in one place.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse

from fido.accounts import notifications as notes
from fido.i18n import N_, _, format_date
from fido.rules import FIDO_DIVISORS
from fido.safe_text import whole_or_none
from fido.server import csrf
from fido.web.api import InProcessApi
from fido.web.kit import Form, render, see_other, viewer

__all__ = ["event_routes"]

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
    """The create form as the API's JSON (the API checks every value)."""
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


def event_routes() -> APIRouter:
    pages = APIRouter(include_in_schema=False)

    async def events_page(request: Request, form: dict[str, str] | None = None,
                          error: str = "", status: int = 200,
                          ask: dict[str, str] | None = None) -> HTMLResponse:
        me = await asyncio.to_thread(viewer, request)
        answer = await InProcessApi(request).call("GET", "/api/events")
        events = [_shown(e) for e in answer.body.get("events", [])] if answer.ok else []
        asked = answer.body.get("organiser_request") if answer.ok else None
        if me is not None and asked is not None and asked["status"] != "pending":
            await asyncio.to_thread(_answer_read, request, me["id"])  # this page shows it
            me = await asyncio.to_thread(viewer, request)  # her inbox's count without it
        return render(request, "events.html", status, me=me, form=form or DEFAULTS,
                      error=error, events=events, sets=FIDO_DIVISORS,
                      may_organise=answer.ok and answer.body.get("may_organise", False),
                      asked=asked, ask=ask or {})

    @pages.get("/events", response_class=HTMLResponse)
    async def events(request: Request) -> HTMLResponse:
        return await events_page(request)

    @pages.post("/events")
    async def create(request: Request, form: Form) -> Response:
        api = InProcessApi(request, form.get(csrf.FIELD))
        answer = await api.call("POST", "/api/events", _event_body(form))
        if answer.ok:
            return see_other(f"/events/{answer.body['id']}", api)
        return await events_page(request, form, answer.message, answer.status)

    @pages.post("/events/organise")
    async def ask_to_organise(request: Request, form: Form) -> Response:
        """She asks the federation for an organiser's role (a club or an event by name)."""
        kind = "event" if form.get("kind") == "event" else "club"
        name = " ".join(form.get("scope", "").split())
        api = InProcessApi(request, form.get(csrf.FIELD))
        answer = await api.call("POST", "/api/organiser-requests",
                                {"scope": f"{kind}:{name}"[:200]})
        if answer.ok:
            return see_other("/events#organise", api)
        return await events_page(request, error=answer.message, status=answer.status,
                                 ask={"kind": kind, "scope": name})

    async def event_page(request: Request, event_id: int, error: str = "",
                         status: int = 200) -> HTMLResponse:
        me = await asyncio.to_thread(viewer, request)
        answer = await InProcessApi(request).call("GET", f"/api/events/{event_id}")
        if not answer.ok:
            return render(request, "message.html", answer.status, me=me,
                          title=_("No such event"), message=answer.message, back="/events")
        event = _shown(answer.body)
        rounds = [[t for t in event["tables"] if t["round"] == r]
                  for r in range(1, event["drawn"] + 1)]
        retired = {p["account"] for p in event["players"] if p["retired_after"] is not None}
        criteria = {k: _(v) for k, v in CRITERIA.items()}
        return render(request, "event.html", status, me=me, event=event, rounds=rounds,
                      error=error, retired=retired, criteria=criteria)

    @pages.get("/events/{event_id}", response_class=HTMLResponse)
    async def event(request: Request, event_id: str) -> HTMLResponse:
        eid = _valid_id(event_id)
        if eid is None:
            return render(request, "message.html", 404, title=_("No such event"),
                          message=_("There is no event with this address."), back="/events")
        return await event_page(request, eid)

    async def act(request: Request, form: dict[str, str], event_id: str, method: str,
                  path: str, *, body: dict[str, Any] | None = None) -> Response:
        eid = _valid_id(event_id)
        if eid is None:
            return see_other("/events")
        api = InProcessApi(request, form.get(csrf.FIELD))
        if body is not None and form.get("name", "").strip():
            body = {"name": form["name"].strip()}
        answer = await api.call(method, f"/api/events/{eid}{path}", body)
        if answer.ok:
            return see_other(f"/events/{eid}", api)
        return await event_page(request, eid, answer.message, answer.status)

    @pages.post("/events/{event_id}/register")
    async def register(request: Request, form: Form, event_id: str) -> Response:
        return await act(request, form, event_id, "POST", "/entries", body={})

    @pages.post("/events/{event_id}/withdraw")
    async def withdraw(request: Request, form: Form, event_id: str) -> Response:
        return await act(request, form, event_id, "DELETE", "/entries/mine")

    @pages.post("/events/{event_id}/players/{account_id}/retire")
    async def retire(request: Request, form: Form, event_id: str, account_id: str) -> Response:
        """The organiser takes a player off the rounds still to draw."""
        aid = _valid_id(account_id)
        return await act(request, form, event_id, "DELETE", f"/entries/{aid or 0}")

    @pages.post("/events/{event_id}/cancel")
    async def cancel(request: Request, form: Form, event_id: str) -> Response:
        return await act(request, form, event_id, "POST", "/cancel")

    @pages.post("/events/{event_id}/rounds")
    async def draw(request: Request, form: Form, event_id: str) -> Response:
        return await act(request, form, event_id, "POST", "/rounds")

    @pages.get("/events/{event_id}/rounds/{round_no}/cards", response_class=HTMLResponse)
    async def cards(request: Request, event_id: str, round_no: int) -> HTMLResponse:
        """The round's table cards, one a table, to print (one card a page)."""
        eid = _valid_id(event_id)
        me = await asyncio.to_thread(viewer, request)
        answer = await InProcessApi(request).call("GET", f"/api/events/{eid or 0}")
        if eid is None or not answer.ok:
            return render(request, "message.html", 404, title=_("No such event"),
                          message=_("There is no event with this address."), back="/events")
        event = answer.body
        tables = [t for t in event["tables"] if t["round"] == round_no]
        if not tables:
            return render(request, "message.html", 404, title=_("No such round"),
                          message=_("Round {n} has not been drawn.").format(n=round_no),
                          back=f"/events/{eid}")
        return render(request, "event_cards.html", me=me, event=event, round_no=round_no,
                      tables=tables)

    return pages
