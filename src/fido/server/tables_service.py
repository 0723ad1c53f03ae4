"""Tables, the one way to them: open one, list them, read one, join, leave, play again.

The lobby's routes (:mod:`fido.server.lobby`) and the web pages (:mod:`fido.web.pages`)
both call these, with the request that asks (its session, its address): the checks, the
limits and the room's lock are written once. Seats change through the table's
:class:`~fido.server.tables.Room` (its lock, its log), so a join is an event every
connection of the table sees; a table starts by itself when its last seat is taken.
Refusals are :class:`~fido.errors.Refused` (an :class:`ApiError` for the request
layer's own checks).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import secrets
from typing import TYPE_CHECKING, Any, Literal

from fastapi import Request
from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session, selectinload

from fido.accounts import notifications as notes
from fido.accounts import signup as accounts
from fido.engine.rules import FIDO_DIVISORS, Ruleset
from fido.errors import FidoError, Refused
from fido.i18n import _, ngettext
from fido.server import deps, policy
from fido.server.errors import ApiError
from fido.server.limits import Limits
from fido.server.schemas import (
    MATCH_HANDS,
    MATCH_TARGET,
    AgainIn,
    JoinIn,
    TableIn,
    TableList,
    TableOut,
)
from fido.server.tables import seat_info
from fido.server.tables.matches import DEFAULT_HANDS, new_match
from fido.server.tables.timers import TIMEOUTS, turn_based
from fido.store import INT_MAX, Account, SeatRow, TableRow

if TYPE_CHECKING:
    from fido.server.deps import Server
    from fido.server.tables import Room

__all__ = [
    "Status",
    "check_bot_tables",
    "finished",
    "join",
    "leave",
    "list_tables",
    "new_table",
    "open_table",
    "person",
    "play_again",
    "table",
]

PER_PERSON = 3  # open tables of one person the lobby lists (the rest: her own page)
TABLE_PIPS = max(FIDO_DIVISORS)  # the largest set a table plays with: FIDO's, double-21
Status = Literal["open", "running", "finished"]


def _out(info: dict[str, Any], account: Account | None) -> TableOut:
    """The table as ``account`` sees it: her seat, the seat reserved for her, whether she
    may take one (``info["reserved"]``: each seat's reserved-for name key, never shown)."""
    out = TableOut.model_validate({k: v for k, v in info.items()
                                   if k not in ("invite", "reserved")})
    key = accounts.name_key(account.name) if account is not None and account.name else None
    reserved = info.get("reserved") or [None] * len(out.seats)
    for seat, whom in zip(out.seats, reserved, strict=False):
        seat.for_you = seat.kind == "reserved" and key is not None and whom == key
    if account is not None:
        mine = [i for i, seat in enumerate(out.seats)
                if seat.kind == "person" and seat.account == account.id]
        if mine:
            out.my_seat = mine[0]
            out.invite = info.get("invite")
    if out.status == "open" and out.my_seat is None:
        out.her_seat = next((i for i, seat in enumerate(out.seats) if seat.for_you), None)
        out.joinable = out.her_seat is not None or (
            not out.private and any(seat.kind == "open" for seat in out.seats))
    return out


def _room_info(room: Room, invite: bool = True) -> dict[str, Any]:
    """A live table's info for :func:`_out`: whom its seats are reserved for (and its
    invite, which :func:`_out` shows its seated people only)."""
    info = room.info() | {"reserved": [s.reserved_for for s in room.seats]}
    return info | {"invite": room.invite} if invite else info


def _check_table(body: TableIn, s: Session, me: Account) -> tuple[str, list[SeatRow]]:
    try:
        rules = Ruleset.from_text(body.ruleset)
        rules.hand_size(body.players)  # checks the player count and that the set suffices
    except FidoError as e:
        raise ApiError(422, "invalid", _("ruleset: {reason}").format(reason=e)) from None
    if rules.max_pips > TABLE_PIPS:
        # the engine takes custom sets to double-99 for research; a table's every move
        # costs with the set (hands of 500 tiles on double-99), so tables stop at FIDO's
        raise ApiError(422, "invalid", _("ruleset: a table plays with sets up to double-{n}, "
                                         "not double-{set}").format(n=TABLE_PIPS,
                                                                    set=rules.max_pips))
    default = [{"kind": "me"}] + [{"kind": "open"}] * (body.players - 1)
    seats: list[dict[str, Any]] = (
        [x.model_dump() for x in body.seats] if body.seats is not None else default
    )
    if len(seats) != body.players:
        raise ApiError(422, "invalid", ngettext(
            "{n} player needs {n} seat", "{n} players need {n} seats", body.players,
        ).format(n=body.players))
    if sum(x["kind"] == "me" for x in seats) > 1:
        raise ApiError(422, "invalid", _("one seat at most is yours"))
    if body.rated and (rules.name != "fido" or any(x["kind"] == "bot" for x in seats)):
        raise ApiError(422, "invalid", _("a rated game is FIDO between people: no bots"))
    if body.rated and me.guest:
        raise ApiError(403, "guest", _("a guest cannot open a rated table: sign up first"))
    if body.rated and me.player_id is None and any(x["kind"] == "me" for x in seats):
        raise ApiError(403, "unrated", _("a rated table needs an account linked to a "
                                         "ranking player: ask the federation for yours "
                                         "(PUT /api/account/player)"))
    rows = []
    for i, x in enumerate(seats):
        kind = x["kind"]
        if kind == "bot":
            if x.get("level") is None:
                raise ApiError(422, "invalid", _("seat {seat}: a bot needs a level").format(seat=i))
            rows.append(SeatRow(seat=i, kind="bot", bot=x["level"]))
        elif kind == "reserved":
            name = x.get("name")
            if name is None:
                raise ApiError(422, "invalid", _(
                    "seat {seat}: whom is it reserved for? give a name").format(seat=i))
            key = accounts.name_key(name)
            if s.scalar(select(Account.id).where(Account.name_key == key)) is None:
                raise ApiError(404, "no_account", _("seat {seat}: there is no account named {name}")
                               .format(seat=i, name=repr(name)))
            rows.append(SeatRow(seat=i, kind="reserved", reserved_for=key))
        else:  # me (seated by a join, below) or open
            rows.append(SeatRow(seat=i, kind="open"))
    if not any(x["kind"] in ("me", "open", "reserved") for x in seats):
        raise ApiError(422, "invalid", _("a table of bots alone has no one to play"))
    return rules.text(), rows


def _check_match(body: TableIn, rules: Ruleset) -> tuple[str, int] | None:
    """The match asked for (its kind and goal), or None for one hand."""
    if body.match is None:
        return None
    goal = body.match.goal
    if body.match.kind == "hands":
        goal = DEFAULT_HANDS if goal is None else goal
        lo, hi = MATCH_HANDS
        if not lo <= goal <= hi:
            raise ApiError(422, "invalid", _("a match has {lo} to {hi} hands, not {n}").format(
                lo=lo, hi=hi, n=goal), field="match.goal")
        return "hands", goal
    goal = rules.match_target if goal is None else goal
    if goal is None:
        raise ApiError(422, "invalid", _("this game has no target of its own: say to how "
                                         "many points the match is played"),
                       field="match.goal")
    lo, hi = MATCH_TARGET
    if not lo <= goal <= hi:
        raise ApiError(422, "invalid", _("a match's target is {lo} to {hi} points, not {n}")
                       .format(lo=lo, hi=hi, n=goal), field="match.goal")
    return "points", goal


def new_table(s: Session, body: TableIn, creator: Account,
              opened_from: str | None = None) -> TableRow:
    """Add the table ``body`` describes, checked, to the session, its seats open or as
    ``body`` says (its ``me`` seat open: the room seats her, :meth:`Room.join`), opened
    from the address ``opened_from`` (a tag, :func:`fido.server.deps.address_tag`): every
    table is made here, the lobby's and the queue's (:mod:`fido.server.queue`)."""
    ruleset, rows = _check_table(body, s, creator)
    match = _check_match(body, Ruleset.from_text(ruleset))
    table = TableRow(
        id=secrets.token_urlsafe(9), ruleset=ruleset, players=body.players, status="open",
        rated=body.rated, rates=body.rates, private=body.private, clock=body.clock,
        grace=body.grace,
        timeouts=(body.timeouts if body.timeouts is not None
                  else TIMEOUTS if turn_based(body.clock) else None),
        forced=turn_based(body.clock) if body.forced is None else body.forced,
        invite=secrets.token_urlsafe(12), created_by=creator.id,
        created_at=dt.datetime.now(dt.UTC), seq=0, move_seq=0, opened_from=opened_from,
    )
    table.seats = rows
    if match is not None:
        m = new_match(s, ruleset, body.players, match, created_by=creator.id)
        table.match_id, table.hand = m.id, 1
    s.add(table)
    s.flush()  # the table's row first: her notice names it
    reserved = {r.reserved_for for r in rows if r.reserved_for}
    if reserved:  # each person a seat is reserved for finds it in her inbox
        notes.notify_seat(s, s.scalars(select(Account.id).where(
            Account.name_key.in_(reserved), Account.id != creator.id)), table.id)
    return table


async def open_table(request: Request, body: TableIn) -> TableOut:
    """Open a table; with a ``me`` seat (the default) its opener sits there at once."""
    srv = deps.server(request)

    def create() -> tuple[str, Account, int | None]:
        with srv.store.session() as s:
            me = deps.signed_in(request, s)
            ruleset, _rows = _check_table(body, s, me)
            _check_match(body, Ruleset.from_text(ruleset))  # refused before it counts
            _check_open_tables(s, me, srv.limits.open_tables_per_account)
            tag = deps.address_tag(request)
            check_bot_tables(s, me, body, srv.limits, tag)
            deps.count_against(request, srv.opened, lambda n: ngettext(
                "too many tables opened from your address: try again in {n} second",
                "too many tables opened from your address: try again in {n} seconds", n))
            table_id = new_table(s, body, me, tag).id
            kinds = [x.kind for x in (body.seats or [])] or ["me"]
            mine = kinds.index("me") if "me" in kinds else None
            s.expunge(me)
            return table_id, me, mine

    table_id, me, mine = await asyncio.to_thread(create)
    room = await deps.room(request, table_id)
    if mine is not None:
        try:
            await room.join(me, mine, room.invite)
        except Refused:
            await asyncio.to_thread(_drop, srv, table_id)  # no table without its creator
            srv.hub.rooms.pop(table_id, None)
            raise
    return _out(_room_info(room), me)


def list_tables(request: Request, status: Status = "open", limit: int = 50,
                account: int | None = None) -> TableList:
    """Public tables by status, newest first, and the private ones she sits at; with
    ``account``, only the tables where that account has a seat (her games)."""
    srv = deps.server(request)
    with srv.store.session(write=False) as s:
        me = deps.me(request, s)
        query = policy.listed_tables(me).where(TableRow.status == status)
        if status == "open" and account is None:  # a few of each person's: everyone's
            query = query.where(TableRow.id.in_(_newest_of_each(PER_PERSON)))
        if account is not None:
            query = query.where(TableRow.id.in_(
                select(SeatRow.table_id).where(SeatRow.account_id == account)))
        rows = s.scalars(query.order_by(TableRow.created_at.desc()).limit(limit).options(
            selectinload(TableRow.seats).selectinload(SeatRow.account))).all()
        return TableList(tables=[_out(_row_info(r), me) for r in rows])


async def table(request: Request, table_id: str) -> TableOut:
    """A live table as the one who asks sees it (404 when there is none)."""
    room = await deps.room(request, deps.table_id(table_id))
    me = await deps.account(request)
    return _out(_room_info(room), me)


async def join(request: Request, table_id: str, body: JoinIn) -> TableOut:
    """Take a seat (a free one, the one reserved for her, or the one she names)."""
    room = await deps.room(request, deps.table_id(table_id))
    me = await deps.account(request, required=True)
    assert me is not None
    await room.join(me, body.seat, body.invite)
    await asyncio.to_thread(_seat_taken, deps.server(request), me.id, table_id)
    return _out(_room_info(room), me)


async def leave(request: Request, table_id: str) -> TableOut:
    """Leave her seat before the game starts (the last person out closes the table)."""
    room = await deps.room(request, deps.table_id(table_id))
    me = await deps.account(request, required=True)
    assert me is not None
    await room.leave(me)
    return _out(_room_info(room, invite=False), me)


async def play_again(request: Request, table_id: str, body: AgainIn, *,
                     yes: bool = True) -> TableOut:
    """Say yes to playing a finished game (or match) again with the same seats and
    settings; when everyone still at the table has, the new table is ``next``.
    ``bots``: the table's creator asks for bots in the seats of those who left. ``yes``
    false: she declines (the others play again without her)."""
    srv, table_id = deps.server(request), deps.table_id(table_id)

    def who() -> tuple[Account, int]:
        with srv.store.session(write=False) as s:
            me = deps.me(request, s)
            seat = policy.rematch_seat(s, table_id, me)
            assert me is not None
            s.expunge(me)
            return me, seat

    me, seat = await asyncio.to_thread(who)
    room = await srv.hub.room(table_id, keep=True)
    await room.after.play_again(seat, me.id, body.bots, yes=yes)
    if not room.feed.conns:
        srv.hub.finished(room)
    return _out(room.info() | {"invite": room.invite}, me)


def finished(s: Session, me: Account | None, *, seated: int | None = None,
             limit: int = 100) -> list[TableRow]:
    """The finished tables ``me`` may see, the last finished first; with ``seated``, the
    tables where that account had a seat, the newest first (her page). The rows keep
    their seats, their people and their match for ``s``'s life."""
    query = policy.listed_tables(me)
    if seated is None:
        query = query.where(TableRow.status == "finished").order_by(
            TableRow.finished_at.desc())
    else:
        query = query.join(SeatRow, SeatRow.table_id == TableRow.id).where(
            SeatRow.account_id == seated).order_by(TableRow.created_at.desc())
    return list(s.scalars(query.limit(limit).options(
        selectinload(TableRow.seats).selectinload(SeatRow.account),
        selectinload(TableRow.match))))


def running(s: Session, me: Account, limit: int = 100) -> list[tuple[TableRow, int]]:
    """Her running games and her seat at each: those waiting for her move first, the
    one whose clock ends soonest first (no clock: last), then the others, the newest
    first (her list of games, at a turn-based table above all). The rows keep their
    seats and their people for ``s``'s life."""
    waiting = TableRow.turn == SeatRow.seat
    query = (select(TableRow, SeatRow.seat).join(SeatRow, SeatRow.table_id == TableRow.id)
             .where(TableRow.status == "running", SeatRow.account_id == me.id)
             .options(selectinload(TableRow.seats).selectinload(SeatRow.account))
             .order_by(waiting.desc(), TableRow.created_at.desc())  # the limit keeps hers
             .limit(limit))

    def order(pair: tuple[TableRow, int]) -> tuple[bool, float]:
        row, seat = pair
        if row.turn == seat:  # hers: the clock that ends first first, no clock last
            return False, row.deadline if row.deadline is not None else float("inf")
        return True, -row.created_at.timestamp()

    return sorted(((row, seat) for row, seat in s.execute(query)), key=order)


def person(s: Session, account_id: int) -> Account | None:
    """The account with this number, if any (a player's page)."""
    return s.get(Account, account_id) if 0 < account_id <= INT_MAX else None


def _check_open_tables(s: Session, me: Account, most: int) -> None:
    """A person has at most ``most`` tables waiting for players at once (0: any number)."""
    if most <= 0:
        return
    waiting = s.scalar(select(func.count()).select_from(TableRow).where(
        TableRow.created_by == me.id, TableRow.status == "open")) or 0
    if waiting >= most:
        raise ApiError(429, "too_many_open_tables", ngettext(
            "{n} table of yours is waiting for players: start or leave it first",
            "{n} tables of yours are waiting for players: start or leave one of them first",
            waiting).format(n=waiting))


def check_bot_tables(s: Session, me: Account, body: TableIn, limits: Limits,
                      tag: str) -> None:
    """A person plays at most so many tables with bots at once, fewer with strong ones
    (their decisions take the shared workers for seconds), and so does an address (``tag``:
    its guests would multiply a person's bound): a table of her and eight bots starts at
    once, so the open tables' rule never sees it."""
    levels = {x.level for x in body.seats or [] if x.kind == "bot"}
    if not levels:
        return
    strong_here = bool(levels & set(policy.STRONG_BOTS))
    for strong, most in ((False, limits.bot_tables_per_account),
                         (True, limits.strong_bot_tables_per_account)):
        if most <= 0 or (strong and not strong_here):
            continue
        playing = policy.bot_tables(s, me, strong=strong)
        if playing >= most:
            raise ApiError(429, "too_many_bot_tables", (ngettext(
                "you play at {n} table with strong bots (search, champion): finish it first",
                "you play at {n} tables with strong bots (search, champion): finish one "
                "of them first", playing) if strong else ngettext(
                "you play at {n} table with bots: finish it first",
                "you play at {n} tables with bots: finish one of them first", playing))
                .format(n=playing))
    for strong, most in ((False, limits.bot_tables_per_address),
                         (True, limits.strong_bot_tables_per_address)):
        if strong_here or not strong:
            policy.check_bot_tables_here(s, tag, most, strong=strong)


def _newest_of_each(n: int) -> Select[tuple[str]]:
    """The ids of each creator's ``n`` newest open tables."""
    rank = func.row_number().over(partition_by=TableRow.created_by,
                                  order_by=TableRow.created_at.desc()).label("rank")
    ranked = select(TableRow.id, rank).where(TableRow.status == "open").subquery()
    return select(ranked.c.id).where(ranked.c.rank <= n)


def _seat_taken(srv: Server, account_id: int, table_id: str) -> None:
    """Her notice of a seat reserved for her at this table is read: she sat down."""
    with srv.store.session() as s:
        notes.mark_read(s, account_id, table_id=table_id, kind="seat")


def _drop(srv: Server, table_id: str) -> None:
    with srv.store.session() as s:
        row = s.get(TableRow, table_id)
        if row is not None:
            s.delete(row)


def _row_info(row: TableRow) -> dict[str, Any]:
    return {
        "id": row.id, "ruleset": row.ruleset, "players": row.players, "status": row.status,
        "rated": row.rated, "private": row.private, "clock": row.clock, "grace": row.grace,
        "turn_based": turn_based(row.clock), "timeouts": row.timeouts, "forced": row.forced,
        "rates": row.rates,
        "deadline": row.deadline,
        "seats": [seat_info(r.kind, r.account_id, r.bot, r.reserved_for,
                            r.account.name if r.account is not None else None).public()
                  # a finished table no process holds: nobody is there any more
                  | {"away": row.status == "finished" and r.kind == "person"}
                  for r in row.seats],
        "seq": row.seq, "finished": row.record is not None,
        "reserved": [r.reserved_for for r in row.seats],
    }
