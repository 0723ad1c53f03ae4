"""Who may take or leave a seat of a table, and what that writes: the room judges a join
or a leave here (caught up with the log, under its lock) and commits the change it gets
(:meth:`fido.server.tables.room.Room._seat`). A refusal is :class:`~fido.errors.Refused`
with a code; the request layer gives it its status."""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from fido.accounts.names import name_key
from fido.engine.game import Game
from fido.engine.rules import Ruleset
from fido.engine.tiles import Tile
from fido.errors import Refused
from fido.i18n import _
from fido.server.tables import turns
from fido.server.tables.kinds import Join, Leave, Start
from fido.server.tables.log import SeatsChange
from fido.server.tables.state import Live
from fido.server.tables.types import Event, SeatInfo, display_name
from fido.store import Account, SeatRow, TableRow

__all__ = ["SeatChange", "dealt", "joined", "left"]


@dataclass
class SeatChange:
    """A seat's new person (or none), the events that say so, the row's new state, the
    seat rows' change, and the deal when the last seat filled."""

    seat: int
    info: SeatInfo
    events: list[Event]
    rows: SeatsChange
    update: dict[str, Any] = field(default_factory=dict)
    deal: str | None = None


def dealt(rules: Ruleset, deal: str) -> tuple[Game, list[Tile] | None]:
    """The game as dealt, and the stock's order if it has one: ``deal`` is the hands (the
    stock has no order, every draw is drawn when it happens), or for a duplicate event's
    table the hands and the stock's order, the same at every table of the round."""
    data = json.loads(deal)
    hands = [[Tile.from_text(t) for t in h] for h in (data["hands"] if isinstance(data, dict)
                                                      else data)]
    order = [Tile.from_text(t) for t in data["stock"]] if isinstance(data, dict) else None
    held = {t for h in hands for t in h}
    rest = [t for t in rules.dominoes if t not in held]
    return Game.from_deal(rules, hands, rest, explicit_chance=True), order


def _seat_row(table_id: str, seat: int, kind: str, account_id: int | None) -> SeatsChange:
    def change(s: Session, _row: TableRow) -> None:
        r = s.get(SeatRow, (table_id, seat))
        assert r is not None
        r.kind, r.account_id = kind, account_id

    return change


def joined(room: Live, account: Account, seat: int | None, invite: str | None,
           rng: random.Random) -> SeatChange:
    """``account`` takes ``seat`` (None: the first free one, or the one reserved for her);
    the last seat taken deals (``rng``: the operating system's random source)."""
    if room.status != "open":
        raise Refused("started", _("the game has started: you can watch it"))
    seats = room.seats
    if any(s.account_id == account.id and s.kind == "person" for s in seats):
        raise Refused("seated", _("you already have a seat at this table"))
    key = name_key(account.name) if account.name else None
    free = [i for i, s in enumerate(seats)
            if s.kind == "open" or (s.kind == "reserved" and key == s.reserved_for)]
    mine = [i for i in free if seats[i].kind == "reserved"]
    if room.private and invite != room.invite and not mine:
        raise Refused("invitation", _("this table is private: open its invite link"))
    if seat is None:
        if not free:
            raise Refused("full", _("no seat is free for you at this table"))
        seat = (mine or free)[0]
    elif not 0 <= seat < room.players:
        raise Refused("invalid", _("seats are 0 to {last}").format(last=room.players - 1))
    elif seat not in free:
        raise Refused("taken", _("seat {seat} is not free for you").format(seat=seat))
    if room.rated and (account.guest or account.player_id is None):
        raise Refused("unrated", _("a rated table needs an account linked to a ranking "
                                   "player: ask the federation for yours "
                                   "(PUT /api/account/player)"))
    name = display_name(account)
    change = SeatChange(seat, SeatInfo("person", account.id, name),
                        [room.new_event(seat, Join(name))],
                        _seat_row(room.id, seat, "person", account.id))
    if all(s.kind in ("person", "bot") or i == seat for i, s in enumerate(seats)):
        _deal(room, change, rng)
    return change


def _deal(room: Live, change: SeatChange, rng: random.Random) -> None:
    """The last seat is taken: the deal (made now, or a duplicate event's made when the
    table was), the ``start`` event, and the opener's clock in the row like every later
    one (another process, or this one restarted, reads it from there)."""
    assert room.rules is not None
    if room.deal is not None:  # dealt when created (a duplicate event's deal)
        deal = room.deal
        game = room.dealt()
    else:
        game = Game.new(room.rules, room.players, rng=rng, explicit_chance=True)
        hands = [game.set.tiles_of(h) for h in game.initial_hands]
        deal = json.dumps([[t.text() for t in h] for h in hands])
    seat, name = change.seat, change.info.name
    names = [name if i == seat else s.name for i, s in enumerate(room.seats)]
    change.events.append(Event.of(change.events[0].seq + 1, None, Start(names)))
    opener = "person" if game.turn == seat else room.seats[game.turn].kind
    deadline = (time.time() + room.clock
                if room.clock is not None and opener == "person" else None)
    change.update = {"status": "running", "deal": deal, "deadline": deadline,
                     "turn": game.turn}
    change.deal = deal
    accounts = [change.info.account_id if i == seat else
                s.account_id if s.kind == "person" else None for i, s in enumerate(room.seats)]
    change.rows = turns.both(change.rows, turns.told(room, game, seats_to_come=accounts)) \
        or change.rows


def left(room: Live, account: Account) -> SeatChange:
    """She leaves her seat before the start; the last person out abandons the table."""
    seats = [i for i, s in enumerate(room.seats)
             if s.kind == "person" and s.account_id == account.id]
    if not seats:
        raise Refused("not_seated", _("you have no seat at this table"))
    if room.status != "open":
        raise Refused("started", _("the game has started: a seat cannot be left now"))
    seat = seats[0]
    alone = not any(s.kind == "person" for i, s in enumerate(room.seats) if i != seat)
    return SeatChange(seat, SeatInfo("open"), [room.new_event(seat, Leave())],
                      _seat_row(room.id, seat, "open", None),
                      {"status": "abandoned"} if alone else {})
