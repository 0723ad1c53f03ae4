"""Game ratings over HTTP (docs/ratings.md): a person's rating in each game family, and
one family's history. Thin doors to :mod:`fido.server.ratings_service`, which the
player's page calls too."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request

from fido.server import deps
from fido.server import ratings_service as ratings
from fido.server.deps import errors
from fido.server.ratings_service import HistoryOut, RatingsOut, TableRatingsOut

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["ratings"])

AccountId = Annotated[int, Path(ge=1, le=2**31 - 1)]


@router.get("/players/{account_id}/ratings", response_model=RatingsOut,
            responses=errors(404))
def player_ratings(account_id: AccountId, request: Request) -> RatingsOut:
    """Her game rating in each game family she has played (never the world ranking's
    FLADUB)."""
    return ratings.player_ratings(request, account_id)


@router.get("/players/{account_id}/ratings/{family}", response_model=HistoryOut,
            responses=errors(404))
def family_history(account_id: AccountId,
                   family: Annotated[str, Path(max_length=40)],
                   request: Request) -> HistoryOut:
    """Her game rating in one family (``fido:9``, ``muggins``) and each game's move of it,
    oldest first (the last 500)."""
    return ratings.family_history(request, account_id, family)


@router.get("/tables/{table_id}/ratings", response_model=TableRatingsOut,
            responses=errors(404))
def table_ratings(table_id: Annotated[str, Path(max_length=40)],
                  request: Request) -> TableRatingsOut:
    """Each seat's game rating in the table's game family now (a bot's: its level's
    fixed rating): the table page shows them beside the names."""
    return ratings.table_ratings(request, deps.table_id(table_id))
