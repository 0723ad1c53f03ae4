"""Score sheets on the web: enter one, confirm or dispute it, settle a dispute.

* ``/sheets/new`` and ``POST /sheets``: the score sheet form; the result goes
  through :func:`fido.ranking.submit` (source ``sheet``) and every other
  player of the game with a linked account is notified.
* ``/sheets/{id}``: a stored game's sheet, its status and reviews; its
  players confirm or dispute (:func:`fido.ranking.confirm`, ``dispute``), an
  organiser of its event or the federation settles (:func:`fido.ranking.settle`,
  who may: :mod:`fido.accounts.roles`).
* ``/sheets``: her results (sheets and rated online games) with their status;
  ``/reviews``: the disputes she may settle; ``/inbox``: her notifications;
  ``/sheets/players``: find a ranking player by name.

Which sheets are shown is the policy's (:func:`fido.server.policy.sheet_sealed`): the
result of a table of a duplicate round still playing is shown, listed and reviewed
nowhere until the round has ended (409 ``round_playing``).

Every form posts its CSRF token; a refusal is a page (or, asked for JSON,
the API's error body) with its status, never a traceback.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import ValidationError

from fido.accounts import claims
from fido.accounts import notifications as notes
from fido.accounts.roles import (
    FEDERATION,
    ORGANISER,
    RoleError,
    check_settle,
    decide_request,
    every_role,
    find_account,
    grant,
    pending_requests,
    revoke,
    roles_of,
)
from fido.errors import FidoError, Refused
from fido.events.championships import event_label
from fido.events.errors import EventError
from fido.events.scoresheets import round_day, sheet_players, sheet_table
from fido.i18n import N_, _
from fido.ranking import ResultError, Status, confirm, dispute, register_player, settle, status_at
from fido.ranking.clock import utcnow
from fido.ranking.fields import INT_MAX
from fido.ranking.players import player_of, search_players
from fido.ranking.reviews import STATUS_TEXT, disputed_games
from fido.ranking.submission import find_game, games_of
from fido.safe_text import whole_or_none
from fido.server import deps, policy
from fido.server.account_views import claim_out
from fido.server.errors import ApiError, status_of
from fido.server.sheet_entry import enter_sheet
from fido.web.kit import (
    Form,
    RefusedPage,
    person_json,
    refused,
    render,
    see_other,
)
from fido.web.sheet_form import (
    GENERAL,
    MAX_ROWS,
    SheetForm,
    api_errors,
    blank_form,
    field_of,
    parse_form,
    result_data,
    sets,
    validate,
)

if TYPE_CHECKING:  # the session and the rows the reads hand back: annotations only
    from sqlalchemy.orm import Session

    from fido.store import Account, GameRow, Notification

__all__ = ["SheetRefused", "router"]

# a review's verdict as the sheet's list of reviews shows it ("confirmed by Anna (12)")
VERDICTS = {"confirm": N_("confirmed by {name} ({number})"),
            "dispute": N_("disputed by {name} ({number})"),
            "accept": N_("accepted (settled) by {name} ({number})"),
            "reject": N_("rejected (settled) by {name} ({number})")}
# ... settled by an organiser or the federation (no player of her own)
SETTLED = {"accept": N_("accepted (settled) by an organiser or the federation"),
           "reject": N_("rejected (settled) by an organiser or the federation")}
# the roles by their code
ROLES = {ORGANISER: N_("organiser"), FEDERATION: N_("federation")}
# her own last verdict, as the form above her buttons reminds her
MINE = {"confirm": N_("You confirmed this sheet; you can still change your mind."),
        "dispute": N_("You disputed this sheet; you can still change your mind."),
        "disputed": N_("You disputed this sheet.")}


def status_text(status: Status) -> str:
    """A result's status as she reads it, in her language."""
    return _(STATUS_TEXT[status])


def role_text(role: str, scope: str = "") -> str:
    """A role she holds, as a person reads it ("organiser of club:Rostock")."""
    if role == ORGANISER and scope:
        return _("organiser of {scope}").format(scope=scope)
    return _(ROLES.get(role, role))


def _review_text(verdict: str, by: dict[str, Any] | None) -> str:
    if by is None:
        return _(SETTLED.get(verdict, verdict))
    return _(VERDICTS.get(verdict, verdict)).format(name=by["name"], number=by["number"])


