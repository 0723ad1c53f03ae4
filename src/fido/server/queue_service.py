"""The queue, the one way (docs/server.md, "Play with people"): join it, see her entry and
how many wait for each game (her poll is her heartbeat), leave it.

The routes of :mod:`fido.server.queue_api` and the lobby page (:mod:`fido.web.pages`)
both call these. The pairing itself is :mod:`fido.server.queue`; each join and each poll
runs it once, so a table is formed as soon as its people are there, on whichever process
they ask.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Annotated, Literal

from fastapi import Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import or_, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from fido.engine.rules import RULESETS, Ruleset
from fido.errors import FidoError
from fido.i18n import _
from fido.server import deps, policy, queue
from fido.server.errors import ApiError
from fido.server.pairing import Strengths
from fido.server.tables.timers import TURN_BASED
from fido.store import Account, QueueEntry

__all__ = [
    "BOTS_AFTER_MAX",
    "TURN_BASED_GAMES",
    "TURN_BASED_MAX",
    "QueueIn",
    "QueueOut",
    "game_ruleset",
    "join",
    "leave",
    "state",
]

BOTS_AFTER_MAX = 600  # seconds; the page offers 30, 60 and 120 (a test asks for fewer)
TURN_BASED_MAX = 259200  # seconds a move: three days, the lobby's longest clock
TURN_BASED_GAMES = 20  # running turn-based tables a person may hold when she asks for one more


class QueueIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: Annotated[str, Field(min_length=1, max_length=40, examples=["fido"])]
    set: Annotated[int, Field(ge=1, le=99)] | None = None  # FIDO's set (default: its own)
    players: Annotated[int, Field(ge=2, le=9)] | None = None  # None: any table size
    bots_after: Annotated[int, Field(ge=1, le=BOTS_AFTER_MAX)] | None = None  # None: never
    # a turn-based table's time per move (an hour to three days); None: real time
    clock: Annotated[int, Field(ge=TURN_BASED, le=TURN_BASED_MAX)] | None = None


class EntryOut(BaseModel):
    ruleset: str
    players: int | None
    bots_after: int | None
    clock: int | None  # turn-based: seconds a move
    status: Literal["waiting", "seated"]
    # about how many seconds more until enough people near her strength wait with her
    # (0: now), if they stay; None: too few wait for her game yet
    estimate: float | None = None
    waited: float  # seconds since she joined
    table: str | None  # seated: her table's id
    seat: int | None


class GameCount(BaseModel):
    ruleset: str
    clock: int | None  # turn-based: seconds a move; None: real time
    waiting: int


class QueueOut(BaseModel):
    entry: EntryOut | None
    games: list[GameCount]  # how many people wait, each game some wait for
    online: int  # accounts seen in the last minutes (docs/server.md)


def game_ruleset(body: QueueIn) -> str:
    """The game asked for as a ruleset's text, and the size checked against it (422);
    a challenge names its game the same way."""
    if body.game not in RULESETS:
        raise ApiError(422, "invalid", _("there is no game named {name}").format(
            name=repr(body.game)), field="game")
    words = [body.game]
    if body.set is not None:
        if body.game != "fido":
            raise ApiError(422, "invalid", _("only FIDO is played on a chosen set"),
                           field="set")
        words.append(f"set={body.set}")
    try:
        text = Ruleset.from_text(" ".join(words)).text()
        can = queue.sizes(text)
    except FidoError as e:
        raise ApiError(422, "invalid", _("ruleset: {reason}").format(reason=e),
                       field="set") from None
    if body.players is not None and body.players not in can:
        raise ApiError(422, "invalid", _("this game is played by {least} to {most} players")
                       .format(least=can[0], most=can[-1]), field="players")
    return text


def _estimate(s: Session, entry: QueueEntry) -> float | None:
    """How long until enough people near her strength wait with her (pairing.py)."""
    fresh = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=queue.STALE)
    others = list(s.scalars(select(QueueEntry).where(
        QueueEntry.status == "waiting", QueueEntry.ruleset == entry.ruleset,
        QueueEntry.clock.is_(None) if entry.clock is None else QueueEntry.clock == entry.clock,
        or_(QueueEntry.clock.is_not(None), QueueEntry.seen_at >= fresh)).limit(200)))
    others = [x for x in others if queue.fits_with(entry, x)]
    try:
        strengths = Strengths.read(s, entry.ruleset, [entry, *others], dt.datetime.now(dt.UTC))
    except FidoError:
        return None
    found = strengths.estimate(entry, others, queue.needed(entry))
    return None if found is None else round(found, 1)


def _out(s: Session, me: Account | None) -> QueueOut:
    entry = policy.queue_entry(s, me)
    mine = None
    if entry is not None:
        seated = entry.status == "seated" and queue.is_seated(s, entry)
        joined = entry.joined_at if entry.joined_at.tzinfo else entry.joined_at.replace(
            tzinfo=dt.UTC)
        mine = EntryOut(
            ruleset=entry.ruleset, players=entry.players, bots_after=entry.bots_after,
            clock=entry.clock,
            # seated once her seat is hers: her page goes to the table then
            status="seated" if seated else "waiting",
            waited=round((dt.datetime.now(dt.UTC) - joined).total_seconds(), 1),
            estimate=None if seated else _estimate(s, entry),
            table=entry.table_id if seated else None, seat=entry.seat if seated else None)
    games = [GameCount(ruleset=r, clock=c, waiting=n) for (r, c), n in
             sorted(queue.counts(s).items(), key=lambda kv: (kv[0][0], kv[0][1] or 0))]
    return QueueOut(entry=mine, games=games, online=queue.online(s))


async def _paired(request: Request) -> None:
    """One turn of the pairing, and the seating of what it formed."""
    srv = deps.server(request)
    skip_locked = srv.store.engine.dialect.name == "postgresql"

    def work() -> list[queue.Formed]:
        with srv.store.session(write=False) as s:
            if not queue.anyone(s):  # a lobby's poll with nobody waiting: no write
                return []
        with srv.store.session() as s:
            return queue.pair(s, skip_locked=skip_locked)

    try:
        formed = await asyncio.to_thread(work)
    except OperationalError:  # busy: the next poll pairs
        return
    await queue.seat(srv.store, srv.hub, formed)


async def _answer(request: Request) -> QueueOut:
    """What she sees of the queue now (seated again by this process if the one that
    paired her stopped before seating her)."""
    srv = deps.server(request)

    def read() -> tuple[QueueOut, queue.Formed | None]:
        with srv.store.session(write=False) as s:
            me = deps.me(request, s)
            entry = policy.queue_entry(s, me)
            again = queue.seat_again(s, entry) if entry is not None else None
            return _out(s, me), again

    out, again = await asyncio.to_thread(read)
    if again is not None:  # the process that paired her stopped before seating her
        await queue.seat(srv.store, srv.hub, [again])
        out, _again = await asyncio.to_thread(read)
    return out


async def join(request: Request, body: QueueIn) -> QueueOut:
    """Wait for a table of people for a game (any size or one); a wait before bots
    fill the other seats, or none; a real-time table, or a turn-based one (``clock``:
    she may close the page, and may wait while she plays elsewhere). A second request
    replaces her first."""
    ruleset = game_ruleset(body)
    srv = deps.server(request)

    def enter() -> None:
        with srv.store.session() as s:
            me = deps.signed_in(request, s)
            if body.clock is not None:  # games of days: a few at once, within a bound
                policy.check_turn_based_games(s, me, TURN_BASED_GAMES)
            elif (table := policy.playing_at(s, me)) is not None:
                raise ApiError(409, "playing", _(
                    "you are playing at table {table}: the queue finds you your next "
                    "game once that one is over").format(table=table))
            tag = deps.address_tag(request)
            if body.bots_after is not None:  # a table with bots, counted where she is
                policy.check_bot_tables_here(s, tag, srv.limits.bot_tables_per_address)
            entry = policy.queue_entry(s, me, lock=True)
            now = dt.datetime.now(dt.UTC)
            if entry is None:
                entry = QueueEntry(account_id=me.id)
                s.add(entry)
            entry.ruleset, entry.players, entry.bots_after, entry.clock = (
                ruleset, body.players, body.bots_after, body.clock)
            entry.status, entry.table_id, entry.seat = "waiting", None, None
            entry.joined_from = tag
            entry.joined_at = entry.seen_at = now

    try:
        await asyncio.to_thread(enter)
    except IntegrityError:  # her other request entered her at the same moment
        raise ApiError(409, "queue_busy", _("you joined the queue twice at once: "
                                            "try again")) from None
    await _paired(request)
    return await _answer(request)


async def state(request: Request) -> QueueOut:
    """Her entry (waiting, or seated with her table), how many wait for each game and
    how many people are online. Polling it keeps her in the queue: an entry not asked
    for in 30 seconds is dropped."""
    srv = deps.server(request)

    def heartbeat() -> None:
        with srv.store.session() as s:
            entry = policy.queue_entry(s, deps.me(request, s))
            if entry is not None:
                entry.seen_at = dt.datetime.now(dt.UTC)

    if deps.session_cookie(request):
        await asyncio.to_thread(heartbeat)
    await _paired(request)
    return await _answer(request)


async def leave(request: Request) -> QueueOut:
    """Leave the queue (a table already formed for her stays hers)."""
    srv = deps.server(request)

    def drop() -> None:
        with srv.store.session() as s:
            me = deps.signed_in(request, s)
            entry = policy.queue_entry(s, me, lock=True)
            if entry is None:
                raise ApiError(409, "not_queued", _("you are not waiting for a table"))
            s.delete(entry)

    await asyncio.to_thread(drop)
    return await _answer(request)
