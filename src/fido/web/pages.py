"""The web app's pages: the lobby, sign up and in, a table, finished games, a player.

Pages are rendered on the server with Jinja2 (autoescaped: a name such as
``<b>`` is shown as text). Every form posts its CSRF token (the
``fido_csrf`` cookie's value in a ``csrf_token`` field, checked first) and
then calls the service the JSON API calls (:mod:`fido.server.tables_service`,
:mod:`fido.server.sessions_service`, :mod:`fido.server.queue_service`), so the rules
live in one place. The table page is a
shell: ``static/js/table.js`` plays over the WebSocket.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from fido import i18n
from fido.engine.rules import FIDO_DIVISORS
from fido.errors import Refused
from fido.i18n import _, ngettext
from fido.safe_text import whole_or_none
from fido.server import deps, policy, ratings_service
from fido.server import queue_service as queue
from fido.server import sessions_service as sessions
from fido.server import tables_service as tables
from fido.server.errors import ApiError, status_of
from fido.server.schemas import (
    JoinIn,
    LanguageChoice,
    ResetAsk,
    ResetIn,
    SignIn,
    SignUp,
    TableIn,
)
from fido.server.tables.matches import match_json
from fido.server.tables.timers import TIMEOUTS, turn_based
from fido.web.forms import (
    GAMES,
    TIMEOUT_CHOICES,
    FormError,
    bot_help,
    bot_name,
    clock_choices,
    default_form,
    seat_choices,
    set_label,
    table_body,
    time_left,
)
from fido.web.kit import (
    Form,
    checked,
    guest_name,
    local_path,
    person_json,
    render,
    see_other,
    viewer,
    with_cookies,
)
from fido.web.queue_form import (
    BOT_WAITS,
    QUEUE_FORM,
    queue_body,
    queue_clocks,
    queue_games,
    queue_view,
)
from fido.web.rating_view import ratings_shown

if TYPE_CHECKING:  # the rows the tables service hands back, named in annotations only
    from fido.store import SeatRow, TableRow

__all__ = ["router"]

_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{6,16}")
_INVITE = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _results(record: str | None) -> dict[str, Any] | None:
    if record is None:
        return None
    try:
        data = json.loads(record)
    except ValueError:
        return None
    results = data.get("results") if isinstance(data, dict) else None
    return results if isinstance(results, dict) else None


def _seat_name(row: TableRow, seat: SeatRow) -> str:
    """A seat's name as the lists give it: her name (a guest's in the reader's language),
    a bot's as its table named it (by the match's id for a match's hands)."""
    if seat.account is not None:
        return seat.account.name or guest_name(seat.account.id)
    if seat.kind == "bot":
        return bot_name(seat.bot or "", seat.seat, row.match_id or row.id)
    return ""


def _games_rows(rows: list[TableRow]) -> list[dict[str, Any]]:
    """Finished tables as the lists show them: who sat where, finals and places."""
    out = []
    for row in rows:
        results = _results(row.record) or {}
        by_seat = {r.get("seat"): r for r in results.get("seats", []) if isinstance(r, dict)}
        seats = []
        for seat in row.seats:
            name = _seat_name(row, seat)
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


router = APIRouter(include_in_schema=False)


async def _someone(request: Request, cookies: Response) -> None:
    """Make an anonymous visitor a guest (she plays at once): the rest of this request
    speaks for her (:func:`fido.server.deps.session_cookie`); refused: :class:`Refused`."""
    if await asyncio.to_thread(viewer, request) is None:
        await asyncio.to_thread(sessions.start_guest, request, cookies)


def _table_lists(request: Request) -> dict[str, list[dict[str, Any]]]:
    """The lobby's lists: the open tables and the running ones, as she sees them."""
    return {f"{status}_tables": [t.model_dump(mode="json") for t in
                                 tables.list_tables(request, status).tables]
            for status in ("open", "running")}


# ---------------------------------------------------------------- lobby

