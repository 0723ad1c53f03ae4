"""The FastAPI app: :func:`create_app` builds one per store, with no module-level state.

Handlers are plain ``def`` (the store is synchronous SQLAlchemy and argon2
is CPU-bound): Starlette runs them in its thread pool. Every refusal is the
JSON body ``{"error": {"code", "message"}}`` with a 4xx status; an
unexpected failure is a 500 with the same shape and no traceback.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Header, Path, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse
from sqlalchemy.orm import Session
from starlette.exceptions import HTTPException as StarletteHTTPException

import fido
from fido.safe_text import printable
from fido.server import accounts, claims, csrf, roles
from fido.server.analysis_api import analysis_routes
from fido.server.assistant_api import assistant_routes
from fido.server.errors import ApiError
from fido.server.events_api import events_routes, seat_waiting_rounds
from fido.server.hub import Hub, PlaySettings
from fido.server.lobby import lobby_routes
from fido.server.monthly import MonthlyClose, MonthlySettings
from fido.server.play import SessionSockets, SocketCount, play_routes
from fido.server.ratelimit import RateLimiter
from fido.server.schemas import (
    AccountOut,
    ClaimDecision,
    ClaimFor,
    ErrorBody,
    Health,
    PlayerLink,
    SessionInfo,
    SignIn,
    SignUp,
)
from fido.server.sessions import COOKIE, SESSION_SECONDS, Sessions, server_secret
from fido.store import INT_MAX, Account, PlayerClaim, Store, open_store

__all__ = ["Limits", "Server", "create_app"]

log = logging.getLogger("fido.server")


@dataclass(frozen=True)
class Limits:
    """Failed sign-ins allowed per ``window`` seconds, per account and per address."""

    per_account: int = 5
    per_address: int = 20
    window: float = 15 * 60


@dataclass
class Server:
    """What the handlers share, kept on ``app.state.server``."""

    store: Store
    sessions: Sessions
    csrf: csrf.Csrf
    per_account: RateLimiter
    per_address: RateLimiter
    hub: Hub
    sockets: SocketCount  # open table connections per account and address
    session_sockets: SessionSockets  # and of each session, closed when it ends
    origins: frozenset[str]  # pages of other sites allowed to open the table socket


def _server(request: Request) -> Server:
    srv: Server = request.app.state.server
    return srv


def _errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {status: {"model": ErrorBody} for status in (*statuses, 422)}


_STATUS_CODES = {
    400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
    405: "method_not_allowed", 409: "conflict", 413: "too_large", 415: "unsupported_media_type",
    422: "invalid", 429: "rate_limited",
}


def _error(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> Response:
    body = ErrorBody.model_validate({"error": {"code": code, "message": message}})
    return JSONResponse(body.model_dump(), status_code=status, headers=headers)


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for e in exc.errors()[:5]:
        where = ".".join(str(p) for p in e.get("loc", ()) if p != "body") or "body"
        parts.append(f"{where}: {e.get('msg', 'invalid')}")
    return printable("; ".join(parts), 500)


def _https(request: Request) -> bool:
    return request.url.scheme == "https"


def _set_session_cookie(request: Request, response: Response, value: str) -> None:
    response.set_cookie(
        COOKIE, value, max_age=SESSION_SECONDS, path="/", httponly=True, samesite="lax",
        secure=_https(request),
    )


async def _check_csrf(
    request: Request,
    x_csrf_token: Annotated[
        str | None,
        Header(alias=csrf.HEADER, description="the fido_csrf cookie's value (double submit)"),
    ] = None,
) -> None:
    await _server(request).csrf.check(request)


CsrfChecked = [Depends(_check_csrf)]


def _info(request: Request, s: Session, account: Account | None) -> SessionInfo:
    token: str = request.state.csrf_token
    if account is None:
        return SessionInfo(kind="anonymous", account=None, csrf_token=token)
    return SessionInfo(
        kind="guest" if account.guest else "account",
        account=accounts.account_out(s, account),
        csrf_token=token,
    )


def _address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _routes() -> APIRouter:
    api = APIRouter(prefix="/api")

    @api.get("/health", response_model=Health, tags=["server"])
    def health() -> Health:
        """The server is up; its fido version."""
        return Health(status="ok", version=fido.__version__)

    @api.get("/session", response_model=SessionInfo, tags=["sessions"])
    def who_am_i(request: Request) -> SessionInfo:
        """Who this browser is (anonymous, a guest or an account) and its CSRF token."""
        srv = _server(request)
        with srv.store.session(write=False) as s:
            account = srv.sessions.account(s, request.cookies.get(COOKIE))
            return _info(request, s, account)

    @api.post(
        "/accounts", response_model=SessionInfo, status_code=201, tags=["accounts"],
        dependencies=CsrfChecked, responses=_errors(403, 409),
    )
    def sign_up(body: SignUp, request: Request, response: Response) -> SessionInfo:
        """Sign up and sign in. A guest signing up becomes the account (same id, her games)."""
        srv = _server(request)
        old = request.cookies.get(COOKIE)
        with srv.store.session() as s:
            current = srv.sessions.account(s, old)
            if current is not None and not current.guest:
                raise ApiError(409, "signed_in", "sign out before signing up another account")
            account = accounts.sign_up(s, body.name, body.password, body.email, current)
            srv.sessions.end(s, old)  # a new id after a change of rights (no fixation)
            cookie = srv.sessions.start(s, account)
            info = _info(request, s, account)
        _set_session_cookie(request, response, cookie)
        return info

    @api.post(
        "/session", response_model=SessionInfo, tags=["sessions"], dependencies=CsrfChecked,
        responses=_errors(401, 403, 429),
    )
    def sign_in(body: SignIn, request: Request, response: Response) -> SessionInfo:
        """Sign in with name and password; failures are rate-limited (429, Retry-After)."""
        srv = _server(request)
        by_account = "account:" + accounts.name_key(body.name)
        by_address = "address:" + _address(request)
        wait = max(srv.per_account.retry_after(by_account), srv.per_address.retry_after(by_address))
        if wait:
            raise ApiError(
                429, "rate_limited", f"too many failed sign-ins: try again in {wait} s",
                headers={"Retry-After": str(wait)},
            )
        old = request.cookies.get(COOKIE)
        with srv.store.session() as s:
            account = accounts.authenticate(s, body.name, body.password)
            if account is not None:
                srv.sessions.end(s, old)
                cookie = srv.sessions.start(s, account)
                info = _info(request, s, account)
        if account is None:
            srv.per_account.failed(by_account)
            srv.per_address.failed(by_address)
            raise ApiError(401, "wrong_password", "wrong name or password")
        srv.per_account.reset(by_account)
        _set_session_cookie(request, response, cookie)
        return info

    @api.delete(
        "/session", response_model=SessionInfo, tags=["sessions"], dependencies=CsrfChecked,
        responses=_errors(403),
    )
    async def sign_out(request: Request, response: Response) -> SessionInfo:
        """Sign out: the session is deleted server-side, so its cookie opens nothing again,
        and its open table sockets are closed (4401)."""
        srv = _server(request)
        cookie = request.cookies.get(COOKIE)

        def end() -> SessionInfo:
            with srv.store.session() as s:
                srv.sessions.end(s, cookie)
                return _info(request, s, None)

        info = await asyncio.to_thread(end)  # committed, then the sockets are told
        srv.session_sockets.end(srv.sessions.key(cookie))
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax",
                               secure=_https(request))
        return info

    @api.post(
        "/guest", response_model=SessionInfo, tags=["sessions"], dependencies=CsrfChecked,
        responses=_errors(403),
    )
    def start_guest(request: Request, response: Response) -> SessionInfo:
        """Play as a guest, without an account; a browser already signed in stays as it is."""
        srv = _server(request)
        with srv.store.session() as s:
            current = srv.sessions.account(s, request.cookies.get(COOKIE))
            if current is not None:
                return _info(request, s, current)
            guest = accounts.new_guest(s)
            cookie = srv.sessions.start(s, guest)
            info = _info(request, s, guest)
        _set_session_cookie(request, response, cookie)
        return info

    @api.put(
        "/account/player", response_model=AccountOut, tags=["accounts"],
        dependencies=CsrfChecked, responses=_errors(401, 403, 404, 409),
        status_code=202,
    )
    def link_player(body: PlayerLink, request: Request, response: Response) -> AccountOut:
        """Ask to be a player number of the world ranking: 202, the request waits for the
        federation (``claim``); linked at once (200) for a federation account, or on a
        server with no federation account (nobody to ask)."""
        srv = _server(request)
        with srv.store.session() as s:
            account = srv.sessions.account(s, request.cookies.get(COOKIE))
            if account is None:
                raise ApiError(401, "signed_out", "sign in first")
            if account.guest:
                raise ApiError(403, "guest", "a guest cannot be linked to a player: sign up first")
            if claims.ask_or_link(s, account, body.number):
                response.status_code = 200
            return accounts.account_out(s, account)

    @api.post(
        "/account/player", response_model=AccountOut, tags=["accounts"], status_code=201,
        dependencies=CsrfChecked, responses=_errors(401, 403, 409),
    )
    def new_player(request: Request) -> AccountOut:
        """Become a new ranking player in your account's name (the next free number), on a
        server with no federation account (403 where the federation registers players)."""
        srv = _server(request)
        with srv.store.session() as s:
            account = srv.sessions.account(s, request.cookies.get(COOKIE))
            if account is None:
                raise ApiError(401, "signed_out", "sign in first")
            claims.register_self(s, account)
            return accounts.account_out(s, account)

    @api.get("/claims", response_model=list[ClaimFor], tags=["accounts"],
             responses=_errors(401, 403))
    def pending_claims(request: Request) -> list[ClaimFor]:
        """The requests to be a ranking player waiting for the federation, oldest first."""
        srv = _server(request)
        with srv.store.session(write=False) as s:
            _federation_account(s, request)
            return [_claim_for(c) for c in claims.pending(s)]

    @api.post("/claims/{claim_id}", response_model=ClaimFor, tags=["accounts"],
              dependencies=CsrfChecked, responses=_errors(401, 403, 404, 409))
    def decide_claim(claim_id: Annotated[int, Path(ge=1, le=INT_MAX)], body: ClaimDecision,
                     request: Request) -> ClaimFor:
        """The federation approves (the account is linked) or refuses a request."""
        srv = _server(request)
        with srv.store.session() as s:
            me = _federation_account(s, request)
            return _claim_for(claims.decide(s, claim_id, me, body.approve))

    return api


def _federation_account(s: Session, request: Request) -> Account:
    """The signed-in account, which must hold the federation's role (401, 403)."""
    account = _server(request).sessions.account(s, request.cookies.get(COOKIE))
    if account is None or account.guest:
        raise ApiError(401, "signed_out", "sign in first")
    if not roles.is_federation(s, account.id):
        raise ApiError(403, "federation_only", "only the federation answers these requests")
    return account


