"""Sessions and accounts over HTTP: who this browser is, sign-up, sign-in and out, guests,
the link to a ranking player and the federation's answers to those requests.

Handlers are plain ``def`` (the store is synchronous SQLAlchemy and argon2 is CPU-bound):
Starlette runs them in its thread pool. Every refusal is the JSON body
``{"error": {"code", "message"}}`` with a 4xx status (:mod:`fido.server.deps`).
"""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Path, Request, Response
from sqlalchemy.orm import Session

import fido
from fido import i18n
from fido.accounts import claims, roles
from fido.accounts import signup as accounts
from fido.accounts.devices import DEVICE, DEVICE_SECONDS
from fido.accounts.sessions import COOKIE
from fido.server.account_views import account_out, claim_out
from fido.server.deps import (
    CsrfChecked,
    address,
    count_against,
    errors,
    https,
    me,
    server,
    set_session_cookie,
)
from fido.server.errors import ApiError
from fido.server.language import COOKIE as LANGUAGE
from fido.server.language import cookie_header
from fido.server.schemas import (
    AccountOut,
    ClaimDecision,
    ClaimFor,
    Health,
    LanguageChoice,
    PlayerLink,
    SessionInfo,
    SignIn,
    SignUp,
)
from fido.store import INT_MAX, Account, PlayerClaim

__all__ = ["accounts_routes"]

_, ngettext = i18n.gettext, i18n.ngettext


def _info(request: Request, s: Session, account: Account | None) -> SessionInfo:
    token: str = request.state.csrf_token
    if account is None:
        return SessionInfo(kind="anonymous", account=None, csrf_token=token)
    return SessionInfo(
        kind="guest" if account.guest else "account",
        account=account_out(s, account),
        csrf_token=token,
    )


def _known_device(request: Request, response: Response, name: str) -> None:
    """She signed in (or up) on this browser: its device cookie names her account."""
    srv = server(request)
    device = srv.devices.read(request.cookies.get(DEVICE))
    response.set_cookie(DEVICE, srv.devices.signed_in(device, accounts.name_key(name)),
                        max_age=DEVICE_SECONDS, path="/", httponly=True, samesite="lax",
                        secure=https(request))


