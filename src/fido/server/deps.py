"""The request layer every route module imports: the server's shared state, who is asking,
the CSRF check, a table's room, and the documented error answers, each defined once.

Route modules never import each other's private helpers; what two of them need is
here. What a person may see or do is not decided here but in
:mod:`fido.server.policy`.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import Depends, Header, Request, Response
from sqlalchemy.orm import Session

from fido.accounts.devices import Devices
from fido.accounts.sessions import COOKIE, SESSION_SECONDS, Sessions
from fido.i18n import _
from fido.server import csrf, policy
from fido.server.errors import ApiError
from fido.server.limits import Limits
from fido.server.metrics import Metrics
from fido.server.schemas import ErrorBody
from fido.server.settings import MailSettings
from fido.server.sockets import Drain
from fido.store import Account, Store

if TYPE_CHECKING:
    from fido.server.hub import Hub
    from fido.server.ratelimit import RateLimiter
    from fido.server.sockets import SessionSockets, SocketCount
    from fido.server.tables import Room

__all__ = [
    "TABLE_ID",
    "CsrfChecked",
    "Limits",
    "Server",
    "account",
    "address",
    "address_tag",
    "count_against",
    "errors",
    "finished_record",
    "grants_freely",
    "https",
    "me",
    "room",
    "server",
    "session_cookie",
    "set_csrf_cookie",
    "set_session_cookie",
    "signed_in",
    "table_id",
]

TABLE_ID = r"^[A-Za-z0-9_-]{6,16}$"
_UNSET: Any = object()  # no session started in this request (session_cookie)


@dataclass
class Server:
    """What the handlers share, kept on ``app.state.server``."""

    store: Store
    sessions: Sessions
    csrf: csrf.Csrf
    per_account: RateLimiter  # failed sign-ins to an account from one address or device
    per_address: RateLimiter
    everywhere: RateLimiter  # to an account from anywhere but her known devices
    devices: Devices
    hub: Hub
    sockets: SocketCount  # open table connections per account and address
    session_sockets: SessionSockets  # and of each session, closed when it ends
    origins: frozenset[str]  # pages of other sites allowed to open the table socket
    limits: Limits
    opened: RateLimiter  # tables opened, per address
    created: RateLimiter  # accounts created (guests, sign-ups), per address
    metrics: Metrics = field(default_factory=Metrics)  # this process's, for /metrics
    drain: Drain = field(default_factory=Drain)  # every table socket, closed on SIGTERM
    address_key: bytes = b""  # keys the hash an address is stored as (address_tag)
    mail: MailSettings = field(default_factory=MailSettings)  # where mail goes (postman)
    secret: str = ""  # the server's secret: signs cookies and reset links
    resets: RateLimiter | None = None  # password resets asked for, per address
    resets_of: RateLimiter | None = None  # and per account
    grants: policy.Grants = "auto"  # roles and links without a federation (grants_freely)
    public: bool = False  # fido serve listens on an address other than loopback


def grants_freely(request: Request) -> bool:
    """Whether this request is granted organiser roles and player links at once where
    the server has no federation account (:func:`fido.server.policy.grants_at_once`)."""
    srv = server(request)
    return policy.grants_at_once(srv.grants, srv.public, request.headers)


def server(request: Request) -> Server:
    srv: Server = request.app.state.server
    return srv


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The documented error answers of a route (OpenAPI), 422 always among them."""
    return {status: {"model": ErrorBody} for status in (*statuses, 422)}


async def _check_csrf(
    request: Request,
    x_csrf_token: Annotated[
        str | None,
        Header(alias=csrf.HEADER, description="the fido_csrf cookie's value (double submit)"),
    ] = None,
) -> None:
    await server(request).csrf.check(request, request.cookies.get(COOKIE))


CsrfChecked = [Depends(_check_csrf)]


