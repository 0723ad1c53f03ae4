"""The end of a table's game: its record, for a rated game its result in the ranking,
and its players' game ratings (:mod:`fido.ratings`; a match's at its end), written in
the same transaction as the last move (an event's standings read it from there:
:mod:`fido.events.rounds`)."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable

from sqlalchemy import select
from sqlalchemy.orm import Session

from fido.engine.game import Game
from fido.engine.results import Outcome
from fido.engine.rules import Ruleset
from fido.record import GameRecord
from fido.server.tables.log import SeatsChange
from fido.server.tables.types import SeatInfo
from fido.store import Account, ChampionshipTable, TableRow

__all__ = ["event_text", "game_ratings", "game_record", "ranking_result", "ranks_of",
           "sides_of"]

log = logging.getLogger("fido.server")


def game_record(game: Game, seats: list[SeatInfo], table_id: str) -> GameRecord:
    """The finished game's record (the format ``fido replay`` verifies); an object until
    the move's write turns it into the row's text."""
    names = [s.name or f"seat {i}" for i, s in enumerate(seats)]
    bots = [s.bot if s.kind == "bot" else None for s in seats]
    rec = GameRecord.from_game(game, names, date=dt.datetime.now(dt.UTC).date(),
                               event=f"fido server table {table_id}", bots=bots)
    return rec


def event_text(s: Session, table_id: str) -> str:
    """What a rated game's result names as its event: the event's round and table if
    the table is one of an event's, else the table."""
    from fido.events.championships import event_label  # noqa: PLC0415

    table = s.scalar(select(ChampionshipTable).where(ChampionshipTable.table_id == table_id))
    if table is None:
        return f"fido online table {table_id}"
    return event_label(table.championship, table)


def ranking_result(table_id: str, record: GameRecord, rules: Ruleset, outcome: Outcome,
                   seats: list[SeatInfo]) -> SeatsChange:
    """What stores a rated game's result in the ranking (source ``online``) through the
    ranking's API, in the transaction of the game's last move."""
    from fido.ranking import ResultError, submit  # noqa: PLC0415

    def store(s: Session, row: TableRow) -> None:
        numbers = []
        for info in seats:
            account = s.get(Account, info.account_id) if info.account_id else None
            if account is None or account.player is None:
                log.warning("table %s: a seat has no ranking player; not rated", table_id)
                return
            numbers.append(account.player.number)
        result = {
            "date": dt.datetime.now(dt.UTC).date(), "event": event_text(s, table_id),
            "set": rules.max_pips, "divisor": rules.divisor, "source": "online",
            "key": f"table:{table_id}", "record": record.to_dict(),
            "lines": [{"player": n, "points": r.points, "pips": r.pips}
                      for n, r in zip(numbers, outcome.seats, strict=True)],
        }
        try:
            with s.begin_nested():
                game, _new = submit(s, result)
                row.ranking_game = game.id
        except ResultError as e:  # the game stands; the federation can enter it by hand
            log.error("table %s: the ranking refused the result: %s", table_id, e)

    return store


def sides_of(outcome: Outcome) -> list[list[int]]:
    """The sides a game ranks, as its match tallies them: its teams' seats, or each seat."""
    if outcome.teams:
        return [list(t.seats) for t in outcome.teams]
    return [[r.seat] for r in outcome.seats]


def ranks_of(totals: list[int]) -> list[int]:
    """Each side's place by its total (the most first; equal totals share a place)."""
    return [1 + sum(other > mine for other in totals) for mine in totals]


def game_ratings(table_id: str, rules: Ruleset, seats: list[SeatInfo], sides: list[list[int]],
                 *, match_id: str | None = None) -> Callable[[Session, list[int]], None]:
    """What moves the game ratings of a finished game (or match) whose ``sides`` rank by
    the places it is given, in the transaction of its last move: the people at their
    ratings, each bot at its level's fixed one (:func:`fido.ratings.rate_game`)."""
    from fido.ratings import Player, family, rate_game  # noqa: PLC0415

    players = [Player(s.account_id if s.kind == "person" else None,
                      s.bot if s.kind == "bot" else None) for s in seats]

    def store(s: Session, ranks: list[int]) -> None:
        try:
            with s.begin_nested():
                rate_game(s, family(rules), [[players[i] for i in side] for side in sides],
                          ranks, table_id=None if match_id else table_id, match_id=match_id)
        except ValueError as e:  # the game stands without its ratings
            log.error("table %s: its game ratings were not moved: %s", table_id, e)

    return store
