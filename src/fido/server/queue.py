"""Play with people: the queue that seats people waiting for the same game together, and
who is online.

A person asks for a game (a ruleset), a table size or any, and optionally bots for the
other seats after a wait she chooses; her entry is a row of ``play_queue``, so every
server process sees the same queue (PostgreSQL or SQLite). Her waiting page polls
(``GET /api/queue``): each poll is her heartbeat (an entry not polled for
:data:`STALE` seconds is dropped: she closed the page) and a turn of the pairing.

Or she asks for a turn-based game (a time per move of an hour or more, ``clock``): she
need not keep the page open (her entry waits up to :data:`TURN_BASED_WAIT`, and anyone's
poll pairs her), she is paired only with people who asked for the same time per move,
and the table she gets is turn-based; she finds it under Games and is told at her turn.

The pairing is one transaction (:func:`pair`): it reads the waiting entries (PostgreSQL:
``FOR UPDATE SKIP LOCKED``, so two processes pairing at once never take the same
person; SQLite has one writer at a time), forms tables longest-waiting first, makes each
table as the lobby makes tables (:func:`fido.server.tables_service.new_table`: the same checks,
every seat open or a bot) and marks its people seated, with the table and seat, before it
commits. After the commit each person is seated through the table's room
(:meth:`Room.join`: the last one deals); a process that stops in between leaves entries
seated at an open table, and the person's next poll seats her (:func:`seat_again`).

Who is online: the browser sessions seen in the last :data:`ONLINE` seconds, counted by
account. A session is seen at a request carrying its cookie (:class:`SeenSessions`,
written at most once a :data:`TOUCH` seconds a session and process) and while it holds a
table socket open (:func:`touch_sockets`, every :data:`TOUCH` seconds): the column
``web_sessions.seen_at``, so every process counts the same people.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import func, or_, select, update
from sqlalchemy.orm import Session
from starlette.types import ASGIApp, Receive, Scope, Send

from fido.accounts.sessions import COOKIE
from fido.accounts.social import ONLINE
from fido.engine.rules import Ruleset
from fido.errors import FidoError, Refused
from fido.server.pairing import Strengths
from fido.server.schemas import SeatIn, TableIn
from fido.server.tables_service import new_table
from fido.store import Account, QueueEntry, SeatRow, Store, TableRow, WebSession, aware

if TYPE_CHECKING:
    from fido.server.deps import Server
    from fido.server.hub import Hub

__all__ = [
    "BOT_LEVEL",
    "ONLINE",
    "STALE",
    "TURN_BASED_WAIT",
    "Formed",
    "SeenSessions",
    "anyone",
    "counts",
    "fits_with",
    "is_seated",
    "needed",
    "online",
    "pair",
    "seat",
    "seat_again",
    "sizes",
    "touch_sockets",
]

log = logging.getLogger("fido.server")

STALE = 30.0  # seconds without a poll: she left the page, her entry is dropped
TOUCH = 60.0  # seconds between two writes of one session's seen_at by one process
AWAY_AFTER = 15.0  # seconds after seating: whoever has not opened the table is away
BOT_LEVEL: Final = "expert"  # the bots that fill a table after her wait
ANY_SIZE = 4  # the table a person waiting for "any" size gets with bots (if the game has it)
SEATING = 5.0  # seconds a seated entry's seat may stay open before a poll seats her itself
TURN_BASED_WAIT = 7 * 86400.0  # seconds a turn-based entry waits without a poll


@dataclass(frozen=True)
class Formed:
    """A table the pairing made: its id and its people, (account id, seat) each."""

    table_id: str
    people: tuple[tuple[int, int], ...]


def sizes(ruleset: str) -> list[int]:
    """The table sizes a ruleset's set deals to, smallest first (FidoError: no ruleset)."""
    rules = Ruleset.from_text(ruleset)
    out = []
    for n in range(rules.min_players, rules.max_players + 1):
        try:
            rules.hand_size(n)
        except FidoError:
            continue
        out.append(n)
    return out


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)



def _fits(entry: QueueEntry, size: int) -> bool:
    return entry.players is None or entry.players == size


def _with_people(first: QueueEntry, free: list[QueueEntry], can: list[int],
                 strengths: Strengths) -> tuple[int, list[QueueEntry]] | None:
    """A table of people only for ``first`` (the longest waiting of ``free``) and those
    near her strength (:mod:`fido.server.pairing`), the nearest first: her size, or for
    "any" the largest size enough of them fit."""
    for size in [first.players] if first.players else sorted(can, reverse=True):
        if not _fits(first, size):
            continue
        near = strengths.closest(first, [x for x in free if _fits(x, size)])
        if len(near) >= size - 1:
            return size, [first, *near[:size - 1]]
    return None


