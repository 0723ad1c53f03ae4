"""The table assistant over HTTP: the browser holds the game, the server judges it.

A game played with real tiles lives in the browser that enters it (its
``localStorage``): the setup, who opened, and the list of moves. Every
request sends all of it, and the server answers with the state after the
longest prefix it accepts, the first refused move and why, the table's
drawing (:func:`fido.server.wire.layout_json`) and where each tile may go.
Nothing is stored until the result sheet is sent to the ranking, so moves
entered while the connection is down are simply in the next request, and a
reload loses nothing (docs/web.md, "The table assistant").

* ``POST /api/assistant/state``: judge a game (stores nothing, so it needs no
  CSRF token: it is a computation, like a GET with a body).
* ``POST /api/assistant/sheet``: the finished game's result sheet into the
  ranking (:func:`fido.ranking.submit`, source ``sheet``), when every player
  is a ranking player; signed in, with the CSRF token.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Request
from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from sqlalchemy.orm import Session

from fido.assistant import AssistantError, TableAssistant
from fido.engine.rules import FIDO_DIVISORS, Ruleset, ruleset
from fido.errors import FidoError
from fido.i18n import _
from fido.layout import Layouter
from fido.safe_text import control_chars
from fido.server import deps
from fido.server.deps import CsrfChecked
from fido.server.errors import ApiError
from fido.server.schemas import ErrorBody
from fido.server.wire import layout_json, target_slot
from fido.store.models import INT_MAX

if TYPE_CHECKING:
    pass

__all__ = ["AssistantGame", "game_state", "router"]

SETS = (6, 9, 12, 15, 18)  # the FIDO sets the setup page offers (3-9 players each)
MAX_MOVES = 400  # a double-18 game has at most 190 placements and 190 draws and passes


def _text(text: str) -> str:
    bad = control_chars(text)
    if bad:
        raise ValueError(_("it holds control characters ({chars})").format(
            chars=", ".join(dict.fromkeys(bad))))
    text = unicodedata.normalize("NFC", text)
    if text != text.strip():
        raise ValueError(_("it must not begin or end with a space"))
    return text


PlayerName = Annotated[str, Field(min_length=1, max_length=40), AfterValidator(_text)]
MoveText = Annotated[str, Field(min_length=1, max_length=16)]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SeatIn(_In):
    """One player, in the order they sit (play goes round in this order)."""

    name: PlayerName
    number: int | None = Field(default=None, ge=1, le=INT_MAX, description="ranking number")


class AssistantGame(_In):
    """A game as the browser holds it."""

    set: int = Field(description="double-n: 6, 9, 12, 15 or 18 (FIDO's divisor)")
    counterclockwise: bool = False
    seats: list[SeatIn] = Field(min_length=3, max_length=9)
    opener: int | None = Field(default=None, ge=0, le=8, description="who opens (seat)")
    moves: list[MoveText] = Field(default=[], max_length=MAX_MOVES)
    pips: list[int] | None = Field(default=None, description="pips left, once the game is over")


class SheetIn(AssistantGame):
    """The finished game and the sheet's date and place, for the ranking."""

    date: dt.date
    event: Annotated[str, Field(min_length=1, max_length=200), AfterValidator(_text)]


def _rules(game: AssistantGame) -> Ruleset:
    if game.set not in SETS:
        raise ApiError(422, "invalid", _("set: double-{set} is not offered (one of {sets})")
                       .format(set=game.set, sets=", ".join(map(str, SETS))))
    direction = "counterclockwise" if game.counterclockwise else "clockwise"
    return ruleset("fido", set=game.set, direction=direction)


def _assistant(game: AssistantGame) -> tuple[TableAssistant, dict[str, Any] | None]:
    """The game replayed: the assistant after the accepted moves, and the refusal if any."""
    rules = _rules(game)
    if game.opener is not None and game.opener >= len(game.seats):
        raise ApiError(422, "invalid",
                       _("opener: there is no seat {seat}").format(seat=game.opener))
    numbers = [s.number for s in game.seats if s.number is not None]
    if len(set(numbers)) != len(numbers):
        raise ApiError(422, "invalid", _("seats: a ranking player sits at the table twice"))
    try:
        a = TableAssistant(rules, len(game.seats), [s.name for s in game.seats])
    except FidoError as e:
        raise ApiError(422, "invalid", str(e)) from None
    try:
        a.load(game.opener, game.moves)
    except AssistantError as e:
        index = e.index if e.index is not None else 0
        return a, {"index": index, "move": game.moves[index], "message": str(e)}
    return a, None