class SheetRefused(RefusedPage):
    """A refusal of the sheets' pages: its page links her results (and sign-in)."""

    template = "sheet_refused.html"


def _check_open(s: Session, game: GameRow) -> None:
    """Refuse (409 ``round_playing``) a sheet the policy keeps closed: the result of a
    table of a duplicate round whose other tables still play the same deal."""
    if policy.sheet_sealed(s, game.id):
        raise SheetRefused(409, _("Not yet"), _(
            "This game was played at a table of a duplicate round whose other tables are "
            "still playing the same deal: its score sheet opens when the round has ended."),
            "round_playing")


def _signed_in(request: Request, s: Session) -> Account:
    """The signed-in account, else :class:`SheetRefused` (401: the page asks her to sign in)."""
    account = deps.me(request, s)
    if account is None or account.guest:
        raise SheetRefused(401, _("Sign in first"), _("Score sheets and reviews are made by "
                          "signed-in accounts: sign in (or sign up) first."))
    return account


def _me(s: Session, account: Account | None) -> dict[str, Any] | None:
    if account is None:
        return None
    me: dict[str, Any] = person_json(account)
    return me


def _inbox_item(n: Notification) -> dict[str, Any]:
    """A line of her inbox: about a stored game, or the answer to her request."""
    item: dict[str, Any] = {"kind": n.kind, "text": notes.KINDS[n.kind], "game": n.game_id,
                            "created": n.created_at, "unread": n.read_at is None,
                            "href": f"/sheets/{n.game_id}" if n.game_id else "/sheets"}
    if n.game is not None:
        return item | {"event": n.game.event, "date": n.game.played_on,
                       "status": status_at(n.game).value}
    if n.report is not None:  # a chat line reported (the federation's inbox)
        return item | {"event": _("Chat report: {name}: «{text}»").format(
            name=n.report.name, text=n.report.text), "date": n.created_at.date(),
            "status": "", "href": f"/tables/{n.report.table_id}"}
    if n.kind == "turn" and n.table_id is not None:  # her turn at a turn-based table
        return item | {"event": _("Your turn"), "date": n.created_at.date(),
                       "status": "", "href": f"/tables/{n.table_id}"}
    if n.table_id is not None:  # a seat reserved for her
        return item | {"event": _("A seat for you"), "date": n.created_at.date(),
                       "status": "", "href": f"/tables/{n.table_id}"}
    if n.month is not None:  # a month's ranking published (the federation's)
        return item | {"event": _("Ranking {month}").format(month=n.month),
                       "href": f"/ranking/{n.month}", "date": n.created_at.date(),
                       "status": ""}
    if n.request is not None:  # the answer to her request to organise
        return item | {"event": _("Organising events"), "href": "/events",
                       "date": n.request.decided_at.date() if n.request.decided_at else "",
                       "status": "approved" if n.request.approved else "refused"}
    claim = n.claim
    approved = claim is not None and claim.approved
    return item | {"event": _("Player {number}").format(number=claim.player.number)
                   if claim else _("Your request"),
                   "date": claim.decided_at.date() if claim and claim.decided_at else "",
                   "status": "approved" if approved else "refused"}


def _asked(request: Request, s: Session, account: Account) -> dict[str, Any]:
    """What her link request form shows (not linked yet): her last request to the
    federation, if she made one, and whether the link is made at once (nobody to ask)."""
    if account.player_id is not None:
        return {}
    return {"claim": claim_out(claims.latest(s, account.id)),
            "direct": claims.links_at_once(s, account, deps.grants_freely(request))}


def _store(request: Request) -> Any:
    return request.app.state.server.store


def _name(s: Session, player_id: int | None) -> dict[str, Any] | None:
    p = player_of(s, player_id)
    return {"number": p.number, "name": p.name} if p else None


