"""A real fido server for the tests: uvicorn on a free loopback port, in a thread.

The tests talk to it over HTTP with httpx, as a browser would; the server
can be stopped and started again on the same database (a restart).
"""

from __future__ import annotations

import http.server
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from http.cookies import SimpleCookie
from typing import TYPE_CHECKING, Any

import httpx
import uvicorn

from fido.accounts.claims import link_player
from fido.accounts.roles import find_account
from fido.server.hub import PlaySettings
from fido.server.policy import Grants
from fido.server.settings import MailSettings
from fido.store import open_store
from fido.web.app import Limits, create_app

if TYPE_CHECKING:  # the fixtures' types (the helpers run outside pytest too: bench, tools)
    import pytest

# The settings `fido serve` uses (PlaySettings' defaults), but for two, each for a reason:
# bots move at once (the tests would wait a second a move), and bots and analyses run in
# threads (a spawned process per server costs seconds on 2 cores). A test that changes
# another setting says why (e.g. test_web_analysis: few samples, to end in seconds).
FAST = PlaySettings(bot_delay=0.0, bot_processes=0, analysis_processes=0)
# analyses of 8 worlds a decision: for the tests that wait for an analysis to end
QUICK_ANALYSES = replace(FAST, analysis_samples=8)
# `fido serve`'s limits but the bound on tables with bots per address: every person of a
# test comes from 127.0.0.1, so a module whose tests leave more than six such tables
# running would find its address full (the bound itself: test_server_security)
ONE_ADDRESS = Limits(bot_tables_per_address=0, strong_bot_tables_per_address=0)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def refused_port() -> Iterator[int]:
    """A port that refuses every connection while the block runs: a process that is down.
    The socket is bound and never listens, so no other test's server, started meanwhile,
    can take the port (a port from free_port() is anybody's once it is returned: a
    stranger listening on it keeps nginx's request waiting where "refused" was meant)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


@contextmanager
def stranger(body: bytes = b"stranger") -> Iterator[int]:
    """Another program's web server on a loopback port while the block runs: every GET
    gets 200 and ``body`` (it looks healthy, and it is no fido)."""

    class Stranger(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Stranger)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def module_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
              file: str = "fido.db") -> str:
    """A SQLite URL in a folder named after the test module (its files tell which test
    left them): an area's live server's database, one a module."""
    name = request.module.__name__.rpartition(".")[2]
    return f"sqlite:///{tmp_path_factory.mktemp(name) / file}"


@contextmanager
def live_server(
    db_url: str, *, limits: Limits = Limits(), play: PlaySettings = FAST,  # noqa: B008
    port: int | None = None, mail: MailSettings = MailSettings(),  # noqa: B008
    grants: Grants = "auto", public: bool = False,
) -> Iterator[str]:
    """Serve ``create_app(db_url)`` until the block ends; yields its base URL. A mail's
    links start with the server's own address unless ``mail`` says another."""
    port = port or free_port()
    if mail.smtp is not None and mail.site is None:
        mail = replace(mail, site=f"http://127.0.0.1:{port}")
    app = create_app(db_url, limits=limits, play=play, mail=mail, grants=grants,
                     public=public)
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield base
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        app.state.server.store.close()


class BrowserTransport(httpx.HTTPTransport):
    """A browser's way with a kept-alive connection: a request whose connection the server
    closed before any answer is sent once more, on a new one. Chromium does so for every
    method, on a reused connection (this client cannot tell reused from new, and resends
    on either): a server may close an idle connection (uvicorn after 5 s) just as a
    request leaves. A fresh-clone run met such a close on a form's second post; its cause
    there is not proven. A second such close is the test's error."""

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        try:
            return super().handle_request(request)
        except httpx.RemoteProtocolError as e:
            if "without sending a response" not in str(e):
                raise
            request.read()  # the body again (a form's or a JSON's: bytes in memory)
            return super().handle_request(request)


def web_client(base: str, **kwargs: Any) -> httpx.Client:
    """An httpx client to the test server that resends like a browser
    (:class:`BrowserTransport`); ``kwargs`` as httpx.Client's."""
    return httpx.Client(base_url=base, transport=BrowserTransport(), **kwargs)


def browser(base: str) -> httpx.Client:
    """A client that keeps cookies and sends the CSRF token like the web pages do: the
    ``fido_csrf`` cookie's value at the time of each request (it changes with the
    session). A header set by the test itself is sent as it is."""
    client = web_client(base, timeout=20, event_hooks={"request": [csrf_hook]})
    client.get("/api/session")
    client.headers["X-CSRF-Token"] = CURRENT
    return client


CURRENT = "(the cookie's)"  # browser()'s header until a test sets its own


def csrf_hook(request: httpx.Request) -> None:
    if request.headers.get("X-CSRF-Token") == CURRENT:
        cookie = SimpleCookie(request.headers.get("cookie", ""))
        morsel = cookie.get("fido_csrf")
        request.headers["X-CSRF-Token"] = morsel.value if morsel is not None else ""


def link(db: str, name: str, number: int) -> None:
    """Link the account ``name`` to the ranking player ``number``, as the federation does
    (an account only asks: fido.accounts.claims)."""
    store = open_store(db)
    try:
        with store.session() as s:
            link_player(s, find_account(s, name), number)
    finally:
        store.close()


def token_of(client: httpx.Client) -> str:
    """The CSRF token a browser's next form carries: its cookie's (it follows the session)."""
    token: str = client.cookies["fido_csrf"]
    return token


def cookie_header(client: httpx.Client) -> str:
    """The client's cookies as a ``Cookie`` header (a WebSocket's handshake sends it)."""
    return "; ".join(f"{k}={v}" for k, v in client.cookies.items())