def _with_bots(first: QueueEntry, free: list[QueueEntry], can: list[int],
               strengths: Strengths) -> tuple[int, list[QueueEntry]]:
    """Her table once her wait is over: her size (for "any": four, or the nearest the game
    has), the people waiting near her who fit it, bots in the other seats."""
    size = first.players or min(can, key=lambda n: (abs(n - ANY_SIZE), -n))
    near = strengths.closest(first, [x for x in free if _fits(x, size)])
    return size, [first, *near[:size - 1]]


def fits_with(a: QueueEntry, b: QueueEntry) -> bool:
    """Whether two entries could share a table: the same size, or one of them any."""
    return a.players is None or b.players is None or a.players == b.players


def needed(entry: QueueEntry) -> int:
    """How many others she waits for at the least (her size, or the game's smallest)."""
    try:
        return (entry.players or sizes(entry.ruleset)[0]) - 1
    except FidoError:
        return 1


def anyone(s: Session) -> bool:
    """Whether the queue holds any entry (else a poll need not pair: no write)."""
    return s.scalar(select(QueueEntry.id).limit(1)) is not None


def pair(s: Session, *, skip_locked: bool) -> list[Formed]:
    """Drop the entries not polled for :data:`STALE` seconds, then form every table the
    waiting entries make, longest-waiting first: people alone as soon as enough of them
    near her strength want a table of one size (:mod:`fido.server.pairing`: the range
    widens as they wait); with bots once a person's own wait for them has passed.
    ``skip_locked`` (PostgreSQL): rows another process is pairing are left to it."""
    now = _now()
    stale = select(QueueEntry).where(or_(
        QueueEntry.clock.is_(None) & (QueueEntry.seen_at < now - dt.timedelta(seconds=STALE)),
        QueueEntry.seen_at < now - dt.timedelta(seconds=TURN_BASED_WAIT)))
    waiting = (select(QueueEntry).where(QueueEntry.status == "waiting")
               .order_by(QueueEntry.joined_at, QueueEntry.id))
    if skip_locked:
        stale = stale.with_for_update(skip_locked=True)
        waiting = waiting.with_for_update(skip_locked=True)
    for entry in s.scalars(stale).all():
        s.delete(entry)
    s.flush()
    games: dict[tuple[str, int | None], list[QueueEntry]] = {}
    for entry in s.scalars(waiting).all():  # one game and one time per move: one queue
        games.setdefault((entry.ruleset, entry.clock), []).append(entry)
    formed = []
    for (ruleset, clock), free in games.items():
        try:
            can = sizes(ruleset)
        except FidoError:  # not a game (any more): never paired, dropped when stale
            continue
        strengths = Strengths.read(s, ruleset, free, now)
        for first in list(free):
            if first not in free:
                continue
            pick = _with_people(first, free, can, strengths)
            if pick is None and first.bots_after is not None and (
                    aware(first.joined_at) + dt.timedelta(seconds=first.bots_after) <= now):
                pick = _with_bots(first, free, can, strengths)
            if pick is not None:
                formed.append(_form(s, ruleset, clock, *pick))
                free = [x for x in free if x not in pick[1]]
    return formed


def _form(s: Session, ruleset: str, clock: int | None, size: int,
          people: list[QueueEntry]) -> Formed:
    """The table of ``people`` (the longest waiting in seat 0) and bots: made as the lobby
    makes its tables (turn-based with ``clock``), its people's entries seated in the same
    transaction."""
    creator = s.get(Account, people[0].account_id)
    assert creator is not None
    seats = ([SeatIn(kind="open")] * len(people)
             + [SeatIn(kind="bot", level=BOT_LEVEL)] * (size - len(people)))
    # opened from where the one who waited longest joined: its bots count against there
    table = new_table(s, TableIn(ruleset=ruleset, players=size, seats=seats, clock=clock),
                      creator, people[0].joined_from)
    s.flush()  # the table before the entries that name it
    for i, entry in enumerate(people):
        entry.status, entry.table_id, entry.seat = "seated", table.id, i
    return Formed(table.id, tuple((e.account_id, i) for i, e in enumerate(people)))


# the tasks that mark away, a while after seating, whoever has not come to the table
# (kept until done: a task not referenced may be collected before it runs)
_AWAY: set[asyncio.Task[None]] = set()


async def seat(store: Store, hub: Hub, formed: Iterable[Formed]) -> set[tuple[str, int]]:
    """Seat each formed table's people through its room, in their seats (the last one
    deals); who is seated: (table id, account id) each. Someone seated already (another
    process, a poll) is left so. Whoever has not opened the table after
    :data:`AWAY_AFTER` seconds is away: the stand-in plays for her after the grace."""
    done: set[tuple[str, int]] = set()
    for table in formed:
        accounts = await asyncio.to_thread(_accounts, store, [a for a, _seat in table.people])
        try:
            room = await hub.room(table.table_id)
        except LookupError:
            continue
        for account_id, at in table.people:
            account = accounts.get(account_id)
            if account is None:
                continue
            try:
                await room.join(account, at, room.invite)
            except Refused as e:
                if e.code not in ("seated", "taken", "started"):
                    log.error("queue table %s: seat %s not taken: %s", table.table_id, at, e.code)
                    continue
            done.add((table.table_id, account_id))
        task = asyncio.create_task(_away_later(room))
        _AWAY.add(task)
        task.add_done_callback(_AWAY.discard)
    return done