def _game_view(s: Session, game: GameRow, account: Account | None) -> dict[str, Any]:
    """Everything the sheet page shows of a stored game, and what she may do on it."""
    status = status_at(game)
    lines = [{"seat": ln.seat, "number": ln.player.number, "name": ln.player.name,
              "points": ln.points, "pips": ln.pips, "final": ln.final,
              "mine": account is not None and ln.player_id == account.player_id}
             for ln in game.lines]
    reviews = [{"verdict": rv.verdict, "by": (by := _name(s, rv.player_id)),
                "label": _review_text(rv.verdict, by), "at": rv.at, "note": rv.note,
                "player_id": rv.player_id} for rv in game.reviews]
    players = {ln.player_id for ln in game.lines}
    can_review = (account is not None and account.player_id in players
                  and account.player_id != game.submitted_by
                  and status not in (Status.REJECTED, Status.ACCEPTED))
    mine = [r for r in reviews if account is not None and r["player_id"] == account.player_id
            and account.player_id is not None]
    can_settle = False
    why_not_settle = ""
    settles = account is not None and bool(roles_of(s, account.id))
    if status is Status.DISPUTED and settles and account is not None:
        try:
            check_settle(s, account, game)
            can_settle = True
        except RoleError as e:
            why_not_settle = str(e)
    confirmed = {r["player_id"] for r in reviews if r["verdict"] == "confirm"}
    waiting = [ln for ln in game.lines
               if ln.player_id != game.submitted_by and ln.player_id not in confirmed]
    waiting_names = [{"number": ln.player.number, "name": ln.player.name} for ln in waiting]
    mine_now = ""
    if mine:
        last = str(mine[-1]["verdict"])
        settled = status is Status.DISPUTED and last == "dispute"
        mine_now = _(MINE["disputed" if settled else last]) if last in MINE else ""
    return {"id": game.id, "date": game.played_on, "event": game.event, "set": game.set,
            "divisor": game.divisor, "source": game.source, "received": game.received_at,
            "submitted_by": _name(s, game.submitted_by), "status": status.value,
            "status_text": status_text(status), "mine_now": mine_now,
            "waiting_text": ", ".join(f"{w['name']} ({w['number']})" for w in waiting_names),
            "counts": status.counts, "lines": lines, "reviews": reviews,
            "can_review": can_review, "my_reviews": mine, "can_settle": can_settle,
            "why_not_settle": why_not_settle, "waiting": waiting_names,
            "settles": settles}


router = APIRouter(include_in_schema=False)


# ------------------------------------------------------------ the form

def _form_page(request: Request, sheet: SheetForm, status: int = 200, *,
               me: dict[str, Any] | None = None, linked: bool = True,
               asked: dict[str, Any] | None = None) -> HTMLResponse:
    return render(request, "sheet_new.html", status, me=me, sheet=sheet,
                           sets=sets(), max_rows=MAX_ROWS, linked=linked,
                           today=utcnow().date().isoformat(), **(asked or {}))


@router.get("/sheets/new", response_class=HTMLResponse)
def new_sheet(request: Request, table: int | None = None) -> Response:
    """A blank sheet, or (``table``) the sheet of an event's drawn table, filled in."""
    with _store(request).session(write=False) as s:
        account = _signed_in(request, s)  # refused: refused_page shows her nav
        me = _me(s, account)
        sheet = blank_form(utcnow().date())
        if table is not None:
            try:
                event, drawn = sheet_table(s, table)
                numbers = sheet_players(s, drawn)
            except EventError as e:
                return refused(request, SheetRefused(409, _("No sheet to enter"), str(e)),
                                me)
            sheet.values |= {"event": event_label(event, drawn), "set": str(event.set),
                             "date": min(round_day(event, drawn.round),
                                         utcnow().date()).isoformat(),
                             "divisor": str(event.divisor), "event_table": str(table)}
            for i, n in enumerate(numbers):
                sheet.values[f"player{i}"] = str(n)
            sheet.rows = max(sheet.rows, len(numbers))
        return _form_page(request, sheet, me=me, linked=account.player_id is not None,
                          asked=_asked(request, s, account))