async def _lobby(request: Request, form: dict[str, str] | None = None, error: str = "",
                 status: int = 200, *, queue_error: str = "",
                 queue_form: dict[str, str] | None = None) -> HTMLResponse:
    me = await asyncio.to_thread(viewer, request)
    lists = await asyncio.to_thread(_table_lists, request)
    waiting = await queue.state(request)  # play with people: her entry, counts
    mine = [] if me is None else sorted(  # her game ratings, the most played first
        (await asyncio.to_thread(ratings_service.player_ratings, request, me["id"])).ratings,
        key=lambda r: -r.games)[:4]
    return render(
        request, "lobby.html", status, me=me, form=form or default_form(), error=error,
        **lists, games=GAMES, sets=FIDO_DIVISORS, seat_choices=seat_choices(),
        bot_levels=bot_help(), clocks=clock_choices(), set_label=set_label,
        timeout_choices=TIMEOUT_CHOICES, default_timeouts=TIMEOUTS,
        queue=queue_view(waiting.model_dump(mode="json")), queue_games=queue_games(),
        queue_clocks=queue_clocks(), my_ratings=mine,
        bot_waits=BOT_WAITS, queue_error=queue_error, queue_form=queue_form or QUEUE_FORM,
    )


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> HTMLResponse:
    return await _lobby(request)


@router.get("/lobby/tables", response_class=HTMLResponse)
async def lobby_tables(request: Request) -> HTMLResponse:
    """The lobby's table lists alone: htmx refreshes them every few seconds."""
    lists = await asyncio.to_thread(_table_lists, request)
    return render(request, "_tables.html", 200, **lists)


@router.post("/tables")
async def create_table(request: Request, form: Form) -> Response:
    cookies = Response()
    try:
        body = checked(TableIn, table_body(form))
        await _someone(request, cookies)
        table = await tables.open_table(request, body)
    except FormError as e:
        return await _lobby(request, form, str(e), 422)
    except Refused as e:
        return with_cookies(await _lobby(request, form, e.message, status_of(e)), cookies)
    return see_other(f"/tables/{table.id}", cookies)


@router.post("/queue")
async def join_queue(request: Request, form: Form) -> Response:
    """Play with people: wait for a table (an anonymous visitor becomes a guest)."""
    cookies = Response()
    try:
        body = checked(queue.QueueIn, queue_body(form))
        await _someone(request, cookies)
        entry = (await queue.join(request, body)).entry
    except FormError as e:
        return await _lobby(request, status=422, queue_error=str(e), queue_form=form)
    except Refused as e:
        return with_cookies(await _lobby(request, status=status_of(e), queue_error=e.message,
                                         queue_form=form), cookies)
    if entry is not None and entry.status == "seated":
        return see_other(f"/tables/{entry.table}", cookies)
    return see_other("/#play-people", cookies)


@router.post("/queue/leave")
async def leave_queue(request: Request, form: Form) -> Response:
    with contextlib.suppress(Refused):  # not waiting (any more): the lobby all the same
        await queue.leave(request)
    return see_other("/#play-people")


# ---------------------------------------------------------------- accounts

@router.get("/signup", response_class=HTMLResponse)
async def signup_page(request: Request, next: str = "/") -> HTMLResponse:
    me = await asyncio.to_thread(viewer, request)
    return render(request, "signup.html", me=me, next=local_path(next), form={})


@router.post("/signup")
async def signup(request: Request, form: Form) -> Response:
    cookies = Response()
    data: dict[str, Any] = {"name": form.get("name", ""), "password": form.get("password", "")}
    if form.get("email", "").strip():
        data["email"] = form["email"].strip()
    try:
        await sessions.sign_up(request, cookies, checked(SignUp, data))
    except Refused as e:
        me = await asyncio.to_thread(viewer, request)
        return render(request, "signup.html", status_of(e), me=me, error=e.message,
                      next=local_path(form.get("next")), form={"name": form.get("name", ""),
                                                          "email": form.get("email", "")})
    return see_other(form.get("next", "/"), cookies)


@router.get("/signin", response_class=HTMLResponse)
async def signin_page(request: Request, next: str = "/", reset: str = "") -> HTMLResponse:
    me = await asyncio.to_thread(viewer, request)
    notice = _("Your new password is set: sign in with it.") if reset == "1" else ""
    return render(request, "signin.html", me=me, next=local_path(next), form={},
                  notice=notice)


@router.post("/signin")
async def signin(request: Request, form: Form) -> Response:
    cookies = Response()
    try:
        await sessions.sign_in(request, cookies, checked(SignIn, {
            "name": form.get("name", ""), "password": form.get("password", "")}))
    except Refused as e:
        me = await asyncio.to_thread(viewer, request)
        return render(request, "signin.html", status_of(e), me=me, error=e.message,
                      next=local_path(form.get("next")), form={"name": form.get("name", "")})
    return see_other(form.get("next", "/"), cookies)


