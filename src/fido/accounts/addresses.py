"""A person's email address: changed by her, confirmed through a signed link mailed to
it, and whether she wants her inbox's news by mail (opt-in, on a confirmed address only;
every such mail carries a link that turns it off without signing in).

The links' tokens are signed with the server's secret (itsdangerous), each kind with its
own salt: a confirmation names the account and the address it confirms (a changed
address makes the old link void) and expires after :data:`CONFIRM_SECONDS`; an
unsubscribe link names the account and never expires (a mail read late must still stop
the next). These functions take a SQLAlchemy session, raise
:class:`~fido.errors.Refused` and know nothing of HTTP nor of mail.
"""

from __future__ import annotations

import datetime as dt

from itsdangerous import BadSignature, SignatureExpired, URLSafeSerializer, URLSafeTimedSerializer
from sqlalchemy.orm import Session

from fido.errors import Refused
from fido.i18n import _
from fido.store import Account

__all__ = [
    "CONFIRM_SECONDS",
    "account_to_confirm",
    "change_email",
    "confirm_token",
    "set_notices",
    "unsubscribe",
    "unsubscribe_token",
]

CONFIRM_SECONDS = 7 * 24 * 3600  # a confirmation link works for a week


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def change_email(s: Session, account: Account, email: str | None) -> bool:
    """Her new address (None: none); whether it changed. A new address is unconfirmed,
    and no news goes to it until she confirms it."""
    if account.guest:
        raise Refused("guest", _("a guest has no email address: sign up first"))
    if email == account.email:
        return False
    account.email, account.email_confirmed_at = email, None
    return True


def confirm_token(account: Account, secret: str) -> str:
    """The token of the link that confirms ``account``'s present address."""
    return str(URLSafeTimedSerializer(secret, salt="fido.confirm-address").dumps(
        [account.id, account.email]))


def account_to_confirm(s: Session, token: str, secret: str,
                       seconds: int = CONFIRM_SECONDS) -> Account:
    """The account whose address this confirmation link confirms; refused when the link
    is not this server's, is too old, or names an address she no longer has."""
    try:
        account_id, email = URLSafeTimedSerializer(secret, salt="fido.confirm-address").loads(
            token[:600], max_age=seconds)
    except SignatureExpired:
        raise Refused("confirm_expired", _(
            "this link is too old: ask for a new one on your account's page")) from None
    except (BadSignature, ValueError, TypeError):
        raise Refused("confirm_invalid", _(
            "this link is not an address confirmation of this server")) from None
    account = s.get(Account, account_id) if isinstance(account_id, int) else None
    if account is None or account.email is None or account.email != email:
        raise Refused("confirm_changed", _(
            "this link confirms an address the account no longer has"))
    if account.email_confirmed_at is None:
        account.email_confirmed_at = _now()
    return account


def set_notices(account: Account, on: bool) -> None:
    """Her inbox's news by mail, on or off; on takes a confirmed address."""
    if on and (account.email is None or account.email_confirmed_at is None):
        raise Refused("not_confirmed", _(
            "confirm your email address first: the news go only to an address that is yours"))
    if on and account.notices_since is None:
        account.notices_since = _now()
    elif not on:
        account.notices_since = None


def unsubscribe_token(account: Account, secret: str) -> str:
    """The token of the link in every news mail that turns the news off."""
    return str(URLSafeSerializer(secret, salt="fido.unsubscribe").dumps(account.id))


def unsubscribe(s: Session, token: str, secret: str) -> Account:
    """Turn off the news of the account this unsubscribe link names (again: no harm)."""
    try:
        account_id = URLSafeSerializer(secret, salt="fido.unsubscribe").loads(token[:400])
    except (BadSignature, ValueError, TypeError):
        raise Refused("unsubscribe_invalid", _(
            "this link is not an unsubscribe link of this server")) from None
    account = s.get(Account, account_id) if isinstance(account_id, int) else None
    if account is None:
        raise Refused("unsubscribe_gone", _("this account no longer exists: no more mail"))
    account.notices_since = None
    return account
