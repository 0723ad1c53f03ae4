"""The table assistant: a FIDO game played with real tiles, followed from what the table shows.

Nobody tells the assistant the hands. It hears the public moves (who opened
with which double, every tile placed and where, every draw without its tile,
every pass) and keeps the sum of the ends, the points and every player's
tile count, refuses what cannot have happened, takes moves back, and at the
end turns the pips left in the hands into the result sheet.

How it judges with the engine's rules, written once in :mod:`fido.engine.game`:

* It keeps a *world*: an engine :class:`~fido.engine.game.Game` dealt with some
  assignment of the unseen tiles (a determinization), with every move entered
  so far replayed on it. Everything the assistant shows (table, sum, points,
  tile counts, turn, the end) is public and the same in every world.
* A world must agree with all the public information, not just the table of
  now: the opener held the opening double and no higher double was dealt
  (the highest double opens, so those lay in the stock); a tile placed by a
  player was in her hand since the deal or one of her draws; and whenever she
  drew or passed, her hand held no tile fitting an open slot then
  (:func:`fido.engine.knowledge.seat_events`). Every tile is given a *source* (a
  player's dealt hand, one draw, or the stock left) so that these hold; that
  is a bipartite assignment with capacities, solved as a maximum flow
  (:func:`scipy.sparse.csgraph.maximum_flow`). The flow is exact: a world
  exists exactly when the moves could have happened with real tiles.
* A move is first tried on the current world. If the world refuses it only
  because of the hidden tiles (she places a tile the world gave to someone
  else; she draws though the world gave her a fitting tile), a new world is
  computed for the moves with this one added and everything is replayed on
  it: the engine judges every move on the real table. When no world exists,
  the move is refused and the reason says what it contradicts.
* Why a move breaks the table's rules (a slot that is not open, numbers that
  do not match, the crosswise second move, a draw from an empty stock) is the
  engine's own reason (:mod:`fido.engine.validation`), asked on a probe game whose
  hidden tiles are arranged so that only the table decides: the player holds
  every unseen tile (for a placement) or none (for a draw or a pass).
* ``pop`` is the engine's :meth:`~fido.engine.game.Game.pop` on the world: it undoes
  exactly; the world still agrees with the shorter list of moves.
* Pips: a hand of k tiles holds a k-subset of the tiles that may still be in
  it (its sources allow them); the pips entered must be a sum some such subset
  reaches, the player who went out holds 0, and all hands together hold the
  unseen pips minus what the stock can hold. (Each hand is checked on its own
  beside the total: a joint check is a partition problem, and a sheet
  contradicting only jointly is left to the players who confirm it.) The
  result is :func:`fido.engine.results.score_hand`, as for every game.

Mother Theresa's rule depends on the hand (a free side takes a non-scoring
tile only when she cannot play on an end); the assistant does not follow it
and says so.

>>> a = TableAssistant("fido set=6", 3)
>>> a.push("6-6", seat=1); a.ends_sum, a.scores, a.hand_counts
(12, (0, 4, 0), (7, 6, 7))
>>> a.push("6-3@0n"); a.ends_sum, a.to_move
(15, 0)
>>> a.push("6-6@1n")
Traceback (most recent call last):
...
fido.assistant.AssistantError: 6-6 is already on the table
>>> a.pop(), a.ends_sum
(Move.from_text('6-3@0n'), 12)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Final, NamedTuple

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import maximum_flow

from fido.engine.game import Game
from fido.engine.knowledge import SeatEvent, Shown, seat_events
from fido.engine.moves import DRAW, Move, Placement, Turn
from fido.engine.results import Outcome, score_hand
from fido.engine.rules import Opener, Ruleset
from fido.engine.table import Table
from fido.engine.tiles import Tile
from fido.errors import ConfigurationError, FidoError, IllegalMoveError, quote

__all__ = ["AssistantError", "PublicState", "TableAssistant"]

_NEVER: Final = -(10**9)  # "no such event": before every event index


class AssistantError(IllegalMoveError):
    """An entry the assistant refuses; the message says why in plain words.

    ``index``: which of the moves given to :meth:`TableAssistant.load` it was.
    """

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index


class PublicState(NamedTuple):
    """Everything the table shows: the same whatever the hidden tiles are."""

    table: str
    ends_sum: int
    scores: tuple[int, ...]
    hand_counts: tuple[int, ...]
    stock_count: int
    to_move: int | None
    opener: int | None
    moves: tuple[str, ...]
    over: bool


class _Source(NamedTuple):
    """Where a tile can come from: a dealt hand (``index`` -1), one draw, or the stock left."""

    seat: int  # -1: the stock left after the last draw
    event: int  # the draw's index in the seat's events; -1 for the dealt hand
    capacity: int


class TableAssistant:
    """A FIDO game with real tiles, followed move by move (see the module text)."""

    def __init__(
        self, rules: Ruleset | str, players: int, names: Sequence[str] | None = None
    ) -> None:
        rs = Ruleset.from_text(rules) if isinstance(rules, str) else rules
        if not isinstance(rs, Ruleset) or not rs.is_fido:
            raise ConfigurationError(f"the assistant follows FIDO games, not {quote(rules)}")
        if rs.mother_theresa:
            raise ConfigurationError(
                "the assistant cannot follow Mother Theresa's rule: it depends on the hidden hand"
            )
        if players.__class__ is not int:
            raise ConfigurationError(f"players must be a whole number, not {quote(players)}")
        self.hand_size: Final = rs.hand_size(players)  # checks the count too
        self.rules: Final = rs
        self.players: Final = players
        self.stock_size: Final = rs.dominoes.count - players * self.hand_size
        self.names: tuple[str, ...] = tuple(names) if names else tuple(
            f"seat {i}" for i in range(players)
        )
        if len(self.names) != players:
            raise ConfigurationError(f"{players} players need {players} names")
        self._opener: int | None = None
        self._game: Game | None = None  # the world, with every move replayed

    # ------------------------------------------------------------ what the table shows

    @property
    def opener(self) -> int | None:
        return self._opener

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(t.move for t in self._game.history()) if self._game else ()

    @property
    def history(self) -> tuple[Turn, ...]:
        """Who did what, with points and sums; drawn tiles are not in it (nobody saw them)."""
        if self._game is None:
            return ()
        return tuple(t._replace(drawn=None) for t in self._game.history())

    @property
    def table(self) -> Table:
        return self._game.table.copy() if self._game else Table(self.rules.layout)

    @property
    def ends_sum(self) -> int:
        return self._game.ends_sum if self._game else 0

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._game.scores) if self._game else (0,) * self.players

    @property
    def hand_counts(self) -> tuple[int, ...]:
        if self._game is None:
            return (self.hand_size,) * self.players
        return tuple(self._game.hand_counts())

    @property
    def stock_count(self) -> int:
        return self._game.stock_count if self._game else self.stock_size

    @property
    def to_move(self) -> int | None:
        """Whose turn it is (before the opening: the opener once she is named; None at the end)."""
        if self._game is None:
            return self._opener
        return None if self._game.is_over else self._game.turn

    @property
    def is_over(self) -> bool:
        return self._game is not None and self._game.is_over

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (who went out, or blocked); its pips are the world's, not real."""
        return self._game.outcome if self._game else None

    def unplayed(self) -> list[Tile]:
        """The tiles of the set not on the table, ascending."""
        on = {p.tile for p in self.table.placements}
        return [t for t in self.rules.dominoes.tiles if t not in on]

    def state(self) -> PublicState:
        return PublicState(
            self.table.text(), self.ends_sum, self.scores, self.hand_counts, self.stock_count,
            self.to_move, self._opener, tuple(m.text() for m in self.moves), self.is_over,
        )

    def targets(self) -> list[Placement]:
        """Every placement the table allows the player to move now, of any unplayed tile.

        (Before the opening: every double, each one the opener might hold.)
        """
        g = self._game
        if g is None:
            return [Placement(t) for t in reversed(self.rules.dominoes.doubles)]
        if g.is_over:
            return []
        probe = self._probe(g, g.turn, holds_all=True)
        return [m for m in probe.legal_moves() if isinstance(m, Placement)]

    def points_for(self, move: Placement) -> int:
        """What ``move`` would score on the table now."""
        if self._game is None:
            return self.rules.points(Table(self.rules.layout).sum_after(move.tile))
        return self._game.points_for(move)

    # ------------------------------------------------------------ entering moves

    def set_opener(self, seat: int) -> None:
        """Who opens (holds the highest double dealt); only before the opening."""
        if self._game is not None:
            raise AssistantError("the game has opened: take the opening back to change the opener")
        self._opener = self._seat(seat)

    def push(self, move: Move | str, *, seat: int | None = None) -> None:
        """Enter a move: a placement, ``draw`` or ``pass`` (text or a :class:`Move`).

        The opening double needs ``seat`` (who opens) unless :meth:`set_opener`
        named her; later, ``seat`` when given must be the player to move.
        Raises :class:`AssistantError`, changing nothing, when refused.
        """
        try:
            m = Move.from_text(move) if isinstance(move, str) else move
        except FidoError as e:
            raise AssistantError(str(e)) from None
        if not isinstance(m, Move):
            raise AssistantError(f"not a move: {quote(move)}")
        g = self._game
        if g is None:
            self._open(m, seat)
            return
        if g.is_over:
            raise AssistantError("the game is over: enter the pips left in the hands")
        if seat is not None and seat != g.turn:
            raise AssistantError(f"it is {self.names[g.turn]}'s turn, not {quote(seat)}'s")
        if isinstance(m, Placement) and m.tile in {p.tile for p in g.table.placements}:
            raise AssistantError(f"{m.tile} is already on the table")
        trial = g.copy()
        try:
            trial.push(m)  # the world agrees: the common case, no new world needed
        except IllegalMoveError:
            pass
        else:
            self._game = trial
            return
        # what the table alone says (the engine's reason), then whether any deal allows it
        probe = self._probe(g, g.turn, holds_all=isinstance(m, Placement))
        try:
            probe.push(m)
        except IllegalMoveError as e:
            raise AssistantError(str(e)) from None
        turns = [(t.seat, t.move) for t in g.history()] + [(g.turn, m)]
        world = self._world(turns)
        if world is None:
            raise AssistantError(self._why_not(g, m))
        self._game = world

    def load(self, opener: int | None, moves: Sequence[Move | str]) -> int:
        """Enter ``moves`` from the start, the opening by ``opener``; returns how many were taken.

        A browser sends the whole game each time: when every move is right (the
        common case) one world is computed for all of them and they are replayed
        once; otherwise they are entered one by one and the first refused one
        raises :class:`AssistantError` (``index``: its position) with the game
        left after the moves before it.
        """
        self._game = None
        self._opener = None if opener is None else self._seat(opener)
        if not moves:
            return 0
        try:
            parsed = [Move.from_text(x) if isinstance(x, str) else x for x in moves]
            if self._opener is not None and all(isinstance(x, Move) for x in parsed):
                turns: list[tuple[int, Move]] = []
                seat = self._opener
                for x in parsed:
                    turns.append((seat, x))
                    seat = self.rules.next_seat(seat, self.players)
                world = self._world(turns)
                if world is not None:
                    self._game = world
                    return len(moves)
        except (FidoError, KeyError, IndexError, AssertionError):
            self._game = None  # some move is wrong: find which, one by one
        for i, m in enumerate(moves):
            try:
                self.push(m, seat=self._opener if i == 0 else None)
            except AssistantError as e:
                raise AssistantError(str(e), i) from None
        return len(moves)

    def copy(self) -> TableAssistant:
        """An independent copy (the world is copied; the rest is immutable)."""
        other = TableAssistant.__new__(TableAssistant)
        other.__dict__.update(self.__dict__)
        other._game = self._game.copy() if self._game is not None else None
        return other

    def pop(self) -> Move:
        """Take back the last move (the opening too); raises when there is none."""
        g = self._game
        if g is None:
            raise AssistantError("no move to take back")
        move = g.pop()
        if not g.history():
            self._game = None  # back before the opening: the opener stays named
        return move

    def _open(self, m: Move, seat: int | None) -> None:
        if seat is not None:
            if self._opener is not None and seat != self._opener:
                self._opener = None
            opener = self._seat(seat)
        elif self._opener is not None:
            opener = self._opener
        else:
            raise AssistantError("say who opens first (the player holding the highest double)")
        if not isinstance(m, Placement):
            raise AssistantError(f"the game opens with a double, not with {m.text()}")
        if not m.is_opening:
            raise AssistantError(
                f"the table is empty: the game opens with a double, alone ({m.tile})"
            )
        if self.rules.opener is Opener.HIGHEST_DOUBLE and not m.tile.is_double:
            raise AssistantError(
                f"the game opens with the highest double dealt, and {m.tile} is not a double"
            )
        self._opener = opener
        world = self._world([(opener, m)])
        if world is None:
            higher = sum(1 for d in self.rules.dominoes.doubles if d.high > m.tile.high)
            raise AssistantError(
                f"{m.tile} cannot open: the highest double dealt opens, so the {higher} higher "
                f"doubles would all lie in the stock, which holds only {self.stock_size} tiles"
            )
        self._game = world

    def _seat(self, seat: object) -> int:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            raise AssistantError(f"no player {quote(seat)} (players are 0 to {self.players - 1})")
        return seat

    # ------------------------------------------------------------ worlds

    def _probe(self, g: Game, seat: int, *, holds_all: bool) -> Game:
        """``g``'s table, ``seat`` holding every unseen tile (or none): only the table decides."""
        view = g.spectator_view()
        hands = [list(g.hand(s)) for s in range(self.players)]
        stock = self.rules.dominoes.tiles_of(g.stock_mask)
        if holds_all:
            hands = [[] for _ in hands]
            hands[seat] = [t for t in self.unplayed()]
            stock = []
        else:
            other = (seat + 1) % self.players
            hands[other] += hands[seat]
            hands[seat] = []
        view = dataclasses.replace(
            view, hand_counts=tuple(len(h) for h in hands), stock_count=len(stock)
        )
        return Game.from_view(view, hands, stock)

    def _sources_and_edges(
        self, turns: Sequence[tuple[int, Move]]
    ) -> tuple[list[_Source], list[list[int]], list[list[int]]]:
        """The tiles' possible sources: per tile, the indices of the sources it may come from.

        Also returns, per seat, the indices of her draws in global order (to deal the stock).
        """
        rules = self.rules
        dominoes = rules.dominoes
        opener = self._opener
        assert opener is not None
        opening = turns[0][1]
        assert isinstance(opening, Placement)
        events = _events(rules, self.players, turns)
        by_mask = {(1 << t.high) | (1 << t.low): t for t in dominoes.tiles}
        played: dict[Tile, tuple[int, int]] = {opening.tile: (opener, 0)}
        voids: list[list[tuple[int, int]]] = [[] for _ in range(self.players)]
        draws: list[list[int]] = [[] for _ in range(self.players)]
        for seat, seq in enumerate(events):
            for i, ev in enumerate(seq):
                if ev.kind is Shown.PLAY:
                    played[by_mask[ev.numbers]] = (seat, i)
                elif ev.kind is Shown.VOID:
                    voids[seat].append((i, ev.numbers))
                elif ev.kind is Shown.DRAW:
                    draws[seat].append(i)
        sources: list[_Source] = []
        seat_sources: list[list[int]] = []
        for seat in range(self.players):
            mine = [len(sources)]
            sources.append(_Source(seat, -1, self.hand_size))
            for i in draws[seat]:
                mine.append(len(sources))
                sources.append(_Source(seat, i, 1))
            seat_sources.append(mine)
        left = self.stock_size - sum(len(d) for d in draws)
        stock_source = len(sources)
        sources.append(_Source(-1, -1, left))
        higher: set[Tile] = set()
        if rules.opener is Opener.HIGHEST_DOUBLE:
            higher = {d for d in dominoes.doubles if d.high > opening.tile.high}
        edges: list[list[int]] = []
        for t in dominoes.tiles:
            mask = (1 << t.high) | (1 << t.low)
            owner, until = played.get(t, (-1, 1 << 30))
            ok: list[int] = []
            for seat in range(self.players) if owner < 0 else (owner,):
                last = max((i for i, m in voids[seat] if i < until and m & mask), default=_NEVER)
                for si in seat_sources[seat]:
                    src = sources[si]
                    if src.event >= until or src.event < last:
                        continue
                    if src.event == -1 and t in higher:
                        continue
                    ok.append(si)
            if owner < 0:
                ok.append(stock_source)
            edges.append(ok)
        return sources, edges, draws

    def _assign(
        self, sources: Sequence[_Source], edges: Sequence[Sequence[int]]
    ) -> list[int] | None:
        """A source for every tile within the capacities (a maximum flow), or None."""
        n_tiles = len(edges)
        if any(s.capacity < 0 for s in sources):
            return None
        sink = 1 + n_tiles + len(sources)
        rows: list[int] = []
        cols: list[int] = []
        caps: list[int] = []
        for t, ok in enumerate(edges):
            rows.append(0)
            cols.append(1 + t)
            caps.append(1)
            for si in ok:
                rows.append(1 + t)
                cols.append(1 + n_tiles + si)
                caps.append(1)
        for si, s in enumerate(sources):
            rows.append(1 + n_tiles + si)
            cols.append(sink)
            caps.append(s.capacity)
        size = sink + 1
        graph = csr_matrix(
            (np.array(caps, dtype=np.int32), (np.array(rows), np.array(cols))), shape=(size, size)
        )
        flow = maximum_flow(graph, 0, sink)
        if flow.flow_value != n_tiles:
            return None
        f = flow.flow.tocsr()
        indptr, indices, data = f.indptr, f.indices, f.data
        out: list[int] = []
        for t in range(1, n_tiles + 1):
            lo, hi = indptr[t], indptr[t + 1]
            used = indices[lo:hi][data[lo:hi] > 0]  # the one source carrying this tile
            out.append(int(used[0]) - 1 - n_tiles)
        return out

    def _world(self, turns: Sequence[tuple[int, Move]]) -> Game | None:
        """A game dealt so that ``turns`` all happen, with them replayed; None if none exists."""
        sources, edges, draws = self._sources_and_edges(turns)
        assigned = self._assign(sources, edges)
        if assigned is None:
            return None
        tiles = self.rules.dominoes.tiles
        hands: list[list[Tile]] = [[] for _ in range(self.players)]
        by_draw: dict[tuple[int, int], Tile] = {}
        rest: list[Tile] = []
        for t, si in zip(tiles, assigned, strict=True):
            src = sources[si]
            if src.seat < 0:
                rest.append(t)
            elif src.event < 0:
                hands[src.seat].append(t)
            else:
                by_draw[(src.seat, src.event)] = t
        order: list[Tile] = []
        seen = [0] * self.players
        for seat, move in turns:
            if move is DRAW:
                order.append(by_draw[(seat, draws[seat][seen[seat]])])
                seen[seat] += 1
        game = Game.from_deal(self.rules, hands, order + rest)
        for seat, move in turns:
            game.push(move, seat=seat)  # the engine judges every move again
        return game

    def _why_not(self, g: Game, m: Move) -> str:
        """Why no deal agrees with the moves and ``m`` (the table allows ``m``)."""
        name = self.names[g.turn]
        if isinstance(m, Placement):
            t = m.tile
            first = g.table.placements[0].tile
            drew = any(turn.seat == g.turn and turn.move is DRAW for turn in g.history())
            if t.is_double and t.high > first.high and not drew:
                return (
                    f"{name} cannot hold {t}: the highest double dealt opens, so {t} lay in "
                    f"the stock, and she has not drawn since"
                )
            return (
                f"{name} cannot hold {t}: she drew or passed while it would have fitted "
                "and has not drawn since (or the tiles left cannot be dealt so)"
            )
        return (
            f"{name} cannot be stuck: whatever she holds, the moves entered leave her a tile "
            "that fits, so she must place one"
        )

    # ------------------------------------------------------------ the end

    def pip_bounds(self) -> list[tuple[int, int]]:
        """Per player, the fewest and most pips her hand can hold now."""
        sums = self._pip_sums()
        out = []
        for mask in sums:
            values = [i for i in range(mask.bit_length()) if mask >> i & 1]
            out.append((min(values), max(values)) if values else (0, 0))
        return out

    def _pip_sums(self) -> list[int]:
        """Per player, the pip totals her hand can reach, as a bitmask of sums."""
        g = self._game
        if g is None:
            return [0] * self.players
        turns = [(t.seat, t.move) for t in g.history()]
        sources, edges, _ = self._sources_and_edges(turns)
        tiles = self.rules.dominoes.tiles
        on = {p.tile for p in g.table.placements}
        out = []
        for seat, k in enumerate(g.hand_counts()):
            allowed = [
                t for t, ok in zip(tiles, edges, strict=True)
                if t not in on and any(sources[si].seat == seat for si in ok)
            ]
            out.append(_subset_sums([t.high + t.low for t in allowed], k))
        return out

    def result(self, pips: Sequence[int]) -> Outcome:
        """The result once the game is over: points scored - the pips left as entered.

        Refuses pips no hand could hold (see the module text).
        """
        g = self._game
        if g is None or g.outcome is None:
            raise AssistantError("the game is not over yet")
        if len(pips) != self.players:
            raise AssistantError(f"give the pips of all {self.players} players")
        for seat, p in enumerate(pips):
            if p.__class__ is not int or p < 0:
                raise AssistantError(f"{self.names[seat]}: pips are a whole number, not {quote(p)}")
        sums = self._pip_sums()
        counts = g.hand_counts()
        for seat, (p, mask) in enumerate(zip(pips, sums, strict=True)):
            if not (p < mask.bit_length() and mask >> p & 1):
                if counts[seat] == 0:
                    raise AssistantError(f"{self.names[seat]} went out: she holds 0 pips")
                lo, hi = self.pip_bounds()[seat]
                raise AssistantError(
                    f"{self.names[seat]} cannot hold {p} pips in {counts[seat]} tiles "
                    f"(possible: {lo} to {hi}, and only sums the tiles left can make)"
                )
        unseen = [t for t in self.unplayed()]
        total = sum(t.high + t.low for t in unseen)
        stock = _subset_sums([t.high + t.low for t in unseen], g.stock_count)
        rest = total - sum(pips)
        if not (0 <= rest < stock.bit_length() and stock >> rest & 1):
            if g.stock_count == 0:
                raise AssistantError(
                    f"the hands hold {sum(pips)} pips together, but the tiles not on the "
                    f"table have {total}"
                )
            raise AssistantError(
                f"the hands hold {sum(pips)} pips together: the {g.stock_count} tiles in the "
                f"stock cannot hold the other {rest} of the {total} not on the table"
            )
        out = g.outcome
        return score_hand(self.rules, g.scores, list(pips), out.termination, out.out_seat)


def _events(
    rules: Ruleset, players: int, turns: Sequence[tuple[int, Move]]
) -> list[list[SeatEvent]]:
    """Per seat, what her turns showed (:func:`fido.engine.knowledge.seat_events`)."""
    from fido.engine.views import SeatView  # noqa: PLC0415

    history = tuple(Turn(seat, move, 0, 0, None) for seat, move in turns)
    view = SeatView(
        rules=rules, players=players, seat=None, hand=(), table=Table(rules.layout),
        hand_counts=(0,) * players, stock_count=0, scores=(0,) * players, to_move=0,
        opener=turns[0][0] if turns else 0, history=history, legal_moves=(), outcome=None,
    )
    return seat_events(view)


def _subset_sums(values: Sequence[int], k: int) -> int:
    """The sums of exactly ``k`` of ``values``, as a bitmask (bit s: sum s is reachable)."""
    if k < 0 or k > len(values):
        return 0
    dp = [1] + [0] * k
    for i, v in enumerate(values):
        for j in range(min(k, i + 1), 0, -1):
            dp[j] |= dp[j - 1] << v
    return dp[k]

