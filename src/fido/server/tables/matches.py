"""Matches and rematches at the server: each hand of a match is a table of its own (its
own log, record and, when rated, its own result in the ranking), linked to a
``matches`` row that keeps the running totals per side (a team, or a player).

* When a hand ends, its ``match_points`` (:class:`fido.engine.results.Outcome`) are added to
  the match's totals in the transaction of the hand's last move (:func:`count_hand`);
  whether the match is over is :class:`fido.engine.match.Match`'s rule (a side reached the
  target alone) or the number of hands.
* After a short pause the next hand's table is made with the same seats and dealt at
  once (:func:`next_hand`); the engine decides who opens (``Game.new``). A person who
  was not at the last hand's table when it ended starts the new one away, so the
  stand-in plays for her after her grace, as mid-hand.
* "Play again" (:func:`rematch`): a new table, or match, with the same seats and
  settings; a person who did not say yes is replaced by a bot when the table's creator
  asked for it, else her seat is open.

Every function here runs in a worker thread (the store's calls block).
"""

from __future__ import annotations

import datetime as dt
import json
import random
import secrets
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from fido.accounts import notifications as notes
from fido.engine.game import Game
from fido.engine.match import Match
from fido.engine.rules import Ruleset
from fido.server.tables.ending import ranks_of
from fido.server.tables.kinds import Away, Start
from fido.server.tables.log import SeatsChange
from fido.server.tables.timers import turn_based
from fido.server.tables.types import Event, seat_info
from fido.store import Account, MatchRow, SeatRow, Store, TableRow

__all__ = ["DEFAULT_HANDS", "count_hand", "counted", "hands_json", "match_json", "next_hand",
           "read", "rematch", "resume"]

DEFAULT_HANDS = 3  # FIDO's championship groups play three games
_SYSTEM = random.SystemRandom()


def _sides(rules: Ruleset, players: int) -> list[list[int]]:
    teams = rules.teams(players)
    return [list(t) for t in teams] if teams is not None else [[s] for s in range(players)]


def _over(rules: Ruleset, players: int, kind: str, goal: int, *, hands: int,
          totals: list[int]) -> bool:
    if kind == "hands":
        return hands >= goal
    m = Match(rules, players, target=goal)
    m.totals = list(totals)
    return m.is_over


def _winner(totals: list[int], over: bool) -> int | None:
    """The winning side's index once the match is over (None: not over, or a tie)."""
    if not over or not totals:
        return None
    best = max(totals)
    return totals.index(best) if totals.count(best) == 1 else None


def match_json(m: MatchRow, hand: int | None) -> dict[str, Any]:
    """The match as every page of its tables may see it (nothing in it is hidden)."""
    rules = Ruleset.from_text(m.ruleset)
    totals = json.loads(m.totals)
    over = m.status == "finished"
    return {"id": m.id, "kind": m.kind, "goal": m.goal, "hand": hand, "hands": m.hands,
            "totals": totals, "sides": _sides(rules, m.players), "over": over,
            "winner": _winner(totals, over)}


def counted(match: dict[str, Any], ruleset: str, players: int, hand: int,
            match_points: list[int]) -> dict[str, Any]:
    """``match`` (:func:`match_json`) with hand ``hand``'s points added (once)."""
    if match["hands"] >= hand:
        return match
    totals = [a + b for a, b in zip(match["totals"], match_points, strict=True)]
    over = _over(Ruleset.from_text(ruleset), players, match["kind"], match["goal"], hands=hand,
                 totals=totals)
    return match | {"totals": totals, "hands": hand, "over": over,
                    "winner": _winner(totals, over)}


def read(store: Store, match_id: str, hand: int | None) -> dict[str, Any] | None:
    with store.session(write=False) as s:
        m = s.get(MatchRow, match_id)
        return match_json(m, hand) if m is not None else None


def count_hand(match_id: str, hand: int, match_points: list[int],
               ratings: Callable[[Session, list[int]], None] | None = None) -> SeatsChange:
    """What adds a finished hand's points to its match, in the transaction of the hand's
    last move (a hand is counted once: ``hands`` says how many are); at the match's end,
    ``ratings`` moves its players' game ratings by its totals (a match is rated once)."""

    def store(s: Session, _row: TableRow) -> None:
        m = s.execute(select(MatchRow).where(MatchRow.id == match_id)
                      .with_for_update()).scalar_one_or_none()
        if m is None:
            return
        now = counted(match_json(m, hand), m.ruleset, m.players, hand, match_points)
        m.totals, m.hands = json.dumps(now["totals"]), now["hands"]
        if now["over"]:
            m.status, m.finished_at = "finished", dt.datetime.now(dt.UTC)
            if ratings is not None:
                ratings(s, ranks_of(list(now["totals"])))

    return store


def hands_json(s: Session, match_id: str) -> list[dict[str, Any]]:
    """Each hand of the match: its table, its status and the points it gave each side."""
    rows = s.scalars(select(TableRow).where(TableRow.match_id == match_id)
                     .order_by(TableRow.hand)).all()
    out = []
    for row in rows:
        points = None
        if row.record is not None:
            results = json.loads(row.record).get("results") or {}
            points = results.get("match_points")
        out.append({"hand": row.hand, "table": row.id, "status": row.status,
                    "match_points": points})
    return out


def _names(s: Session, seats: list[SeatRow]) -> list[str]:
    out = []
    for r in seats:
        account = s.get(Account, r.account_id) if r.account_id is not None else None
        name = account.name if account is not None else None
        out.append(seat_info(r.kind, r.account_id, r.bot, r.reserved_for, name).name)
    return out


