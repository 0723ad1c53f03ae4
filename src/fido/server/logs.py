"""The server's logs: a request id on every line, and JSON lines when asked.

:class:`RequestIds` (the app's outermost layer) gives each HTTP request and each table
socket an id: the request's own ``X-Request-ID`` when it is well-formed (a proxy's, to
follow a request through both logs), else a new one; it is sent back in the answer's
``X-Request-ID`` and kept in a context variable for the request's task, so that every
line logged while serving it (uvicorn's, fido's own) carries it (:class:`RequestIdFilter`).
Lines logged outside any request (the start, the stop, the WebSocket library's own
handshake lines) carry ``request_id: null``.

``fido serve --log-format json`` writes one JSON object a line to stderr
(:class:`JsonFormatter`): ``time``, ``level``, ``logger``, ``message``, ``request_id``,
and for an access line (``fido.access``) ``method``, ``path`` (never the query: an
invite's code and a reset link's token travel there), ``status``, ``client`` (the
address the request came from, as the trusted proxy says) and ``duration`` in seconds.
Every line is JSON from the process's first (its start, a migration of the database).

What is never logged: a hand's tiles, a move (the table's log is in the database), a
session's id or cookie, a password, a token. fido's own lines name tables, analyses
and error types only.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import re
import time
import uuid
from collections.abc import Awaitable
from contextvars import ContextVar
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["ACCESS", "REQUEST_ID", "JsonFormatter", "QuerylessAccess", "RequestIdFilter",
           "RequestIds"]

REQUEST_ID: ContextVar[str | None] = ContextVar("fido_request_id", default=None)
HEADER = "x-request-id"
_WELL_FORMED = re.compile(rb"[A-Za-z0-9-]{1,64}")
ACCESS = logging.getLogger("fido.access")


class RequestIds:
    """Each request's and socket's id in :data:`REQUEST_ID`, and in an HTTP answer's
    header; with ``fido.access`` on (``--log-format json``), an access line for each
    HTTP request (a socket's is uvicorn's ``"WebSocket /ws/tables/..." [accepted]``).

    A socket passes through without a layer of its own: the id is set in the task that
    serves it, and the app's coroutine returned as it is (a coroutine held per open
    socket, and a wrapper on each frame sent, are what the table sockets' path avoids:
    docs/performance.md)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        kind = scope["type"]
        if kind == "http":
            return self._http(scope, receive, send)
        if kind == "websocket":
            # this task serves the socket alone (uvicorn's, one per connection)
            REQUEST_ID.set(_request_id(scope))
        return self.app(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        rid = _request_id(scope)
        token = REQUEST_ID.set(rid)
        logged = ACCESS.isEnabledFor(logging.INFO)
        started = time.perf_counter()
        status = 500
        header = (HEADER.encode(), rid.encode())

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), header]
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            if logged:
                method, path = scope["method"], scope["path"]
                client = scope.get("client")  # behind the proxy: the address it was sent
                ACCESS.info("%s %s %s", method, path, status, extra={
                    "method": method, "path": path, "status": status,
                    "client": client[0] if client else None,
                    "duration": round(time.perf_counter() - started, 6)})
        # kept after a failure: the 500's line, logged by the layer outside this one,
        # carries it too (each request has a task of its own)
        REQUEST_ID.reset(token)


def _request_id(scope: Scope) -> str:
    """The id of the request already being served in this task, else the request's own
    X-Request-ID when well-formed, else a new one."""
    current = REQUEST_ID.get()
    if current is not None:
        return current
    given = next((v for k, v in scope["headers"] if k == b"x-request-id"), None)
    if given is not None and _WELL_FORMED.fullmatch(given):
        return str(given.decode())
    return uuid.uuid4().hex


class RequestIdFilter(logging.Filter):
    """Adds ``request_id`` (the request's or socket's, else None) to every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = REQUEST_ID.get()
        return True


class QuerylessAccess(logging.Filter):
    """uvicorn's access line without the query string (an invite's code travels there)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str):
            record.args = (*args[:2], args[2].split("?", 1)[0], *args[3:])
        return True


_EXTRA = ("method", "path", "status", "client", "duration")


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, request_id,
    and an access line's method, path, status, client address and duration; an
    exception's type and
    traceback under ``exc``."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(
                timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", REQUEST_ID.get()),
        }
        for key in _EXTRA:
            if key in record.__dict__:
                out[key] = record.__dict__[key]
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)
