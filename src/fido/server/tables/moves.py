"""What a move writes: its draw (picked now, from the operating system's random source,
or a duplicate deal's stock order), its event, the row's new state and, when it ends the
game, the ``end`` event, the record, the ranking's result and the match's count, all in
the move's one transaction (:meth:`fido.server.tables.room.Room._play`)."""

from __future__ import annotations

import datetime as dt
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from fido.engine.game import Game
from fido.engine.results import Outcome
from fido.engine.tiles import Tile
from fido.server.tables import matches, turns
from fido.server.tables.ending import game_ratings, game_record, ranking_result, sides_of
from fido.server.tables.kinds import End, Moved
from fido.server.tables.log import SeatsChange
from fido.server.tables.state import Live
from fido.server.tables.types import Event
from fido.server.wire import table_event
from fido.store import TableRow

__all__ = ["Written", "written_move"]


@dataclass(frozen=True)
class Written:
    """A pushed move as it is written: its events, the row's new columns, and what else
    the transaction writes (the ranking's result, the match's totals)."""

    events: list[Event]
    update: dict[str, Any]
    extra: SeatsChange | None


def written_move(room: Live, game: Game, seat: int | None, by: str, *,
                 account: int | None, msg_id: str | None) -> Written:
    """The move just pushed on ``game``, its draw applied (the caller takes the move back
    if writing it fails)."""
    drawn: Tile | None = None
    chance = game.chance
    if chance is not None:
        if room.stock_order is None:
            drawn = secrets.choice(chance.tiles)  # the operating system's random source
        else:  # a duplicate deal: the stock's own order
            drawn = next(t for t in room.stock_order if t in chance.tiles)
        game.apply_chance(drawn)
    turn = game.last_turn()  # not history()[-1]: that rebuilds every turn of the game
    assert turn is not None
    moved = Moved(turn.seat, turn.move.text(), turn.points, turn.ends_sum,
                  table_event(turn, game.rules), by)
    first = room.new_event(seat, moved, account_id=account, msg_id=msg_id,
                           private={"drawn": drawn.text()} if drawn is not None else None)
    events = [first]
    update: dict[str, Any] = {"move_seq": first.seq}
    outcome = game.outcome
    mover = account if by == "player" else None
    if outcome is None:
        clock = room.clock
        person = room.seats[game.turn].kind == "person"  # a bot has no clock
        update["deadline"] = time.time() + clock if clock is not None and person else None
        update["turn"] = game.turn
        return Written(events, update, turns.told(room, game, mover=mover))
    record = game_record(game, room.seats, room.id)
    events.append(Event.of(first.seq + 1, None, End(outcome.to_dict())))
    update |= {"status": "finished", "record": record.to_json(None), "deadline": None,
               "turn": None, "finished_at": dt.datetime.now(dt.UTC)}
    extra = turns.told(room, game, mover=mover)
    if room.rated:
        assert room.rules is not None
        extra = turns.both(extra, ranking_result(room.id, record, room.rules, outcome,
                                                 room.seats))
    assert room.rules is not None
    sides = sides_of(outcome)
    ratings = game_ratings(room.id, room.rules, room.seats, sides,
                           match_id=room.match_id) if room.rates else None
    if room.match_id is not None and room.hand is not None:  # rated once, at its end
        extra = turns.both(extra, matches.count_hand(room.match_id, room.hand,
                                                     list(outcome.match_points), ratings))
    elif ratings is not None:
        extra = turns.both(extra, _rated(ratings, [r.place for r in _side_results(outcome)]))
    return Written(events, update, extra)


def _side_results(outcome: Outcome) -> list[Any]:
    """Each side's result (a team's, or a seat's), in :func:`sides_of`'s order."""
    return list(outcome.teams) if outcome.teams else list(outcome.seats)


def _rated(ratings: Callable[[Session, list[int]], None], ranks: list[int]) -> SeatsChange:
    def store(s: Session, _row: TableRow) -> None:
        ratings(s, ranks)

    return store
