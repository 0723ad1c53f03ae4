"""The table's WebSocket: ``/ws/tables/{id}?seq=N``, the protocol of docs/protocol.md.

The handshake checks the ``Origin`` (a page of another site must not play
with a visitor's cookie: cross-site WebSocket hijacking) and the session
cookie; a seated person gets her seat, anyone else watches. Each
connection has a credit counter (messages per second, with a burst); a
frame over :data:`~fido.server.protocol.MAX_FRAME` bytes, a malformed or
too frequent message is refused and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import re
import time
from typing import TYPE_CHECKING

from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from fido.accounts.sessions import COOKIE
from fido.i18n import _, set_language
from fido.safe_text import control_chars
from fido.server import policy
from fido.server.csrf import same_site
from fido.server.deps import TABLE_ID
from fido.server.language import QUERY, negotiate
from fido.server.protocol import (
    MAX_FRAME,
    ChatIn,
    MalformedMessage,
    MoveIn,
    PingIn,
    Reason,
    SyncIn,
    frame_size,
    message_id,
    parse_incoming,
    too_large,
)
from fido.server.sockets import CLOSE_RESTART
from fido.server.tables import Conn, Refusal, display_name

if TYPE_CHECKING:
    from fido.server.deps import Server
    from fido.server.metrics import Metrics
    from fido.server.tables import Room

__all__ = ["Credit", "TableSockets", "table_socket"]

CLOSE_ORIGIN = 4403  # close codes: the handshake refused (cross-site)
CLOSE_FORBIDDEN = 4403  # or the policy: a duplicate round's table, watched from outside
CLOSE_NO_TABLE = 4404
CLOSE_SLOW = 4408  # the client did not read its messages fast enough
CLOSE_TOO_MANY = 4429  # too many open connections from one account or address
CLOSE_SIGNED_OUT = 4401  # the session the socket was opened with has ended
CLOSE_PROTOCOL = 4400  # a protocol version the server does not speak
# CLOSE_RESTART (1012, sockets.py): the process stops; connect again (elsewhere)
# ?v=: 1, each update carries the whole view; 2, what changed (docs/protocol.md)
PROTOCOLS = {"1": 1, "2": 2}
_INTEGER = re.compile(r"-?[0-9]{1,12}")


def _close_reason(text: str) -> str:
    """A close frame's reason: at most 123 bytes of UTF-8 (a translation may be longer)."""
    return text.encode()[:123].decode(errors="ignore")


def _close_code(conn: Conn) -> int:
    if conn.restarting:
        return CLOSE_RESTART
    return CLOSE_SLOW if conn.slow else CLOSE_SIGNED_OUT if conn.signed_out else 1000


class Credit:
    """A token bucket: ``burst`` messages at once, ``rate`` per second after."""

    def __init__(self, rate: float = 10.0, burst: float = 30.0) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.at = burst, time.monotonic()

    def take(self, cost: float = 1.0) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < cost:
            return False
        self.tokens -= cost
        return True


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


class TableSockets:
    """The table's WebSocket answered in front of the app's middleware and router: those
    are the pages' (a body limit, CSRF cookies, compression, FastAPI's exception and
    dependency layers), a socket needs none of them, and each layer held a coroutine
    for every open socket (the garbage collector's pauses grew with them) and wrapped
    every frame sent (docs/performance.md)."""

    PATH = re.compile(r"/ws/tables/([^/]*)")

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            match = self.PATH.fullmatch(scope["path"])
            if match is not None:
                await table_socket(WebSocket(scope, receive, send), match[1])
                return
        await self.app(scope, receive, send)


