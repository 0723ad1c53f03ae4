"""The server's JSON API, called in-process by the pages as the browser would call it.

A page's form does what the documented API does (sign up, create a table,
join...), so instead of a second copy of that logic (rate limits, checks,
the room's lock) the page sends the same request through the app itself:
with the browser's cookies, its CSRF token and its address. Cookies the API
sets (a new session) are passed back to the browser with the page's answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from http.cookies import CookieError, SimpleCookie
from typing import Any

import httpx
from fastapi import Request, Response

from fido.i18n import _, current
from fido.server import csrf
from fido.server.language import COOKIE as LANGUAGE
from fido.server.language import QUERY

__all__ = ["Answer", "InProcessApi"]


@dataclass(frozen=True)
class Answer:
    """An API answer: its status and JSON body (an error's code and message when not 2xx)."""

    status: int
    body: Any

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    @property
    def message(self) -> str:
        """The human message of an error answer (the API's ``error.message``, already in
        the page's language: the call carries its Accept-Language)."""
        if isinstance(self.body, dict) and isinstance(self.body.get("error"), dict):
            message = self.body["error"].get("message")
            return str(message) if message else _("That was refused.")
        return _("The server answered with the status {status}.").format(status=self.status)

    @property
    def code(self) -> str:
        if isinstance(self.body, dict) and isinstance(self.body.get("error"), dict):
            return str(self.body["error"].get("code", "error"))
        return "error"


class InProcessApi:
    """One page request's calls to the API; keeps the cookie jar between calls.

    ``token`` is the CSRF token the page's form sent (already checked against
    the cookie by the page) or, for a GET, the cookie's own value.
    """

    def __init__(self, request: Request, token: str | None = None) -> None:
        self.request = request
        self.cookies: dict[str, str] = dict(request.cookies)
        if LANGUAGE in self.cookies or QUERY in request.query_params:
            # the API's sentences in the language the page chose (?lang= beats the cookie)
            self.cookies[LANGUAGE] = current()
        self.token: str = token or request.cookies.get(csrf.COOKIE) or str(
            getattr(request.state, "csrf_token", "")
        )
        self.set_cookies: list[str] = []

    async def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Answer:
        client = self.request.client
        address = (client.host, client.port) if client else ("127.0.0.1", 0)
        transport = httpx.ASGITransport(
            app=self.request.app, client=address, raise_app_exceptions=False
        )
        base = f"{self.request.url.scheme}://{self.request.url.netloc}"
        headers = {csrf.HEADER: self.token}
        accept = self.request.headers.get("accept-language")
        if accept is not None:  # the API's sentences in the page's language
            headers["accept-language"] = accept
        async with httpx.AsyncClient(transport=transport, base_url=base) as http:
            http.cookies.update(self.cookies)
            answer = await http.request(method, path, json=body, headers=headers)
        for raw in answer.headers.get_list("set-cookie"):
            self.set_cookies.append(raw)
            self._remember(raw)
        try:
            data = answer.json()
        except ValueError:
            data = None
        return Answer(answer.status_code, data)

    def _remember(self, raw: str) -> None:
        try:
            parsed = SimpleCookie(raw)
        except CookieError:
            return
        for name, morsel in parsed.items():
            if morsel["max-age"] == "0" or not morsel.value:
                self.cookies.pop(name, None)
            else:
                self.cookies[name] = morsel.value
                if name == csrf.COOKIE:  # a new session's token: the next calls send it
                    self.token = morsel.value

    def pass_cookies(self, response: Response) -> Response:
        """Give the browser the cookies the API set (a session started or ended)."""
        for raw in self.set_cookies:
            response.headers.append("set-cookie", raw)
        return response
