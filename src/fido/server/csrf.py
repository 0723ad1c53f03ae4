"""CSRF protection by double submit: a token in a cookie, the same in the request.

Every response to a browser without a valid ``fido_csrf`` cookie sets one
(random, 32 bytes, readable by the page's JavaScript: not HttpOnly). A
POST, PUT, PATCH or DELETE must repeat it in the ``X-CSRF-Token`` header or,
for a form, in a ``csrf_token`` field; a request without it or with another
value is refused with 403 before anything runs. Another site can make a
browser send the cookie but can neither read it nor set the header, so it
cannot forge the request. The comparison is :func:`hmac.compare_digest`.

The token is bound to the session: a signed-in browser's (a guest's too) is
derived from its session cookie with the server's secret (an HMAC), so a token
issued to another browser, planted as cookie and header, is refused; it changes
when the session does (sign-in, sign-up, sign-out), and the answer that starts or
ends a session sets the new one. A browser without a session has a random token
signed with the server's secret, so a token the server never issued is refused
as well. A request whose ``Origin`` names another site is refused whatever
token it carries: an anonymous browser has no session to bind its token to,
so a token planted in it would otherwise sign it in as someone else.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Mapping
from urllib.parse import parse_qs, urlsplit

from itsdangerous import BadSignature, Signer
from starlette.requests import Request

from fido.i18n import _
from fido.server.errors import ApiError

__all__ = ["COOKIE", "FIELD", "HEADER", "UNSAFE", "Csrf", "same_site"]

COOKIE = "fido_csrf"
HEADER = "X-CSRF-Token"
FIELD = "csrf_token"
UNSAFE = frozenset(("POST", "PUT", "PATCH", "DELETE"))
_FORM = "application/x-www-form-urlencoded"


_BOUND = "s."  # the mark of a token derived from a session


def same_site(headers: Mapping[str, str], allowed: frozenset[str] = frozenset()) -> bool:
    """A browser's request (or socket) comes from this site's page, or from one named in
    ``allowed``; one that sends no ``Origin`` (a program, a form of an old browser) does
    too: the token decides then."""
    origin = headers.get("origin")
    if origin is None or origin in allowed:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc == headers.get("host", "")


class Csrf:
    def __init__(self, secret: str, allowed: frozenset[str] = frozenset()) -> None:
        self.signer = Signer(secret, salt="fido.csrf")
        self.allowed = allowed  # other sites whose pages may send (create_app(origins=...))
        self._key = hashlib.sha256(("fido.csrf.session:" + secret).encode()).digest()

    def new(self) -> str:
        """A token for a browser without a session."""
        return self.signer.sign(secrets.token_urlsafe(32)).decode()

    def of_session(self, session_cookie: str) -> str:
        """The token of the session whose cookie is ``session_cookie``."""
        mac = hmac.new(self._key, session_cookie.encode(), hashlib.sha256).digest()
        return _BOUND + base64.urlsafe_b64encode(mac).decode().rstrip("=")

    def expected(self, session_cookie: str | None, token: str | None) -> str:
        """The token this browser must send: its session's, else its own signed token
        (a new one when it has none or a forged one)."""
        if session_cookie:
            return self.of_session(session_cookie)
        if token and not token.startswith(_BOUND) and self.valid(token):
            return token
        return self.new()

    def valid(self, token: str | None) -> bool:
        """Whether ``token`` is one this server issued (signature checked)."""
        if not token or len(token) > 200:
            return False
        try:
            self.signer.unsign(token)
        except BadSignature:
            return False
        return True

    async def check(self, request: Request, session_cookie: str | None = None) -> None:
        """Refuse (403) a state-changing request whose token does not match its cookie, or
        (signed in) is not its session's."""
        if request.method not in UNSAFE:
            return
        if not same_site(request.headers, self.allowed):  # even with a token (login CSRF)
            raise ApiError(403, "csrf", _("a request from another site's page is refused"))
        cookie = request.cookies.get(COOKIE)
        sent = request.headers.get(HEADER)
        if sent is None and request.headers.get("content-type", "").startswith(_FORM):
            fields = parse_qs((await request.body()).decode("utf-8", "replace"))
            sent = next(iter(fields.get(FIELD, [])), None)
        if not cookie or not sent or not (cookie.startswith(_BOUND) or self.valid(cookie)):
            raise ApiError(403, "csrf", _("a CSRF token is needed: send the {cookie} cookie's "
                                          "value in the {header} header (GET /api/session "
                                          "gives it)").format(cookie=COOKIE, header=HEADER))
        if not hmac.compare_digest(cookie.encode(), sent.encode()):
            raise ApiError(403, "csrf", _("the CSRF token does not match its cookie"))
        if session_cookie and not hmac.compare_digest(
                self.of_session(session_cookie).encode(), sent.encode()):
            raise ApiError(403, "csrf", _("the CSRF token is not this session's: read it "
                                          "again (GET /api/session) after signing in or out"))
