"""Game ratings in the store: a finished game moves its people's ratings (in the
transaction of its last move), and pages read them and their history.

The model is :mod:`fido.ratings.model`; this module only reads and writes
``game_ratings`` and ``rating_changes``. A bot's seat is rated at its level's fixed
rating and stored nowhere.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from fido.ratings.model import MU, SIGMA, Entrant, Rating, bot_rating, rate
from fido.store import GameRating, RatingChange, aware

__all__ = ["Change", "Player", "history", "rate_game", "ratings_for", "ratings_of"]

log = logging.getLogger("fido.ratings")


@dataclass(frozen=True, slots=True)
class Player:
    """A seat of a finished game: a person's account, or a bot's level."""

    account_id: int | None
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class Change:
    """One game's move of one rating (her history's row)."""

    family: str
    table_id: str | None
    match_id: str | None
    before: Rating
    after: Rating
    at: dt.datetime


def rate_game(s: Session, family: str, sides: Sequence[Sequence[Player]],
              ranks: Sequence[int], *, table_id: str | None = None,
              match_id: str | None = None) -> dict[int, tuple[Rating, Rating]]:
    """Move the ratings of the people of a finished game whose ``sides`` (a seat, or a
    team's seats) finished at ``ranks`` (1 first, equal: a tie); each person's rating
    before and after. A game with no person, or one person in two seats, moves none."""
    people = [p.account_id for side in sides for p in side if p.account_id is not None]
    if not people or len(set(people)) != len(people) or len(sides) != len(ranks):
        return {}
    rows = {r.account_id: r for r in s.scalars(
        select(GameRating).where(GameRating.family == family,
                                 GameRating.account_id.in_(people)).with_for_update())}

    def entrant(p: Player) -> Entrant:
        if p.account_id is None:
            return bot_rating(p.bot)
        row = rows.get(p.account_id)
        return Entrant(row.mu, row.sigma) if row is not None else Entrant(MU, SIGMA)

    before = [[entrant(p) for p in side] for side in sides]
    after = rate(before, list(ranks))
    now = dt.datetime.now(dt.UTC)
    out: dict[int, tuple[Rating, Rating]] = {}
    for side, was, now_side in zip(sides, before, after, strict=True):
        for p, old, new in zip(side, was, now_side, strict=True):
            if p.account_id is None:
                continue
            row = rows.get(p.account_id)
            games = row.games if row is not None else 0
            if row is None:
                row = GameRating(account_id=p.account_id, family=family)
                s.add(row)
            row.mu, row.sigma, row.games, row.updated_at = new.mu, new.sigma, games + 1, now
            s.add(RatingChange(account_id=p.account_id, family=family, table_id=table_id,
                               match_id=match_id, mu_before=old.mu, mu=new.mu,
                               sigma=new.sigma, games=games + 1, at=now))
            out[p.account_id] = (Rating(old.mu, old.sigma, games),
                                 Rating(new.mu, new.sigma, games + 1))
    return out


def ratings_of(s: Session, account_id: int) -> dict[str, Rating]:
    """Her rating in each game family she has played, by family."""
    rows = s.scalars(select(GameRating).where(GameRating.account_id == account_id)
                     .order_by(GameRating.family))
    return {r.family: Rating(r.mu, r.sigma, r.games) for r in rows}


def ratings_for(s: Session, account_ids: Sequence[int], family: str) -> dict[int, Rating]:
    """The ratings of these people in one family (a newcomer's where she has none)."""
    ids = sorted(set(account_ids))
    found = {r.account_id: Rating(r.mu, r.sigma, r.games) for r in s.scalars(
        select(GameRating).where(GameRating.family == family,
                                 GameRating.account_id.in_(ids)))} if ids else {}
    return {i: found.get(i, Rating()) for i in ids}


def history(s: Session, account_id: int, family: str, limit: int = 500) -> list[Change]:
    """Her rating's moves in one family, oldest first (the last ``limit``)."""
    rows = list(s.scalars(select(RatingChange).where(
        RatingChange.account_id == account_id, RatingChange.family == family)
        .order_by(RatingChange.id.desc()).limit(limit)))
    out = []
    for r in reversed(rows):
        at = aware(r.at)
        out.append(Change(r.family, r.table_id, r.match_id,
                          Rating(r.mu_before, r.sigma, r.games - 1),
                          Rating(r.mu, r.sigma, r.games), at))
    return out
