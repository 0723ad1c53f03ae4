"""The app: :func:`create_app` assembles the server's API, the table socket and the pages
on one store, with no module-level state, and answers every error one way.

Every refusal is the JSON body ``{"error": {"code", "message"}}`` with a 4xx status (a
page with the same sentence for a browser that asks for a page); an unexpected failure
is a 500 with the same shape and no traceback. A request body larger than
:data:`~fido.server.body_limit.MAX_BODY` is refused (413) before it is read.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

import fido
from fido import i18n
from fido.accounts.devices import Devices
from fido.accounts.sessions import COOKIE as SESSION
from fido.accounts.sessions import SESSION_SECONDS, Sessions, server_secret
from fido.errors import ConfigurationError, Refused
from fido.i18n import N_, _
from fido.safe_text import printable
from fido.server import (
    accounts_api,
    analysis_api,
    assistant_api,
    csrf,
    events_api,
    lobby,
    people_api,
    puzzles_api,
    queue_api,
    ratings_api,
)
from fido.server.body_limit import MAX_BODY, BodyLimit
from fido.server.deps import Limits, Server, https, server
from fido.server.errors import headers_of, status_of
from fido.server.events_service import seat_waiting_rounds
from fido.server.field_errors import field_errors
from fido.server.hub import Hub, PlaySettings
from fido.server.language import QUERY, Language, negotiate
from fido.server.logs import RequestIds
from fido.server.metrics import HttpAnswers, Metrics, metrics_routes
from fido.server.monthly import MonthlyClose, MonthlySettings
from fido.server.play import TableSockets
from fido.server.policy import Grants
from fido.server.postman import Postman
from fido.server.queue import SeenSessions, touch_sockets
from fido.server.ratelimit import RateLimiter
from fido.server.schemas import ErrorBody
from fido.server.settings import MailSettings
from fido.server.sockets import SessionSockets, SocketCount
from fido.store import Store, open_store
from fido.web import (
    assistant_pages,
    event_pages,
    learn_pages,
    legal_pages,
    pages,
    people_pages,
    puzzle_pages,
    ranking_pages,
    rulebook,
    sheets,
)
from fido.web.kit import STATIC, RefusedPage, error_page, refused_page, wants_page

__all__ = ["MAX_BODY", "Limits", "Server", "create_app", "install_web"]

log = logging.getLogger("fido.server")

_STATUS_CODES = {
    400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
    405: "method_not_allowed", 409: "conflict", 413: "too_large", 415: "unsupported_media_type",
    422: "invalid", 429: "rate_limited",
}


def _error(status: int, code: str, message: str, headers: dict[str, str] | None = None,
           field: str | None = None) -> Response:
    body = ErrorBody.model_validate({"error": {"code": code, "message": message,
                                               "field": field}})
    return JSONResponse(body.model_dump(exclude_none=True), status_code=status, headers=headers)


def _field_of(exc: RequestValidationError) -> str | None:
    """The first refused input's place in the body ("seats.2.name"), for a form."""
    for e in exc.errors()[:1]:
        loc = [str(p) for p in e.get("loc", ()) if p != "body"]
        return printable(".".join(loc), 200) or None
    return None


def _validation_message(exc: RequestValidationError) -> str:
    """Each field's error a sentence in the request's language (never pydantic's English)."""
    return field_errors(exc.errors())


# Starlette's own details (HTTPStatus phrases) as sentences for a person; the pages' own
_PHRASES: dict[str, str] = {
    "Bad Request": N_("Bad Request"),
    "Not Found": N_("Not Found"),
    "Method Not Allowed": N_("Method Not Allowed"),
    "Unsupported Media Type": N_("Unsupported Media Type"),
}
_PAGE_TEXTS: dict[int, str] = {
    404: N_("Nothing is at this address: it may be mistyped, or the page is gone."),
    405: N_("This address does not take that request."),
}


