"""Server-side sessions: an opaque random id in a signed, HttpOnly, SameSite cookie.

The cookie holds only ``id.timestamp.signature`` (:class:`itsdangerous.TimestampSigner`);
the session (whose account, until when) lives in the ``web_sessions`` table
under the SHA-256 of the id. So signing out ends a session for good (its
row is deleted: a copy of the cookie opens nothing), a stolen database
opens no session, and a forged or altered cookie fails the signature
before the database is asked. Starlette's ``SessionMiddleware`` is not used:
it keeps the whole session in the cookie, which the server cannot revoke.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import secrets
import time

from itsdangerous import BadSignature, TimestampSigner
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from fido.store import Account, Setting, Store, WebSession

__all__ = [
    "COOKIE",
    "SESSION_SECONDS",
    "Sessions",
    "server_secret",
]

COOKIE = "fido_session"
SESSION_SECONDS = 30 * 24 * 3600  # a session lasts 30 days, then signs in again
SECRET_KEY = "secret"


def server_secret(store: Store, given: str | None = None) -> str:
    """The key cookies are signed with: ``given``, else ``$FIDO_SECRET``, else the one
    stored in ``settings`` (made on first start), so a restart keeps every session.

    Never logged nor returned by the API.
    """
    if given or os.environ.get("FIDO_SECRET"):
        return given or os.environ["FIDO_SECRET"]
    with store.session(write=False) as s:
        found = s.get(Setting, SECRET_KEY)
        if found is not None:
            return found.value
    try:
        with store.session() as s:
            found = s.get(Setting, SECRET_KEY)  # another process may have written it since
            if found is not None:
                return found.value
            s.add(Setting(key=SECRET_KEY, value=secrets.token_urlsafe(48)))
    except IntegrityError:  # another server made it at the same moment: use that one
        pass
    with store.session(write=False) as s:
        stored = s.get(Setting, SECRET_KEY)
        assert stored is not None
        return stored.value


def _digest(session_id: str) -> str:
    return hashlib.sha256(session_id.encode()).hexdigest()


class Sessions:
    """Issues, finds and ends sessions; signs and reads their cookies."""

    def __init__(self, secret: str, seconds: int = SESSION_SECONDS) -> None:
        self.signer = TimestampSigner(secret, salt="fido.session")
        self.seconds = seconds

    def start(self, s: Session, account: Account) -> str:
        """A new session for ``account``: the cookie value to send (the id, signed)."""
        now = int(time.time())
        s.execute(delete(WebSession).where(WebSession.expires <= now))  # housekeeping
        session_id = secrets.token_urlsafe(32)
        s.add(
            WebSession(
                id=_digest(session_id),
                account_id=account.id,
                created_at=dt.datetime.now(dt.UTC),
                expires=now + self.seconds,
            )
        )
        s.flush()
        return self.signer.sign(session_id).decode()

    def _id(self, cookie: str | None) -> str | None:
        if not cookie or len(cookie) > 200:
            return None
        try:
            return self.signer.unsign(cookie, max_age=self.seconds).decode()
        except (BadSignature, UnicodeError):
            return None

    def account(self, s: Session, cookie: str | None) -> Account | None:
        """The account whose live session this cookie names; None if none (or tampered)."""
        session_id = self._id(cookie)
        if session_id is None:
            return None
        row = s.scalar(
            select(WebSession).where(
                WebSession.id == _digest(session_id), WebSession.expires > int(time.time())
            )
        )
        return row.account if row is not None else None

    def key(self, cookie: str | None) -> str | None:
        """The stored id of this cookie's session (a digest, not the secret id): what a
        table socket remembers to be closed when the session ends."""
        session_id = self._id(cookie)
        return _digest(session_id) if session_id is not None else None

    def alive_of(self, s: Session, keys: list[str]) -> set[str]:
        """Which of the stored ids ``keys`` name sessions that have neither ended nor
        expired (one query for many: the server's sweep of its open sockets)."""
        now = int(time.time())
        out: set[str] = set()
        for i in range(0, len(keys), 500):
            out.update(s.scalars(select(WebSession.id).where(
                WebSession.id.in_(keys[i:i + 500]), WebSession.expires > now)))
        return out

    def end(self, s: Session, cookie: str | None) -> None:
        """Delete this cookie's session server-side: the id is worthless from now on."""
        session_id = self._id(cookie)
        if session_id is not None:
            s.execute(delete(WebSession).where(WebSession.id == _digest(session_id)))
