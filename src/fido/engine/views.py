"""What one seat (or a spectator) may know: the only input a bot or client gets.

A view holds copies, never a reference to the game: her own hand, the table,
every seat's tile count and score, the stock count, the history with other
seats' drawn tiles hidden, and her legal moves when she is to move. The
stock's order, other hands and the seed are not in it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from fido.engine.moves import Move, Placement, Turn
from fido.engine.results import Outcome
from fido.engine.rules import Ruleset
from fido.engine.table import Table
from fido.engine.tiles import Tile

if TYPE_CHECKING:
    from fido.engine.game import Game

__all__ = ["SeatView", "make_view"]


@dataclass(frozen=True, slots=True)
class SeatView:
    rules: Ruleset
    players: int
    seat: int | None  # None: a spectator
    hand: tuple[Tile, ...]
    table: Table
    hand_counts: tuple[int, ...]
    stock_count: int
    scores: tuple[int, ...]
    to_move: int
    opener: int
    history: tuple[Turn, ...]
    legal_moves: tuple[Move, ...]
    outcome: Outcome | None
    passes: int = 0  # passes in a row since the last placement or draw

    @property
    def ends_sum(self) -> int:
        return self.table.ends_sum

    @property
    def is_my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.to_move and self.outcome is None

    def points_for(self, move: Move) -> int:
        """What ``move`` would score now."""
        if not isinstance(move, Placement):
            return 0
        return self.rules.points(self.table.sum_after(move.tile, move.slot))

    def played_tiles(self) -> list[Tile]:
        return [p.tile for p in self.table.placements]


def make_view(game: Game, seat: int | None, *, history: bool = True) -> SeatView:
    past = tuple(
        t if t.drawn is None or t.seat == seat else Turn(t.seat, t.move, t.points, t.ends_sum, None)
        for t in game.history()
    ) if history else ()
    mine = seat is not None and seat == game.turn and game.outcome is None
    return SeatView(
        rules=game.rules,
        players=game.players,
        seat=seat,
        hand=tuple(game.hand(seat)) if seat is not None else (),
        table=game.table.copy(),
        hand_counts=tuple(game.hand_counts()),
        stock_count=game.stock_count,
        scores=tuple(game.scores),
        to_move=game.turn,
        opener=game.opener,
        history=past,
        legal_moves=tuple(game.legal_moves()) if mine else (),
        outcome=game.outcome,
        passes=game.passes,
    )
