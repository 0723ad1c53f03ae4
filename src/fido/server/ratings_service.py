"""A person's game ratings as the API and the pages show them (docs/ratings.md): her
rating in each game family she has played, and one family's history.

The numbers are :mod:`fido.ratings`'s; who may read them, :mod:`fido.server.policy`
(everyone: a rating is as public as the finished games that made it).
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated

from fastapi import Request
from pydantic import BaseModel, Field

from fido.engine.rules import FIDO_DIVISORS, RULESETS, Ruleset
from fido.i18n import _
from fido.ratings import (
    Rating,
    bot_rating,
    family,
    family_ruleset,
    history,
    provisional,
    ratings_for,
    ratings_of,
    shown,
)
from fido.ratings.model import SCALE
from fido.server import deps, policy
from fido.server.account_views import guest_name
from fido.server.errors import ApiError

__all__ = ["FAMILIES", "HistoryOut", "RatingOut", "RatingsOut", "SeatRatingOut",
           "TableRatingsOut", "family_history", "player_ratings", "table_ratings"]

# every game family a rating may be for: FIDO by its set, each classic game
FAMILIES: tuple[str, ...] = (*(f"fido:{n}" for n in FIDO_DIVISORS),
                             *(name for name in RULESETS if name != "fido"))


class RatingOut(BaseModel):
    family: str  # fido:9, muggins
    ruleset: str  # the family's games, named as a ruleset ("fido set=9")
    rating: int  # as shown: mu x 60 (a newcomer's 1500)
    provisional: bool  # too few games yet: shown with a "?"
    games: int
    mu: float
    sigma: float


class RatingsOut(BaseModel):
    player: int  # the account
    name: str
    ratings: list[RatingOut]  # the families she has played, by name


class PointOut(BaseModel):
    at: dt.datetime
    rating: int
    change: int  # shown points gained (negative: lost)
    games: int
    table: str | None  # the game that moved it (a match's: the match)
    match: str | None


class HistoryOut(BaseModel):
    player: int
    rating: RatingOut
    history: Annotated[list[PointOut], Field(max_length=500)]  # oldest first


class SeatRatingOut(BaseModel):
    seat: int
    rating: int
    provisional: bool
    bot: bool  # a bot's fixed rating (bench/bot_ratings.py), which never moves


class TableRatingsOut(BaseModel):
    family: str
    seats: list[SeatRatingOut]  # its people's and bots' (an open seat: none)


def _out(family: str, r: Rating) -> RatingOut:
    return RatingOut(family=family, ruleset=family_ruleset(family), rating=shown(r),
                     provisional=provisional(r), games=r.games, mu=round(r.mu, 4),
                     sigma=round(r.sigma, 4))


def player_ratings(request: Request, account_id: int) -> RatingsOut:
    """Her rating in every game family she has played."""
    with deps.server(request).store.session(write=False) as s:
        who = policy.rated_person(s, deps.me(request, s), account_id)
        found = ratings_of(s, who.id)
        return RatingsOut(player=who.id, name=who.name or guest_name(who.id),
                          ratings=[_out(f, r) for f, r in found.items()])


def family_history(request: Request, account_id: int, family: str) -> HistoryOut:
    """Her rating in one family and how each game moved it."""
    if family not in FAMILIES:
        raise ApiError(404, "no_game", _("there is no game named {name}").format(
            name=repr(family[:40])))
    with deps.server(request).store.session(write=False) as s:
        who = policy.rated_person(s, deps.me(request, s), account_id)
        now = ratings_of(s, who.id).get(family, Rating())
        moves = history(s, who.id, family)
    points = [PointOut(at=c.at, rating=shown(c.after), change=shown(c.after) - shown(c.before),
                       games=c.after.games, table=c.table_id, match=c.match_id)
              for c in moves]
    return HistoryOut(player=account_id, rating=_out(family, now), history=points)


def table_ratings(request: Request, table_id: str) -> TableRatingsOut:
    """The game rating of each seat of a table in its game family, now: the table page
    shows them beside the names (a bot's: its level's fixed rating)."""
    with deps.server(request).store.session(write=False) as s:
        row = policy.table_seats(s, deps.me(request, s), table_id)
        fam = family(Ruleset.from_text(row.ruleset))
        seats = sorted(row.seats, key=lambda r: r.seat)
        people = ratings_for(s, [r.account_id for r in seats
                                 if r.kind == "person" and r.account_id is not None], fam)
    out = []
    for r in seats:
        if r.kind == "person" and r.account_id is not None:
            mine = people[r.account_id]
            out.append(SeatRatingOut(seat=r.seat, rating=shown(mine),
                                     provisional=provisional(mine), bot=False))
        elif r.kind == "bot":
            out.append(SeatRatingOut(seat=r.seat, rating=round(bot_rating(r.bot).mu * SCALE),
                                     provisional=False, bot=True))
    return TableRatingsOut(family=fam, seats=out)
