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
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy.orm import Session

from fido.events import seating
from fido.events.championships import new_server_table, seats_of, table_ruleset
from fido.events.errors import EventError
from fido.events.standings import GameResult, Line, Standing, standings
from fido.i18n import _, ngettext
from fido.ranking.reviews import status_at
from fido.record import GameRecord
from fido.store import Account, Championship, ChampionshipTable, GameRow, TableRow

__all__ = ["TableResult", "draw_round", "results", "round_over", "standings_of"]


@dataclass(frozen=True, slots=True)
class TableResult:
    round: int
    number: int
    seats: tuple[Line, ...] | None  # a line a seat (player: the account id); None: none yet


def _table_result(s: Session, table: ChampionshipTable) -> tuple[Line, ...] | None:
    accounts = seats_of(table)
    if table.table_id is not None:
        row = s.get(TableRow, table.table_id)
        if row is None or row.record is None:
            return None
        outcome = GameRecord.from_json(row.record).replay().outcome
        assert outcome is not None
        return tuple(Line(a, r.points, r.pips)
                     for a, r in zip(accounts, outcome.seats, strict=True))
    if table.game_id is not None:
        game = s.get(GameRow, table.game_id)
        if game is None or not status_at(game).counts:
            return None  # a disputed sheet counts again once the dispute is settled for it
        by_player = {a.player_id: a.id for a in
                     (s.get(Account, i) for i in accounts) if a is not None}
        return tuple(Line(by_player[ln.player_id], ln.points, ln.pips)
                     for ln in sorted(game.lines, key=lambda ln: ln.seat))
    return None


def results(s: Session, event: Championship) -> list[TableResult]:
    """Every drawn table's result so far, round by round."""
    return [TableResult(t.round, t.number, _table_result(s, t)) for t in event.tables]


def round_over(s: Session, event: Championship,
               known: Sequence[TableResult] | None = None) -> bool:
    """No round drawn yet, or every table of the last one has its result. `known`: the
    results already read, so that one answer never mixes two moments of the database."""
    last = max((t.round for t in event.tables), default=0)
    return all(r.seats is not None for r in (known if known is not None else results(s, event))
               if r.round == last)


def draw_round(s: Session, event: Championship,
               now: dt.datetime | None = None) -> list[ChampionshipTable]:
    """Draw the next round and create its tables (the caller checked who may)."""
    drawn = max((t.round for t in event.tables), default=0)
    if event.cancelled_at is not None:
        raise EventError(_("the event was cancelled"))
    if drawn >= event.rounds:
        raise EventError(ngettext("the event's only round ({n}) has been drawn",
                                  "all {n} rounds have been drawn", event.rounds)
                         .format(n=event.rounds))
    if not round_over(s, event):
        raise EventError(_("round {round} is not over: every table needs its result first")
                         .format(round=drawn))
    players = [e.account_id for e in event.entries if e.retired_after is None]
    if len(players) < 3:
        raise EventError(_("an event needs at least 3 registered players still playing")
                         if drawn else _("an event needs at least 3 registered players"))
    earlier = [
        seating.Round(r, tuple(seating.TableSeating(t.number, tuple(seats_of(t)))
                               for t in event.tables if t.round == r))
        for r in range(1, drawn + 1)
    ]
    order = None
    if event.seeded and drawn:
        order = [x.player for x in standings_of(s, event)]
    (new,) = seating.draw(players, 1, table_size=event.table_size, seed=event.secret,
                          earlier=earlier, seeding=order)
    groups = [list(t.seats) for t in new.tables]
    now = now or dt.datetime.now(dt.UTC)
    tables = []
    for number, seats in enumerate(groups, start=1):
        table = ChampionshipTable(round=drawn + 1, number=number, seats=json.dumps(seats))
        if event.mode == "online":
            accounts = [s.get(Account, a) for a in seats]
            table.table_id = new_server_table(s, event, [a for a in accounts if a], drawn + 1,
                                              now)
        event.tables.append(table)
        tables.append(table)
    event.status = "running"
    s.flush()
    return tables



def standings_of(s: Session, event: Championship,
                 known: Sequence[TableResult] | None = None) -> tuple[Standing, ...]:
    """The standings after the tables finished so far (fido.events.standings: normalised
    finals, then the tie-breaks); the players are account ids in draw-number order.
    `known`: as for round_over."""
    games = [
        GameResult(r.round, r.number, 1, r.seats)
        for r in (known if known is not None else results(s, event)) if r.seats is not None
    ]
    return standings([e.account_id for e in event.entries], games,
                     rules=table_ruleset(event), table_size=event.table_size)