def accounts_routes() -> APIRouter:
    api = APIRouter(prefix="/api")

    @api.get("/health", response_model=Health, tags=["server"])
    def health() -> Health:
        """The server is up; its fido version."""
        return Health(status="ok", version=fido.__version__)

    @api.get("/session", response_model=SessionInfo, tags=["sessions"])
    def who_am_i(request: Request) -> SessionInfo:
        """Who this browser is (anonymous, a guest or an account) and its CSRF token."""
        srv = server(request)
        with srv.store.session(write=False) as s:
            account = me(request, s)
            return _info(request, s, account)

    @api.post(
        "/accounts", response_model=SessionInfo, status_code=201, tags=["accounts"],
        dependencies=CsrfChecked, responses=errors(403, 409),
    )
    async def sign_up(body: SignUp, request: Request, response: Response) -> SessionInfo:
        """Sign up and sign in. A guest signing up becomes the account (same id, her games);
        the guest's session ends, and with it her open table sockets (4401)."""
        srv = server(request)
        old = request.cookies.get(COOKIE)

        def work() -> tuple[str, SessionInfo]:
            with srv.store.session() as s:
                current = srv.sessions.account(s, old)
                if current is not None and not current.guest:
                    raise ApiError(409, "signed_in", _("sign out before signing up another "
                                                         "account"))
                if current is None:  # a guest signing up is no new account
                    count_against(request, srv.created, lambda n: ngettext(
                        "too many new accounts from your address: try again in {n} second",
                        "too many new accounts from your address: try again in {n} seconds",
                        n))
                account = accounts.sign_up(s, body.name, body.password, body.email, current)
                if account.language is None:  # the language she chose as a visitor stays
                    account.language = i18n.language_or_none(request.cookies.get(LANGUAGE))
                srv.sessions.end(s, old)  # a new id after a change of rights (no fixation)
                cookie = srv.sessions.start(s, account)
                if current is not None:  # a guest: her seats take her name (other processes)
                    srv.hub.announce_rename(s, account.id)
                return cookie, _info(request, s, account)

        cookie, info = await asyncio.to_thread(work)  # committed, then the sockets are told
        if info.account is not None:  # her seats in this process's rooms: her new name
            srv.hub.rename(info.account.id, info.account.name)
        srv.session_sockets.end(srv.sessions.key(old))
        if info.account is not None:  # this browser is hers: her device (accounts.devices)
            _known_device(request, response, info.account.name)
        token = set_session_cookie(request, response, cookie)
        return info.model_copy(update={"csrf_token": token})

    @api.post(
        "/session", response_model=SessionInfo, tags=["sessions"], dependencies=CsrfChecked,
        responses=errors(401, 403, 429),
    )
    async def sign_in(body: SignIn, request: Request, response: Response) -> SessionInfo:
        """Sign in with name and password; failures are rate-limited (429, Retry-After).
        The browser's session before (a guest's, another account's) ends, and its open
        table sockets are closed (4401)."""
        srv = server(request)
        key = accounts.name_key(body.name)
        device = srv.devices.read(request.cookies.get(DEVICE))
        # her own device is counted alone: a stranger's guesses never lock her out there;
        # elsewhere, per account and address, per address, and per account everywhere
        counters = ([(srv.per_account, f"device:{device.id}:{key}")]
                    if device is not None and device.knows(key) else
                    [(srv.per_account, f"account:{key}:{address(request)}"),
                     (srv.per_address, f"address:{address(request)}"),
                     (srv.everywhere, f"account:{key}")])
        # each attempt counts as failed before its password is verified (given back if
        # right): sixteen guesses at once cannot all pass a limit of five
        marks = [limiter.reserve(k) for limiter, k in counters]
        if None in marks:
            for (limiter, k), mark in zip(counters, marks, strict=True):
                if mark is not None:
                    limiter.release(k, mark)
            wait = max([limiter.retry_after(k) for limiter, k in counters] + [1])
            srv.metrics.signin_refusals.labels("rate_limited").inc()
            everywhere = len(counters) == 3 and marks[2] is None
            raise ApiError(429, "rate_limited", (ngettext(
                "too many failed sign-ins to this account: sign in on a device where you "
                "have signed in before, or try again in {n} second",
                "too many failed sign-ins to this account: sign in on a device where you "
                "have signed in before, or try again in {n} seconds", wait)
                if everywhere else ngettext(
                "too many failed sign-ins: try again in {n} second",
                "too many failed sign-ins: try again in {n} seconds", wait)).format(n=wait),
                headers={"Retry-After": str(wait)})
        old = request.cookies.get(COOKIE)

        def work() -> tuple[str, SessionInfo, str | None] | None:
            with srv.store.session() as s:
                account = accounts.authenticate(s, body.name, body.password)
                if account is None:
                    return None
                srv.sessions.end(s, old)
                return (srv.sessions.start(s, account), _info(request, s, account),
                        account.language)

        done = await asyncio.to_thread(work)
        if done is None:
            srv.metrics.signin_refusals.labels("wrong_password").inc()
            raise ApiError(401, "wrong_password", _("wrong name or password"))
        cookie, info, language = done
        if language is not None:  # her setting, on this browser too
            response.headers.append("set-cookie", cookie_header(language, https(request)))
        srv.session_sockets.end(srv.sessions.key(old))  # committed, then the sockets told
        for (limiter, k), mark in zip(counters, marks, strict=True):
            assert mark is not None
            limiter.release(k, mark)
        srv.per_account.reset(counters[0][1])  # her failures from here are forgiven
        _known_device(request, response, body.name)
        token = set_session_cookie(request, response, cookie)
        return info.model_copy(update={"csrf_token": token})

    @api.delete(
        "/session", response_model=SessionInfo, tags=["sessions"], dependencies=CsrfChecked,
        responses=errors(403),
    )
    async def sign_out(request: Request, response: Response) -> SessionInfo:
        """Sign out: the session is deleted server-side, so its cookie opens nothing again,
        and its open table sockets are closed (4401)."""
        srv = server(request)
        cookie = request.cookies.get(COOKIE)

        def end() -> SessionInfo:
            with srv.store.session() as s:
                srv.sessions.end(s, cookie)
                return _info(request, s, None)

        info = await asyncio.to_thread(end)  # committed, then the sockets are told
        srv.session_sockets.end(srv.sessions.key(cookie))
        token = set_session_cookie(request, response, None)
        return info.model_copy(update={"csrf_token": token})

    @api.post(
        "/guest", response_model=SessionInfo, tags=["sessions"], dependencies=CsrfChecked,
        responses=errors(403),
    )
    def start_guest(request: Request, response: Response) -> SessionInfo:
        """Play as a guest, without an account; a browser already signed in stays as it is."""
        srv = server(request)
        with srv.store.session() as s:
            current = me(request, s)
            if current is not None:
                return _info(request, s, current)
            count_against(request, srv.created, lambda n: ngettext(
                "too many new guests from your address: try again in {n} second",
                "too many new guests from your address: try again in {n} seconds", n))
            guest = accounts.new_guest(s)
            cookie = srv.sessions.start(s, guest)
            info = _info(request, s, guest)
        token = set_session_cookie(request, response, cookie)
        return info.model_copy(update={"csrf_token": token})

    @api.put(
        "/language", response_model=LanguageChoice, tags=["sessions"],
        dependencies=CsrfChecked, responses=errors(403, 422),
    )
    def choose_language(body: LanguageChoice, request: Request,
                        response: Response) -> LanguageChoice:
        """The interface's language for this browser (a cookie) and, signed in or a guest,
        her account (it follows her to other browsers when she signs in there)."""
        srv = server(request)
        with srv.store.session() as s:
            account = me(request, s)
            if account is not None:
                account.language = body.language
        response.headers.append("set-cookie", cookie_header(body.language, https(request)))
        return body

    @api.put(
        "/account/player", response_model=AccountOut, tags=["accounts"],
        dependencies=CsrfChecked, responses=errors(401, 403, 404, 409),
        status_code=202,
    )
    def link_player(body: PlayerLink, request: Request, response: Response) -> AccountOut:
        """Ask to be a player number of the world ranking: 202, the request waits for the
        federation (``claim``); linked at once (200) for a federation account, or on a
        server with no federation account (nobody to ask)."""
        srv = server(request)
        with srv.store.session() as s:
            account = me(request, s)
            if account is None:
                raise ApiError(401, "signed_out", _("sign in first"))
            if account.guest:
                raise ApiError(403, "guest",
                               _("a guest cannot be linked to a player: sign up first"))
            if claims.ask_or_link(s, account, body.number):
                response.status_code = 200
            return account_out(s, account)

    @api.post(
        "/account/player", response_model=AccountOut, tags=["accounts"], status_code=201,
        dependencies=CsrfChecked, responses=errors(401, 403, 409),
    )
    def new_player(request: Request) -> AccountOut:
        """Become a new ranking player in your account's name (the next free number), on a
        server with no federation account (403 where the federation registers players)."""
        srv = server(request)
        with srv.store.session() as s:
            account = me(request, s)
            if account is None:
                raise ApiError(401, "signed_out", _("sign in first"))
            claims.register_self(s, account)
            return account_out(s, account)

    @api.get("/claims", response_model=list[ClaimFor], tags=["accounts"],
             responses=errors(401, 403))
    def pending_claims(request: Request) -> list[ClaimFor]:
        """The requests to be a ranking player waiting for the federation, oldest first."""
        srv = server(request)
        with srv.store.session(write=False) as s:
            _federation_account(s, request)
            return [_claim_for(c) for c in claims.pending(s)]

    @api.post("/claims/{claim_id}", response_model=ClaimFor, tags=["accounts"],
              dependencies=CsrfChecked, responses=errors(401, 403, 404, 409))
    def decide_claim(claim_id: Annotated[int, Path(ge=1, le=INT_MAX)], body: ClaimDecision,
                     request: Request) -> ClaimFor:
        """The federation approves (the account is linked) or refuses a request."""
        srv = server(request)
        with srv.store.session() as s:
            me = _federation_account(s, request)
            return _claim_for(claims.decide(s, claim_id, me, body.approve))

    return api


def _federation_account(s: Session, request: Request) -> Account:
    """The signed-in account, which must hold the federation's role (401, 403)."""
    account = me(request, s)
    if account is None or account.guest:
        raise ApiError(401, "signed_out", _("sign in first"))
    if not roles.is_federation(s, account.id):
        raise ApiError(403, "federation_only", _("only the federation answers these requests"))
    return account


def _claim_for(claim: PlayerClaim) -> ClaimFor:
    out = claim_out(claim)
    assert out is not None
    return ClaimFor(account=claim.account_id, account_name=claim.account.name or "?",
                    **out.model_dump())


