"""Registered players: register one, find one by number, list them all.

Every function takes an open :class:`~sqlalchemy.orm.Session` from
:meth:`fido.store.Store.session`: a :class:`ResultError` in the caller's block
stores nothing.
"""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from fido.ranking.clock import utc, utcnow
from fido.ranking.errors import ResultError
from fido.ranking.fields import INT_MAX, Number, Text, check_number
from fido.store import Player

__all__ = ["PlayerIn", "find_player", "first_error", "list_players", "register_player"]


class PlayerIn(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    name: Text = Field(min_length=1, max_length=200)
    number: Number | None = None
    country: str | None = Field(default=None, pattern=r"^[A-Za-z]{2,3}$")


def first_error(e: ValidationError, what: str) -> str:
    """pydantic's first complaint as one line: ``what: field: message``."""
    first = e.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    msg = str(first["msg"]).removeprefix("Value error, ")
    if first["type"] == "string_pattern_mismatch" and where == "country":
        msg = "a country is a code of 2 or 3 letters, e.g. DE"
    return f"{what}: {where + ': ' if where else ''}{msg}"


def register_player(
    s: Session,
    name: str,
    number: int | None = None,
    country: str | None = None,
    *,
    now: dt.datetime | None = None,
) -> Player:
    """Register a player; without ``number`` she gets the next free one."""
    try:
        p = PlayerIn(name=name, number=number, country=country)
    except ValidationError as e:
        raise ResultError(first_error(e, "player")) from None
    if p.number is None:
        p.number = (s.scalar(select(func.max(Player.number))) or 0) + 1
        if p.number > INT_MAX:
            raise ResultError(f"the next player number would pass {INT_MAX}: give a free number")
    elif s.scalar(select(Player).where(Player.number == p.number)) is not None:
        raise ResultError(f"player number {p.number} is already registered")
    row = Player(
        number=p.number,
        name=p.name,
        country=p.country.upper() if p.country else None,
        registered_at=utc(now or utcnow()),
    )
    s.add(row)
    s.flush()
    return row


def find_player(s: Session, number: int) -> Player:
    """The player with this number; an error (never a database overflow) if none."""
    check_number(number, "a player number")
    row = s.scalar(select(Player).where(Player.number == number))
    if row is None:
        raise ResultError(f"no registered player has number {number}")
    return row


def list_players(s: Session) -> list[Player]:
    return list(s.scalars(select(Player).order_by(Player.number)))