def create_app(
    db_url: str | None = None,
    *,
    secret: str | None = None,
    limits: Limits = Limits(),  # noqa: B008 (frozen)
    store: Store | None = None,
    play: PlaySettings = PlaySettings(),  # noqa: B008 (frozen)
    origins: tuple[str, ...] = (),
    monthly: MonthlySettings = MonthlySettings(),  # noqa: B008 (frozen)
    metrics_token: str | None = None,
    mail: MailSettings = MailSettings(),  # noqa: B008 (frozen)
    grants: Grants = "auto",
    public: bool = False,
) -> FastAPI:
    """The server app on the store at ``db_url`` (default ``$FIDO_DB`` or ./fido.db),
    migrated on open; ``secret`` (default ``$FIDO_SECRET`` or the stored one) signs cookies.

    ``play`` sets the bots' pace and the grace periods; ``origins`` names other
    sites whose pages may open a table's WebSocket (the server's own always may);
    ``monthly`` how often the monthly close looks for an ended month (0: never);
    ``metrics_token`` (default ``$FIDO_METRICS_TOKEN``) opens ``/metrics`` from elsewhere
    than loopback (:func:`fido.server.policy.may_read_metrics`); ``mail`` where the
    outbox's mail goes (:mod:`fido.server.postman`; none: the server sends no mail);
    ``grants`` and ``public`` (it listens on an address other than loopback) whether a
    server without a federation account grants roles and links at once
    (:func:`fido.server.policy.grants_at_once`).
    """
    if mail.smtp is not None and not mail.site:
        raise ConfigurationError("a server that sends mail needs its public address "
                                 "(MailSettings.site): the links in mail start with it")
    store = store or open_store(db_url)
    key = server_secret(store, secret)
    hub = Hub(store, play)
    metrics = Metrics()  # this app's own registry (docs/deploy.md, "Metrics")
    closer = MonthlyClose(store, monthly, done=metrics.closed_month)
    metrics.watch(hub)
    store.on_write = metrics.written
    token = metrics_token or os.environ.get("FIDO_METRICS_TOKEN") or None

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.start()  # every running table goes on: bots, clocks (with grace)
        await seat_waiting_rounds(hub)  # an event round drawn but not seated before a stop
        await closer.start()  # ended months are published by themselves
        srv: Server = app.state.server
        sweep = asyncio.create_task(srv.session_sockets.sweep(
            lambda keys: _alive_of(srv, keys)))  # sockets of sessions ended elsewhere
        seen = asyncio.create_task(touch_sockets(srv))  # who is online: at a table too
        postman = (asyncio.create_task(Postman(store, mail, key).run())
                   if mail.smtp is not None else None)  # the outbox's mail
        try:
            yield
        finally:
            if postman is not None:
                postman.cancel()
            seen.cancel()
            sweep.cancel()
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
        csrf=csrf.Csrf(key, frozenset(origins)),
        per_account=RateLimiter(limits.per_account, limits.window),
        per_address=RateLimiter(limits.per_address, limits.window),
        everywhere=RateLimiter(limits.everywhere, limits.everywhere_window),
        devices=Devices(key),
        hub=hub,
        sockets=SocketCount(),
        session_sockets=SessionSockets(),
        origins=frozenset(origins),
        limits=limits,
        opened=RateLimiter(limits.tables_per_address, limits.window),
        created=RateLimiter(limits.accounts_per_address, limits.window),
        metrics=metrics,
        address_key=hashlib.sha256(("fido.address:" + key).encode()).digest(),
        mail=mail,
        secret=key,
        resets=RateLimiter(limits.resets_per_address, limits.window),
        resets_of=RateLimiter(limits.resets_per_account, limits.window),
        grants=grants,
        public=public,
    )
    app.state.metrics = metrics
    app.add_middleware(GZipMiddleware, minimum_size=2048)  # replays and records are long
    app.include_router(accounts_api.router)
    app.include_router(lobby.router)
    app.include_router(assistant_api.router)  # the table assistant (docs/web.md)
    app.include_router(events_api.router)
    app.include_router(analysis_api.router)  # finished games' analyses (docs/analysis.md)
    app.include_router(queue_api.router)  # play with people: the queue (docs/server.md)
    app.include_router(ratings_api.router)  # the game ratings (docs/ratings.md)
    app.include_router(people_api.router)  # people online, challenges (docs/people.md)
    app.include_router(puzzles_api.router)  # puzzles and puzzle ratings (docs/puzzles.md)
    install_web(app)
    app.include_router(metrics_routes(token))  # for the machine itself
    _csrf_cookie(app)
    _error_handlers(app)
    app.add_middleware(SeenSessions)  # who is online: each session's last request
    app.add_middleware(BodyLimit)  # before anything reads a body
    app.add_middleware(Language)  # the request's language: the handlers, pages, the 413's
    app.add_middleware(TableSockets)  # the table's socket, in front of all the pages' layers
    app.add_middleware(RequestIds)  # each request's and socket's id, on its log lines
    app.add_middleware(HttpAnswers)  # each answer's status class counted (/metrics)
    return app