@router.get("/forgot", response_class=HTMLResponse)
async def forgot_page(request: Request) -> HTMLResponse:
    """Ask for a link to choose a new password (or, with no mail, whom to ask)."""
    me = await asyncio.to_thread(viewer, request)
    return render(request, "forgot.html", me=me, form={},
                  mail=deps.server(request).mail.smtp is not None)


@router.post("/forgot")
async def forgot(request: Request, form: Form) -> Response:
    me = await asyncio.to_thread(viewer, request)
    mail = deps.server(request).mail.smtp is not None
    try:
        body = checked(ResetAsk, {"name": form.get("name", "")})
        await asyncio.to_thread(sessions.ask_reset, request, body)
    except Refused as e:
        return render(request, "forgot.html", status_of(e), me=me, mail=mail,
                      error=e.message, form={"name": form.get("name", "")})
    return render(request, "forgot.html", me=me, mail=mail, sent=True, form={})


@router.get("/reset", response_class=HTMLResponse)
async def reset_page(request: Request, token: str = "") -> HTMLResponse:
    """The reset link's page: the new password, twice."""
    me = await asyncio.to_thread(viewer, request)
    return render(request, "reset.html", me=me, token=token[:400])


@router.post("/reset")
async def reset(request: Request, form: Form) -> Response:
    token = form.get("token", "")[:400]
    try:
        if form.get("password", "") != form.get("again", ""):
            raise ApiError(422, "invalid", _("the two passwords differ: type the same twice"))
        await sessions.reset_password(request, checked(ResetIn, {
            "token": token, "password": form.get("password", "")}))
    except Refused as e:
        me = await asyncio.to_thread(viewer, request)
        return render(request, "reset.html", status_of(e), me=me, token=token,
                      error=e.message)
    return see_other("/signin?reset=1")


@router.post("/signout")
async def signout(request: Request, form: Form) -> Response:
    cookies = Response()
    await sessions.sign_out(request, cookies)
    return see_other("/", cookies)


@router.post("/guest")
async def guest(request: Request, form: Form) -> Response:
    cookies = Response()
    try:
        await asyncio.to_thread(sessions.start_guest, request, cookies)
    except Refused as e:
        return render(request, "message.html", status_of(e), title=_("Not now"),
                      message=e.message)
    return see_other(form.get("next", "/"), cookies)


@router.post("/language")
async def language(request: Request, form: Form) -> Response:
    """The header's switch: the choice is kept (cookie and account)."""
    cookies = Response()
    try:
        choice = checked(LanguageChoice, {"language": form.get("language", "")})
        await asyncio.to_thread(sessions.choose_language, request, cookies, choice)
    except Refused as e:
        return render(request, "message.html", status_of(e),
                      title=_("That did not work"), message=e.message)
    return see_other(form.get("next", "/"), cookies)


@router.get("/i18n/{lang}.json")
def script_catalog(lang: str) -> Response:
    """The page scripts' sentences in ``lang`` (the scripts load it by the page's
    ``lang``; the address carries the version, so it is kept a day)."""
    if lang not in i18n.LANGUAGES:
        raise StarletteHTTPException(404)
    return Response(json.dumps(i18n.js_catalog(lang), ensure_ascii=False),
                    media_type="application/json",
                    headers={"Cache-Control": "public, max-age=86400"})


# ---------------------------------------------------------------- tables

async def _table(request: Request, table_id: str) -> tuple[dict[str, Any] | None,
                                                           dict[str, Any] | HTMLResponse]:
    """Who asks, and the table as she sees it (or the page saying there is none)."""
    me = await asyncio.to_thread(viewer, request)
    try:
        return me, (await tables.table(request, table_id)).model_dump(mode="json")
    except Refused as e:
        return me, render(request, "message.html", status_of(e), me=me,
                          title=_("No such table"), message=e.message)


@router.get("/tables/{table_id}", response_class=HTMLResponse)
async def table_page(request: Request, table_id: str,
                     invite: str | None = None) -> HTMLResponse:
    if not _TABLE_ID.fullmatch(table_id):
        return _no_table(request)
    me, table = await _table(request, table_id)
    if isinstance(table, HTMLResponse):
        return table
    invite = _invite(invite)
    link = None
    if table.get("invite"):
        link = f"{request.url.scheme}://{request.url.netloc}/tables/{table_id}" \
               f"?invite={quote(table['invite'])}"
    config = {"id": table_id, "seat": table.get("my_seat"), "me": me,
              "status": table["status"], "csrf": request.state.csrf_token}
    return render(request, "table.html", me=me, table=table, invite=invite,
                  invite_link=link, config=config)