def game_state(game: AssistantGame) -> dict[str, Any]:
    """The answer to ``POST /api/assistant/state`` (docs/web.md)."""
    a, refused = _assistant(game)
    rules = a.rules
    table = a.table
    history = a.history
    out: dict[str, Any] = {
        "ruleset": rules.text(),
        "divisor": rules.divisor,
        "max_pips": rules.max_pips,
        "names": list(a.names),
        "accepted": len(history),
        "refused": refused,
        "opener": a.opener,
        "to_move": a.to_move,
        "sum": a.ends_sum,
        "scores": list(a.scores),
        "hand_counts": list(a.hand_counts),
        "stock": a.stock_count,
        "over": a.is_over,
        "table": [p.text() for p in table.placements],
        "history": [
            {"seat": t.seat, "move": t.move.text(), "points": t.points, "sum": t.ends_sum}
            for t in history
        ],
        "layout": layout_json(Layouter.from_table(table, rules.max_pips)),
        "unplayed": [t.text() for t in a.unplayed()],
        "targets": [
            {"move": m.text(), "tile": m.tile.text(),
             "slot": target_slot(table, m),
             "points": a.points_for(m)}
            for m in a.targets()
        ] if a.to_move is not None else [],
        "can_draw": a.stock_count > 0,
        "outcome": None,
        "pip_bounds": None,
        "result": None,
        "pips_error": None,
    }
    outcome = a.outcome
    if outcome is not None:
        out["outcome"] = {"termination": outcome.termination.value, "out_seat": outcome.out_seat}
        out["pip_bounds"] = [list(b) for b in a.pip_bounds()]
        if game.pips is not None and refused is None:
            try:
                out["result"] = a.result(game.pips).to_dict()
            except AssistantError as e:
                out["pips_error"] = str(e)
    return out


def _ranking_names(s: Session, game: AssistantGame) -> list[str | None]:
    """The ranking's name of every numbered player (an error names a wrong number)."""
    from fido.ranking import ResultError, find_player  # noqa: PLC0415

    out: list[str | None] = []
    for i, seat in enumerate(game.seats):
        if seat.number is None:
            out.append(None)
            continue
        try:
            out.append(find_player(s, seat.number, live=True).name)
        except ResultError as e:
            raise ApiError(422, "invalid", _("seat {seat} ({name}): {reason}").format(
                seat=i + 1, name=seat.name, reason=e), field=f"seats.{i}") from None
    return out


router = APIRouter(prefix="/api/assistant", tags=["assistant"])


errors: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody} for status in (401, 403, 409, 422)
}


@router.post("/state", responses=errors)
def state(body: AssistantGame, request: Request) -> dict[str, Any]:
    """Judge a game entered at a real table: the state after the moves it accepts,
    the first refused move and the engine's reason; stores nothing."""
    srv = deps.server(request)
    out = game_state(body)
    if any(s.number is not None for s in body.seats):
        with srv.store.session(write=False) as s:
            out["ranking_names"] = _ranking_names(s, body)
    return out


@router.post("/sheet", status_code=201, dependencies=CsrfChecked, responses=errors)
def sheet(body: SheetIn, request: Request) -> dict[str, Any]:
    """Send the finished game's result sheet to the ranking (source ``sheet``); the
    other players then confirm it. Every player must be a ranking player."""
    from pydantic import ValidationError  # noqa: PLC0415

    from fido.accounts.roles import RoleError  # noqa: PLC0415
    from fido.ranking import ResultError, ResultIn  # noqa: PLC0415
    from fido.ranking.players import first_error  # noqa: PLC0415
    from fido.server.sheet_entry import enter_sheet  # noqa: PLC0415

    srv = deps.server(request)
    out = game_state(body)
    if out["refused"] is not None:
        raise ApiError(409, "refused", _("move {n} is refused: {reason}").format(
            n=out["refused"]["index"] + 1, reason=out["refused"]["message"]))
    if out["result"] is None:
        raise ApiError(409, "not_over", out["pips_error"] or (
            _("enter the pips left in every hand first") if out["over"]
            else _("the game is not over yet")))
    missing = [s.name for s in body.seats if s.number is None]
    if missing:
        raise ApiError(409, "unranked", _("not ranking players: {names}; the sheet is "
                                          "shown, not sent").format(names=", ".join(missing)))
    with srv.store.session() as s:
        account = deps.me(request, s)
        if account is None or account.guest:
            raise ApiError(401, "signed_out", _("sign in to send the sheet to the ranking"))
        _ranking_names(s, body)
        seats = out["result"]["seats"]
        result = {
            "date": body.date, "event": body.event, "set": body.set,
            "divisor": FIDO_DIVISORS[body.set], "source": "sheet",
            "submitted_by": account.player.number if account.player else None,
            "lines": [
                {"player": seat.number, "points": r["points"], "pips": r["pips"]}
                for seat, r in zip(body.seats, seats, strict=True)
            ],
        }
        try:
            row, new = enter_sheet(s, account, ResultIn.model_validate(result),
                                   [seat.number for seat in body.seats if seat.number])
        except RoleError as e:
            raise ApiError(403, "not_yours", str(e)) from None
        except ResultError as e:
            raise ApiError(422, "invalid", str(e)) from None
        except ValidationError as e:
            raise ApiError(422, "invalid", first_error(e, "sheet")) from None
        return {"game": row.id, "new": new, "result": out["result"]}
