"""The web app's pages: the lobby, sign up and in, a table, finished games, a player.

Pages are rendered on the server with Jinja2 (autoescaped: a name such as
``<b>`` is shown as text). Every form posts its CSRF token (the
``fido_csrf`` cookie's value in a ``csrf_token`` field, checked first) and
then does what the JSON API does, through the API itself
(:mod:`fido.web.api`), so the rules live in one place. The table page is a
shell: ``static/js/table.js`` plays over the WebSocket.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from fido import i18n
from fido.i18n import _, ngettext
from fido.rules import FIDO_DIVISORS
from fido.safe_text import whole_or_none
from fido.server import csrf, deps, policy
from fido.server.errors import ApiError
from fido.server.tables.matches import match_json
from fido.store import Account, SeatRow, TableRow
from fido.web.api import Answer, InProcessApi
from fido.web.forms import (
    GAMES,
    FormError,
    bot_help,
    bot_name,
    clock_choices,
    default_form,
    seat_choices,
    set_label,
    table_body,
)
from fido.web.kit import (
    Form,
    guest_name,
    local_path,
    person_json,
    render,
    see_other,
    viewer,
)
from fido.web.queue_form import BOT_WAITS, queue_body, queue_games, queue_view

__all__ = ["page_routes"]

_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{6,16}")
_INVITE = re.compile(r"[A-Za-z0-9_-]{1,64}")


async def _ensure_someone(api: InProcessApi, me: dict[str, Any] | None) -> Answer | None:
    """Make an anonymous visitor a guest (she plays at once); an error answer if refused."""
    if me is not None:
        return None
    answer = await api.call("POST", "/api/guest")
    return None if answer.ok else answer


def _results(record: str | None) -> dict[str, Any] | None:
    if record is None:
        return None
    try:
        data = json.loads(record)
    except ValueError:
        return None
    results = data.get("results") if isinstance(data, dict) else None
    return results if isinstance(results, dict) else None


def _games_rows(rows: list[TableRow]) -> list[dict[str, Any]]:
    """Finished tables as the lists show them: who sat where, finals and places."""
    out = []
    for row in rows:
        results = _results(row.record) or {}
        by_seat = {r.get("seat"): r for r in results.get("seats", []) if isinstance(r, dict)}
        seats = []
        for seat in row.seats:
            name = (seat.account.name or guest_name(seat.account.id)) if seat.account else (
                bot_name(seat.bot or "") if seat.kind == "bot" else "")
            res = by_seat.get(seat.seat, {})
            seats.append({"seat": seat.seat, "name": name, "account": seat.account_id,
                          "final": res.get("final"), "place": res.get("place")})
        by_place = sorted(seats, key=lambda x: (x["place"] is None, x["place"] or 0, x["seat"]))
        teams = _teams(results, seats)
        out.append({"id": row.id, "ruleset": row.ruleset, "status": row.status,
                    "finished_at": row.finished_at, "created_at": row.created_at,
                    "rated": row.rated, "seats": seats, "by_place": by_place, "teams": teams,
                    "match": _match_line(row, seats)})
    return out


def _side_name(side: list[int], seats: list[dict[str, Any]]) -> str:
    names = {x["seat"]: x["name"] for x in seats}
    return " + ".join(names.get(i, "") or _("seat {n}").format(n=i + 1) for i in side)


def _teams(results: dict[str, Any], seats: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """A team game's sides as the lists show them: each team once, its final and place."""
    teams = results.get("teams")
    if not isinstance(teams, list):
        return None
    out = [{"name": _side_name(t.get("seats", []), seats), "final": t.get("final"),
            "place": t.get("place")} for t in teams if isinstance(t, dict)]
    return sorted(out, key=lambda t: (t["place"] or 0))