def _alive_of(srv: Server, keys: list[str]) -> set[str]:
    with srv.store.session(write=False) as s:
        return srv.sessions.alive_of(s, keys)


def _csrf_cookie(app: FastAPI) -> None:
    @app.middleware("http")
    async def csrf_cookie(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        # every browser gets the CSRF token of its session (or a signed one, without)
        checker = server(request).csrf
        token = request.cookies.get(csrf.COOKIE)
        request.state.csrf_token = checker.expected(request.cookies.get(SESSION), token)
        response = await call_next(request)
        set_here = any(v.startswith(csrf.COOKIE + "=")
                       for v in response.headers.getlist("set-cookie"))
        if request.state.csrf_token != token and not set_here:
            response.set_cookie(
                csrf.COOKIE, request.state.csrf_token, max_age=SESSION_SECONDS, path="/",
                httponly=False, samesite="lax", secure=https(request),
            )
        return response


def _error_handlers(app: FastAPI) -> None:
    @app.exception_handler(Refused)
    async def refused(request: Request, exc: Refused) -> Response:
        status = status_of(exc)
        if wants_page(request):
            return await error_page(request, status, exc.message)
        return _error(status, exc.code, exc.message, headers_of(exc), exc.field)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        code = _STATUS_CODES.get(exc.status_code, "error")
        message = exc.detail if isinstance(exc.detail, str) else code
        message = _(_PHRASES[message]) if message in _PHRASES else message
        if wants_page(request):
            page_text = _PAGE_TEXTS.get(exc.status_code)
            return await error_page(request, exc.status_code, _(page_text) if page_text
                                    else printable(message, 500))
        return _error(exc.status_code, code, printable(message, 500), dict(exc.headers or {}))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        if wants_page(request):
            return await error_page(request, 422, _(
                "Part of this address is not right ({reason}).").format(
                    reason=_validation_message(exc)))
        return _error(422, "invalid", _validation_message(exc), field=_field_of(exc))

    @app.exception_handler(Exception)
    async def crash(request: Request, exc: Exception) -> Response:
        log.error("unexpected %s on %s %s", type(exc).__name__, request.method, request.url.path)
        # answered by Starlette's outermost layer, outside the Language middleware: chosen again
        lang = negotiate(request.cookies, request.headers.get("accept-language"),
                         request.query_params.get(QUERY))
        with i18n.use(lang):
            if wants_page(request):
                return await error_page(request, 500, _(
                    "The server met an error it did not expect; it is logged. "
                    "Please try again."))
            return _error(500, "internal", _("internal server error"))


def install_web(app: FastAPI) -> None:
    """Add every page, its static files and the pages' refusals to the server's app."""
    app.include_router(pages.router)
    app.include_router(rulebook.router)
    app.include_router(learn_pages.router)  # /learn: the first lesson (fido.lessons)
    app.include_router(puzzle_pages.router)  # /puzzles: a puzzle, the puzzle of the day
    app.include_router(legal_pages.router)  # /impressum, /privacy, /account
    app.include_router(event_pages.router)
    app.include_router(people_pages.router)  # /people: online, challenges (docs/people.md)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(assistant_pages.router)
    app.include_router(sheets.router)  # score sheets, reviews, inbox, the federation's page
    app.add_exception_handler(RefusedPage, refused_page)
    app.include_router(ranking_pages.router)
