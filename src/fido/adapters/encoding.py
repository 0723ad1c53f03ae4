"""Moves as integers and seat views as vectors: what research frameworks need.

Actions. A placement is a tile and the open slot it goes on. Slots are coded
by the engine as ``anchor * 4 + port``, which grows with the game, so the
action names the slot by its *rank* among the table's open slots (sorted by
code) at that moment instead. The number of open slots is bounded: the
opening opens at most four (a spinner), and each placement closes one slot
and opens at most three (a crosswise double: its far end and two sides), of
which only doubles open more than one; so ``2 + 2 * doubles + 2`` bounds it.
With ``K`` that bound and ``T`` the tiles of the set::

    placement on the open slot of rank r:  tile.id * (K + 1) + r
    the opening placement:                 tile.id * (K + 1) + K
    draw:                                  T * (K + 1)
    pass:                                  T * (K + 1) + 1

A legal move has exactly one action (a tile and a slot are one placement)
and two legal moves never share one; :func:`move_of` inverts
:func:`action_of` in the position they were taken from. The tests check
both over random games of every ruleset.

Observations (:func:`observe`) are flat float vectors of one seat's view:
her hand, the tiles on the table, the values showing on the open slots,
every hand's tile count, the stock count, the scores and whose turn it is.
Nothing else: a view holds only what the seat may see.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from fido.moves import Draw, Pass, Placement
from fido.rules import Ruleset
from fido.table import Table
from fido.views import SeatView

__all__ = ["ActionSpace", "action_space"]

Move = Placement | Draw | Pass


class ActionSpace(NamedTuple):
    """The fixed action space and observation size of one ruleset and player count."""

    rules: Ruleset
    players: int
    slots: int  # K: most open slots a table of this set can have
    tiles: int  # T

    @property
    def size(self) -> int:
        """Distinct actions: every (tile, slot rank or opening), then draw and pass."""
        return self.tiles * (self.slots + 1) + 2

    @property
    def draw(self) -> int:
        return self.tiles * (self.slots + 1)

    @property
    def pass_(self) -> int:
        return self.tiles * (self.slots + 1) + 1

    def action_of(self, table: Table, move: Move) -> int:
        """The action of a move in the position whose table is ``table``."""
        if isinstance(move, Draw):
            return self.draw
        if isinstance(move, Pass):
            return self.pass_
        assert isinstance(move, Placement)
        base = move.tile.id * (self.slots + 1)
        if move.anchor < 0:
            return base + self.slots
        return base + sorted(table.open).index(move.slot)

    def move_of(self, table: Table, legal: Sequence[Move], action: int) -> Move:
        """The legal move an action names; ``ValueError`` when it names none."""
        if not 0 <= action < self.size:
            raise ValueError(f"action {action} is outside 0..{self.size - 1}")
        for m in legal:
            if self.action_of(table, m) == action:
                return m
        raise ValueError(f"action {action} ({self.describe(action)}) is not legal here")

    def describe(self, action: int) -> str:
        """A name for an action without a position: tile and slot rank."""
        if action == self.draw:
            return "draw"
        if action == self.pass_:
            return "pass"
        tile = self.rules.dominoes.tiles[action // (self.slots + 1)]
        rank = action % (self.slots + 1)
        return f"{tile.text()} opening" if rank == self.slots else f"{tile.text()} on slot #{rank}"

    # ------------------------------------------------------------ observations

    @property
    def observation_size(self) -> int:
        n = self.rules.dominoes.max_pips + 1
        # hand, table, open slots per value, hand counts, stock, scores, to move
        return 2 * self.tiles + n + 3 * self.players + 1

    def observe(self, view: SeatView) -> list[float]:
        """The seat's view as a flat vector (see the module docstring)."""
        t = self.tiles
        n = self.rules.dominoes.max_pips + 1
        out = [0.0] * self.observation_size
        for tile in view.hand:
            out[tile.id] = 1.0
        for p in view.table.placements:
            out[t + p.tile.id] = 1.0
        for _code, v in view.table.playable():
            out[2 * t + v] += 1.0
        base = 2 * t + n
        for s in range(self.players):
            out[base + s] = float(view.hand_counts[s])
            out[base + self.players + s] = float(view.scores[s])
        out[base + 2 * self.players] = float(view.stock_count)
        if view.outcome is None:
            out[base + 2 * self.players + 1 + view.to_move] = 1.0
        return out


def action_space(rules: Ruleset | str, players: int) -> ActionSpace:
    """The action space of a ruleset (text or object) for a player count."""
    rs = Ruleset.from_text(rules) if isinstance(rules, str) else rules
    rs.check_players(players)
    doubles = rs.dominoes.max_pips + 1
    return ActionSpace(rs, players, 2 + 2 * doubles + 2, rs.dominoes.count)
