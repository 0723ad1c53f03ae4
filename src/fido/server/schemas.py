"""Request and response models: they make the OpenAPI schema exact.

Text typed by a user is refused when it holds control characters (ESC, bidi
overrides, NUL...) and kept as typed otherwise: ``<b>`` in a name is text,
escaped by whoever shows it, never stripped.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from fido.safe_text import control_chars
from fido.store.models import INT_MAX

__all__ = [
    "AccountOut",
    "ErrorBody",
    "ErrorDetail",
    "Health",
    "PlayerLink",
    "SessionInfo",
    "SignIn",
    "SignUp",
]

NAME_MIN, NAME_MAX = 2, 40
PASSWORD_MIN, PASSWORD_MAX = 8, 256  # an upper bound: hashing a megabyte is a denial of service


def _no_control(text: str) -> str:
    bad = control_chars(text)
    if bad:
        raise ValueError(f"holds control characters ({', '.join(dict.fromkeys(bad))})")
    return text


def _name(text: str) -> str:
    text = unicodedata.normalize("NFC", _no_control(text))
    if text != text.strip():
        raise ValueError("must not begin or end with a space")
    return text


def _password(text: str) -> str:
    # a lone surrogate (JSON "\ud800") cannot be encoded for hashing
    if any(unicodedata.category(ch) == "Cs" for ch in text):
        raise ValueError("holds an invalid character (a lone surrogate)")
    return text


def _email(text: str) -> str:
    _no_control(text)
    local, at, domain = text.partition("@")
    if not at or not local or "." not in domain or any(ch.isspace() for ch in text):
        raise ValueError("is not an email address")
    return text


Name = Annotated[str, Field(min_length=NAME_MIN, max_length=NAME_MAX), AfterValidator(_name)]
Password = Annotated[
    str, Field(min_length=PASSWORD_MIN, max_length=PASSWORD_MAX), AfterValidator(_password)
]
Email = Annotated[str, Field(min_length=3, max_length=254), AfterValidator(_email)]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SignUp(_In):
    """Sign up; with a guest session active, the guest becomes this account."""

    name: Name
    password: Password
    email: Email | None = None


class SignIn(_In):
    name: Annotated[str, Field(min_length=1, max_length=NAME_MAX)]
    password: Annotated[str, Field(min_length=1, max_length=PASSWORD_MAX)]


class PlayerLink(_In):
    """The world ranking's player number this account is."""

    number: Annotated[int, Field(ge=1, le=INT_MAX)]


class Health(BaseModel):
    status: Literal["ok"]
    version: str


class AccountOut(BaseModel):
    id: int
    name: str  # a guest's is "guest N"
    guest: bool
    email: str | None
    player: int | None  # the linked ranking player's number


class SessionInfo(BaseModel):
    """Who this browser is, and the CSRF token its state-changing requests must send."""

    kind: Literal["anonymous", "guest", "account"]
    account: AccountOut | None
    csrf_token: str


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorBody(BaseModel):
    error: ErrorDetail
