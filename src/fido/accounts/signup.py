"""Accounts on the store: sign up, verify a password, guests, claim a guest's games.

Passwords are hashed with argon2id (:class:`argon2.PasswordHasher`, its
defaults); an unknown name still costs one verification, so the time taken
does not tell which names exist. These functions take a SQLAlchemy session
and raise :class:`~fido.errors.Refused`; they neither commit nor
know nothing of HTTP: their refusals have codes (the server gives each its status).
"""

from __future__ import annotations

import datetime as dt
import re

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from fido import i18n
from fido.accounts.names import name_key
from fido.errors import Refused
from fido.i18n import _
from fido.safe_text import control_chars
from fido.store import Account

__all__ = [
    "authenticate",
    "hash_password",
    "name_key",
    "new_guest",
    "sign_up",
]

_HASHER = PasswordHasher()
# verified against when the name is unknown, so that answer takes as long as a wrong password
_DUMMY = _HASHER.hash("not a password of anybody")


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _guest_names() -> re.Pattern[str]:
    """A guest is shown as "guest ID" ("Gast ID"...): no account may look like one at the
    table, in any language the interface speaks."""
    words = set()
    for lang in i18n.LANGUAGES:
        with i18n.use(lang):
            words.add(name_key(i18n.gettext("guest {id}").split("{")[0].strip()))
    return re.compile("(?:" + "|".join(sorted(map(re.escape, words))) + r")\W*\d+")


_GUEST_NAME = _guest_names()




def hash_password(password: str) -> str:
    """A password as it is stored (argon2id): the sign-up's and the reset's."""
    return _HASHER.hash(password)


def new_guest(s: Session) -> Account:
    """A guest account: no name, no password; its games are hers once she signs up."""
    account = Account(guest=True, created_at=_now())
    s.add(account)
    s.flush()
    return account


def sign_up(
    s: Session, name: str, password: str, email: str | None, guest: Account | None = None
) -> Account:
    """A new registered account, or ``guest`` turned into one (same id: she claims her games).

    The name must be free (compared by :func:`name_key`): 409 otherwise.
    """
    key = name_key(name)
    if _GUEST_NAME.fullmatch(" ".join(key.split())):
        raise Refused("name_reserved", _("names like \"guest 12\" are how guests are "
                                         "shown at the table: choose another name"))
    if s.scalar(select(Account.id).where(Account.name_key == key)) is not None:
        raise Refused("name_taken", _("an account with this name exists already"))
    account = guest if guest is not None and guest.guest else Account(created_at=_now())
    if account.id is not None:
        account.claimed_at = _now()
    account.name, account.name_key, account.email = name, key, email
    account.password_hash = hash_password(password)
    account.guest = False
    s.add(account)
    try:
        with s.begin_nested():  # two sign-ups with one name at once: the second is refused
            s.flush()
    except IntegrityError:
        raise Refused("name_taken", _("an account with this name exists already")) from None
    return account


def authenticate(s: Session, name: str, password: str) -> Account | None:
    """The account if ``password`` is hers, else None (wrong password or unknown name).

    A name with control characters is nobody's (sign-up refuses them): it is not
    looked up, since PostgreSQL refuses a NUL in a query's text outright.
    """
    account = None
    if not control_chars(name):
        account = s.scalar(select(Account).where(Account.name_key == name_key(name)))
    stored = account.password_hash if account is not None else None
    try:
        _HASHER.verify(stored or _DUMMY, password)
    except (VerificationError, InvalidHashError):
        return None
    if account is None or stored is None:
        return None
    if _HASHER.check_needs_rehash(stored):  # the hasher's parameters were raised since
        account.password_hash = _HASHER.hash(password)
    return account
