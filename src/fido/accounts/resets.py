"""A way back into a lost account: the password reset's link, signed, single-use and
expiring, and the new password it sets.

The link's token is signed with the server's secret (itsdangerous) and names the
account and a fingerprint of its password hash as it was when the link was made: a new
password changes the hash, so a link works once, and an older link dies with it. It
expires after :data:`RESET_SECONDS`. Setting the password ends every session of the
account (a thief signed in with the old one is out). These functions take a
SQLAlchemy session and raise :class:`~fido.errors.Refused`; they know nothing of HTTP
nor of mail.
"""

from __future__ import annotations

import hashlib

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from fido.accounts.signup import hash_password
from fido.errors import Refused
from fido.i18n import _
from fido.store import Account, WebSession

__all__ = ["RESET_SECONDS", "account_of_token", "reset_token", "set_password"]

RESET_SECONDS = 3600  # a reset link works for an hour


def _serializer(secret: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(secret, salt="fido.password-reset")


def _fingerprint(account: Account) -> str:
    """What the token remembers of the password it replaces (never the hash itself)."""
    return hashlib.sha256((account.password_hash or "").encode()).hexdigest()[:16]


def reset_token(account: Account, secret: str) -> str:
    """The token of ``account``'s reset link (a registered account's only)."""
    if account.guest or account.name is None:
        raise Refused("guest", _("a guest has no password to reset"))
    return str(_serializer(secret).dumps([account.id, _fingerprint(account)]))


def account_of_token(s: Session, token: str, secret: str,
                     seconds: int = RESET_SECONDS) -> Account:
    """The account whose reset link this is; refused when the link is not one of this
    server's, is older than ``seconds``, or was used (the password changed since)."""
    try:
        account_id, fingerprint = _serializer(secret).loads(token[:400], max_age=seconds)
    except SignatureExpired:
        raise Refused("reset_expired", _(
            "this link is too old: ask for a new one")) from None
    except (BadSignature, ValueError, TypeError):
        raise Refused("reset_invalid", _(
            "this link is not a password reset of this server")) from None
    account = s.get(Account, account_id) if isinstance(account_id, int) else None
    if account is None or account.guest or fingerprint != _fingerprint(account):
        raise Refused("reset_used", _(
            "this link was used already (or the password changed since): ask for a new one"))
    return account


def set_password(s: Session, account: Account, password: str) -> list[str]:
    """``account``'s new password; every session of hers ends. The ended sessions' stored
    ids (to close their table sockets at once)."""
    account.password_hash = hash_password(password)
    ended = list(s.scalars(select(WebSession.id).where(WebSession.account_id == account.id)))
    s.execute(delete(WebSession).where(WebSession.account_id == account.id))
    return ended