def _enter(request: Request, form: dict[str, str]) -> Response:
    sheet = parse_form(form)
    if form.get("action") == "more":  # one more line, nothing sent
        sheet.rows = min(MAX_ROWS, sheet.rows + 1)
    store = _store(request)
    with store.session() as s:
        account = _signed_in(request, s)  # refused: refused_page shows her nav
        me = _me(s, account)
        if form.get("action") == "more":
            return _form_page(request, sheet, me=me)
        number = account.player.number if account.player is not None else None
        data = result_data(s, sheet, number)
        status = 422
        game_id: int | None = None
        try:
            result = validate(data)
        except ValidationError as e:
            api_errors(sheet, e)
        if not sheet.errors:
            try:
                table = sheet.values.get("event_table", "")
                game, _new = enter_sheet(s, account, result, sheet.numbers.values(),
                                         event_table=whole_or_none(table))
                game_id = game.id
            except (RoleError, EventError) as e:
                sheet.error(GENERAL, str(e))
                status = 403
            except ResultError as e:
                sheet.error(field_of(sheet, e), str(e))
        if game_id is not None:
            return see_other(f"/sheets/{game_id}?sent=1")
        return _form_page(request, sheet, status, me=me,
                          linked=account.player_id is not None, asked=_asked(request, s, account))


@router.post("/sheets")
async def post_sheet(request: Request, form: Form) -> Response:
    return await asyncio.to_thread(_enter, request, form)


@router.get("/sheets/players")
def find_players(request: Request, q: str = "", format: str = "") -> Response:
    """Ranking players whose name holds ``q``: the form's datalist options (htmx),
    JSON (``format=json``), or a page of them (the form without JavaScript)."""
    text = q or next((v for k, v in request.query_params.items()
                      if k.startswith("player") and v), "")
    text = " ".join(text.split())[:60]
    with _store(request).session(write=False) as s:
        found: list[dict[str, Any]] = []
        if text and not text.isdigit() and "\x00" not in text:
            rows = search_players(s, text)
            found = [{"number": p.number, "name": p.name} for p in rows]
        if format == "json":
            return JSONResponse({"players": found})
        if request.headers.get("HX-Request"):
            return render(request, "sheet_players.html", found=found)
        me = _me(s, deps.me(request, s))
        return render(request, "sheet_find.html", me=me, found=found, q=text)

# ------------------------------------------------------------ a stored sheet

def _show(request: Request, game_id: int, *, error: str = "", status: int = 200,
          note: str = "") -> Response:
    with _store(request).session() as s:
        account = deps.me(request, s)
        try:
            game = find_game(s, game_id)
            _check_open(s, game)
        except ResultError:
            return refused(request, SheetRefused(
                404, _("No such sheet"), _("There is no game {game}.").format(game=game_id)),
                _me(s, account))
        except RefusedPage as e:
            return refused(request, e, _me(s, account))
        if account is not None:
            notes.mark_read(s, account.id, game.id)
        me = _me(s, account)
        view = _game_view(s, game, account)
    return render(request, "sheet.html", status, me=me, game=view, error=error,
                           note=note, sent=request.query_params.get("sent") == "1")


@router.get("/sheets/{game_id}", response_class=HTMLResponse)
def sheet_page(request: Request, game_id: int) -> Response:
    return _show(request, game_id)


def _review(request: Request, game_id: int, form: dict[str, str]) -> Response:
    verdict = form.get("verdict", "")
    note = form.get("note", "")
    store = _store(request)
    try:
        with store.session() as s:
            account = _signed_in(request, s)
            game = find_game(s, game_id)
            _check_open(s, game)
            if verdict in ("confirm", "dispute"):
                if account.player is None:
                    raise SheetRefused(403, _("Not linked"), _(
                        "Your account is not linked to a ranking player: the federation "
                        "links it."))
                review = confirm if verdict == "confirm" else dispute
                now = review(s, game.id, account.player.number, note=note)
                if now is Status.DISPUTED and verdict == "dispute":
                    told = set(notes.accounts_of_players(
                        s, [game.submitted_by] if game.submitted_by else []))
                    from fido.accounts.roles import settlers  # noqa: PLC0415
                    told |= set(settlers(s, game))
                    notes.notify(s, told - {account.id}, "disputed", game)
            elif verdict in ("accept", "reject"):
                check_settle(s, account, game)
                settle(s, game.id, verdict == "accept", note=note)
                players = notes.accounts_of_players(s, [ln.player_id for ln in game.lines])
                notes.notify(s, set(players) - {account.id}, "settled", game)
            else:
                raise SheetRefused(400, _("Which verdict?"), _(
                    "Choose confirm or dispute (or, settling, accept or reject)."))
    except RefusedPage as e:
        if e.status == 401:
            return refused(request, e)
        return _show(request, game_id, error=e.message, status=e.status, note=note)
    except RoleError as e:
        return _show(request, game_id, error=str(e), status=403, note=note)
    except ResultError as e:
        if e.field == "game":
            return refused(request, SheetRefused(404, _("No such sheet"), str(e)))
        return _show(request, game_id, error=str(e), status=409, note=note)
    return see_other(f"/sheets/{game_id}")


