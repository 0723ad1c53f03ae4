"""Challenges (docs/people.md): one person asks another to a game she names (the game,
the set, the players, the other seats' bots or open seats, the clock, whether it moves
the game ratings); the other accepts (the table opens with both seated), declines, or
lets it expire; the challenger may withdraw it.

A challenge is a row (``challenges``) so every process sees it; an open one past its
time is expired when next read. Who may challenge whom is :mod:`fido.server.policy`'s
(nobody blocked either way, not herself); the bounds per person and address are here.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Annotated, Literal

from fastapi import Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from fido.bots import LEVELS
from fido.i18n import _, ngettext
from fido.server import deps, policy, queue
from fido.server.account_views import guest_name
from fido.server.errors import ApiError
from fido.server.queue_service import QueueIn, game_ruleset
from fido.server.schemas import SeatIn, TableIn
from fido.server.tables.timers import turn_based
from fido.server.tables_service import check_bot_tables, new_table
from fido.store import Account, ChallengeRow, aware

__all__ = ["OPEN_MAX", "ChallengeIn", "ChallengeOut", "Challenges", "accept", "create",
           "decline", "mine", "withdraw"]

OPEN_MAX = 5  # open challenges one person has sent at once
REAL_TIME_TTL = 600  # seconds an open challenge to a real-time game waits
TURN_BASED_TTL = 3 * 86400  # ... and to a turn-based one
Others = Annotated[str, Field(pattern=r"^(open|bot:[a-z]{1,12})$", max_length=16)]


class ChallengeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    to: Annotated[int, Field(ge=1, le=2**31 - 1)]  # the account challenged
    game: Annotated[str, Field(min_length=1, max_length=40, examples=["fido"])]
    set: Annotated[int, Field(ge=1, le=99)] | None = None  # FIDO's set
    players: Annotated[int, Field(ge=2, le=9)] = 2
    others: Others = "bot:expert"  # the seats beside the two of them: bots, or open
    clock: Annotated[int, Field(ge=5, le=259200)] | None = None  # an hour or more: turn-based
    rates: bool = True  # moves the game ratings (false: a friendly game)


class Person(BaseModel):
    id: int
    name: str


class ChallengeOut(BaseModel):
    id: int
    challenger: Person
    challenged: Person
    ruleset: str
    players: int
    others: str
    clock: int | None
    turn_based: bool
    rates: bool
    status: Literal["open", "accepted", "declined", "withdrawn", "expired"]
    created_at: dt.datetime
    expires_at: dt.datetime
    table: str | None  # accepted: the table it opened


class Challenges(BaseModel):
    incoming: list[ChallengeOut]  # open challenges to her
    outgoing: list[ChallengeOut]  # hers: open, and the last decided ones



def _person(s: Session, account_id: int) -> Person:
    a = s.get(Account, account_id)
    return Person(id=account_id, name=(a.name if a is not None and a.name else
                                       guest_name(account_id)))


def _out(s: Session, c: ChallengeRow) -> ChallengeOut:
    return ChallengeOut(
        id=c.id, challenger=_person(s, c.from_id), challenged=_person(s, c.to_id),
        ruleset=c.ruleset, players=c.players, others=c.others, clock=c.clock,
        turn_based=turn_based(c.clock), rates=c.rates, status=c.status,  # type: ignore[arg-type]
        created_at=aware(c.created_at), expires_at=aware(c.expires_at), table=c.table_id)


def _expire(s: Session, rows: list[ChallengeRow]) -> None:
    """An open challenge past its time is expired (written so: every process agrees)."""
    now = dt.datetime.now(dt.UTC)
    for c in rows:
        if c.status == "open" and aware(c.expires_at) <= now:
            c.status, c.decided_at = "expired", now


def _seats(players: int, others: str) -> list[SeatIn]:
    """The two of them (open: the room seats them), then the others: bots, or open."""
    kind, _colon, level = others.partition(":")
    other = (SeatIn.model_validate({"kind": "bot", "level": level}) if kind == "bot"
             else SeatIn(kind="open"))
    return [SeatIn(kind="open"), SeatIn(kind="open"), *[other] * (players - 2)]


async def create(request: Request, body: ChallengeIn) -> ChallengeOut:
    """Challenge another person (201); she finds it among her challenges."""
    srv = deps.server(request)
    ruleset = game_ruleset(QueueIn(game=body.game, set=body.set, players=body.players))
    if body.others.startswith("bot:") and body.others[4:] not in LEVELS:
        raise ApiError(422, "invalid", _("there is no bot level {level}").format(
            level=repr(body.others[4:])), field="others")

    def write() -> ChallengeOut:
        with srv.store.session() as s:
            me = deps.signed_in(request, s)
            target = policy.challengeable(s, me, body.to)
            # the table it would open, checked now (a rated table's rules, the bots)
            TableIn(ruleset=ruleset, players=body.players,
                    seats=_seats(body.players, body.others), clock=body.clock, rates=body.rates)
            mine = list(s.scalars(select(ChallengeRow).where(
                ChallengeRow.from_id == me.id, ChallengeRow.status == "open")))
            _expire(s, mine)
            mine = [c for c in mine if c.status == "open"]
            if any(c.to_id == target.id for c in mine):
                raise ApiError(409, "challenged", _("you have challenged her already: "
                                                     "wait for her answer or withdraw it"))
            if len(mine) >= OPEN_MAX:
                raise ApiError(429, "too_many_challenges", ngettext(
                    "you have {n} open challenge: wait for an answer or withdraw it",
                    "you have {n} open challenges: wait for an answer or withdraw one",
                    len(mine)).format(n=len(mine)))
            deps.count_against(request, srv.opened, lambda n: ngettext(
                "too many tables opened from your address: try again in {n} second",
                "too many tables opened from your address: try again in {n} seconds", n))
            now = dt.datetime.now(dt.UTC)
            ttl = TURN_BASED_TTL if turn_based(body.clock) else REAL_TIME_TTL
            row = ChallengeRow(from_id=me.id, to_id=target.id, ruleset=ruleset,
                               players=body.players, others=body.others, clock=body.clock,
                               rates=body.rates, status="open", created_at=now,
                               expires_at=now + dt.timedelta(seconds=ttl))
            s.add(row)
            s.flush()
            return _out(s, row)

    return await asyncio.to_thread(write)


def mine(request: Request) -> Challenges:
    """Her open challenges, to her and from her, and her last decided ones."""
    srv = deps.server(request)
    with srv.store.session() as s:
        me = deps.signed_in(request, s)
        rows = list(s.scalars(select(ChallengeRow).where(
            or_(ChallengeRow.to_id == me.id, ChallengeRow.from_id == me.id))
            .order_by(ChallengeRow.id.desc()).limit(60)))
        _expire(s, rows)
        incoming = [_out(s, c) for c in rows if c.to_id == me.id and c.status == "open"]
        outgoing = [_out(s, c) for c in rows if c.from_id == me.id][:20]
        return Challenges(incoming=incoming, outgoing=outgoing)


def _decide(request: Request, challenge_id: int, role: Literal["to", "from"],
            status: Literal["declined", "withdrawn"]) -> ChallengeOut:
    srv = deps.server(request)
    with srv.store.session() as s:
        me = deps.signed_in(request, s)
        c = policy.challenge_of(s, me, challenge_id, role, lock=True)
        _expire(s, [c])
        if c.status != "open":
            raise ApiError(409, "not_open", _("this challenge is {status} already").format(
                status=_status_word(c.status)))
        c.status, c.decided_at = status, dt.datetime.now(dt.UTC)
        return _out(s, c)


def decline(request: Request, challenge_id: int) -> ChallengeOut:
    """Say no to a challenge to her."""
    return _decide(request, challenge_id, "to", "declined")


def withdraw(request: Request, challenge_id: int) -> ChallengeOut:
    """Take back her challenge while it is open."""
    return _decide(request, challenge_id, "from", "withdrawn")


def _status_word(status: str) -> str:
    return {"accepted": _("accepted"), "declined": _("declined"),
            "withdrawn": _("withdrawn"), "expired": _("expired")}.get(status, status)


async def accept(request: Request, challenge_id: int) -> ChallengeOut:
    """Say yes: the table opens with the challenger in seat 1 and her in seat 2 (the
    others' seats as the challenge says), and both are seated."""
    srv = deps.server(request)

    def open_it() -> tuple[ChallengeOut, queue.Formed]:
        with srv.store.session() as s:
            me = deps.signed_in(request, s)
            c = policy.challenge_of(s, me, challenge_id, "to", lock=True)
            _expire(s, [c])
            if c.status != "open":
                raise ApiError(409, "not_open", _("this challenge is {status} already")
                               .format(status=_status_word(c.status)))
            challenger = policy.challengeable(s, me, c.from_id)
            if not turn_based(c.clock):
                for who in (me, challenger):
                    if (at := policy.playing_at(s, who)) is not None:
                        raise ApiError(409, "playing", _(
                            "{name} is playing at table {table}: accept when that game "
                            "is over").format(name=_person(s, who.id).name, table=at))
            body = TableIn(ruleset=c.ruleset, players=c.players, clock=c.clock,
                           rates=c.rates, seats=_seats(c.players, c.others))
            tag = deps.address_tag(request)
            check_bot_tables(s, challenger, body, srv.limits, tag)
            table = new_table(s, body, challenger, tag)
            s.flush()
            c.status, c.decided_at, c.table_id = "accepted", dt.datetime.now(dt.UTC), table.id
            return _out(s, c), queue.Formed(table.id, ((c.from_id, 0), (c.to_id, 1)))

    out, formed = await asyncio.to_thread(open_it)
    await queue.seat(srv.store, srv.hub, [formed])  # after the commit: both sit down
    return out
