"""Which language a request is answered in: ``?lang=``, else the ``fido_lang`` cookie,
else ``Accept-Language``, else English (:mod:`fido.i18n`).

An account's own setting is the cookie: signing in sets it from the account, and the
header's switch (``PUT /api/language``) sets both. The middleware speaks the chosen
language for the whole request (a context variable: the handlers, their threads and the
templates read it), says it in ``Content-Language`` and keeps a ``?lang=`` choice in the
cookie. The table's socket, answered in front of the middleware, chooses the same way
(:func:`negotiate`).
"""

from __future__ import annotations

from collections.abc import Mapping

from starlette.datastructures import Headers, MutableHeaders, QueryParams
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fido import i18n

__all__ = ["COOKIE", "QUERY", "Language", "cookie_header", "negotiate"]

COOKIE = "fido_lang"
QUERY = "lang"
YEAR = 365 * 24 * 3600


def negotiate(cookies: Mapping[str, str], accept_language: str | None,
              query: str | None = None) -> str:
    """The language of a request: asked in the address, chosen before, the browser's."""
    return (i18n.language_or_none(query) or i18n.language_or_none(cookies.get(COOKIE))
            or i18n.from_accept_language(accept_language) or i18n.DEFAULT)


def cookie_header(lang: str, secure: bool) -> str:
    """The ``Set-Cookie`` value that keeps ``lang`` for a year (not secret: readable)."""
    return (f"{COOKIE}={lang}; Max-Age={YEAR}; Path=/; SameSite=Lax"
            + ("; Secure" if secure else ""))


class Language:
    """Speak each HTTP request's language (see the module)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        cookies = cookie_parser(headers.get("cookie", ""))
        asked = i18n.language_or_none(QueryParams(scope.get("query_string", b"")).get(QUERY))
        lang = negotiate(cookies, headers.get("accept-language"), asked)
        keep = asked is not None and cookies.get(COOKIE) != asked
        secure = scope.get("scheme") == "https"

        async def send_with_language(message: Message) -> None:
            if message["type"] == "http.response.start":
                out = MutableHeaders(scope=message)
                out.setdefault("content-language", lang)
                out.append("vary", "Accept-Language")
                if keep:
                    out.append("set-cookie", cookie_header(lang, secure))
            await send(message)

        with i18n.use(lang):
            await self.app(scope, receive, send_with_language)