def session_cookie(request: Request) -> str | None:
    """The session this request speaks for: the one it started or ended
    (:func:`set_session_cookie`: a page that makes a visitor a guest and then opens her
    table in one request), else its cookie's."""
    started = getattr(request.state, "session_cookie", _UNSET)
    return request.cookies.get(COOKIE) if started is _UNSET else started


def me(request: Request, s: Session) -> Account | None:
    """Who is asking: her account (a guest's too), or None."""
    return server(request).sessions.account(s, session_cookie(request))


def signed_in(request: Request, s: Session) -> Account:
    """Who is asking, who must be signed in or a guest (401)."""
    account = me(request, s)
    if account is None:
        raise ApiError(401, "signed_out",
                       _("sign in or play as a guest first (POST /api/guest)"))
    return account


async def account(request: Request, *, required: bool = False) -> Account | None:
    """:func:`me` (or :func:`signed_in`) off the event loop, detached from its session."""
    def find() -> Account | None:
        with server(request).store.session(write=False) as s:
            found = signed_in(request, s) if required else me(request, s)
            if found is not None:
                s.expunge(found)
            return found

    return await asyncio.to_thread(find)


def table_id(table_id: str) -> str:
    """A table id from the path (404 when it cannot be one)."""
    if not re.fullmatch(TABLE_ID, table_id):
        raise ApiError(404, "no_table", _("there is no such table"))
    return table_id


async def room(request: Request, table_id: str) -> Room:
    """The live room of a table (404 when there is none)."""
    try:
        return await server(request).hub.room(table_id)
    except LookupError:
        raise ApiError(404, "no_table", _("there is no such table")) from None


def address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def address_tag(request: Request) -> str:
    """The client's address as it may be stored (a table's ``opened_from``): a keyed hash,
    the same for one address on this server, that names no address without its secret."""
    key = server(request).address_key
    return hmac.new(key, address(request).encode(), hashlib.sha256).hexdigest()[:32]


def https(request: Request) -> bool:
    return request.url.scheme == "https"


def set_session_cookie(request: Request, response: Response, value: str | None) -> str:
    """Start (``value``: the new session's cookie) or end (None) the browser's session
    and give it the CSRF token that goes with it (:mod:`fido.server.csrf`): returned.
    The rest of this request speaks for the new session (:func:`session_cookie`)."""
    request.state.session_cookie = value
    if value is None:
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax",
                               secure=https(request))
        token = server(request).csrf.new()
    else:
        response.set_cookie(
            COOKIE, value, max_age=SESSION_SECONDS, path="/", httponly=True, samesite="lax",
            secure=https(request),
        )
        token = server(request).csrf.of_session(value)
    set_csrf_cookie(request, response, token)
    return token


def set_csrf_cookie(request: Request, response: Response, token: str) -> None:
    """The CSRF token's cookie, readable by the page's JavaScript (double submit)."""
    request.state.csrf_token = token
    response.set_cookie(csrf.COOKIE, token, max_age=SESSION_SECONDS, path="/",
                        httponly=False, samesite="lax", secure=https(request))


def finished_record(request: Request, table_id: str, what: policy.GameData,
                    invite: str | None = None) -> str:
    """The stored record of a finished game, if the policy shows its ``what`` to whoever
    asks (else its refusal)."""
    with server(request).store.session(write=False) as s:
        row = policy.game_data(s, table_id, me(request, s), what, invite)
        assert row.record is not None
        return row.record


def count_against(request: Request, limiter: RateLimiter,
                  too_many: Callable[[int], str], key: str | None = None) -> None:
    """Count one more of this request's address, or of ``key`` (429 past the limit).
    ``too_many`` is the refusal's sentence for the seconds to wait, with ``{n}`` for them
    (an ngettext: "1 second", "5 seconds" in the request's language)."""
    if limiter.limit <= 0:
        return
    key = key or "address:" + address(request)
    if limiter.reserve(key) is None:
        wait = max(limiter.retry_after(key), 1)
        raise ApiError(429, "rate_limited", too_many(wait).format(n=wait),
                       headers={"Retry-After": str(wait)})
