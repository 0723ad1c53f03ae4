"""A person's game ratings as her page shows them (docs/ratings.md): each game family
she has played, her rating (a "?" while provisional) and its history as a chart of
the rating after each game, read through :mod:`fido.server.ratings_service`."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request

from fido.server import ratings_service
from fido.server.ratings_service import PointOut, RatingOut
from fido.web.ranking_chart import Chart, history_chart

__all__ = ["RatingView", "ratings_shown"]


@dataclass(frozen=True)
class RatingView:
    rating: RatingOut
    history: list[PointOut]  # oldest first
    chart: Chart | None  # the rating after each game (x: the game's number)


def ratings_shown(request: Request, account_id: int) -> list[RatingView]:
    """Her ratings, the most played game first, each with its history."""
    found = ratings_service.player_ratings(request, account_id).ratings
    out = []
    for r in sorted(found, key=lambda x: (-x.games, x.family)):
        history = ratings_service.family_history(request, account_id, r.family).history
        chart = history_chart(tuple((str(p.games), p.games, float(p.rating))
                                    for p in history))
        out.append(RatingView(r, history, chart))
    return out
