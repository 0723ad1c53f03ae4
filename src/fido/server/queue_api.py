"""The queue over HTTP (docs/server.md, "Play with people"): join it, see your entry and
how many wait for each game (your poll is your heartbeat), leave it.

Each route is a thin door to :mod:`fido.server.queue_service`, which the lobby page
calls too.
"""

from __future__ import annotations

from fastapi import APIRouter, Request

from fido.server import queue_service as queue
from fido.server.deps import CsrfChecked, errors
from fido.server.queue_service import QueueIn, QueueOut

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["queue"])


@router.post("/queue", response_model=QueueOut, status_code=201, dependencies=CsrfChecked,
             responses=errors(401, 409, 429))
async def join_queue(body: QueueIn, request: Request) -> QueueOut:
    """Wait for a table of people for a game (any size or one); a wait before bots
    fill the other seats, or none. A second request replaces her first."""
    return await queue.join(request, body)


@router.get("/queue", response_model=QueueOut, responses=errors())
async def queue_state(request: Request) -> QueueOut:
    """Her entry (waiting, or seated with her table), how many wait for each game and
    how many people are online. Polling it keeps her in the queue: an entry not asked
    for in 30 seconds is dropped."""
    return await queue.state(request)


@router.delete("/queue", response_model=QueueOut, dependencies=CsrfChecked,
               responses=errors(401, 409))
async def leave_queue(request: Request) -> QueueOut:
    """Leave the queue (a table already formed for her stays hers)."""
    return await queue.leave(request)
