"""The rollout policy: play a hand to its end fast, what search bots sample.

Each turn, with probability ``greedy`` the placement scoring most now (then
the heaviest tile; draws only when nothing can be placed), else a uniformly
random legal move. :func:`smart_playout` is the ``champion``'s policy: the
expert's main FIDO terms, computed from the sampled world in a few
comparisons. Compiled with the engine, and it calls the generator and
the trusted move application directly (the moves are legal by construction).

The searches read only a playout's outcome: :func:`playout_outcome` and
:func:`smart_outcome` give it without changing the game, and hand the world to
:mod:`fido.engine._core` (C, built beside the compiled modules) from the first
turn :func:`_fast_turn` covers: the same moves from the same random numbers,
several times faster. Without the extension (the pure build) they play on a
copy in Python. The generator is a ``random.Random`` or the searches' cheaper
:func:`fido.engine.dice.seeded` (which the C draws from without a call).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final, cast

from fido.engine.dice import Dice
from fido.engine.movegen import (
    _ROWS,
    DRAW_FREE,
    DRAW_MOVE,
    PASS_MOVE,
    PLACEMENT,
    can_draw,
    generate,
    interned,
)
from fido.engine.moves import Move, PlacementTuple
from fido.engine.native import native
from fido.engine.results import Outcome, native_margin, native_outcome, seat_margin
from fido.engine.table import INLINE, LINE
from fido.errors import IllegalMoveError

if TYPE_CHECKING:
    from fido.engine.game import Game

__all__ = [
    "best_now", "native_playouts", "playout", "playout_margin", "playout_outcome", "smart_margin",
    "smart_now", "smart_outcome", "smart_playout",
]  # fmt: skip

# (game, rand, policy, its parameter, partners, spare) -> (points, pips, blocked, out seat)
# or None when the C playouts decline the game; _core.pyi documents it
Finished = tuple[list[int], list[int], bool, int]
NativeFinish = Callable[
    [object, Callable[[], float], int, float, list[int], float], Finished | None
]
RANDOM_POLICY: Final = 0
SMART_POLICY: Final = 1


_FINISH: Final = cast("NativeFinish | None", native("finish"))


def native_playouts() -> bool:
    """Whether :func:`playout_outcome` and :func:`smart_outcome` play in C."""
    return _FINISH is not None


def playout(game: Game, rng: Dice, greedy: float = 0.0) -> Outcome:
    """Play ``game`` to its end in place and return the outcome.

    Each turn: with probability ``greedy`` :func:`best_now`'s move, else a uniformly
    random legal move. Where the legal moves are plain placements on the open
    slots (no slot rule, no Mother Theresa, no drawing beside placing, a divisor or
    no scoring), :func:`_fast_turn` picks the same move from the same random numbers
    without building the list; elsewhere the generator's list is used.
    """
    return _scored(
        game, _play(game, rng, policy=RANDOM_POLICY, param=greedy, finish=None, own=True)
    )


def playout_outcome(game: Game, rng: Dice, greedy: float = 0.0) -> Outcome:
    """What :func:`playout` would return from the same random numbers; ``game`` is not
    changed (the searches' worlds: C from the first fast turn, a copy before it)."""
    if game.outcome is not None:
        return game.outcome
    return _scored(
        game, _play(game, rng, policy=RANDOM_POLICY, param=greedy, finish=_FINISH, own=False)
    )


def playout_margin(game: Game, rng: Dice, seat: int, greedy: float = 0.0) -> float:
    """``seat_margin(playout_outcome(game, rng, greedy), seat)``, without the outcome's
    records where C ends the hand: what ``search`` reads of a rollout."""
    if game.outcome is not None:
        return seat_margin(game.outcome, seat)
    got = _play(game, rng, policy=RANDOM_POLICY, param=greedy, finish=_FINISH, own=False)
    return _margin(game, got, seat)


def _play(
    game: Game,
    rng: Dice,
    *,
    policy: int,
    param: float,
    finish: NativeFinish | None,
    own: bool,
) -> Outcome | Finished:
    """The two playouts' loop: ``policy`` RANDOM_POLICY (:func:`playout`, ``param`` the
    greed) or SMART_POLICY (:func:`smart_playout`, ``param`` the exploration).

    Not ``own``: the outcome and margin functions, which copy ``game`` before its first
    move in Python and hand it to ``finish`` (C) at its first fast turn; what C returns
    comes back as it is (:data:`Finished`), for the caller to score. Played in Python to
    the end, the hand's outcome.
    """
    rand = rng.random
    smart = policy == SMART_POLICY
    d = game.divisor
    partner: list[int] = []
    spare = 0.0
    if smart:
        teams = game.rules.teams(game.players)
        partner = [-1] * game.players
        if teams is not None:
            for team in teams:
                partner[team[0]], partner[team[1]] = team[1], team[0]
        spare = 1.0 if teams is not None else 1.0 / max(1, game.players - 1)
    table = game.table
    scoring = d > 0 or (d == 0 and not smart)  # the smart policy needs a divisor
    plain = not game.mother_theresa and game.stuck != DRAW_FREE and scoring
    unfiltered = table.shape == LINE or table.shape == INLINE
    while game.outcome is None:
        laid = len(table.placements)
        fast = plain and game.pending < 0 and (laid >= 5 or (unfiltered and laid > 0))
        if fast and finish is not None:
            got = finish(game, rand, policy, param, partner, spare)
            if got is not None:
                return got
            finish = None
        if not own:
            game, own = game.copy(), True
            table = game.table
        if fast:
            if smart:
                _smart_turn(game, rand, param, partner, spare)
            else:
                _fast_turn(game, rand, param)
            continue
        moves = generate(game)
        if not moves:
            raise IllegalMoveError("a draw waits for its tile: a playout needs the stock's order")
        move = moves[0]
        if len(moves) > 1:
            if not smart:
                if param > 0.0 and rand() < param:
                    move = best_now(game, moves)
                else:
                    move = moves[int(rand() * len(moves))]
            elif param > 0.0 and rand() < param:
                move = moves[int(rand() * len(moves))]
            elif d > 0:
                move = smart_now(game, moves, partner, spare)
            else:
                move = best_now(game, moves)
        game.apply_legal(move)
    return game.outcome


def _scored(game: Game, got: Outcome | Finished) -> Outcome:
    """:func:`_play`'s result as the hand's outcome (C's scored as game.py scores it)."""
    return got if isinstance(got, Outcome) else native_outcome(game.rules, got)


def _margin(game: Game, got: Outcome | Finished, seat: int) -> float:
    """:func:`_play`'s result as the seat's margin (C's without the outcome's records)."""
    if isinstance(got, Outcome):
        return seat_margin(got, seat)
    return native_margin(game.rules, got, seat)


def _count(mask: int) -> int:
    """The bits set in ``mask`` (a hand's tiles of one number: a few, so one step each)."""
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


def _fast_turn(game: Game, rand: Callable[[], float], greedy: float) -> None:
    """One turn of :func:`playout` on a table with every open slot playable.

    The same move as ``generate`` then :func:`playout`'s choice, from the same
    random numbers: the placements in the generator's order (slots as opened, then
    the other half ascending), chosen by index, or the best by :func:`best_now`'s
    key (points now, then pips; the first of equals). One pass counts the moves and,
    when the policy may be greedy, finds the best; a second finds a random one.
    """
    table = game.table
    by_value = game.by_value[game.turn]
    pair_ids = game.set.pair_ids
    n = 0
    best_key = -1
    best_code = best_id = -1
    if greedy > 0.0:
        d = game.divisor
        for code, (v, _kind, weight) in table.open.items():
            m = by_value[v]
            if not m:
                continue
            lead = table.covered(code, weight)
            while m:
                low = m & -m
                m ^= low
                w = low.bit_length() - 1
                n += 1
                s = lead + table.adds(v, w)
                pts = s // d if d > 0 and s % d == 0 else 0
                key = pts * 1024 + v + w
                if key > best_key:
                    best_key, best_code, best_id = key, code, pair_ids[v][w]
    else:
        for v, _kind, _weight in table.open.values():
            m = by_value[v]
            if m:
                n += _count(m)
    if n == 0:
        game.apply_legal(DRAW_MOVE if can_draw(game) else PASS_MOVE)
        return
    if n > 1 and (greedy <= 0.0 or rand() >= greedy):
        _place_nth(game, by_value, int(rand() * n))
    elif best_code < 0:  # the one move, not looked for yet
        _place_nth(game, by_value, 0)
    else:
        _place_at(game, best_code, best_id)


def _place_nth(game: Game, by_value: list[int], k: int) -> None:
    """Make the k-th placement in the generator's order (every open slot playable)."""
    pair_ids = game.set.pair_ids
    for code, (v, _kind, _weight) in game.table.open.items():
        m = by_value[v]
        if not m:
            continue
        c = _count(m)
        if k >= c:
            k -= c
            continue
        while k:
            m &= m - 1
            k -= 1
        _place_at(game, code, pair_ids[v][(m & -m).bit_length() - 1])
        return
    raise AssertionError("a counted move was not found")


def _place_at(game: Game, code: int, tile_id: int) -> None:
    """Make the placement of tile ``tile_id`` on slot ``code`` (its interned move)."""
    rows = _ROWS
    if code < len(rows) and len(rows[0]) >= game.set.count:
        game.apply_legal(rows[code][tile_id])
    else:
        game.apply_legal(interned(game, code, tile_id))


def best_now(game: Game, moves: list[Move]) -> Move:
    """The placement scoring most now, the heaviest tile on ties; else the first move."""
    table = game.table
    base = table.ends_sum
    d = game.divisor
    best = moves[0]
    best_key = -1
    for m in moves:
        if type(m) is not PLACEMENT:
            continue
        tile, anchor, port = cast(PlacementTuple, m)
        if anchor < 0:
            pts = game.points_for(m)
        elif d > 0:
            s = base + table.delta(tile, anchor * 4 + port)
            pts = s // d if s % d == 0 else 0
        elif d == 0:
            pts = 0
        else:
            pts = game.points_for(m)
        key = pts * 1024 + tile.pips
        if key > best_key:
            best, best_key = m, key
    return best


# ------------------------------------------------------------------ the champion's policy
# A compiled sketch of the expert's FIDO advice (fido.bots.expert), cheap enough to roll
# out with: points now, keep the jokers, shed doubles while their number is open and heavy
# tiles, and do not leave the next player a score. Weights in points, like the expert's.
W_JOKER: Final = 0.6  # times the typical score (the sum / d): a joker kept for later
W_DOUBLE: Final = 2.5  # times the typical score, less as the double's number runs out
W_HEAVY: Final = 0.1  # per pip shed
# the next player's reply score (her hand is the sampled world's); 1.0 and 3.0 played worse
W_SPARE: Final = 2.0


def smart_playout(game: Game, rng: Dice, explore: float = 0.1) -> Outcome:
    """Play ``game`` to its end in place with :func:`smart_now` (``explore``: a random move).

    Outside the FIDO scoring (a divisor) the policy is :func:`best_now`.
    """
    return _scored(
        game, _play(game, rng, policy=SMART_POLICY, param=explore, finish=None, own=True)
    )


def smart_outcome(game: Game, rng: Dice, explore: float = 0.1) -> Outcome:
    """What :func:`smart_playout` would return from the same random numbers; ``game`` is
    not changed (the champion's and the analysis's worlds: C from the first fast turn)."""
    if game.outcome is not None:
        return game.outcome
    return _scored(
        game, _play(game, rng, policy=SMART_POLICY, param=explore, finish=_FINISH, own=False)
    )


def smart_margin(game: Game, rng: Dice, seat: int, explore: float = 0.1) -> float:
    """``seat_margin(smart_outcome(game, rng, explore), seat)``, without the outcome's
    records where C ends the hand: what the champion reads of a rollout."""
    if game.outcome is not None:
        return seat_margin(game.outcome, seat)
    got = _play(game, rng, policy=SMART_POLICY, param=explore, finish=_FINISH, own=False)
    return _margin(game, got, seat)


def _smart_turn(
    game: Game, rand: Callable[[], float], explore: float, partner: list[int], spare: float
) -> None:
    """One turn of :func:`smart_playout` where :func:`_fast_turn` may play: the same move
    as :func:`smart_now` on the generator's list (the same terms in the same order, so
    the same floating-point keys), from the same random numbers."""
    table = game.table
    seat = game.turn
    hands = game.by_value
    by_value = hands[seat]
    d = game.divisor
    nxt = game._next(seat)  # the rules' next seat (Ruleset.next_seat), from a native field
    mine = hands[nxt] if nxt != partner[seat] and nxt != seat else None
    # one pass: the moves to count, and the residues of the sum the next player can make
    # on today's slots (her sampled hand), a bitmask as smart_now's
    n = 0
    replies = 0
    for v, _kind, weight in table.open.values():
        m = by_value[v]
        if m:
            n += _count(m)
        if mine is not None:
            bits = mine[v]
            while bits:
                low = bits & -bits
                bits ^= low
                w = low.bit_length() - 1
                r = 2 * v - weight if w == v else w - weight
                replies |= 1 << (r % d)
    if n == 0:
        game.apply_legal(DRAW_MOVE if can_draw(game) else PASS_MOVE)
        return
    if n == 1:
        _place_nth(game, by_value, 0)
        return
    if explore > 0.0 and rand() < explore:
        _place_nth(game, by_value, int(rand() * n))
        return
    base = table.ends_sum
    scale = max(1.0, base / d)
    pair_ids = game.set.pair_ids
    best_key = -1e18
    best_code = best_id = -1
    for code, (v, _kind, weight) in table.open.items():
        m = by_value[v]
        if not m:
            continue
        lead = table.covered(code, weight)
        while m:
            low = m & -m
            m ^= low
            w = low.bit_length() - 1
            s = lead + table.adds(v, w)
            rest = s % d
            pts = s // d if rest == 0 else 0
            key = float(pts) + W_HEAVY * (v + w)
            if w == v:
                if pts == 0 and v % d == 0:
                    key -= W_JOKER * scale
                left = -1
                for hand in hands:
                    left += _count(hand[v])
                key += W_DOUBLE * scale / (1.0 + left / 3.0)
            elif pts == 0 and (v - w) % d == 0:
                key -= W_JOKER * scale
            if replies and replies >> (d - rest if rest else 0) & 1:
                key -= W_SPARE * spare * max(1.0, s / d)
            if key > best_key:
                best_key, best_code, best_id = key, code, pair_ids[v][w]
    _place_at(game, best_code, best_id)


def smart_now(game: Game, moves: list[Move], partner: list[int], spare: float) -> Move:
    """The placement the expert's main terms like best; else the first move."""
    table = game.table
    base = table.ends_sum
    d = game.divisor
    seat = game.turn
    scale = max(1.0, base / d)
    by_value = game.by_value
    # the residues of the sum the next player can make on today's slots (her sampled hand)
    nxt = game.rules.next_seat(seat, game.players)
    replies = 0  # bitmask over residues mod d
    if nxt != partner[seat] and nxt != seat:
        mine = by_value[nxt]
        for v, _kind, weight in table.open.values():
            bits = mine[v]
            w = 0
            while bits:
                if bits & 1:
                    r = 2 * v - weight if w == v else w - weight
                    replies |= 1 << (r % d)
                bits >>= 1
                w += 1
    best = moves[0]
    best_key = -1e18
    for m in moves:
        if type(m) is not PLACEMENT:
            continue
        tile, anchor, port = cast(PlacementTuple, m)
        if anchor < 0:
            pts = game.points_for(m)
            s = table.sum_after(tile, -1)
        else:
            s = base + table.delta(tile, anchor * 4 + port)
            pts = s // d if s % d == 0 else 0
        key = float(pts) + W_HEAVY * tile.pips
        high = tile.high
        diff = high if tile.is_double else high - tile.low
        if diff % d == 0 and pts == 0:
            key -= W_JOKER * scale
        if tile.is_double:
            left = -1
            for hand in by_value:
                left += hand[high].bit_count()
            key += W_DOUBLE * scale / (1.0 + left / 3.0)
        if replies and replies >> ((-s) % d) & 1:
            key -= W_SPARE * spare * max(1.0, s / d)
        if key > best_key:
            best, best_key = m, key
    return best
