"""An event's rounds: drawing the next one, and the results its tables have given.

A round is drawn when the one before it is over (every table has its
result): the seat draw (:mod:`fido.events.seating`) gets who met whom and
who sat where so far and, for a seeded event, the standings. The results of
a table come from the server's finished table (online) or from the score
sheet entered for it (real tables); a table without its result yet has none.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass

from sqlalchemy.orm import Session

from fido.events.championships import EventError, new_server_table, seats_of
from fido.record import GameRecord
from fido.store import Account, Championship, ChampionshipTable, GameRow, TableRow

__all__ = ["SeatResult", "TableResult", "draw_round", "results", "round_over"]


@dataclass(frozen=True, slots=True)
class SeatResult:
    account_id: int
    points: int
    pips: int

    @property
    def final(self) -> int:
        return self.points - self.pips


@dataclass(frozen=True, slots=True)
class TableResult:
    round: int
    number: int
    seats: tuple[SeatResult, ...] | None  # None: no result yet


def _table_result(s: Session, table: ChampionshipTable) -> tuple[SeatResult, ...] | None:
    accounts = seats_of(table)
    if table.table_id is not None:
        row = s.get(TableRow, table.table_id)
        if row is None or row.record is None:
            return None
        outcome = GameRecord.from_json(row.record).replay().outcome
        assert outcome is not None
        return tuple(SeatResult(a, r.points, r.pips)
                     for a, r in zip(accounts, outcome.seats, strict=True))
    if table.game_id is not None:
        game = s.get(GameRow, table.game_id)
        if game is None:
            return None
        by_player = {a.player_id: a.id for a in
                     (s.get(Account, i) for i in accounts) if a is not None}
        return tuple(SeatResult(by_player[ln.player_id], ln.points, ln.pips)
                     for ln in sorted(game.lines, key=lambda ln: ln.seat))
    return None


def results(s: Session, event: Championship) -> list[TableResult]:
    """Every drawn table's result so far, round by round."""
    return [TableResult(t.round, t.number, _table_result(s, t)) for t in event.tables]


def round_over(s: Session, event: Championship) -> bool:
    """No round drawn yet, or every table of the last one has its result."""
    last = max((t.round for t in event.tables), default=0)
    return all(r.seats is not None for r in results(s, event) if r.round == last)


def draw_round(s: Session, event: Championship, by: Account,
               now: dt.datetime | None = None) -> list[ChampionshipTable]:
    """Draw the next round (the organiser only) and create its tables."""
    if by.id != event.organiser_id:
        raise EventError("only the event's organiser draws its rounds")
    drawn = max((t.round for t in event.tables), default=0)
    if drawn >= event.rounds:
        raise EventError(f"all {event.rounds} rounds have been drawn")
    if not round_over(s, event):
        raise EventError(f"round {drawn} is not over: every table needs its result first")
    players = [e.account_id for e in event.entries]
    if len(players) < 3:
        raise EventError("an event needs at least 3 registered players")
    earlier = [[seats_of(t) for t in event.tables if t.round == r] for r in range(1, drawn + 1)]
    groups = _draw(players, event.table_size, earlier, event.secret)
    now = now or dt.datetime.now(dt.UTC)
    tables = []
    for number, seats in enumerate(groups, start=1):
        table = ChampionshipTable(round=drawn + 1, number=number, seats=json.dumps(seats))
        if event.mode == "online":
            accounts = [s.get(Account, a) for a in seats]
            table.table_id = new_server_table(s, event, [a for a in accounts if a], now)
        event.tables.append(table)
        tables.append(table)
    event.status = "running"
    s.flush()
    return tables


def _draw(players: list[int], size: int, earlier: list[list[list[int]]],
          seed: str) -> list[list[int]]:
    """Placeholder until fido.events.seating: random draws, the one with fewest repeats."""
    import random  # noqa: PLC0415

    rng = random.Random(f"{seed}:{len(earlier)}")
    met = {frozenset((a, b)) for rnd in earlier for t in rnd for a in t for b in t if a != b}
    n = len(players)
    count = -(-n // size)
    sizes = [n // count + (1 if i < n % count else 0) for i in range(count)]
    best: list[list[int]] = []
    best_cost = None
    for _ in range(20000):
        order = players[:]
        rng.shuffle(order)
        groups, i = [], 0
        for k in sizes:
            groups.append(order[i:i + k])
            i += k
        cost = sum(frozenset((a, b)) in met for g in groups for a in g for b in g if a < b)
        if best_cost is None or cost < best_cost:
            best, best_cost = groups, cost
        if cost == 0:
            break
    return best