async def _away_later(room: Any) -> None:
    await asyncio.sleep(AWAY_AFTER)
    with contextlib.suppress(Exception):  # the room stopped, the store is away: no matter
        await room.absent_away()


def _accounts(store: Store, ids: list[int]) -> dict[int, Account]:
    with store.session(write=False) as s:
        found = {a.id: a for a in s.scalars(select(Account).where(Account.id.in_(ids)))}
        for a in found.values():
            s.expunge(a)
        return found


def seat_again(s: Session, entry: QueueEntry) -> Formed | None:
    """Her entry says seated but her seat is still open a while later (the process that
    paired her stopped before seating her): the table to seat her at."""
    if entry.status != "seated" or entry.table_id is None or entry.seat is None:
        return None
    row = s.get(SeatRow, (entry.table_id, entry.seat))
    table = s.get(TableRow, entry.table_id)
    if row is None or table is None or table.status != "open" or row.kind != "open":
        return None
    if aware(entry.seen_at) - aware(table.created_at) < dt.timedelta(seconds=SEATING):
        return None
    return Formed(entry.table_id, ((entry.account_id, entry.seat),))


def is_seated(s: Session, entry: QueueEntry) -> bool:
    """Whether her seat is hers at the table (the page goes there only then)."""
    if entry.table_id is None or entry.seat is None:
        return False
    row = s.get(SeatRow, (entry.table_id, entry.seat))
    return row is not None and row.kind == "person" and row.account_id == entry.account_id


def counts(s: Session) -> dict[tuple[str, int | None], int]:
    """How many people wait for each game and time per move (None: real time); not who:
    a person sees her own entry only."""
    fresh = _now() - dt.timedelta(seconds=STALE)
    rows = s.execute(select(QueueEntry.ruleset, QueueEntry.clock, func.count()).where(
        QueueEntry.status == "waiting",
        or_(QueueEntry.clock.is_not(None), QueueEntry.seen_at >= fresh),
    ).group_by(QueueEntry.ruleset, QueueEntry.clock)).all()
    return {(ruleset, clock): n for ruleset, clock, n in rows}


def online(s: Session) -> int:
    """The accounts with a session seen in the last :data:`ONLINE` seconds."""
    since = _now() - dt.timedelta(seconds=ONLINE)
    return s.scalar(select(func.count(func.distinct(WebSession.account_id))).where(
        WebSession.seen_at >= since, WebSession.expires > int(time.time()))) or 0


# ---------------------------------------------------------------- seen sessions


def _touch(store: Store, keys: list[str]) -> None:
    with store.session() as s:
        s.execute(update(WebSession).where(WebSession.id.in_(keys)).values(seen_at=_now()))


class SeenSessions:
    """An ASGI layer: a request with a session's cookie marks the session seen (at most
    once a :data:`TOUCH` seconds a session in this process, before the request goes on:
    the request itself counts her online)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.last: dict[str, float] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._seen(scope)
        await self.app(scope, receive, send)

    async def _seen(self, scope: Scope) -> None:
        cookie = _cookie(scope)
        if cookie is None:
            return
        srv: Server = scope["app"].state.server
        key = srv.sessions.key(cookie)
        now = time.monotonic()
        if key is None or now - self.last.get(key, -TOUCH) < TOUCH:
            return
        if len(self.last) > 50_000:  # a day of sessions: forget them (each is seen again)
            self.last.clear()
        self.last[key] = now
        try:
            await asyncio.to_thread(_touch, srv.store, [key])
        except Exception as e:  # a busy store: she is seen at her next request
            log.warning("a session's last visit was not written: %s", type(e).__name__)


def _cookie(scope: Scope) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == b"cookie":
            text: str = value.decode("latin-1")
            for part in text.split(";"):
                key, _eq, val = part.strip().partition("=")
                if key == COOKIE and val:
                    return val
    return None


async def touch_sockets(srv: Server) -> None:
    """Every :data:`TOUCH` seconds, the sessions with a table socket open in this process
    are seen (a person playing sends no request for a long game)."""
    while True:
        await asyncio.sleep(TOUCH)
        keys = list(srv.session_sockets.conns)
        for i in range(0, len(keys), 500):
            try:
                await asyncio.to_thread(_touch, srv.store, keys[i:i + 500])
            except Exception as e:  # a busy store: seen at the next turn
                log.warning("the table sockets' sessions were not marked seen: %s",
                            type(e).__name__)