@router.get("/tables/{table_id}/replay", response_class=HTMLResponse)
async def replay_page(request: Request, table_id: str) -> HTMLResponse:
    """A finished game move by move; the page's script loads the steps from the API
    (only a finished game has them: a running game's hands are secret)."""
    if not _TABLE_ID.fullmatch(table_id):
        return _no_table(request)
    me, table = await _table(request, table_id)
    if isinstance(table, HTMLResponse):
        return table
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
              # whose id picks the bots' names: the match's (the same from hand to hand)
              "names": table["match"]["id"] if table.get("match") else table_id,
              "my_seat": table.get("my_seat"), "csrf": request.state.csrf_token}
    return render(request, "replay.html", me=me, table=table, config=config)


@router.post("/tables/{table_id}/join")
async def join(request: Request, form: Form, table_id: str) -> Response:
    if not _TABLE_ID.fullmatch(table_id):
        return _no_table(request)
    cookies = Response()
    data: dict[str, Any] = {}
    if (seat := whole_or_none(form.get("seat", ""))) is not None:
        data["seat"] = seat
    if _invite(form.get("invite")):
        data["invite"] = form["invite"]
    try:
        body = checked(JoinIn, data)
        await _someone(request, cookies)
        await tables.join(request, table_id, body)
    except Refused as e:
        me = await asyncio.to_thread(viewer, request)
        page = render(request, "message.html", status_of(e), me=me,
                      title=_("You could not sit down"), message=e.message,
                      back=f"/tables/{table_id}")
        return with_cookies(page, cookies)
    return see_other(f"/tables/{table_id}", cookies)


@router.post("/tables/{table_id}/leave")
async def leave(request: Request, form: Form, table_id: str) -> Response:
    if not _TABLE_ID.fullmatch(table_id):
        return see_other("/")
    try:
        await tables.leave(request, table_id)
    except Refused as e:
        return render(request, "message.html", status_of(e), title=_("You are still seated"),
                      message=e.message, back=f"/tables/{table_id}")
    return see_other("/")


# ---------------------------------------------------------------- games and players

@router.get("/games", response_class=HTMLResponse)
def finished(request: Request) -> HTMLResponse:
    """Her running games (those waiting for her move first), then the finished ones."""
    with deps.server(request).store.session(write=False) as s:
        account = deps.me(request, s)
        me = person_json(account) if account is not None else None
        games = _games_rows(tables.finished(s, account))
        playing = _running_rows(tables.running(s, account)) if account is not None else []
    return render(request, "games.html", me=me, games=games, playing=playing)


def _running_rows(rows: list[tuple[TableRow, int]]) -> list[dict[str, Any]]:
    """Her running games as her list shows them: whose move, and the time left on it."""
    now = time.time()
    out = []
    for row, mine in rows:
        names = {seat.seat: _seat_name(row, seat) for seat in row.seats}
        left = None if row.deadline is None else max(0, int(row.deadline - now))
        out.append({"id": row.id, "ruleset": row.ruleset, "clock": row.clock,
                    "turn_based": turn_based(row.clock), "yours": row.turn == mine,
                    "to_move": names.get(row.turn, "") if row.turn is not None else "",
                    "left": None if left is None else time_left(left),
                    "others": [n for seat, n in sorted(names.items()) if seat != mine]})
    return out


@router.get("/players/{account_id}", response_class=HTMLResponse)
def player(request: Request, account_id: int) -> HTMLResponse:
    with deps.server(request).store.session(write=False) as s:
        account = deps.me(request, s)
        me = person_json(account) if account is not None else None
        who = tables.person(s, account_id)
        if who is None:
            return render(request, "message.html", 404, me=me, title=_("No such player"),
                          message=_("There is no player with this number."))
        games = _games_rows(tables.finished(s, account, seated=who.id, limit=200))
        person = person_json(who)
    for g in games:
        g["her"] = next((x for x in g["seats"] if x["account"] == person["id"]), None)
    return render(request, "player.html", me=me, person=person, games=games,
                  ratings=ratings_shown(request, account_id))


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
