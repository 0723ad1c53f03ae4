"""A finished game's analysis over HTTP: a player asks for hers, anyone may read it.

Only after the game (the analysis reads the record, every hand of it), only
for the seat she played; the work runs in the analyses' worker
(:mod:`fido.server.analysis_jobs`). Once the game is over its hands are
open in the replay too, so its analyses are as public as its replay.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select

from fido.i18n import _
from fido.record import GameRecord
from fido.server import deps
from fido.server.analysis_jobs import analysis_json
from fido.server.deps import CsrfChecked, errors
from fido.server.errors import ApiError
from fido.server.replay import better_tiles
from fido.store import AnalysisRow, SeatRow

__all__ = ["router"]


class AnalysisIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: int | None = Field(default=None, ge=0, le=8, description="default: your seat")


router = APIRouter(prefix="/api", tags=["analysis"])


@router.post("/tables/{table_id}/analysis", dependencies=CsrfChecked, status_code=202,
          responses=errors(401, 403, 404, 409, 429))
async def ask(table_id: Annotated[str, Depends(deps.table_id)], body: AnalysisIn,
              request: Request, response: Response) -> dict[str, Any]:
    """Ask for the analysis of your moves in a finished game (202: queued or
    running; 200: done already)."""
    srv = deps.server(request)
    await asyncio.to_thread(deps.finished_record, request, table_id, "analysis")

    def check() -> tuple[int, int]:
        with srv.store.session(write=False) as s:
            me = deps.signed_in(request, s)
            mine = list(s.scalars(select(SeatRow.seat).where(
                SeatRow.table_id == table_id, SeatRow.account_id == me.id,
                SeatRow.kind == "person")))
            if not mine:
                raise ApiError(403, "not_seated", _("only the players of a game ask for "
                                                     "the analysis of their moves"))
            seat = mine[0] if body.seat is None else body.seat
            if seat not in mine:
                raise ApiError(403, "not_your_seat", _("seat {seat} is not yours: ask for the "
                                                        "analysis of your own moves")
                               .format(seat=seat))
            return seat, me.id

    seat, account_id = await asyncio.to_thread(check)
    row = await asyncio.to_thread(srv.hub.analyses.queue, table_id, seat, account_id,
                                  deps.address(request))
    if row.status == "queued":
        srv.hub.analyses.start(row.id)  # after the commit: nothing asked is lost
    if row.status == "done":
        response.status_code = 200
    return analysis_json(row)


@router.get("/tables/{table_id}/analysis", responses=errors(403, 404, 409))
def read(table_id: Annotated[str, Depends(deps.table_id)],
         request: Request) -> dict[str, Any]:
    """The analyses of a finished game (any seat asked for), with their status; and
    where each better move would have lain (``better``: move number -> its tile's
    drawing), so the replay shows it on the table."""
    record = deps.finished_record(request, table_id, "analysis")
    with deps.server(request).store.session(write=False) as s:
        rows = s.scalars(select(AnalysisRow).where(AnalysisRow.table_id == table_id)
                         .order_by(AnalysisRow.seat))
        analyses = [analysis_json(r) for r in rows]
    better = {d["number"]: d["best"] for a in analyses if "result" in a
              for d in a["result"].get("decisions", []) if d["best"] != d["played"]}
    tiles = better_tiles(GameRecord.from_json(record), better) if better else {}
    return {"analyses": analyses, "better": {str(n): t for n, t in tiles.items()}}