@router.post("/sheets/{game_id}/review")
async def post_review(request: Request, form: Form, game_id: int) -> Response:
    return await asyncio.to_thread(_review, request, game_id, form)

# ------------------------------------------------------------ lists

def _results_page(request: Request, error: str = "", status: int = 200,
                  number: str = "") -> Response:
    with _store(request).session() as s:  # writes: the answers to her requests are read
        account = _signed_in(request, s)
        notes.mark_read(s, account.id, claims=True)  # this page shows the answer
        me = _me(s, account)  # after: her inbox count without them
        rows: list[dict[str, Any]] = []
        if account.player is not None:
            sealed = set(s.scalars(policy.sealed_sheets()))
            for game in reversed(games_of(s, [account.player.number])):
                if game.id in sealed:
                    continue
                mine = next((ln for ln in game.lines if ln.player_id == account.player_id),
                            None)
                rows.append({"id": game.id, "date": game.played_on, "event": game.event,
                             "source": game.source, "status": status_at(game).value,
                             "status_text": status_text(status_at(game)),
                             "final": mine.final if mine else None,
                             "players": len(game.lines)})
        player = _name(s, account.player_id)
        settles = bool(roles_of(s, account.id))
        asked = _asked(request, s, account) if player is None else {}
    return render(request, "sheets.html", status, me=me, rows=rows, player=player,
                  settles=settles, error=error, number=number, **asked)


@router.get("/sheets", response_class=HTMLResponse)
def my_results(request: Request) -> Response:
    return _results_page(request)


def _ask(request: Request, form: dict[str, str]) -> Response:
    number = form.get("number", "").strip()[:20]
    back = "/sheets/new" if form.get("back") == "new" else "/sheets"  # the form she was on
    try:
        with _store(request).session() as s:
            account = _signed_in(request, s)
            if form.get("action") == "new":  # no number yet: a new player (no federation)
                claims.register_self(s, account, deps.grants_freely(request))
                return see_other(back)
            wanted = whole_or_none(number)
            if wanted is None or not 1 <= wanted <= INT_MAX:
                raise ApiError(422, "invalid", _("a player number is a whole number from 1"))
            claims.ask_or_link(s, account, wanted, deps.grants_freely(request))
    except Refused as e:
        return _results_page(request, e.message, status_of(e), number)
    return see_other(back)


@router.post("/sheets/player")
async def ask_player(request: Request, form: Form) -> Response:
    """She asks the federation to link her account to her ranking player."""
    return await asyncio.to_thread(_ask, request, form)


@router.get("/reviews", response_class=HTMLResponse)
def disputes(request: Request) -> Response:
    with _store(request).session(write=False) as s:
        account = _signed_in(request, s)  # refused: refused_page shows her nav
        me = _me(s, account)
        roles = roles_of(s, account.id)
        if not roles:
            raise SheetRefused(403, _("Organisers only"), _(
                "Disputes are settled by an organiser of the game's club or event, or by "
                "the federation; your account holds neither role."))
        games = disputed_games(s, policy.sealed_sheets())
        rows = []
        for game in games:
            if status_at(game) is not Status.DISPUTED:
                continue
            try:
                check_settle(s, account, game)
            except RoleError:
                continue
            last = next(rv for rv in reversed(game.reviews) if rv.verdict == "dispute")
            rows.append({"id": game.id, "date": game.played_on, "event": game.event,
                         "by": _name(s, last.player_id), "note": last.note})
        held = [{"role": r.role, "scope": r.scope} for r in roles]
    return render(request, "reviews.html", me=me, rows=rows, roles=held,
                  roles_text=", ".join(role_text(r.role, r.scope) for r in roles))


@router.get("/inbox", response_class=HTMLResponse)
def inbox(request: Request) -> Response:
    with _store(request).session(write=False) as s:
        account = _signed_in(request, s)  # refused: refused_page shows her nav
        me = _me(s, account)
        items = [_inbox_item(n) for n in notes.inbox(s, account.id)]
    return render(request, "inbox.html", me=me, items=items)


