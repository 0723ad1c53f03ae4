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
and two legal moves never share one; :meth:`ActionSpace.move_of` inverts
:meth:`ActionSpace.action_of` in the position they were taken from. The
tests check both over random games of every ruleset.

Observations (:meth:`ActionSpace.observe`) are flat float vectors of one
seat's view, in this order (``N`` the numbers 0..max pips, ``P`` the seats)::

    hand          T   1 for each tile in her hand
    table         T   1 for each tile on the table
    ends          N   how many playable slots show each number
    slots   K*(N+2)   per slot rank r, as the actions count them: its number
                      one-hot, 1 if it is a double's side, 1 if playable now
    counts        P   every seat's tile count
    scores        P   every seat's score so far
    stock         1   tiles in the stock
    to move       P   one-hot (all zero once the hand is over)
    me            P   one-hot: whose view this is

So an agent can read what "tile on slot #r" means from its own input. Nothing
else is in it: a view holds only what the seat may see (other hands, the
stock's order and other seats' drawn tiles are not in a view at all).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from fido.engine.moves import Draw, Move, Pass, Placement
from fido.engine.rules import Ruleset
from fido.engine.table import Table
from fido.engine.views import SeatView

__all__ = ["ActionSpace", "action_space"]



class ActionSpace(NamedTuple):
    """The fixed action space and observation size of one ruleset and player count."""

    rules: Ruleset
    players: int
    slots: int  # K: most open slots a table of this set can have
    tiles: int  # T

    def __deepcopy__(self, memo: object) -> ActionSpace:
        return self  # immutable: OpenSpiel clones states by deep copy

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
        t, n, k, p = self.tiles, self.rules.dominoes.max_pips + 1, self.slots, self.players
        return 2 * t + n + k * (n + 2) + 4 * p + 1

    def observe(self, view: SeatView) -> list[float]:
        """The seat's view as a flat vector (see the module docstring)."""
        t, n, p = self.tiles, self.rules.dominoes.max_pips + 1, self.players
        out = [0.0] * self.observation_size
        for tile in view.hand:
            out[tile.id] = 1.0
        table = view.table
        for placed in table.placements:
            out[t + placed.tile.id] = 1.0
        playable = {code for code, _v in table.playable()}
        for _code, v in table.playable():
            out[2 * t + v] += 1.0
        base = 2 * t + n
        row = n + 2
        for rank, (code, (v, kind)) in enumerate(sorted(table.open_slots().items())):
            at = base + rank * row
            out[at + v] = 1.0
            out[at + n] = 1.0 if kind == "side" else 0.0
            out[at + n + 1] = 1.0 if code in playable else 0.0
        base += self.slots * row
        for s in range(p):
            out[base + s] = float(view.hand_counts[s])
            out[base + p + s] = float(view.scores[s])
        out[base + 2 * p] = float(view.stock_count)
        base += 2 * p + 1
        if view.outcome is None:
            out[base + view.to_move] = 1.0
        if view.seat is not None:
            out[base + p + view.seat] = 1.0
        return out


def action_space(rules: Ruleset | str, players: int) -> ActionSpace:
    """The action space of a ruleset (text or object) for a player count."""
    rs = Ruleset.from_text(rules) if isinstance(rules, str) else rules
    rs.check_players(players)
    doubles = rs.dominoes.max_pips + 1
    return ActionSpace(rs, players, 2 + 2 * doubles + 2, rs.dominoes.count)
