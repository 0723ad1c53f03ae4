"""Request bodies are refused past a size (413) before they are read: a declared length
at once, a streamed body as soon as it has passed the limit.

Nothing the API or a page takes is larger than a few kilobytes (a score sheet with its
record, a table assistant's game of 400 moves); without a bound, 100 MiB posted to an
endpoint that needs no session were parsed before being refused. (FastAPI's own
``max_body_size`` answers in plain text; every refusal here is the API's error body,
or the error page for a browser, through the app's handlers.)
"""

from __future__ import annotations

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from fido.i18n import _, format_number
from fido.server.schemas import ErrorBody

__all__ = ["MAX_BODY", "BodyLimit"]

MAX_BODY = 1 << 20  # bytes


def _message(limit: int) -> str:
    return _("the request's body is larger than {n} KiB").format(
        n=format_number(limit // 1024))


class BodyLimit:
    """ASGI middleware: at most ``limit`` bytes of request body."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(scope, receive, send)
            return
        seen, over, started = 0, False, False

        async def limited() -> Message:
            # past the limit the app is told the client left: it reads no more and does
            # nothing, and whatever it answers becomes the 413
            nonlocal seen, over
            if over:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    over = True
                    return {"type": "http.disconnect"}
            return message

        async def answer(message: Message) -> None:
            nonlocal started
            if over:
                if message["type"] == "http.response.start" and not started:
                    started = True
                    await self._refuse(scope, receive, send)
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited, answer)
        except Exception:
            if not over:
                raise  # the app's own error, for its handlers
        if over and not started:
            await self._refuse(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The API's error body (:class:`~fido.server.schemas.ErrorBody`), and no more of
        the connection: the rest of the body is not read."""
        body = ErrorBody.model_validate(
            {"error": {"code": "too_large", "message": _message(self.limit)}})
        response = JSONResponse(body.model_dump(), status_code=413,
                                headers={"connection": "close"})
        await response(scope, receive, send)