def _match_line(row: TableRow, seats: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A hand of a match in the lists: which hand, and the match's score (its result
    once it is over)."""
    m = row.match
    if m is None or row.hand is None:
        return None
    info = match_json(m, row.hand)
    sides = [{"name": _side_name(side, seats), "total": total,
              "won": info["winner"] == i}
             for i, (side, total) in enumerate(zip(info["sides"], info["totals"], strict=True))]
    goal = (ngettext("match to {n} point", "match to {n} points", m.goal)
            if m.kind == "points" else
            ngettext("match of {n} hand", "match of {n} hands", m.goal)).format(n=m.goal)
    return {"goal": goal, "hand": row.hand, "hands": m.hands, "over": info["over"],
            "sides": sides, "last": info["over"] and row.hand == m.hands}


def _invite(value: str | None) -> str | None:
    return value if value and _INVITE.fullmatch(value) else None


def page_routes() -> APIRouter:
    pages = APIRouter(include_in_schema=False)

    # ------------------------------------------------------------ lobby

    async def lobby(request: Request, form: dict[str, str] | None = None, error: str = "",
                    status: int = 200, *, queue_error: str = "",
                    queue_form: dict[str, str] | None = None) -> HTMLResponse:
        me = await asyncio.to_thread(viewer, request)
        api = InProcessApi(request)
        open_ = await api.call("GET", "/api/tables?status=open")
        running = await api.call("GET", "/api/tables?status=running")
        queue = await api.call("GET", "/api/queue")  # play with people: her entry, counts
        return render(
            request, "lobby.html", status, me=me, form=form or default_form(), error=error,
            open_tables=open_.body.get("tables", []) if open_.ok else [],
            running_tables=running.body.get("tables", []) if running.ok else [],
            games=GAMES, sets=FIDO_DIVISORS, seat_choices=seat_choices(),
            bot_levels=bot_help(),
            clocks=clock_choices(), set_label=set_label,
            queue=queue_view(queue.body if queue.ok else None), queue_games=queue_games(),
            bot_waits=BOT_WAITS, queue_error=queue_error,
            queue_form=queue_form or {},
        )

    @pages.get("/", response_class=HTMLResponse)
    async def home(request: Request) -> HTMLResponse:
        return await lobby(request)

    @pages.get("/lobby/tables", response_class=HTMLResponse)
    async def lobby_tables(request: Request) -> HTMLResponse:
        """The lobby's table lists alone: htmx refreshes them every few seconds."""
        api = InProcessApi(request)
        open_ = await api.call("GET", "/api/tables?status=open")
        running = await api.call("GET", "/api/tables?status=running")
        return render(
            request, "_tables.html",
            open_tables=open_.body.get("tables", []) if open_.ok else [],
            running_tables=running.body.get("tables", []) if running.ok else [],
        )

    @pages.post("/tables")
    async def create_table(request: Request, form: Form) -> Response:
        try:
            body = table_body(form)
        except FormError as e:
            return await lobby(request, form, str(e), 422)
        me = await asyncio.to_thread(viewer, request)
        api = InProcessApi(request, form.get(csrf.FIELD))
        refused = await _ensure_someone(api, me)
        if refused is None:
            answer = await api.call("POST", "/api/tables", body)
            if answer.ok:
                return see_other(f"/tables/{answer.body['id']}", api)
            refused = answer
        page = await lobby(request, form, refused.message, refused.status)
        return api.pass_cookies(page)

    @pages.post("/queue")
    async def join_queue(request: Request, form: Form) -> Response:
        """Play with people: wait for a table (an anonymous visitor becomes a guest)."""
        try:
            body = queue_body(form)
        except FormError as e:
            return await lobby(request, status=422, queue_error=str(e), queue_form=form)
        me = await asyncio.to_thread(viewer, request)
        api = InProcessApi(request, form.get(csrf.FIELD))
        refused = await _ensure_someone(api, me)
        if refused is None:
            answer = await api.call("POST", "/api/queue", body)
            if answer.ok:
                entry = answer.body["entry"]
                if entry["status"] == "seated":
                    return see_other(f"/tables/{entry['table']}", api)
                return see_other("/#play-people", api)
            refused = answer
        page = await lobby(request, status=refused.status, queue_error=refused.message,
                           queue_form=form)
        return api.pass_cookies(page)

    @pages.post("/queue/leave")
    async def leave_queue(request: Request, form: Form) -> Response:
        api = InProcessApi(request, form.get(csrf.FIELD))
        await api.call("DELETE", "/api/queue")  # not waiting (any more): the lobby all the same
        return see_other("/#play-people", api)

    # ------------------------------------------------------------ accounts

    @pages.get("/signup", response_class=HTMLResponse)
    async def signup_page(request: Request, next: str = "/") -> HTMLResponse:
        me = await asyncio.to_thread(viewer, request)
        return render(request, "signup.html", me=me, next=local_path(next), form={})

    @pages.post("/signup")
    async def signup(request: Request, form: Form) -> Response:
        api = InProcessApi(request, form.get(csrf.FIELD))
        body: dict[str, Any] = {"name": form.get("name", ""),
                                "password": form.get("password", "")}
        if form.get("email", "").strip():
            body["email"] = form["email"].strip()
        answer = await api.call("POST", "/api/accounts", body)
        if answer.ok:
            return see_other(form.get("next", "/"), api)
        me = await asyncio.to_thread(viewer, request)
        return render(request, "signup.html", answer.status, me=me, error=answer.message,
                      next=local_path(form.get("next")), form={"name": form.get("name", ""),
                                                          "email": form.get("email", "")})

    @pages.get("/signin", response_class=HTMLResponse)
    async def signin_page(request: Request, next: str = "/") -> HTMLResponse:
        me = await asyncio.to_thread(viewer, request)
        return render(request, "signin.html", me=me, next=local_path(next), form={})

    @pages.post("/signin")
    async def signin(request: Request, form: Form) -> Response:
        api = InProcessApi(request, form.get(csrf.FIELD))
        answer = await api.call("POST", "/api/session", {
            "name": form.get("name", ""), "password": form.get("password", "")})
        if answer.ok:
            return see_other(form.get("next", "/"), api)
        me = await asyncio.to_thread(viewer, request)
        return render(request, "signin.html", answer.status, me=me, error=answer.message,
                      next=local_path(form.get("next")), form={"name": form.get("name", "")})

    @pages.post("/signout")
    async def signout(request: Request, form: Form) -> Response:
        api = InProcessApi(request, form.get(csrf.FIELD))
        await api.call("DELETE", "/api/session")
        return see_other("/", api)

    @pages.post("/guest")
    async def guest(request: Request, form: Form) -> Response:
        api = InProcessApi(request, form.get(csrf.FIELD))
        answer = await api.call("POST", "/api/guest")
        if not answer.ok:
            return render(request, "message.html", answer.status, title=_("Not now"),
                          message=answer.message)
        return see_other(form.get("next", "/"), api)

    @pages.post("/language")
    async def language(request: Request, form: Form) -> Response:
        """The header's switch: the API keeps the choice (cookie and account)."""
        api = InProcessApi(request, form.get(csrf.FIELD))
        answer = await api.call("PUT", "/api/language", {"language": form.get("language", "")})
        if not answer.ok:
            return render(request, "message.html", answer.status,
                          title=_("That did not work"), message=answer.message)
        return see_other(form.get("next", "/"), api)

    @pages.get("/i18n/{lang}.json")
    def script_catalog(lang: str) -> Response:
        """The page scripts' sentences in ``lang`` (the scripts load it by the page's
        ``lang``; the address carries the version, so it is kept a day)."""
        if lang not in i18n.LANGUAGES:
            raise StarletteHTTPException(404)
        return Response(json.dumps(i18n.js_catalog(lang), ensure_ascii=False),
                        media_type="application/json",
                        headers={"Cache-Control": "public, max-age=86400"})

    # ------------------------------------------------------------ tables

    @pages.get("/tables/{table_id}", response_class=HTMLResponse)
    async def table_page(request: Request, table_id: str,
                         invite: str | None = None) -> HTMLResponse:
        if not _TABLE_ID.fullmatch(table_id):
            return _no_table(request)
        me = await asyncio.to_thread(viewer, request)
        answer = await InProcessApi(request).call("GET", f"/api/tables/{table_id}")
        if not answer.ok:
            return render(request, "message.html", answer.status, me=me,
                          title=_("No such table"), message=answer.message)
        table = answer.body
        invite = _invite(invite)
        link = None
        if table.get("invite"):
            link = f"{request.url.scheme}://{request.url.netloc}/tables/{table_id}" \
                   f"?invite={quote(table['invite'])}"
        config = {"id": table_id, "seat": table.get("my_seat"), "me": me,
                  "status": table["status"], "csrf": request.state.csrf_token}
        return render(request, "table.html", me=me, table=table, invite=invite,
                      invite_link=link, config=config)

    @pages.get("/tables/{table_id}/replay", response_class=HTMLResponse)
    async def replay_page(request: Request, table_id: str) -> HTMLResponse:
        """A finished game move by move; the page's script loads the steps from the API
        (only a finished game has them: a running game's hands are secret)."""
        if not _TABLE_ID.fullmatch(table_id):
            return _no_table(request)
        me = await asyncio.to_thread(viewer, request)
        answer = await InProcessApi(request).call("GET", f"/api/tables/{table_id}")
        if not answer.ok:
            return render(request, "message.html", answer.status, me=me,
                          title=_("No such table"), message=answer.message)
        table = answer.body
        if not table.get("finished"):
            why = {
                "open": _("This table's game has not begun yet: there is nothing to replay."),
                "abandoned": _("This table was closed before its game began: "
                               "there is nothing to replay."),
            }.get(table["status"]) or _("This game is still running: its replay opens when "
                                        "the game is over (until then the hands are secret).")
            return render(request, "message.html", 409, me=me, title=_("No replay yet"),
                          message=why, back=f"/tables/{table_id}")
        refused = await asyncio.to_thread(_replay_refused, request, table_id)
        if refused is not None:  # private, or its duplicate round still plays
            return render(request, "message.html", refused.status, me=me,
                          title=_("No replay for you yet"), message=refused.message,
                          back=f"/tables/{table_id}")
        config = {"id": table_id, "seats": table["seats"], "me": me,
                  "my_seat": table.get("my_seat"), "csrf": request.state.csrf_token}
        return render(request, "replay.html", me=me, table=table, config=config)

    @pages.post("/tables/{table_id}/join")
    async def join(request: Request, form: Form, table_id: str) -> Response:
        if not _TABLE_ID.fullmatch(table_id):
            return _no_table(request)
        me = await asyncio.to_thread(viewer, request)
        api = InProcessApi(request, form.get(csrf.FIELD))
        refused = await _ensure_someone(api, me)
        if refused is None:
            body: dict[str, Any] = {}
            if (seat := whole_or_none(form.get("seat", ""))) is not None:
                body["seat"] = seat
            if _invite(form.get("invite")):
                body["invite"] = form["invite"]
            answer = await api.call("POST", f"/api/tables/{table_id}/seats", body)
            if answer.ok:
                return see_other(f"/tables/{table_id}", api)
            refused = answer
        page = render(request, "message.html", refused.status, me=me,
                      title=_("You could not sit down"), message=refused.message,
                      back=f"/tables/{table_id}")
        return api.pass_cookies(page)

    @pages.post("/tables/{table_id}/leave")
    async def leave(request: Request, form: Form, table_id: str) -> Response:
        if not _TABLE_ID.fullmatch(table_id):
            return see_other("/")
        api = InProcessApi(request, form.get(csrf.FIELD))
        answer = await api.call("DELETE", f"/api/tables/{table_id}/seats/mine")
        if not answer.ok:
            return render(request, "message.html", answer.status,
                          title=_("You are still seated"),
                          message=answer.message, back=f"/tables/{table_id}")
        return see_other("/")

    # ------------------------------------------------------------ games and players

    @pages.get("/games", response_class=HTMLResponse)
    def finished(request: Request) -> HTMLResponse:
        srv = request.app.state.server
        with srv.store.session(write=False) as s:
            account = deps.me(request, s)
            me = person_json(account) if account is not None else None
            rows = s.scalars(
                policy.listed_tables(account).where(TableRow.status == "finished")
                .order_by(TableRow.finished_at.desc()).limit(100)
            ).all()
            games = _games_rows(list(rows))
        return render(request, "games.html", me=me, games=games)

    @pages.get("/players/{account_id}", response_class=HTMLResponse)
    def player(request: Request, account_id: int) -> HTMLResponse:
        srv = request.app.state.server
        with srv.store.session(write=False) as s:
            account = deps.me(request, s)
            me = person_json(account) if account is not None else None
            who = s.get(Account, account_id) if 0 < account_id < 2**31 else None
            if who is None:
                return render(request, "message.html", 404, me=me, title=_("No such player"),
                              message=_("There is no player with this number."))
            rows = s.scalars(
                policy.listed_tables(account)
                .join(SeatRow, SeatRow.table_id == TableRow.id)
                .where(SeatRow.account_id == who.id)
                .order_by(TableRow.created_at.desc()).limit(200)
            ).all()
            games = _games_rows(list(rows))
            person = person_json(who)
        for g in games:
            g["her"] = next((x for x in g["seats"] if x["account"] == person["id"]), None)
        return render(request, "player.html", me=me, person=person, games=games)

    return pages


def _no_table(request: Request) -> HTMLResponse:
    """The page for an address that cannot be a table's."""
    return render(request, "message.html", 404, title=_("No such table"),
                  message=_("There is no table with this address."))


def _replay_refused(request: Request, table_id: str) -> ApiError | None:
    """Why the policy shows this replay to nobody asking now (None: it shows it)."""
    invite = request.query_params.get("invite")
    with deps.server(request).store.session(write=False) as s:
        try:
            policy.game_data(s, table_id, deps.me(request, s), "replay", invite)
        except ApiError as e:
            return e
    return None
