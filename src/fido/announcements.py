"""Announcements: what a table would announce after each move.

``events_of(turn, rules)`` turns one history entry into events; the game
itself never produces them, so playouts pay nothing for them. In FIDO a
double laid gets the Rostock knock, wiped (the Basel wipe) when the double
scored.

>>> from fido.engine.game import Game
>>> g = Game.new("fido set=6", players=3, seed=1)
>>> g.push(g.legal_moves()[0])
>>> events_of(g.last_turn(), g.rules)
[Scored(seat=0, points=4, ends_sum=12), Wiped(seat=0, tile=Tile(6, 6))]
"""

from __future__ import annotations

from dataclasses import dataclass

from fido.engine.moves import Draw, Pass, Placement, Turn
from fido.engine.results import Outcome
from fido.engine.rules import Ruleset
from fido.engine.tiles import Tile

__all__ = ["Drew", "Event", "GameOver", "Knocked", "Passed", "Scored", "Wiped", "events_of"]


@dataclass(frozen=True, slots=True)
class Scored:
    seat: int
    points: int
    ends_sum: int


@dataclass(frozen=True, slots=True)
class Drew:
    seat: int
    tile: Tile | None  # None for everyone but the drawer


@dataclass(frozen=True, slots=True)
class Passed:
    seat: int


@dataclass(frozen=True, slots=True)
class Knocked:
    """Rostock knock: a double was laid (FIDO)."""

    seat: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class Wiped:
    """Basel wipe: the double scored, so the knock is wiped (FIDO)."""

    seat: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class GameOver:
    outcome: Outcome


Event = Scored | Drew | Passed | Knocked | Wiped | GameOver


def events_of(turn: Turn | None, rules: Ruleset, outcome: Outcome | None = None) -> list[Event]:
    """The events of one turn; pass the game's outcome to get GameOver after the last move."""
    if turn is None:
        return []
    out: list[Event] = []
    move = turn.move
    if isinstance(move, Placement):
        if turn.points:
            out.append(Scored(turn.seat, turn.points, turn.ends_sum))
        if rules.is_fido and move.tile.is_double:
            kind = Wiped if turn.points else Knocked
            out.append(kind(turn.seat, move.tile))
    elif isinstance(move, Draw):
        out.append(Drew(turn.seat, turn.drawn))
    elif isinstance(move, Pass):
        out.append(Passed(turn.seat))
    if outcome is not None:
        out.append(GameOver(outcome))
    return out
