"""Registered players: register one, find one by number, list them all.

Every function takes an open :class:`~sqlalchemy.orm.Session` from
:meth:`fido.store.Store.session`: a :class:`ResultError` in the caller's block
stores nothing.
"""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy import func, select, text
from sqlalchemy.exc import IntegrityError
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
    given = p.number
    if given is None and s.get_bind().dialect.name == "postgresql":
        # registrations one at a time until commit, so "the highest number + 1"
        # is still free when it is written (SQLite's writers are serial already)
        s.execute(text("LOCK TABLE players IN SHARE ROW EXCLUSIVE MODE"))
    for _ in range(5):  # a concurrent registration took the next number: take the one after
        number = given or (s.scalar(select(func.max(Player.number))) or 0) + 1
        if number > INT_MAX:
            raise ResultError(f"the next player number would pass {INT_MAX}: give a free number")
        if s.scalar(select(Player.id).where(Player.number == number)) is not None:
            raise ResultError(f"player number {number} is already registered")
        row = Player(
            number=number,
            name=p.name,
            country=p.country.upper() if p.country else None,
            registered_at=utc(now or utcnow()),
        )
        try:
            with s.begin_nested():  # a savepoint: the race's loser keeps its transaction
                s.add(row)
                s.flush()
        except IntegrityError:
            if given is not None:
                raise ResultError(f"player number {number} is already registered") from None
            continue
        return row
    raise ResultError("other registrations kept taking the next number; try again")


def find_player(s: Session, number: int) -> Player:
    """The player with this number; an error (never a database overflow) if none."""
    check_number(number, "a player number")
    row = s.scalar(select(Player).where(Player.number == number))
    if row is None:
        raise ResultError(f"no registered player has number {number}")
    return row


def list_players(s: Session) -> list[Player]:
    return list(s.scalars(select(Player).order_by(Player.number)))