def _read_all(request: Request) -> Response:
    with _store(request).session() as s:
        account = _signed_in(request, s)
        notes.mark_read(s, account.id)
    return see_other("/inbox")


@router.post("/inbox/read")
async def read_all(request: Request, form: Form) -> Response:
    return await asyncio.to_thread(_read_all, request)

# ------------------------------------------------------------ the federation's roles page

def _roles_page(request: Request, error: str = "", status: int = 200,
                form: dict[str, str] | None = None) -> Response:
    with _store(request).session(write=False) as s:
        account = _signed_in(request, s)
        _federation(s, account)
        me = _me(s, account)
        rows = every_role(s)
        held = [{"name": a.name, "role": r.role, "role_text": _(ROLES.get(r.role, r.role)),
                 "scope": r.scope, "at": r.granted_at} for r, a in rows]
        asking = [{"id": c.id, "name": c.account.name, "number": c.player.number,
                   "player": c.player.name, "at": c.asked_at} for c in claims.pending(s)]
        organising = [{"id": r.id, "name": r.account.name, "scope": r.scope,
                       "at": r.asked_at} for r in pending_requests(s)]
    return render(request, "sheet_roles.html", status, me=me, roles=held, asking=asking,
                           organising=organising,
                           error=error, form=form or {},
                           done=request.query_params.get("done", "")[:200])


@router.get("/admin/roles", response_class=HTMLResponse)
def roles_page(request: Request) -> Response:
    return _roles_page(request)


def _change_role(request: Request, form: dict[str, str]) -> Response:
    try:
        with _store(request).session() as s:
            me = _signed_in(request, s)
            _federation(s, me)
            action = form.get("action")
            done = ""
            if action == "register":  # a new ranking player
                number = form.get("number", "").strip()
                player = register_player(s, form.get("player", ""),
                                         whole_or_none(number),
                                         form.get("country", "").strip() or None)
                done = _("registered {name} as player {number}").format(
                    name=player.name, number=player.number)
            elif action in ("approve", "refuse"):  # an account's request to be a player
                claim_id = whole_or_none(form.get("claim", ""))
                if claim_id is None or claim_id > INT_MAX:
                    raise RoleError(_("which request?"))
                c = claims.decide(s, claim_id, me, action == "approve")
                done = (_("{account} is player {number} ({name})") if c.approved else
                        _("refused {account}'s request to be player {number}")).format(
                    account=c.account.name, number=c.player.number, name=c.player.name)
            elif action in ("approve_organiser", "refuse_organiser"):  # to organise
                request_id = whole_or_none(form.get("request", ""))
                if request_id is None or request_id > INT_MAX:
                    raise RoleError(_("which request?"))
                r = decide_request(s, request_id, me, action == "approve_organiser")
                done = (_("{account} is organiser of {scope}") if r.approved else
                        _("refused {account}'s request to organise as {scope}")).format(
                    account=r.account.name, scope=r.scope)
            elif action == "link":  # an account to her ranking player
                who = find_account(s, form.get("name", "").strip())
                linked = whole_or_none(form.get("number", "").strip())
                if linked is None:
                    raise RoleError(_("a player number is a whole number"))
                player = claims.link_player(s, who, linked)
                done = _("linked {account} to player {number} ({name})").format(
                    account=who.name, number=player.number, name=player.name)
            else:
                who = find_account(s, form.get("name", "").strip())
                if action == "revoke":
                    revoke(s, who, ORGANISER, form.get("scope", ""))
                else:
                    grant(s, who, ORGANISER, form.get("scope", ""))
    except FidoError as e:
        return _roles_page(request, str(e), 422, form)
    return see_other("/admin/roles" + (f"?done={quote(done)}" if done else ""))


@router.post("/admin/roles")
async def post_role(request: Request, form: Form) -> Response:
    return await asyncio.to_thread(_change_role, request, form)


def _federation(s: Session, account: Account) -> None:
    if not any(r.role == FEDERATION for r in roles_of(s, account.id)):
        raise SheetRefused(403, _("The federation only"), _(
            "Only a federation account links accounts to players and grants roles."))
