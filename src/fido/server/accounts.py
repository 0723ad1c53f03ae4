"""Accounts on the store: sign up, verify a password, guests, claim a guest's games.

Passwords are hashed with argon2id (:class:`argon2.PasswordHasher`, its
defaults); an unknown name still costs one verification, so the time taken
does not tell which names exist. These functions take a SQLAlchemy session
and raise :class:`~fido.server.errors.ApiError`; they neither commit nor
know about HTTP beyond the status of their refusals.
"""

from __future__ import annotations

import datetime as dt
import re

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from fido.safe_text import control_chars
from fido.server.claims import claim_out, latest
from fido.server.errors import ApiError
from fido.server.names import name_key
from fido.server.schemas import AccountOut
from fido.store import Account, Player

__all__ = [
    "account_out",
    "authenticate",
    "name_key",
    "new_guest",
    "sign_up",
]

_HASHER = PasswordHasher()
# verified against when the name is unknown, so that answer takes as long as a wrong password
_DUMMY = _HASHER.hash("not a password of anybody")


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


# a guest is shown as "guest ID": no account may look like one at the table
_GUEST_NAME = re.compile(r"guest\W*\d+", re.ASCII)




def account_out(s: Session, account: Account) -> AccountOut:
    number = None
    if account.player_id is not None:
        player = s.get(Player, account.player_id)
        number = player.number if player else None
    return AccountOut(
        id=account.id,
        name=account.name if account.name is not None else f"guest {account.id}",
        guest=account.guest,
        email=account.email,
        player=number,
        claim=claim_out(latest(s, account.id)) if not account.guest else None,
    )


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
        raise ApiError(409, "name_reserved", "names like \"guest 12\" are how guests are "
                       "shown at the table: choose another name")
    if s.scalar(select(Account.id).where(Account.name_key == key)) is not None:
        raise ApiError(409, "name_taken", "an account with this name exists already")
    account = guest if guest is not None and guest.guest else Account(created_at=_now())
    if account.id is not None:
        account.claimed_at = _now()
    account.name, account.name_key, account.email = name, key, email
    account.password_hash = _HASHER.hash(password)
    account.guest = False
    s.add(account)
    try:
        with s.begin_nested():  # two sign-ups with one name at once: the second is refused
            s.flush()
    except IntegrityError:
        raise ApiError(409, "name_taken", "an account with this name exists already") from None
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
