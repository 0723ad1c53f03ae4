"""CSRF protection by double submit: a token in a cookie, the same in the request.

Every response to a browser without a valid ``fido_csrf`` cookie sets one
(random, 32 bytes, readable by the page's JavaScript: not HttpOnly). A
POST, PUT, PATCH or DELETE must repeat it in the ``X-CSRF-Token`` header or,
for a form, in a ``csrf_token`` field; a request without it or with another
value is refused with 403 before anything runs. Another site can make a
browser send the cookie but can neither read it nor set the header, so it
cannot forge the request. The comparison is :func:`hmac.compare_digest`.

The token is signed with the server's secret, so a token the server never
issued (planted by a sibling subdomain, say) is refused as well.
"""

from __future__ import annotations

import hmac
import secrets
from urllib.parse import parse_qs

from itsdangerous import BadSignature, Signer
from starlette.requests import Request

from fido.server.errors import ApiError

__all__ = ["COOKIE", "FIELD", "HEADER", "UNSAFE", "Csrf"]

COOKIE = "fido_csrf"
HEADER = "X-CSRF-Token"
FIELD = "csrf_token"
UNSAFE = frozenset(("POST", "PUT", "PATCH", "DELETE"))
_FORM = "application/x-www-form-urlencoded"


class Csrf:
    def __init__(self, secret: str) -> None:
        self.signer = Signer(secret, salt="fido.csrf")

    def new(self) -> str:
        return self.signer.sign(secrets.token_urlsafe(32)).decode()

    def valid(self, token: str | None) -> bool:
        """Whether ``token`` is one this server issued (signature checked)."""
        if not token or len(token) > 200:
            return False
        try:
            self.signer.unsign(token)
        except BadSignature:
            return False
        return True

    async def check(self, request: Request) -> None:
        """Refuse (403) a state-changing request whose token does not match its cookie."""
        if request.method not in UNSAFE:
            return
        cookie = request.cookies.get(COOKIE)
        sent = request.headers.get(HEADER)
        if sent is None and request.headers.get("content-type", "").startswith(_FORM):
            fields = parse_qs((await request.body()).decode("utf-8", "replace"))
            sent = next(iter(fields.get(FIELD, [])), None)
        if not cookie or not sent or not self.valid(cookie):
            raise ApiError(403, "csrf", f"a CSRF token is needed: send the {COOKIE} cookie's "
                           f"value in the {HEADER} header (GET /api/session gives it)")
        if not hmac.compare_digest(cookie.encode(), sent.encode()):
            raise ApiError(403, "csrf", "the CSRF token does not match its cookie")