async def table_socket(ws: WebSocket, table_id: str) -> None:
    """``/ws/tables/{table_id}?v=2&seq=N`` (docs/protocol.md)."""
    srv: Server = ws.app.state.server
    query = ws.query_params
    # in front of the Language middleware: this socket's task speaks the language its
    # page was in (the cookie, the header), and so does every refusal made for its frames
    set_language(negotiate(ws.cookies, ws.headers.get("accept-language"), query.get(QUERY)))
    # a wrong version or sequence number gets the documented code, not an HTTP 403
    version = PROTOCOLS.get(query.get("v", "1"))
    seq_text = query.get("seq")
    seq = int(seq_text) if seq_text is not None and _INTEGER.fullmatch(seq_text) else None
    if version is None or (seq_text is not None and seq is None):
        await ws.accept()
        await ws.close(code=CLOSE_PROTOCOL,
                       reason=_close_reason(_("?v=1 or 2, ?seq= a whole number")))
        return
    if srv.drain.closing:  # this process stops: the client connects again (elsewhere)
        await ws.accept()
        await ws.close(code=CLOSE_RESTART, reason=_close_reason(_("the server restarts")))
        return
    if not same_site(ws.headers, srv.origins):
        await ws.accept()  # first, so the page reads the code (not an HTTP 403)
        await ws.close(code=CLOSE_ORIGIN, reason=_close_reason(_("cross-site connection refused")))
        return

    # only a table id's shape reaches the database (PostgreSQL refuses a NUL)
    shaped = re.fullmatch(TABLE_ID, table_id) is not None

    def who() -> tuple[int | None, str, str | None, bool, frozenset[int]]:
        """Who connects, whether she may watch (the policy), and whose chat does not
        reach her (the people she blocks), in one session."""
        with srv.store.session(write=False) as s:
            cookie = ws.cookies.get(COOKIE)
            account = srv.sessions.account(s, cookie)
            watch = shaped and policy.may_watch(s, table_id, account)
            if account is None:
                return None, "", None, watch, frozenset()
            return (account.id, display_name(account), srv.sessions.key(cookie), watch,
                    frozenset(policy.chat_muted(s, account)))

    account_id, name, session_key, may_watch, muted = await asyncio.to_thread(who)
    try:
        room = await srv.hub.room(table_id, keep=True) if shaped else None
    except LookupError:
        room = None
    if room is None:  # accepted first, so the client reads the close code (not a 403)
        await ws.accept()
        await ws.close(code=CLOSE_NO_TABLE, reason=_close_reason(_("no such table")))
        return
    if not may_watch:
        await ws.accept()
        await ws.close(code=CLOSE_FORBIDDEN, reason=_close_reason(_(
            "the other tables of this duplicate round are still playing the same deal")))
        return
    address = ws.client.host if ws.client else "unknown"
    keys = [] if _loopback(address) else [f"address:{address}"]  # a local bench or proxy
    if account_id is not None:
        keys.append(f"account:{account_id}")
    if not srv.sockets.open(keys):
        await ws.accept()
        await ws.close(code=CLOSE_TOO_MANY,
                       reason=_close_reason(_("too many connections: close some tabs")))
        return
    if srv.drain.closing:  # it began to stop while she was read
        srv.sockets.close(keys)
        await ws.accept()
        await ws.close(code=CLOSE_RESTART, reason=_close_reason(_("the server restarts")))
        return
    srv.metrics.sockets.inc()
    try:
        conn = Conn(account_id, None, name, version)
        conn.muted = muted
        await _serve(ws, room, conn, seq, srv=srv, session_key=session_key)
    finally:
        srv.metrics.sockets.dec()
        srv.sockets.close(keys)


async def _serve(
    ws: WebSocket, room: Room, conn: Conn, seq: int | None,
    *, srv: Server, session_key: str | None,
) -> None:
    await ws.accept()  # its seat is the feed's to decide, under the room's lock (attach)
    writer = asyncio.create_task(_write(ws, conn))
    credit = Credit()
    if session_key is not None:  # closed when it ends (here at once, else by the sweep)
        srv.session_sockets.add(session_key, conn)
    srv.drain.conns.add(conn)  # closed with CLOSE_RESTART when the process stops
    try:
        with srv.drain.handling():
            await room.attach(conn, seq)
        while not conn.closed:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            frame = message.get("text")
            if frame is None:
                frame = message.get("bytes") or b""
            if not conn.closed:
                with srv.drain.handling():  # a move being committed: the stop waits
                    await _handle(room, conn, frame, credit, srv.metrics)
    except WebSocketDisconnect:
        pass
    finally:
        if session_key is not None:
            srv.session_sockets.remove(session_key, conn)
        conn.close()
        await room.detach(conn)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer
        with contextlib.suppress(Exception):
            await ws.close(code=_close_code(conn))
        srv.drain.conns.discard(conn)  # closed, and its "away" written


async def _write(ws: WebSocket, conn: Conn) -> None:
    while True:
        frame = await conn.queue.get()
        if frame is None:
            reason = _close_reason(_("the server restarts")) if conn.restarting else None
            with contextlib.suppress(Exception):
                await ws.close(code=_close_code(conn), reason=reason)
            return
        await ws.send_text(frame)


async def _handle(room: Room, conn: Conn, frame: str | bytes, credit: Credit,
                  metrics: Metrics) -> None:
    started = time.perf_counter()
    if frame_size(frame) > MAX_FRAME:
        conn.send(Refusal(Reason.TOO_LARGE, too_large()).message_for(None))
        return
    if not credit.take():
        conn.send(Refusal(Reason.RATE_LIMITED, _("too many messages: slow down"))
                  .message_for(message_id(frame)))
        return
    try:
        msg = parse_incoming(frame)
    except MalformedMessage as e:
        conn.send(Refusal(Reason.MALFORMED, str(e)).message_for(message_id(frame)))
        return
    if isinstance(msg, PingIn):
        conn.send({"type": "pong", "seq": room.seq})
    elif isinstance(msg, SyncIn):
        conn.send(room.feed.welcome(conn, msg.seq))
    elif isinstance(msg, MoveIn):
        metrics.moved(await room.move(conn, msg), started)
    elif isinstance(msg, ChatIn):
        bad = control_chars(msg.text)
        if conn.account_id is None:
            conn.send(Refusal(Reason.NOT_SEATED, _("sign in or play as a guest to chat"))
                      .message_for(msg.id))
        elif bad or not msg.text.strip():
            conn.send(Refusal(Reason.BAD_TEXT,
                              _("a chat line is text without control characters"))
                      .message_for(msg.id))
        elif not credit.take(4.0):
            conn.send(Refusal(Reason.RATE_LIMITED, _("too many chat lines: slow down"))
                      .message_for(msg.id))
        else:
            await room.chat(conn, msg, msg.text.strip())
