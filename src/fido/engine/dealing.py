"""Dealing: shuffling a set into hands and a stock, checking a given deal, finding the opener.

Pure functions of the rules and a random generator, so a seeded deal is the
same on every machine (:meth:`fido.engine.game.Game.new`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Final, TypeGuard, TypeVar, cast

from fido.engine.native import MAX_PIPS, native
from fido.engine.plan import doubles_in_order, plan_of
from fido.engine.rules import Ruleset
from fido.engine.tiles import DominoSet, Tile
from fido.errors import ArgumentError, ConfigurationError, quote

__all__ = [
    "MAX_REDEALS", "check_deal", "deal", "deal_hands", "find_opener", "is_sequence", "shuffle",
]  # fmt: skip

MAX_REDEALS: Final = 1000

# (tiles, random, players, size, width, index) -> (hands, by value or None, a double
# dealt): one shuffle and its hands, deal_hands in C (fido.engine._core), for a plain
# random.Random
NativeDeal = Callable[
    [list[Tile], Callable[[], float], int, int, int, bool],
    tuple[list[int], list[list[int]] | None, bool],
]
_RANDOM: Final = random.Random
_NATIVE: Final = cast("NativeDeal | None", native("deal"))

T = TypeVar("T")


def shuffle(tiles: list[T], rng: random.Random) -> None:
    """Fisher-Yates with ``rng.random()``: the deal depends on the generator alone.

    Three times faster than ``rng.shuffle`` once compiled; the bias of
    ``int(random() * n)`` (53-bit floats, n < 300) is far below any test's reach.
    """
    rand = rng.random
    for i in range(len(tiles) - 1, 0, -1):
        j = int(rand() * (i + 1))
        tiles[i], tiles[j] = tiles[j], tiles[i]


def deal(
    rules: Ruleset, players: int, rng: random.Random, *, index: bool = True
) -> tuple[list[int], list[list[int]] | None, tuple[Tile, ...]]:
    """Hands as bitmasks, each hand indexed by value (:attr:`Game.by_value`), and the
    stock in drawing order.

    Deals again while no hand holds a double when the opener needs one. Without
    ``index`` the hands by value may be left out (None): a game played in C
    (:func:`fido.engine.movegen.kernel`) makes them only if it goes on in Python.
    """
    plan = plan_of(rules)
    size = plan.hand_size(players)
    dominoes = plan.dominoes
    tiles = list(dominoes.tiles)
    needs_double = plan.needs_double
    dealt = size * players
    width = dominoes.max_pips + 1
    in_c = _NATIVE if rng.__class__ is _RANDOM and dominoes.max_pips <= MAX_PIPS else None
    for _ in range(MAX_REDEALS):
        if in_c is not None:  # the same shuffle and hands in C
            hands, indexed, has_double = in_c(tiles, rng.random, players, size, width, index)
        else:
            hands, indexed, has_double = deal_hands(tiles, rng, players, size, width)
        if has_double or not needs_double:
            return hands, indexed, tuple(tiles[dealt:])
    raise ConfigurationError("no deal with a double in hand after many shuffles")


def deal_hands(
    tiles: list[Tile], rng: random.Random, players: int, size: int, width: int
) -> tuple[list[int], list[list[int]], bool]:
    """Shuffle ``tiles`` in place and deal the first ``players * size`` of them: each
    hand as a bitmask and by value (:attr:`Game.by_value`), and whether a double was
    dealt. fido.engine._core's ``deal`` is the same in C (``random`` is ``rng.random``)."""
    shuffle(tiles, rng)
    hands = [0] * players
    indexes: list[list[int]] = []
    has_double = False
    k = 0
    for i in range(players):
        m = 0
        by_value = [0] * width
        for _j in range(size):
            t = tiles[k]
            k += 1
            m |= t.bit
            high, low = t.high, t.low
            # not |=: compiled, that is the generic number protocol on objects
            by_value[high] = by_value[high] | (1 << low)
            by_value[low] = by_value[low] | (1 << high)
            if high == low:
                has_double = True
        hands[i] = m
        indexes.append(by_value)
    return hands, indexes, has_double


def is_sequence(value: object) -> TypeGuard[Sequence[object]]:
    """A list, tuple or other sequence, but not text (lists first: no ABC check)."""
    cls = value.__class__
    if cls is list or cls is tuple:
        return True
    return isinstance(value, Sequence) and not isinstance(value, str | bytes)


def _tiles(value: object, what: str) -> list[Tile]:
    """A sequence of tiles given by a caller, or a clear error."""
    if not is_sequence(value) and not isinstance(value, set | frozenset):
        raise ArgumentError(f"{what} must be a list of tiles, not {quote(value)}")
    out: list[Tile] = []
    for t in value:
        if not isinstance(t, Tile):
            raise ArgumentError(f"{what} holds {quote(t)}, which is not a Tile")
        out.append(t)
    return out


def check_deal(
    rules: Ruleset, hands: Sequence[Sequence[Tile]], stock: Sequence[Tile]
) -> tuple[list[int], list[Tile]]:
    """Every hand and the stock checked against the rules; hands as bitmasks."""
    if not is_sequence(hands):
        raise ArgumentError(f"hands must be a list of hands, not {quote(hands)}")
    players = len(hands)
    rules.check_players(players)
    size = rules.hand_size(players)
    dominoes = rules.dominoes
    given = [_tiles(h, f"seat {i}'s hand") for i, h in enumerate(hands)]
    pile = _tiles(stock, "the stock")
    seen: set[Tile] = set()
    named = [*((f"seat {i}'s hand", h) for i, h in enumerate(given)), ("the stock", pile)]
    for who, tiles in named:
        for t in tiles:
            if t not in dominoes:
                raise ConfigurationError(
                    f"{t} in {who} is not in the double-{dominoes.max_pips} set"
                )
            if t in seen:
                raise ConfigurationError(f"{t} is dealt twice ({who})")
            seen.add(t)
    for i, h in enumerate(given):
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
    return [dominoes.mask_of(h) for h in given], pile


def find_opener(
    rules: Ruleset, dominoes: DominoSet, hands: Sequence[int]
) -> tuple[int, Tile | None]:
    """The seat that opens and the tile she must open with (None: any of her tiles)."""
    plan = plan_of(rules)
    if not plan.needs_double:
        return 0, None
    if dominoes is plan.dominoes:
        doubles = plan.doubles
    else:  # another set than the rules' (a caller's): looked for in the same order
        doubles = doubles_in_order(dominoes, rules.opener)
    players = len(hands)
    for double in doubles:
        bit = double.bit
        for seat in range(players):
            if hands[seat] & bit:
                return seat, double
    raise ConfigurationError("no hand holds a double, so nobody can open: deal again")