def _open_table(s: Session, old: TableRow, seats: list[SeatRow], *, match_id: str | None,
                hand: int | None, away: set[int]) -> TableRow:
    """A new table like ``old`` with ``seats``: dealt at once (status running, its
    ``start`` event, the ``away`` seats written away) when every seat is taken, else open."""
    table = TableRow(
        id=secrets.token_urlsafe(9), ruleset=old.ruleset, players=old.players, status="open",
        rated=old.rated, rates=old.rates, private=old.private, clock=old.clock, grace=old.grace,
        timeouts=old.timeouts, forced=old.forced,
        invite=secrets.token_urlsafe(12), created_by=old.created_by,
        created_at=dt.datetime.now(dt.UTC), seq=0, move_seq=0, match_id=match_id, hand=hand,
        opened_from=old.opened_from,  # its bots count where the first was opened
    )
    table.seats = seats
    s.add(table)
    away = {i for i in away if seats[i].kind == "person"}
    if all(r.kind in ("person", "bot") for r in seats):
        rules = Ruleset.from_text(old.ruleset)
        game = Game.new(rules, old.players, rng=_SYSTEM, explicit_chance=True)
        hands = [game.set.tiles_of(h) for h in game.initial_hands]
        table.deal = json.dumps([[t.text() for t in h] for h in hands])
        table.status = "running"
        opener = seats[game.turn]
        if old.clock is not None and opener.kind == "person" and game.turn not in away:
            table.deadline = time.time() + old.clock
        table.turn = game.turn
        if turn_based(old.clock) and opener.kind == "person" and opener.account_id:
            s.flush()  # the table's row before its notification's
            notes.notify_turn(s, opener.account_id, table.id)
        events = [Event.of(1, None, Start(_names(s, seats)))]
        for seat in sorted(away):
            events.append(Event.of(len(events) + 1, seat, Away()))
        s.flush()  # the table's row before its events' (their foreign key)
        for e in events:
            s.add(e.row(table.id))
        table.seq = len(events)
    return table


def _copy(r: SeatRow) -> SeatRow:
    return SeatRow(seat=r.seat, kind=r.kind, account_id=r.account_id, bot=r.bot,
                   reserved_for=r.reserved_for)


def next_hand(store: Store, table_id: str, away: set[int]) -> str | None:
    """The next hand's table of the match whose hand ``table_id`` was (made once: a
    second call finds it), or None when the match is over or the table is no hand."""
    with store.session() as s:
        old = s.get(TableRow, table_id)
        if old is None or old.match_id is None or old.hand is None or old.record is None:
            return None
        m = s.execute(select(MatchRow).where(MatchRow.id == old.match_id)
                      .with_for_update()).scalar_one_or_none()
        if m is None or m.status != "playing":
            return None
        made = s.scalar(select(TableRow.id).where(TableRow.match_id == m.id,
                                                  TableRow.hand == old.hand + 1))
        if made is not None:
            return made
        seats = [_copy(r) for r in old.seats]
        return _open_table(s, old, seats, match_id=m.id, hand=old.hand + 1, away=away).id


def rematch(store: Store, table_id: str, yes: set[int], fill: bool, stand_in: str) -> str:
    """A new table (a new match, if this was one) with the same seats and settings: the
    seats of ``yes`` and the bots as they were, those of the others a bot (``fill``, not
    at a rated table) or open."""
    with store.session() as s:
        old = s.get(TableRow, table_id)
        assert old is not None
        seats = []
        for r in old.seats:
            if r.kind == "person" and r.seat not in yes:
                if fill and not old.rated:
                    seats.append(SeatRow(seat=r.seat, kind="bot", bot=stand_in))
                else:
                    seats.append(SeatRow(seat=r.seat, kind="open"))
            else:
                seats.append(_copy(r))
        match_id = None
        if old.match_id is not None:
            m = s.get(MatchRow, old.match_id)
            if m is not None:
                match_id = new_match(s, m.ruleset, m.players, (m.kind, m.goal),
                                     created_by=old.created_by).id
        return _open_table(s, old, seats, match_id=match_id,
                           hand=1 if match_id is not None else None, away=set()).id


def new_match(s: Session, ruleset: str, players: int, match: tuple[str, int], *,
              created_by: int | None) -> MatchRow:
    """A new match (``match``: its kind and goal), its totals 0 a side."""
    kind, goal = match
    rules = Ruleset.from_text(ruleset)
    m = MatchRow(id=secrets.token_urlsafe(9), ruleset=ruleset, players=players, kind=kind,
                 goal=goal, status="playing",
                 totals=json.dumps([0] * len(_sides(rules, players))), hands=0,
                 created_by=created_by, created_at=dt.datetime.now(dt.UTC))
    s.add(m)
    s.flush()
    return m


def resume(store: Store) -> list[str]:
    """After a restart: the next hands of the matches whose last hand ended while no
    process was there to deal the next (made now, every seat's person away)."""
    with store.session(write=False) as s:
        ended = s.execute(
            select(TableRow.id, TableRow.match_id, TableRow.hand, TableRow.players)
            .join(MatchRow, MatchRow.id == TableRow.match_id)
            .where(MatchRow.status == "playing", TableRow.hand == MatchRow.hands,
                   TableRow.status == "finished")).all()
        todo = [(tid, players) for tid, mid, hand, players in ended
                if hand is not None and s.scalar(select(TableRow.id).where(
                    TableRow.match_id == mid, TableRow.hand == hand + 1)) is None]
    made = []
    for tid, players in todo:
        new = next_hand(store, tid, set(range(players)))
        if new is not None:
            made.append(new)
    return made
