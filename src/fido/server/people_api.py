"""Finding each other over HTTP (docs/people.md): the people online, being seen,
following and blocking, and challenges. Thin doors to
:mod:`fido.server.people_service` and :mod:`fido.server.challenges_service`, which the
people page calls too."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Request

from fido.server import challenges_service as challenges
from fido.server import deps
from fido.server import people_service as people
from fido.server.challenges_service import ChallengeIn, ChallengeOut, Challenges
from fido.server.deps import CsrfChecked, errors
from fido.server.people_service import (
    Blocked,
    OnlineIn,
    OnlineOut,
    PeopleOut,
    ReportIn,
    ReportOut,
)

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["people"])

AccountId = Annotated[int, Path(ge=1, le=2**31 - 1)]
ChallengeId = Annotated[int, Path(ge=1, le=2**31 - 1)]


@router.get("/people", response_model=PeopleOut, responses=errors(422))
def online_people(request: Request,
                  game: Annotated[str | None, Query(max_length=40)] = None) -> PeopleOut:
    """The people online who chose to be seen, with their game rating in ``game`` (a
    game family: ``fido:9``, the default; ``muggins``): those she follows first."""
    return people.online(request, game)


@router.put("/account/online", response_model=OnlineOut, dependencies=CsrfChecked,
            responses=errors(401))
def set_online(body: OnlineIn, request: Request) -> OnlineOut:
    """Be shown among the people online, or not (off until she chooses)."""
    return people.set_online(request, body)


@router.put("/people/{account_id}/follow", response_model=OnlineOut,
            dependencies=CsrfChecked, responses=errors(401, 403, 404, 422))
def follow(account_id: AccountId, request: Request) -> OnlineOut:
    return people.follow(request, account_id, True)


@router.delete("/people/{account_id}/follow", response_model=OnlineOut,
               dependencies=CsrfChecked, responses=errors(401, 404))
def unfollow(account_id: AccountId, request: Request) -> OnlineOut:
    return people.follow(request, account_id, False)


@router.put("/people/{account_id}/block", response_model=OnlineOut,
            dependencies=CsrfChecked, responses=errors(401, 404, 422))
def block(account_id: AccountId, request: Request) -> OnlineOut:
    """Block her: no challenge either way, and no chat of hers reaches you."""
    return people.block(request, account_id, True)


@router.delete("/people/{account_id}/block", response_model=OnlineOut,
               dependencies=CsrfChecked, responses=errors(401, 404, 422))
def unblock(account_id: AccountId, request: Request) -> OnlineOut:
    return people.block(request, account_id, False)


@router.get("/blocks", response_model=Blocked, responses=errors(401))
def blocks(request: Request) -> Blocked:
    """The people you block."""
    return people.blocks(request)


@router.post("/challenges", response_model=ChallengeOut, status_code=201,
             dependencies=CsrfChecked, responses=errors(401, 403, 404, 409, 422, 429))
async def challenge(body: ChallengeIn, request: Request) -> ChallengeOut:
    """Challenge a person to a game: the game, the set, the players, the other seats
    (bots of a level, or open), the clock, whether it moves the game ratings."""
    return await challenges.create(request, body)


@router.get("/challenges", response_model=Challenges, responses=errors(401))
def my_challenges(request: Request) -> Challenges:
    """Your open challenges, to you and from you, and your last decided ones."""
    return challenges.mine(request)


@router.post("/challenges/{challenge_id}/accept", response_model=ChallengeOut,
             dependencies=CsrfChecked, responses=errors(401, 403, 404, 409, 422, 429))
async def accept(challenge_id: ChallengeId, request: Request) -> ChallengeOut:
    """Accept a challenge to you: its table opens with both of you seated."""
    return await challenges.accept(request, challenge_id)


@router.post("/challenges/{challenge_id}/decline", response_model=ChallengeOut,
             dependencies=CsrfChecked, responses=errors(401, 404, 409))
def decline(challenge_id: ChallengeId, request: Request) -> ChallengeOut:
    return challenges.decline(request, challenge_id)


@router.delete("/challenges/{challenge_id}", response_model=ChallengeOut,
               dependencies=CsrfChecked, responses=errors(401, 404, 409))
def withdraw(challenge_id: ChallengeId, request: Request) -> ChallengeOut:
    """Withdraw your challenge while it is open."""
    return challenges.withdraw(request, challenge_id)


@router.post("/tables/{table_id}/reports", response_model=ReportOut, status_code=201,
             dependencies=CsrfChecked, responses=errors(401, 404, 409, 429))
def report(table_id: Annotated[str, Path(max_length=40)], body: ReportIn,
           request: Request) -> ReportOut:
    """Report a chat line of this table to the federation (``seq``: its place in the
    log): its accounts read it in their inbox. Once a line, ten a day."""
    return people.report(request, deps.table_id(table_id), body)
