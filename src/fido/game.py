"""The game state: deal, turn order, legal moves, placing, drawing, passing, end.

>>> g = Game.new("fido set=6", players=3, seed=1)
>>> g.legal_moves()
[Move.from_text('6-6')]
>>> g.push(g.legal_moves()[0]); g.ends_sum, g.scores
(12, [4, 0, 0])

Legal moves come in a fixed, documented order: placements first, by open slot
in the order the slots were opened, and within a slot by ascending tile
(higher half, then lower); then ``DRAW`` where drawing is allowed beside
placing (the draw game); ``DRAW`` or ``PASS`` alone when the player cannot
place. The opening move is the opener's tile alone (the draw game: every
tile of the first seat's hand, ascending).

A hand is a bitmask of tile ids; the sum of the ends is kept by the table.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Final

from fido.errors import ConfigurationError, IllegalMoveError
from fido.moves import DRAW, PASS, PORTS, Draw, Pass, Placement, Turn
from fido.results import Outcome, Termination, score_hand
from fido.rules import Opener, Ruleset, Scoring, Stuck
from fido.table import END, SIDE, Table
from fido.tiles import DominoSet, Tile
from fido.views import SeatView, make_view

__all__ = ["Game", "Turn"]

Move = Placement | Draw | Pass

# Interned placements, _PLACEMENTS[slot code][tile id]: creating a NamedTuple per
# legal move would cost more than generating the moves (lists index faster than dicts).
_PLACEMENTS: Final[list[list[Placement | None]]] = []


def _placement_row(code: int, count: int) -> list[Placement | None]:
    rows = _PLACEMENTS
    while len(rows) <= code:
        rows.append([])
    row = rows[code]
    if len(row) < count:
        row.extend([None] * (count - len(row)))
    return row


MAX_REDEALS: Final = 1000


def _shuffle(tiles: list[Tile], rng: random.Random) -> None:
    """Fisher-Yates with ``rng.random()``: the deal depends on the generator alone.

    Three times faster than ``rng.shuffle`` once compiled; the bias of
    ``int(random() * n)`` (53-bit floats, n < 300) is far below any test's reach.
    """
    rand = rng.random
    for i in range(len(tiles) - 1, 0, -1):
        j = int(rand() * (i + 1))
        tiles[i], tiles[j] = tiles[j], tiles[i]


def _as_rules(rules: Ruleset | str) -> Ruleset:
    return Ruleset.from_text(rules) if isinstance(rules, str) else rules


# what a stuck player does, as small ints for the hot path
PASS_ONLY: Final = 0
DRAW_ONE: Final = 1
DRAW_UNTIL: Final = 2
DRAW_FREE: Final = 3
_STUCK: Final[dict[Stuck, int]] = {
    Stuck.PASS: PASS_ONLY,
    Stuck.DRAW_ONE: DRAW_ONE,
    Stuck.DRAW_UNTIL: DRAW_UNTIL,
    Stuck.DRAW_FREE: DRAW_FREE,
}


def _divisor_of(rules: Ruleset) -> int:
    if rules.scoring is Scoring.DIVISOR:
        return rules.divisor
    return 0 if rules.scoring is Scoring.NONE else -1


class Game:
    """A hand of dominoes in progress. Mutable; :meth:`copy` is cheap."""

    __slots__ = (
        "_by_value",
        "_clockwise",
        "_divisor",
        "_keep",
        "_log",
        "_mother",
        "_outcome",
        "_stuck",
        "hands",
        "initial_hands",
        "opener",
        "opening_tile",
        "passes",
        "players",
        "rules",
        "scores",
        "set",
        "stock",
        "stock_pos",
        "table",
        "turn",
    )

    rules: Ruleset
    players: int
    set: DominoSet
    hands: list[int]
    initial_hands: tuple[int, ...]  # the deal, for records
    stock: tuple[Tile, ...]
    stock_pos: int
    table: Table
    turn: int
    scores: list[int]
    passes: int
    opener: int
    opening_tile: Tile | None
    # per seat, per number v: a bitmask of the numbers w with v-w in hand (small ints,
    # so move generation needs no big-integer arithmetic)
    _by_value: list[list[int]]
    # hot-path shortcuts: the divisor when the sum scores S / d, 0 when nothing scores
    # during play, -1 to ask the rules (fives and threes); the direction of play
    _divisor: int
    _clockwise: bool
    _stuck: int  # PASS_ONLY, DRAW_ONE, DRAW_UNTIL or DRAW_FREE
    _mother: bool
    _keep: int  # tiles that stay in the stock
    _log: tuple[object, ...] | None
    _outcome: Outcome | None

    # ------------------------------------------------------------ creation

    @classmethod
    def new(
        cls,
        rules: Ruleset | str,
        players: int = 4,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
    ) -> Game:
        """Shuffle and deal with ``rng`` (or ``random.Random(seed)``).

        Deals again while no hand holds a double when the opener needs one.
        """
        rules = _as_rules(rules)
        size = rules.hand_size(players)
        if rng is None:
            rng = random.Random(seed)
        tiles = list(rules.dominoes.tiles)
        needs_double = rules.opener is not Opener.FIRST_SEAT
        dealt = size * players
        for _ in range(MAX_REDEALS):
            _shuffle(tiles, rng)
            hands = [0] * players
            has_double = False
            for i in range(players):
                m = 0
                for t in tiles[i * size : (i + 1) * size]:
                    m |= t.bit
                    if t.is_double:
                        has_double = True
                hands[i] = m
            if has_double or not needs_double:
                return cls._setup(rules, hands, tuple(tiles[dealt:]))
        raise ConfigurationError("no deal with a double in hand after many shuffles")

    @classmethod
    def from_deal(
        cls,
        rules: Ruleset | str,
        hands: Sequence[Sequence[Tile]],
        stock: Sequence[Tile] = (),
    ) -> Game:
        """Set up an exact deal: every hand, and the stock in drawing order."""
        rules = _as_rules(rules)
        players = len(hands)
        rules.check_players(players)
        size = rules.hand_size(players)
        dominoes = rules.dominoes
        seen: set[Tile] = set()
        for who, tiles in [
            *((f"seat {i}'s hand", h) for i, h in enumerate(hands)),
            ("the stock", stock),
        ]:
            for t in tiles:
                if not isinstance(t, Tile):
                    raise ConfigurationError(f"{who} holds {t!r}, which is not a Tile")
                if t not in dominoes:
                    raise ConfigurationError(
                        f"{t} in {who} is not in the double-{dominoes.max_pips} set"
                    )
                if t in seen:
                    raise ConfigurationError(f"{t} is dealt twice ({who})")
                seen.add(t)
        for i, h in enumerate(hands):
            if len(h) != size:
                raise ConfigurationError(
                    f"seat {i} holds {len(h)} tiles; {rules.name} with {players} players "
                    f"deals {size} each"
                )
        if len(seen) != dominoes.count:
            missing = [str(t) for t in dominoes.tiles if t not in seen]
            raise ConfigurationError(
                f"the deal misses {len(missing)} tiles ({', '.join(missing[:6])}"
                f"{' ...' if len(missing) > 6 else ''}); put the rest in the stock"
            )
        return cls._setup(rules, [dominoes.mask_of(list(h)) for h in hands], tuple(stock))

    @classmethod
    def from_view(
        cls,
        view: SeatView,
        hands: Sequence[Sequence[Tile]],
        stock: Sequence[Tile] = (),
    ) -> Game:
        """The game a view shows, its hidden tiles filled in: one world a search samples.

        ``hands`` gives every seat's tiles (the viewer's must be her own) and
        ``stock`` the pile in drawing order; together with the table they must
        be the whole set, each hand as large as the view says. The history is
        the view's (other seats' drawn tiles stay unknown), and the deal the
        game remembers is the hands as given.
        """
        rules = view.rules
        dominoes = rules.dominoes
        if len(hands) != view.players:
            raise ConfigurationError(f"the view has {view.players} seats, not {len(hands)}")
        if view.seat is not None and sorted(hands[view.seat]) != sorted(view.hand):
            raise ConfigurationError(f"seat {view.seat}'s hand must be the one the view shows")
        seen: set[Tile] = {p.tile for p in view.table.placements}
        for who, tiles, want in [
            *((f"seat {i}", h, view.hand_counts[i]) for i, h in enumerate(hands)),
            ("the stock", stock, view.stock_count),
        ]:
            if len(tiles) != want:
                raise ConfigurationError(f"{who} holds {want} tiles in the view, not {len(tiles)}")
            for t in tiles:
                if t not in dominoes or t in seen:
                    raise ConfigurationError(f"{t} cannot be in {who}: not free in this game")
                seen.add(t)
        if len(seen) != dominoes.count:
            raise ConfigurationError("hands, stock and table must make up the whole set")
        masks = [dominoes.mask_of(list(h)) for h in hands]
        g = cls._setup(rules, masks, tuple(stock), opened=bool(view.table.placements))
        g.table = view.table.copy()
        g.scores = list(view.scores)
        g.turn = view.to_move
        g.opener = view.opener
        if view.table.placements:
            g.opening_tile = view.table.placements[0].tile
        log: tuple[object, ...] | None = None
        passes = 0
        for turn in view.history:
            log = (tuple(turn), log)
            passes = passes + 1 if turn.move is PASS else 0
        g._log = log
        g.passes = passes
        g._outcome = view.outcome
        return g

    @classmethod
    def _setup(
        cls, rules: Ruleset, hands: list[int], stock: tuple[Tile, ...], opened: bool = False
    ) -> Game:
        """The trusted constructor: hands as bitmasks, already checked.

        ``opened``: the table is laid already (from_view), so nobody is looked for to open.
        """
        g = cls()
        g.rules = rules
        g.players = len(hands)
        g.set = rules.dominoes
        g.hands = hands
        g.initial_hands = tuple(hands)
        g._by_value = [g._index(h) for h in hands]
        g._divisor = _divisor_of(rules)
        g._clockwise = rules.clockwise
        g._stuck = _STUCK[rules.stuck]
        g._mother = rules.mother_theresa
        g._keep = rules.keep_in_stock
        g.stock = stock
        g.stock_pos = 0
        g.table = Table(rules.layout)
        g.scores = [0] * len(hands)
        g.passes = 0
        g._log = None
        g._outcome = None
        if opened:
            g.opener, g.opening_tile = 0, None
        else:
            g.opener, g.opening_tile = g._find_opener()
        g.turn = g.opener
        return g

    def _index(self, mask: int) -> list[int]:
        by_value = [0] * (self.set.max_pips + 1)
        tiles = self.set.tiles
        while mask:
            low = mask & -mask
            t = tiles[low.bit_length() - 1]
            by_value[t.high] |= 1 << t.low
            by_value[t.low] |= 1 << t.high
            mask ^= low
        return by_value

    def _find_opener(self) -> tuple[int, Tile | None]:
        rule = self.rules.opener
        if rule is Opener.FIRST_SEAT:
            return 0, None
        values = range(self.set.max_pips + 1)
        order = reversed(values) if rule is Opener.HIGHEST_DOUBLE else values
        pair_tiles = self.set.pair_tiles
        for v in order:
            double = pair_tiles[v][v]
            bit = double.bit
            for seat, hand in enumerate(self.hands):
                if hand & bit:
                    return seat, double
        raise ConfigurationError("no hand holds a double, so nobody can open: deal again")

    def copy(self) -> Game:
        """An independent copy (the history is shared structurally, so this is O(1)-ish)."""
        g = Game()
        g.rules = self.rules
        g.players = self.players
        g.set = self.set
        g.hands = self.hands.copy()
        g._by_value = [h.copy() for h in self._by_value]
        g._divisor = self._divisor
        g._clockwise = self._clockwise
        g._stuck = self._stuck
        g._mother = self._mother
        g._keep = self._keep
        g.initial_hands = self.initial_hands
        g.stock = self.stock
        g.stock_pos = self.stock_pos
        g.table = self.table.copy()
        g.turn = self.turn
        g.scores = self.scores.copy()
        g.passes = self.passes
        g.opener = self.opener
        g.opening_tile = self.opening_tile
        g._log = self._log
        g._outcome = self._outcome
        return g

    def __copy__(self) -> Game:
        return self.copy()

    # ------------------------------------------------------------ queries

    @property
    def ends_sum(self) -> int:
        return self.table.ends_sum

    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    @property
    def stock_count(self) -> int:
        return len(self.stock) - self.stock_pos

    def hand(self, seat: int) -> list[Tile]:
        """Seat's tiles, ascending. (Only the game's owner may look: views hide the rest.)"""
        return self.set.tiles_of(self.hands[seat])

    def hand_counts(self) -> list[int]:
        return [h.bit_count() for h in self.hands]

    def pips(self, seat: int) -> int:
        return self.set.pips_of(self.hands[seat])

    def history(self) -> list[Turn]:
        out: list[Turn] = []
        node = self._log
        while node is not None:
            out.append(Turn(*node[0]))  # type: ignore[misc]
            node = node[1]  # type: ignore[assignment]
        out.reverse()
        return out

    def __iter__(self) -> Iterator[Turn]:
        return iter(self.history())

    def last_turn(self) -> Turn | None:
        return Turn(*self._log[0]) if self._log is not None else None  # type: ignore[misc]

    def points_for(self, move: Move) -> int:
        """What ``move`` would score now (0 for draws and passes). Does not check legality."""
        if not isinstance(move, Placement) or self.rules.scoring is Scoring.NONE:
            return 0
        if move.anchor < 0:
            return self.rules.points(2 * move.tile.high if move.tile.is_double else move.tile.pips)
        return self.rules.points(self.table.ends_sum + self.table.delta(move.tile, move.slot))

    # ------------------------------------------------------------ legal moves

    def _placements(self) -> list[Placement]:
        seat = self.turn
        hand = self.hands[seat]
        table = self.table
        if not table.placements:
            if self.opening_tile is not None:
                return [Placement(self.opening_tile)]
            return [Placement(t) for t in self.set.tiles_of(hand)]
        by_value = self._by_value[seat]
        dominoes = self.set
        pair_ids = dominoes.pair_ids
        tiles = dominoes.tiles
        count = dominoes.count
        rows = _PLACEMENTS
        moves: list[Placement] = []
        append = moves.append
        if len(table.placements) < 5:
            only_sides, only_arms = table.slot_filter()
        else:
            only_sides = only_arms = False
        for code, (v, kind, _w) in table.open.items():
            m = by_value[v]
            if not m:
                continue
            if only_sides and kind != SIDE:
                continue
            if only_arms and code >= 4:
                continue
            ids = pair_ids[v]
            row = rows[code] if code < len(rows) else []
            if len(row) < count:
                row = _placement_row(code, count)
            while m:
                low = m & -m
                tid = ids[low.bit_length() - 1]
                mv = row[tid]
                if mv is None:
                    mv = row[tid] = Placement(tiles[tid], code >> 2, code & 3)
                append(mv)
                m ^= low
        if self._mother and moves:
            moves = self._mother_theresa(moves)
        return moves

    def _mother_theresa(self, moves: list[Placement]) -> list[Placement]:
        """A free side only if the move scores or there is no other placement."""
        open_ = self.table.open
        if all(open_[m.slot][1] == SIDE for m in moves):
            return moves
        return [m for m in moves if open_[m.slot][1] == END or self.points_for(m) > 0]

    def _can_draw(self) -> bool:
        return self._stuck != PASS_ONLY and len(self.stock) - self.stock_pos > self._keep

    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to move, in the documented order."""
        if self._outcome is not None:
            return []
        moves: list[Move] = self._placements()  # type: ignore[assignment]
        if moves:
            if self._stuck == DRAW_FREE and self.table.placements and self._can_draw():
                moves.append(DRAW)
            return moves
        return [DRAW if self._can_draw() else PASS]

    def is_legal(self, move: object) -> bool:
        return move in self.legal_moves()

    def can_place(self) -> bool:
        if not self.table.placements:
            return True
        hand = self.hands[self.turn]
        vmask = self.set.value_masks
        return any(hand & vmask[v] for _code, v in self.table.playable())

    def playout(self, rng: random.Random, greedy: float = 0.0) -> Outcome:
        """Play the hand to its end and return the outcome: what search rolls out.

        Each turn, with probability ``greedy`` the placement scoring most now
        (then the heaviest tile; draws only when nothing can be placed), else a
        uniformly random legal move. Cheap because it runs compiled.
        """
        rand = rng.random
        while self._outcome is None:
            moves = self.legal_moves()
            move = moves[0]
            if len(moves) > 1:
                if greedy > 0.0 and rand() < greedy:
                    move = self._best_now(moves)
                else:
                    move = moves[int(rand() * len(moves))]
            self.push(move)
        return self._outcome

    def _best_now(self, moves: list[Move]) -> Move:
        table = self.table
        base = table.ends_sum
        d = self._divisor
        best = moves[0]
        best_key = -1
        for m in moves:
            if m.__class__ is not Placement:
                continue
            p: Placement = m
            tile = p.tile
            if p.anchor < 0:
                pts = self.points_for(p)
            elif d > 0:
                s = base + table.delta(tile, p.anchor * 4 + p.port)
                pts = s // d if s % d == 0 else 0
            elif d == 0:
                pts = 0
            else:
                pts = self.points_for(p)
            key = pts * 1024 + tile.pips
            if key > best_key:
                best, best_key = m, key
        return best

    # ------------------------------------------------------------ making moves

    def push(self, move: object, *, seat: int | None = None) -> None:
        """Make a move. An illegal one raises :class:`IllegalMoveError` and changes nothing.

        ``seat``, when given, must be the seat to move (servers pass it).
        """
        if self._outcome is not None:
            raise IllegalMoveError("the game is over")
        if seat is not None and seat != self.turn:
            raise IllegalMoveError(f"it is seat {self.turn}'s turn, not seat {seat}'s")
        cls = move.__class__
        if cls is Placement:
            self._place(move)  # type: ignore[arg-type]
        elif cls is Draw:
            self._draw()
        elif cls is Pass:
            self._pass()
        else:
            raise IllegalMoveError(f"not a move: {move!r}")

    def _place(self, move: Placement) -> None:
        tile, anchor, port = move
        seat = self.turn
        if tile.__class__ is not Tile or not self.hands[seat] & tile.bit:
            raise IllegalMoveError(f"{tile} is not in seat {seat}'s hand")
        table = self.table
        n_placed = len(table.placements)
        if not n_placed:
            if anchor >= 0:
                raise IllegalMoveError(
                    f"the table is empty: the game opens with {self._opening_text()}"
                )
            if self.opening_tile is not None and tile is not self.opening_tile:
                raise IllegalMoveError(f"the game opens with {self._opening_text()}")
            s = table.place(tile, -1, move)
        else:
            code = anchor * 4 + port
            slot = table.open.get(code) if anchor >= 0 and 0 <= port <= 3 else None
            if slot is None:
                self._explain_bad_slot(tile, anchor, port)
            value, kind, _w = slot  # type: ignore[misc]
            if tile.high != value and tile.low != value:
                raise IllegalMoveError(
                    f"values do not match: {tile} does not show {value}, the number at "
                    f"{anchor}{PORTS[port]}"
                )
            if n_placed < 5:
                only_sides, only_arms = table.slot_filter()
                if only_sides and kind != SIDE:
                    raise IllegalMoveError(
                        "the second move must go on a side of the opening double (crosswise)"
                    )
                if only_arms and code >= 4:
                    raise IllegalMoveError(
                        "the first four tiles after the opening double go on its empty arms"
                    )
            if kind == SIDE and self._mother and not self._mother_allows(move):
                raise IllegalMoveError(
                    "Mother Theresa forbids this side: a free side takes only a scoring "
                    "tile while you can place elsewhere"
                )
            s = table.place(tile, code, move)
        self.hands[seat] ^= tile.bit
        by_value = self._by_value[seat]
        by_value[tile.high] ^= 1 << tile.low
        if not tile.is_double:
            by_value[tile.low] ^= 1 << tile.high
        d = self._divisor
        if d > 0:
            pts = s // d if s % d == 0 else 0
        elif d == 0:
            pts = 0
        else:
            pts = self.rules.points(s)
        if pts:
            self.scores[seat] += pts
        self.passes = 0
        self._log = ((seat, move, pts, s, None), self._log)
        if not self.hands[seat]:
            self._finish(Termination.DOMINO, seat)
        else:
            self.turn = self._next(seat)

    def _next(self, seat: int) -> int:
        if self._clockwise:
            return seat + 1 if seat + 1 < self.players else 0
        return seat - 1 if seat else self.players - 1

    def _explain_bad_slot(self, tile: Tile, anchor: int, port: int) -> None:
        table = self.table
        if anchor < 0:
            raise IllegalMoveError(f"the table is open: say where {tile} goes, e.g. {tile}@0n")
        if not 0 <= port <= 3:
            raise IllegalMoveError(f"no such direction {port} (use n, e, s, w)")
        if anchor >= len(table.placements):
            raise IllegalMoveError(
                f"no tile #{anchor} on the table (tiles are numbered 0 to "
                f"{len(table.placements) - 1})"
            )
        raise IllegalMoveError(
            f"no such slot: tile #{anchor} ({table.placements[anchor].tile}) has no open "
            f"{PORTS[port]} side (open slots: {self._open_text()})"
        )

    def _mother_allows(self, move: Placement) -> bool:
        if self.points_for(move) > 0:
            return True
        open_ = self.table.open
        return not any(open_[m.slot][1] == END for m in self._placements())

    def _draw(self) -> None:
        rules = self.rules
        if rules.stuck is Stuck.PASS:
            raise IllegalMoveError(f"{rules.name} has no drawing: pass when you cannot place")
        if not self.table.placements:
            raise IllegalMoveError(f"the game opens first, with {self._opening_text()}")
        left = len(self.stock) - self.stock_pos
        if left <= rules.keep_in_stock:
            if rules.keep_in_stock:
                raise IllegalMoveError(
                    f"only {left} tiles are left and the last {rules.keep_in_stock} stay in "
                    "the pile"
                )
            raise IllegalMoveError("the stock is empty")
        if self._stuck != DRAW_FREE and self.can_place():
            raise IllegalMoveError(
                f"you can place a tile, so you must (e.g. {self._placements()[0].text()})"
            )
        seat = self.turn
        tile = self.stock[self.stock_pos]
        self.stock_pos += 1
        self.hands[seat] |= tile.bit
        by_value = self._by_value[seat]
        by_value[tile.high] |= 1 << tile.low
        by_value[tile.low] |= 1 << tile.high
        self.passes = 0
        self._log = ((seat, DRAW, 0, self.table.ends_sum, tile), self._log)
        if self._stuck == DRAW_ONE:
            self.turn = self._next(seat)

    def _pass(self) -> None:
        if self.can_place():
            raise IllegalMoveError(
                f"you can place a tile, so you must (e.g. {self._placements()[0].text()})"
            )
        if self._can_draw():
            raise IllegalMoveError("you cannot place, so you must draw from the stock")
        seat = self.turn
        self.passes += 1
        self._log = ((seat, PASS, 0, self.table.ends_sum, None), self._log)
        if self.passes >= self.players:
            self._finish(Termination.BLOCKED, None)
        else:
            self.turn = self._next(seat)

    def _finish(self, termination: Termination, out_seat: int | None) -> None:
        pips = [self.set.pips_of(h) for h in self.hands]
        self._outcome = score_hand(self.rules, self.scores, pips, termination, out_seat)

    def _opening_text(self) -> str:
        if self.opening_tile is None:
            return "any tile of the first seat"
        rule = "lowest" if self.rules.opener is Opener.LOWEST_DOUBLE else "highest"
        return f"{self.opening_tile} (the {rule} double dealt)"

    def _open_text(self) -> str:
        return " ".join(self.table.slot_name(c) for c in self.table.open) or "none"

    # ------------------------------------------------------------ views

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know, and nothing else."""
        if not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat} (seats are 0 to {self.players - 1})")
        return make_view(self, seat)

    def spectator_view(self) -> SeatView:
        return make_view(self, None)

    def __repr__(self) -> str:
        return (
            f"<Game {self.rules.text()!r} players={self.players} turn={self.turn} "
            f"table={self.table.text()!r}>"
        )
