"""The lobby over HTTP: open a table, list tables, join, leave, play again, a match, and
finished games' records and replays.

Each route is a thin door to :mod:`fido.server.tables_service`, which the web pages
call too: the rules of tables are written there once.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request, Response

from fido.i18n import _
from fido.record import GameRecord
from fido.server import deps, policy
from fido.server import tables_service as tables
from fido.server.deps import TABLE_ID, CsrfChecked, errors
from fido.server.errors import ApiError
from fido.server.replay import replay_json
from fido.server.schemas import AgainIn, JoinIn, MatchDetail, TableIn, TableList, TableOut
from fido.server.tables.matches import hands_json, match_json
from fido.store import INT_MAX, MatchRow

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["tables"])
TableId = Annotated[str, Depends(deps.table_id)]
# a private table's invite admits its holder to the finished game's record and replay
Invite = Annotated[str | None, Query(max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]


@router.post("/tables", response_model=TableOut, status_code=201, dependencies=CsrfChecked,
             responses=errors(401, 403, 404))
async def create_table(body: TableIn, request: Request) -> TableOut:
    """Open a table; with a ``me`` seat (the default) the creator sits there at once."""
    return await tables.open_table(request, body)


@router.get("/tables", response_model=TableList, responses=errors())
def list_tables(
    request: Request,
    status: tables.Status = "open",
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    account: Annotated[int | None, Query(ge=1, le=INT_MAX)] = None,
) -> TableList:
    """Public tables by status, newest first, and the private ones you sit at;
    ``account``: only the tables where that account has a seat (her games)."""
    return tables.list_tables(request, status, limit, account)


@router.get("/tables/{table_id}", response_model=TableOut, responses=errors(404))
async def get_table(table_id: TableId, request: Request) -> TableOut:
    return await tables.table(request, table_id)


@router.post("/tables/{table_id}/seats", response_model=TableOut, dependencies=CsrfChecked,
             responses=errors(401, 403, 404, 409, 503))
async def join_table(table_id: TableId, body: JoinIn, request: Request) -> TableOut:
    """Take a seat (a free one, the one reserved for you, or the one you name)."""
    return await tables.join(request, table_id, body)


@router.delete("/tables/{table_id}/seats/mine", response_model=TableOut,
               dependencies=CsrfChecked, responses=errors(401, 404, 409, 503))
async def leave_table(table_id: TableId, request: Request) -> TableOut:
    """Leave your seat before the game starts (the last person out closes the table)."""
    return await tables.leave(request, table_id)


@router.post("/tables/{table_id}/again", response_model=TableOut, dependencies=CsrfChecked,
             responses=errors(401, 403, 404, 409, 503))
async def play_again(table_id: TableId, body: AgainIn, request: Request) -> TableOut:
    """Say yes to playing a finished game (or match) again with the same seats and
    settings; when everyone still at the table has, the new table is ``next``.
    ``bots``: the table's creator asks for bots in the seats of those who left."""
    return await tables.play_again(request, table_id, body)


@router.delete("/tables/{table_id}/again", response_model=TableOut, dependencies=CsrfChecked,
               responses=errors(401, 403, 404, 409, 503))
async def decline_again(table_id: TableId, request: Request) -> TableOut:
    """Decline to play a finished game again: the table shows it, and the others who say
    yes play again without you."""
    return await tables.play_again(request, table_id, AgainIn(), yes=False)


@router.get("/matches/{match_id}", response_model=MatchDetail, responses=errors(404))
def get_match(match_id: Annotated[str, Path(pattern=TABLE_ID)],
              request: Request) -> MatchDetail:
    """A match: its goal, its running totals per side and each hand's table and
    points (the hands the policy shows the one who asks)."""
    srv = deps.server(request)
    with srv.store.session(write=False) as s:
        m = s.get(MatchRow, match_id)
        seen = s.scalars(policy.match_tables(deps.me(request, s), match_id)).first()
        if m is None or seen is None:
            raise ApiError(404, "no_match", _("there is no such match"))
        return MatchDetail.model_validate(
            match_json(m, None) | {"ruleset": m.ruleset, "players": m.players,
                                   "status": m.status, "tables": hands_json(s, m.id)})


@router.get("/tables/{table_id}/record", responses=errors(403, 404, 409))
def game_record(table_id: TableId, request: Request, invite: Invite = None) -> Response:
    """The finished game's record (the format ``fido replay`` verifies), to download."""
    record = deps.finished_record(request, table_id, "record", invite)
    return Response(
        record, media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="fido-{table_id}.json"'},
    )


@router.get("/tables/{table_id}/replay", responses=errors(403, 404, 409))
def game_replay(table_id: TableId, request: Request, invite: Invite = None) -> dict[str, Any]:
    """A finished game move by move with every hand open: the replay's steps."""
    record = deps.finished_record(request, table_id, "replay", invite)
    return replay_json(GameRecord.from_json(record))
