"""A real fido server for the tests: uvicorn on a free loopback port, in a thread.

The tests talk to it over HTTP with httpx, as a browser would; the server
can be stopped and started again on the same database (a restart).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx
import uvicorn

from fido.server.app import Limits, create_app
from fido.server.claims import link_player
from fido.server.hub import PlaySettings
from fido.server.roles import find_account
from fido.store import open_store

# tests: bots move at once, in threads; analyses in a thread, with few samples
FAST = PlaySettings(bot_delay=0.0, bot_processes=0, analysis_samples=8, analysis_processes=0)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def live_server(
    db_url: str, *, limits: Limits = Limits(), play: PlaySettings = FAST,  # noqa: B008
    port: int | None = None,
) -> Iterator[str]:
    """Serve ``create_app(db_url)`` until the block ends; yields its base URL."""
    app = create_app(db_url, limits=limits, play=play)
    port = port or free_port()
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


def browser(base: str) -> httpx.Client:
    """A client that keeps cookies and sends the CSRF token like the web pages will."""
    client = httpx.Client(base_url=base, timeout=20)
    token = client.get("/api/session").json()["csrf_token"]
    client.headers["X-CSRF-Token"] = token
    return client


def link(db: str, name: str, number: int) -> None:
    """Link the account ``name`` to the ranking player ``number``, as the federation does
    (an account only asks: fido.server.claims)."""
    store = open_store(db)
    try:
        with store.session() as s:
            link_player(s, find_account(s, name), number)
    finally:
        store.close()