def _claim_for(claim: PlayerClaim) -> ClaimFor:
    out = claims.claim_out(claim)
    assert out is not None
    return ClaimFor(account=claim.account_id, account_name=claim.account.name or "?",
                    **out.model_dump())


def create_app(
    db_url: str | None = None,
    *,
    secret: str | None = None,
    limits: Limits = Limits(),
    store: Store | None = None,
    play: PlaySettings = PlaySettings(),  # noqa: B008 (frozen)
    origins: tuple[str, ...] = (),
    monthly: MonthlySettings = MonthlySettings(),  # noqa: B008 (frozen)
) -> FastAPI:
    """The server app on the store at ``db_url`` (default ``$FIDO_DB`` or ./fido.db),
    migrated on open; ``secret`` (default ``$FIDO_SECRET`` or the stored one) signs cookies.

    ``play`` sets the bots' pace and the grace periods; ``origins`` names other
    sites whose pages may open a table's WebSocket (the server's own always may);
    ``monthly`` how often the monthly close looks for an ended month (0: never).
    """
    store = store or open_store(db_url)
    key = server_secret(store, secret)
    hub = Hub(store, play)
    closer = MonthlyClose(store, monthly)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.start()  # every running table goes on: bots, clocks (with grace)
        await seat_waiting_rounds(hub)  # an event round drawn but not seated before a stop
        await closer.start()  # ended months are published by themselves
        try:
            yield
        finally:
            await closer.stop()
            await hub.stop()

    app = FastAPI(
        title="fido server", version=fido.__version__, lifespan=lifespan,
        description="FIDO dominoes: accounts, sessions, tables (docs/server.md); "
        "play over the WebSocket /ws/tables/{id} (docs/protocol.md).",
    )
    app.state.server = Server(
        store=store,
        sessions=Sessions(key),
        csrf=csrf.Csrf(key),
        per_account=RateLimiter(limits.per_account, limits.window),
        per_address=RateLimiter(limits.per_address, limits.window),
        hub=hub,
        sockets=SocketCount(),
        session_sockets=SessionSockets(),
        origins=frozenset(origins),
    )
    app.add_middleware(GZipMiddleware, minimum_size=2048)  # replays and records are long
    app.include_router(_routes())
    app.include_router(lobby_routes())
    app.include_router(play_routes())
    app.include_router(assistant_routes())  # the table assistant (docs/web.md)
    app.include_router(events_routes())
    app.include_router(analysis_routes())  # finished games' analyses (docs/analysis.md)
    from fido.web import install_web  # noqa: PLC0415 (the pages live beside the API)

    install_web(app)
    from fido.web.assistant_pages import assistant_pages  # noqa: PLC0415
    from fido.web.ranking_pages import ranking_routes  # noqa: PLC0415
    from fido.web.sheets import Refused, refused_page, sheet_routes  # noqa: PLC0415

    app.include_router(assistant_pages())
    app.include_router(sheet_routes())  # score sheets, reviews, inbox, the federation's page
    app.add_exception_handler(Refused, refused_page)
    app.include_router(ranking_routes())

    @app.middleware("http")
    async def csrf_cookie(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        # every browser gets a CSRF token cookie the first time it comes
        checker = _server(request).csrf
        token = request.cookies.get(csrf.COOKIE)
        fresh = not checker.valid(token)
        request.state.csrf_token = checker.new() if fresh else token
        response = await call_next(request)
        if fresh:
            response.set_cookie(
                csrf.COOKIE, request.state.csrf_token, max_age=SESSION_SECONDS, path="/",
                httponly=False, samesite="lax", secure=_https(request),
            )
        return response

    from fido.web.pages import error_page, wants_page  # noqa: PLC0415

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> Response:
        if wants_page(request):
            return await error_page(request, exc.status, exc.message)
        return _error(exc.status, exc.code, exc.message, exc.headers)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        code = _STATUS_CODES.get(exc.status_code, "error")
        message = exc.detail if isinstance(exc.detail, str) else code
        if wants_page(request):
            return await error_page(request, exc.status_code, {
                404: "Nothing is at this address: it may be mistyped, or the page is gone.",
                405: "This address does not take that request.",
            }.get(exc.status_code, printable(message, 500)))
        return _error(exc.status_code, code, printable(message, 500), dict(exc.headers or {}))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        if wants_page(request):
            return await error_page(request, 422, "Part of this address is not right ("
                                    + _validation_message(exc) + ").")
        return _error(422, "invalid", _validation_message(exc))

    @app.exception_handler(Exception)
    async def crash(request: Request, exc: Exception) -> Response:
        log.error("unexpected %s on %s %s", type(exc).__name__, request.method, request.url.path)
        if wants_page(request):
            return await error_page(request, 500, "The server met an error it did not expect; "
                                    "it is logged. Please try again.")
        return _error(500, "internal", "internal server error")

    return app
