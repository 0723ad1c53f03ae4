"""The game state: turn order, placing, drawing (a chance step), passing, undo, end.

>>> g = Game.new("fido set=6", players=3, seed=1)
>>> g.legal_moves()
[Move.from_text('6-6')]
>>> g.push(g.legal_moves()[0]); g.ends_sum, g.scores
(12, [4, 0, 0])
>>> g.pop()
Move.from_text('6-6')
>>> g.ends_sum, g.scores
(0, [0, 0, 0])

The rules live in :mod:`fido.engine.movegen` (what is legal, in a documented order)
and :mod:`fido.engine.validation` (why something is not); dealing in
:mod:`fido.engine.dealing`; the rollout policy of search in :mod:`fido.engine.rollout`.

Drawing is a decision followed by a chance step: :meth:`Game.push` of
``DRAW``, then the tile drawn. A game that holds the stock's order (every
seeded deal, :meth:`Game.new`) takes the next tile itself; a game dealt with
``explicit_chance=True`` waits: :attr:`Game.chance` says who draws from which
tiles, and :meth:`Game.apply_chance` gives the tile (a server's secret draw,
the OpenSpiel chance player). Both go through the same code.

A hand is a bitmask of tile ids; the sum of the ends is kept by the table.

A fresh FIDO deal (:meth:`Game.new`, :meth:`Game.from_deal`) is played in C
(:func:`fido.engine.movegen.kernel`) while only its legal moves, pushes, turn
and outcome are asked for: a loop of ``push(choice(legal_moves()))`` never
builds the Python state. The first read of anything else (the table, a hand,
the history, a view, a copy) plays the kernel's moves again here and goes on
in Python, so everything else reads the same fields as before.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Final, NamedTuple, cast

from fido.engine.dealing import check_deal, deal, find_opener, is_sequence
from fido.engine.movegen import (
    DRAW_CLASS,
    DRAW_MOVE,
    DRAW_ONE,
    PASS_MOVE,
    PLACEMENT,
    Kernel,
    can_place,
    generate,
    kernel,
    kernel_fits,
)
from fido.engine.moves import Move, Placement, PlacementTuple, Turn
from fido.engine.native import MAX_PIPS, native
from fido.engine.plan import Plan, plan_of
from fido.engine.results import Outcome, Termination, native_outcome, score_hand
from fido.engine.rollout import playout
from fido.engine.rules import Ruleset, Scoring
from fido.engine.table import Table
from fido.engine.tiles import DominoSet, Tile
from fido.engine.validation import explain
from fido.engine.views import SeatView, make_view
from fido.errors import ArgumentError, ConfigurationError, IllegalMoveError, quote

__all__ = ["Chance", "Game", "Turn", "history_log"]

# private constructor token: a bare Game() is a user error, Game(_MAKE) is ours
_MAKE: Final = object()


# the hands by value in C (fido.engine._core's index), where it is built
_NATIVE_INDEX: Final = cast("Callable[[list[int], int], list[list[int]]] | None", native("index"))

# compiled globals: a module's attribute, read in compiled code, is a lookup each time
_RANDOM: Final = random.Random
_DOMINO: Final = Termination.DOMINO
_BLOCKED: Final = Termination.BLOCKED


class Chance(NamedTuple):
    """A draw waiting for its tile: ``seat`` draws one of ``tiles``, each equally likely."""

    seat: int
    tiles: tuple[Tile, ...]


def _as_rules(rules: object) -> Ruleset:
    if isinstance(rules, str):
        return Ruleset.from_text(rules)
    if not isinstance(rules, Ruleset):
        raise ArgumentError(f"rules must be a Ruleset or ruleset text, not {quote(rules)}")
    return rules


class Game:
    """A hand of dominoes in progress. Mutable; :meth:`copy` is cheap, :meth:`pop` undoes."""

    rules: Ruleset
    players: int
    set: DominoSet
    _hands: list[int]
    initial_hands: tuple[int, ...]  # the deal, for records
    _stock_mask: int  # the tiles in the stock
    _stock_count: int  # how many (kept beside the mask: the move generator asks every turn)
    _stock_pos: int  # how many tiles were drawn
    _table: Table
    turn: int
    _scores: list[int]
    _passes: int
    opener: int
    opening_tile: Tile | None
    # the stock's drawing order when the game holds it; () with explicit chance
    _order: tuple[Tile, ...]
    # The engine's own state, public for the engine's modules (movegen, rollout,
    # validation) and for fido.position, which builds a game from its line: plain
    # attributes, not properties, since compiled code reads them as native fields
    # in the hot loop (declared in the order the compiled struct had before they were
    # public). Read them; only the engine (and a position being built) sets them.
    pending: int  # the seat whose draw waits for its tile (:attr:`chance`), else -1
    # per seat, per number v: a bitmask of the numbers w with v-w in hand (small ints,
    # so move generation needs no big-integer arithmetic)
    _by_value: list[list[int]]
    # the rules the hot path consults, copied into native fields: the divisor when the
    # sum scores S / d, 0 when nothing scores during play, -1 to ask the rules (fives and
    # threes); the direction of play; what a stuck player does (movegen's PASS_ONLY,
    # DRAW_ONE, DRAW_UNTIL or DRAW_FREE); Mother Theresa; the tiles that stay in the stock
    divisor: int
    _clockwise: bool
    stuck: int
    mother_theresa: bool
    keep_in_stock: int
    # the history, newest first, as linked flat tuples: (seat, move, points, sum,
    # drawn, passes before, slot taken, sum before, spinner before, arms before,
    # legal moves before (or None), next)
    _log: tuple[object, ...] | None
    outcome: Outcome | None  # the hand's result once it is over, else None
    _legal: list[Move] | None  # the legal moves of this state, once generated
    # A fresh FIDO deal is played in C while only its legal moves, pushes, turn and
    # outcome are asked for (fido.engine._core's Kernel; the fields above wait at the
    # deal, but for turn and outcome, which push keeps). The first read of anything
    # else plays the kernel's moves again here (:meth:`_sync`) and drops it: from then
    # on the fields are the state. The properties below sync on a write too; the plain
    # fields are the engine's to set, as before, and no caller sets them on a fresh deal.
    _k: Kernel | None

    def __init__(self, _token: object = None) -> None:
        if _token is not _MAKE:
            raise ArgumentError(
                "create a game with Game.new(rules, players), Game.from_deal(...) or "
                "fido.position.parse_game(text)"
            )
        self._k = None

    # ------------------------------------------------------------ the state, kept in C or here

    def _sync(self) -> None:
        """Leave the kernel: play its moves again on the fields (still at the deal)."""
        k = self._k
        if k is not None:
            self._k = None
            self.turn = self.opener  # as dealt (only a fresh deal has a kernel)
            self.outcome = None
            self._index_hands()
            for move in k.moves():
                self.apply_legal(move)

    @property
    def hands(self) -> list[int]:
        """Each seat's tiles as a bitmask of tile ids."""
        if self._k is not None:
            self._sync()
        return self._hands

    @hands.setter
    def hands(self, value: list[int]) -> None:
        self._sync()
        self._hands = value

    @property
    def by_value(self) -> list[list[int]]:
        """Per seat, per number v: a bitmask of the numbers w with v-w in hand (small
        ints, so move generation needs no big-integer arithmetic)."""
        if self._k is not None:
            self._sync()
        return self._by_value

    @by_value.setter
    def by_value(self, value: list[list[int]]) -> None:
        self._sync()
        self._by_value = value

    @property
    def table(self) -> Table:
        if self._k is not None:
            self._sync()
        return self._table

    @table.setter
    def table(self, value: Table) -> None:
        self._sync()
        self._table = value

    @property
    def scores(self) -> list[int]:
        if self._k is not None:
            self._sync()
        return self._scores

    @scores.setter
    def scores(self, value: list[int]) -> None:
        self._sync()
        self._scores = value

    @property
    def passes(self) -> int:
        """Passes in a row since the last placement or draw."""
        if self._k is not None:
            self._sync()
        return self._passes

    @passes.setter
    def passes(self, value: int) -> None:
        self._sync()
        self._passes = value

    @property
    def stock_mask(self) -> int:
        """The tiles in the stock."""
        if self._k is not None:
            self._sync()
        return self._stock_mask

    @stock_mask.setter
    def stock_mask(self, value: int) -> None:
        self._sync()
        self._stock_mask = value

    @property
    def stock_count(self) -> int:
        """How many tiles the stock holds (kept beside the mask: movegen asks every turn)."""
        if self._k is not None:
            self._sync()
        return self._stock_count

    @stock_count.setter
    def stock_count(self, value: int) -> None:
        self._sync()
        self._stock_count = value

    @property
    def stock_pos(self) -> int:
        """How many tiles were drawn."""
        if self._k is not None:
            self._sync()
        return self._stock_pos

    @stock_pos.setter
    def stock_pos(self, value: int) -> None:
        self._sync()
        self._stock_pos = value

    # ------------------------------------------------------------ creation

    @classmethod
    def new(
        cls,
        rules: Ruleset | str,
        players: int | object = 4,
        *,
        seed: int | str | object | None = None,
        rng: random.Random | object | None = None,
        explicit_chance: bool = False,
    ) -> Game:
        """Shuffle and deal with ``rng`` (or ``random.Random(seed)``).

        (Arguments are typed ``object`` where the compiled build would raise a
        bare ``TypeError``: a wrong type is a :class:`~fido.errors.ArgumentError`.)

        The shuffle fixes the stock's order too, so a seeded game replays
        exactly; with ``explicit_chance`` the order is forgotten and every draw
        waits for :meth:`apply_chance`.
        """
        rs = _as_rules(rules)
        if type(players) is not int:
            raise ArgumentError(f"players must be a whole number, not {quote(players)}")
        count: int = players
        if rng is None:
            if seed is not None and type(seed) is not int and type(seed) is not str:
                raise ArgumentError(f"a seed is a whole number or text, not {quote(seed)}")
            gen = random.Random(seed)
        elif isinstance(rng, _RANDOM):
            gen = rng
        else:
            raise ArgumentError(f"rng must be a random.Random, not {quote(rng)}")
        # a game for the kernel makes its hands by value only if it goes on in Python
        plan = plan_of(rs)
        in_c = not explicit_chance and kernel_fits(plan)
        hands, by_value, stock = deal(rs, count, gen, index=not in_c)
        order = () if explicit_chance else stock
        return Game._dealt(plan, hands, order, stock, by_value=by_value, in_c=in_c)

    @classmethod
    def from_deal(
        cls,
        rules: Ruleset | str,
        hands: Sequence[Sequence[Tile]],
        stock: Sequence[Tile] = (),
        *,
        explicit_chance: bool = False,
    ) -> Game:
        """Set up an exact deal: every hand, and the stock in drawing order.

        With ``explicit_chance`` the stock's order does not matter: every draw
        waits for :meth:`apply_chance` (a physical game, a server's secret draw).
        """
        rs = _as_rules(rules)
        masks, pile = check_deal(rs, hands, stock)
        order = () if explicit_chance else tuple(pile)
        plan = plan_of(rs)
        in_c = not explicit_chance and kernel_fits(plan)
        return Game._dealt(plan, masks, order, tuple(pile), by_value=None, in_c=in_c)

    @staticmethod
    def _dealt(
        plan: Plan,
        hands: list[int],
        order: tuple[Tile, ...],
        stock: tuple[Tile, ...],
        *,
        by_value: list[list[int]] | None,
        in_c: bool,
    ) -> Game:
        """A fresh deal of :meth:`new` or :meth:`from_deal`: handed to the kernel when
        ``in_c`` (the rules fit it, the stock's order held), else played in Python."""
        g = Game.from_masks(plan.rules, hands, order, stock, by_value=by_value, later=in_c)
        if in_c:
            g._k = kernel(g, plan)
            if g._k is None:
                g._index_hands()
        return g

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
        if not isinstance(view, SeatView):
            raise ArgumentError(f"from_view needs a SeatView, not {quote(view)}")
        rules = view.rules
        dominoes = rules.dominoes
        if not is_sequence(hands):
            raise ArgumentError(f"hands must be a list of hands, not {quote(hands)}")
        if len(hands) != view.players:
            raise ConfigurationError(f"the view has {view.players} seats, not {len(hands)}")
        for h in hands:
            if not is_sequence(h):
                raise ArgumentError(f"a hand is a list of tiles, not {quote(h)}")
        given: list[list[Tile]] = [list(h) for h in hands]
        if view.seat is not None and sorted(given[view.seat]) != sorted(view.hand):
            raise ConfigurationError(f"seat {view.seat}'s hand must be the one the view shows")
        seen: set[Tile] = {p.tile for p in view.table.placements}
        for who, tiles, want in [
            *((f"seat {i}", h, view.hand_counts[i]) for i, h in enumerate(given)),
            ("the stock", stock, view.stock_count),
        ]:
            if not is_sequence(tiles):
                raise ArgumentError(f"{who} must be a list of tiles, not {quote(tiles)}")
            if len(tiles) != want:
                raise ConfigurationError(f"{who} holds {want} tiles in the view, not {len(tiles)}")
            for t in tiles:
                if not isinstance(t, Tile) or t not in dominoes or t in seen:
                    raise ConfigurationError(
                        f"{quote(t)} cannot be in {who}: not free in this game"
                    )
                seen.add(t)
        if len(seen) != dominoes.count:
            raise ConfigurationError("hands, stock and table must make up the whole set")
        return cls.from_world(view, given, stock, history_log(view))

    @classmethod
    def from_world(
        cls,
        view: SeatView,
        hands: list[list[Tile]],
        stock: Sequence[Tile],
        log: tuple[object, ...] | None,
    ) -> Game:
        """:meth:`from_view` without its checks, for a sampler that deals consistently by
        construction (:mod:`fido.bots.sampling`): ``log`` is :func:`history_log` of the
        view, made once and shared by every world of a decision (it is never changed).
        """
        rules = view.rules
        width = rules.max_pips + 1
        masks: list[int] = []
        indexes: list[list[int]] = []
        for hand in hands:
            m = 0
            by_value = [0] * width
            for t in hand:
                m |= t.bit
                by_value[t.high] |= 1 << t.low
                by_value[t.low] |= 1 << t.high
            masks.append(m)
            indexes.append(by_value)
        pile = tuple(stock)
        table = view.table
        opened = len(table.placements) > 0
        g = Game.from_masks(rules, masks, pile, pile, opened=opened, by_value=indexes)
        g._table = table.copy()
        g._scores = list(view.scores)
        g.turn = view.to_move
        g.opener = view.opener
        if opened:
            g.opening_tile = table.placements[0].tile
        g._log = log
        g._passes = view.passes
        g.outcome = view.outcome
        return g

    @classmethod
    def from_masks(
        cls,
        rules: Ruleset,
        hands: list[int],
        order: tuple[Tile, ...],
        stock: tuple[Tile, ...],
        opened: bool = False,
        *,
        by_value: list[list[int]] | None = None,
        later: bool = False,
    ) -> Game:
        """The trusted constructor: hands as bitmasks, already checked (nothing is here).

        :meth:`new`, :meth:`from_deal`, :meth:`from_view` and :mod:`fido.position`
        check what they are given, then build the game with it.

        ``order``: the stock's drawing order, or () for explicit chance; ``stock``:
        its tiles. ``opened``: the table is laid already (from_view), so nobody is
        looked for to open. ``by_value``: the hands indexed by value, when the caller
        has them (:func:`~fido.engine.dealing.deal` builds them as it deals); with
        ``later`` and none given they wait (empty) for :meth:`_index_hands`, which the
        caller makes sure of: a game for the kernel makes them when it leaves it.
        """
        plan = plan_of(rules)
        g = Game(_MAKE)
        g.rules = rules
        g.players = len(hands)
        g.set = plan.dominoes
        g._hands = hands
        g.initial_hands = tuple(hands)
        if by_value is not None:
            g._by_value = by_value
        elif later:
            g._by_value = []
        else:
            g._by_value = g._indexed(hands)
        g.divisor = plan.divisor
        g._clockwise = plan.clockwise
        g.stuck = plan.stuck
        g.mother_theresa = plan.mother_theresa
        g.keep_in_stock = plan.keep_in_stock
        g._order = order
        g._stock_mask = g.set.mask_of(stock)
        g._stock_count = len(stock)
        g._stock_pos = 0
        g.pending = -1
        g._table = Table(rules.layout)
        g._scores = [0] * len(hands)
        g._passes = 0
        g._log = None
        g.outcome = None
        g._legal = None
        if opened:
            g.opener, g.opening_tile = 0, None
        else:
            g.opener, g.opening_tile = find_opener(rules, g.set, hands)
        g.turn = g.opener
        return g

    def _index_hands(self) -> None:
        """The hands by value, made from the hands (a fresh deal's, left to later)."""
        if not self._by_value:
            self._by_value = self._indexed(self._hands)

    def _indexed(self, hands: list[int]) -> list[list[int]]:
        """Each of ``hands`` by value (in C where it is built, up to double-21)."""
        in_c = _NATIVE_INDEX
        if in_c is not None and self.set.max_pips <= MAX_PIPS:
            return in_c(hands, self.set.max_pips + 1)
        return [self._index(h) for h in hands]

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

    def copy(self) -> Game:
        """An independent copy (the history is shared structurally, so this is O(1)-ish)."""
        self._sync()
        g = Game(_MAKE)
        g.rules = self.rules
        g.players = self.players
        g.set = self.set
        g._hands = self._hands.copy()
        g._by_value = [h.copy() for h in self._by_value]
        g.divisor = self.divisor
        g._clockwise = self._clockwise
        g.stuck = self.stuck
        g.mother_theresa = self.mother_theresa
        g.keep_in_stock = self.keep_in_stock
        g.initial_hands = self.initial_hands
        g._order = self._order
        g._stock_mask = self._stock_mask
        g._stock_count = self._stock_count
        g._stock_pos = self._stock_pos
        g.pending = self.pending
        g._table = self._table.copy()
        g.turn = self.turn
        g._scores = self._scores.copy()
        g._passes = self._passes
        g.opener = self.opener
        g.opening_tile = self.opening_tile
        g._log = self._log
        g.outcome = self.outcome
        g._legal = self._legal
        return g

    def __copy__(self) -> Game:
        return self.copy()

    def __deepcopy__(self, memo: object) -> Game:
        return self.copy()

    def __reduce__(self) -> tuple[object, ...]:
        return (_blank, (), self.__getstate__())

    def __getstate__(self) -> dict[str, object]:
        self._sync()
        return {name: getattr(self, name) for name in _STATE}

    def __setstate__(self, state: dict[str, object]) -> None:
        for name in _STATE:
            setattr(self, name, state[name])
        self._legal = None

    # ------------------------------------------------------------ queries

    @property
    def ends_sum(self) -> int:
        return self.table.ends_sum

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def explicit_chance(self) -> bool:
        """Whether draws wait for :meth:`apply_chance` (the game does not hold the order)."""
        self._sync()
        return not self._order and self._stock_pos + self._stock_count > 0

    @property
    def stock(self) -> tuple[Tile, ...]:
        """The stock as dealt, in drawing order: the tiles drawn so far, then the rest.

        With explicit chance the rest has no order yet and comes ascending.
        """
        self._sync()
        if self._order:
            return self._order
        drawn = [t.drawn for t in self.history() if t.drawn is not None]
        return (*drawn, *self.set.tiles_of(self._stock_mask))

    @property
    def chance(self) -> Chance | None:
        """The draw waiting for its tile, if any (only with explicit chance)."""
        if self.pending < 0:
            return None
        return Chance(self.pending, tuple(self.set.tiles_of(self.stock_mask)))

    def hand(self, seat: int | object) -> list[Tile]:
        """Seat's tiles, ascending. (Only the game's owner may look: views hide the rest.)"""
        return self.set.tiles_of(self.hands[self._seat(seat)])

    def hand_counts(self) -> list[int]:
        return [h.bit_count() for h in self.hands]

    def pips(self, seat: int | object) -> int:
        return self.set.pips_of(self.hands[self._seat(seat)])

    def history(self) -> list[Turn]:
        self._sync()
        out: list[Turn] = []
        node = self._log
        while node is not None:
            out.append(Turn(*node[:5]))  # type: ignore[arg-type]
            node = node[11]  # type: ignore[assignment]
        out.reverse()
        return out

    def __iter__(self) -> Iterator[Turn]:
        return iter(self.history())

    def __len__(self) -> int:
        """The number of moves made (draws and passes included)."""
        k = self._k
        if k is not None:
            return len(k.moves())
        n = 0
        node = self._log
        while node is not None:
            n += 1
            node = node[11]  # type: ignore[assignment]
        return n

    def last_turn(self) -> Turn | None:
        self._sync()
        return Turn(*self._log[:5]) if self._log is not None else None  # type: ignore[arg-type]

    def points_for(self, move: Move) -> int:
        """What ``move`` would score now (0 for draws and passes). Does not check legality."""
        if move.__class__ is not Placement or self.rules.scoring is Scoring.NONE:
            return 0
        tile, anchor, port = cast(PlacementTuple, move)
        code = anchor * 4 + port if anchor >= 0 else -1
        return self.rules.points(self.table.sum_after(tile, code))

    def _seat(self, seat: object) -> int:
        if seat.__class__ is not int or not 0 <= seat < self.players:
            raise ArgumentError(f"no seat {quote(seat)} (seats are 0 to {self.players - 1})")
        return seat

    # ------------------------------------------------------------ legal moves

    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to move, in the order of :mod:`fido.engine.movegen`."""
        k = self._k
        if k is not None:
            return k.legal()
        legal = self._legal
        if legal is None:
            legal = self._legal = generate(self)
        return legal.copy()

    def is_legal(self, move: object) -> bool:
        k = self._k
        if k is not None:
            return isinstance(move, Move) and move in k.legal()
        legal = self._legal
        if legal is None:
            legal = self._legal = generate(self)
        return isinstance(move, Move) and move in legal

    def can_place(self) -> bool:
        return can_place(self)

    def playout(self, rng: random.Random, greedy: float = 0.0) -> Outcome:
        """Play the hand to its end in place and return the outcome (:mod:`fido.engine.rollout`)."""
        return playout(self, rng, greedy)

    # ------------------------------------------------------------ making moves

    def push(self, move: Move, *, seat: int | None = None) -> None:
        """Make a move. An illegal one raises :class:`IllegalMoveError` and changes nothing.

        A move is legal when it is one of :meth:`legal_moves` (equal to one);
        the game keeps that canonical move. ``seat``, when given, must be the
        seat to move (servers pass it).
        """
        if self.outcome is not None:
            raise IllegalMoveError("the game is over")
        if self.pending >= 0:
            raise IllegalMoveError(
                f"seat {self.pending} is drawing: the drawn tile comes first (apply_chance)"
            )
        if seat is not None and seat != self.turn:
            raise IllegalMoveError(f"it is seat {self.turn}'s turn, not seat {quote(seat)}'s")
        k = self._k
        if k is not None:
            after = k.push(move)
            if after >= 0:
                self.turn = after
                return
            if after == -1:
                self.outcome = native_outcome(self.rules, k.result())
                return
            self._sync()  # not one of the legal moves: the generator's list says why
        legal = self._legal
        if legal is None:
            legal = self._legal = generate(self)
        for m in legal:  # the legal moves' own objects first: no tuple comparisons
            if m is move:
                self.apply_legal(m)
                return
        if isinstance(move, Move):
            for m in legal:
                if m == move:
                    self.apply_legal(m)
                    return
        raise IllegalMoveError(explain(self, move))

    def apply_legal(self, move: Move) -> None:
        """Make a move legal in this state, unchecked: :meth:`push` checks, then calls
        this; rollouts (:mod:`fido.engine.rollout`) call it with generated moves.

        The history node keeps the legal moves of the state before it, so that
        :meth:`pop` gives them back without generating them again.
        """
        if self._k is not None:
            self._sync()
        cls = type(move)
        if cls is PLACEMENT:
            self._place(move)  # type: ignore[arg-type]
        elif cls is DRAW_CLASS:
            self._draw()
        else:
            self._pass()
        self._legal = None

    def _place(self, move: Placement) -> None:
        tile, anchor, port = cast(PlacementTuple, move)
        seat = self.turn
        table = self._table
        before = table.ends_sum
        spinner = table.spinner
        arms = table.arms_taken
        if anchor < 0:
            slot = None
            s = table.place(tile, -1, move)
        else:
            code = anchor * 4 + port
            slot = table.open[code]
            s = table.attach(tile, code, slot, move)
        # x[i] = x[i] op y, not x[i] op= y: compiled, the augmented form is the generic
        # number protocol on objects, the plain one is machine integers
        hands = self._hands
        hands[seat] = hands[seat] ^ tile.bit
        by_value = self._by_value[seat]
        high, low = tile.high, tile.low
        by_value[high] = by_value[high] ^ (1 << low)
        if high != low:
            by_value[low] = by_value[low] ^ (1 << high)
        d = self.divisor
        if d > 0:
            pts = s // d if s % d == 0 else 0
        elif d == 0:
            pts = 0
        else:
            pts = self.rules.points(s)
        if pts:
            scores = self._scores
            scores[seat] = scores[seat] + pts
        self._log = (
            seat, move, pts, s, None, self._passes, slot, before, spinner, arms,
            self._legal, self._log,
        )  # fmt: skip
        self._passes = 0
        if not self._hands[seat]:
            self._finish(_DOMINO, seat)
        else:
            self.turn = self._next(seat)

    def _next(self, seat: int) -> int:
        if self._clockwise:
            return seat + 1 if seat + 1 < self.players else 0
        return seat - 1 if seat else self.players - 1

    def _draw(self) -> None:
        seat = self.turn
        s = self._table.ends_sum
        tile = self._order[self._stock_pos] if self._order else None
        self._log = (
            seat, DRAW_MOVE, 0, s, tile, self._passes, None, s, -1, -1, self._legal, self._log
        )  # fmt: skip
        if tile is not None:
            self._take(seat, tile)
        else:
            self.pending = seat
        self._passes = 0

    def apply_chance(self, tile: Tile | object) -> None:
        """The tile drawn by the seat whose draw waits (see :attr:`chance`).

        (``tile`` is typed ``object`` too: the compiled build would refuse another type
        with a bare ``TypeError``.)

        Raises :class:`IllegalMoveError`, changing nothing, when no draw waits
        or the tile is not in the stock.
        """
        self._sync()
        seat = self.pending
        if seat < 0:
            raise IllegalMoveError("no draw waits for its tile")
        if not isinstance(tile, Tile) or not self._stock_mask & tile.bit or tile not in self.set:
            raise IllegalMoveError(f"{quote(tile)} is not in the stock")
        node = self._log
        assert node is not None
        self._log = (*node[:4], tile, *node[5:])
        self.pending = -1
        self._take(seat, tile)

    def forget_stock_order(self) -> None:
        """From now on every draw waits for :meth:`apply_chance` (explicit chance).

        For a game dealt or sampled with an order whose draws must come from
        elsewhere: the OpenSpiel chance player, a server's secret source.
        """
        self._sync()
        self._order = ()

    def _take(self, seat: int, tile: Tile) -> None:
        """The drawn tile goes from the stock into ``seat``'s hand."""
        self._stock_mask ^= tile.bit
        self._stock_count -= 1
        self._stock_pos += 1
        hands = self._hands
        hands[seat] = hands[seat] | tile.bit  # not |= (see _place)
        by_value = self._by_value[seat]
        high, low = tile.high, tile.low
        by_value[high] = by_value[high] | (1 << low)
        by_value[low] = by_value[low] | (1 << high)
        self._legal = None
        if self.stuck == DRAW_ONE:
            self.turn = self._next(seat)

    def _pass(self) -> None:
        seat = self.turn
        s = self._table.ends_sum
        self._log = (
            seat, PASS_MOVE, 0, s, None, self._passes, None, s, -1, -1, self._legal, self._log
        )  # fmt: skip
        self._passes += 1
        if self._passes >= self.players:
            self._finish(_BLOCKED, None)
        else:
            self.turn = self._next(seat)

    def _finish(self, termination: Termination, out_seat: int | None) -> None:
        pips = [self.set.pips_of(h) for h in self._hands]
        self.outcome = score_hand(self.rules, self._scores, pips, termination, out_seat)

    # ------------------------------------------------------------ undo

    def pop(self) -> Move:
        """Take back the last move exactly, whatever it was, and return it.

        A draw goes back with its tile (into the stock, at its place in the
        order); a draw still waiting for its tile goes back alone. Moves of a
        history read from a view (:meth:`from_view`) cannot be taken back.
        """
        self._sync()
        node = self._log
        if node is None:
            raise IllegalMoveError("no move to take back")
        seat: int = node[0]  # type: ignore[assignment]
        move: Move = node[1]  # type: ignore[assignment]
        if node[7] == -1:
            raise IllegalMoveError("a move of the view's history cannot be taken back")
        self._legal = None
        if self.pending >= 0:
            self.pending = -1
        elif type(move) is PLACEMENT:
            p: Placement = move
            tile = p.tile
            self._table.unplace(node[6], node[7], node[8], node[9])  # type: ignore[arg-type]
            self._hands[seat] |= tile.bit
            by_value = self._by_value[seat]
            by_value[tile.high] |= 1 << tile.low
            by_value[tile.low] |= 1 << tile.high
            self._scores[seat] -= node[2]  # type: ignore[operator]
        elif type(move) is DRAW_CLASS:
            drawn: Tile = node[4]  # type: ignore[assignment]
            self._stock_mask |= drawn.bit
            self._stock_count += 1
            self._stock_pos -= 1
            self._hands[seat] ^= drawn.bit
            by_value = self._by_value[seat]
            by_value[drawn.high] &= ~(1 << drawn.low)
            by_value[drawn.low] &= ~(1 << drawn.high)
        self._passes = node[5]  # type: ignore[assignment]
        self.turn = seat
        self.outcome = None
        self._log = node[11]  # type: ignore[assignment]
        self._legal = node[10]  # type: ignore[assignment]  # the moves of the state restored
        return move

    # ------------------------------------------------------------ views

    def view(self, seat: int | object, *, history: bool = True) -> SeatView:
        """What ``seat`` may know, and nothing else; ``history=False``: without the
        moves so far (``history`` empty), for a caller that reads only the present
        (the server's updates: the history is rebuilt turn by turn for each view)."""
        return make_view(self, self._seat(seat), history=history)

    def spectator_view(self, *, history: bool = True) -> SeatView:
        return make_view(self, None, history=history)

    def __repr__(self) -> str:
        return (
            f"<Game {self.rules.text()!r} players={self.players} turn={self.turn} "
            f"table={self.table.text()!r}>"
        )


def history_log(view: SeatView) -> tuple[object, ...] | None:
    """The view's history as a game's log (:attr:`Game._log`): it can be read, not undone
    (a world's search takes back only its own moves)."""
    log: tuple[object, ...] | None = None
    passes = 0
    for turn in view.history:
        move = turn[1]
        log = (turn[0], move, turn[2], turn[3], turn[4], passes, None, -1, -1, -1, None, log)
        passes = passes + 1 if move is PASS_MOVE else 0
    return log


def _blank() -> Game:
    """An empty game for unpickling (its state follows)."""
    return Game(_MAKE)


# what a pickle of a game holds (the legal-move cache is rebuilt)
_STATE: Final = (
    *("rules", "players", "set", "hands", "initial_hands", "stock_mask", "stock_count"),
    *("stock_pos", "table"),
    *("turn", "scores", "passes", "opener", "opening_tile", "_order", "pending", "by_value"),
    *("divisor", "_clockwise", "stuck", "mother_theresa", "keep_in_stock", "_log", "outcome"),
)
