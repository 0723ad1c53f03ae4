"""A fresh deal played in C (fido.engine._core's Kernel) is the game played in Python.

``Game.new`` and ``Game.from_deal`` hand a FIDO deal to the kernel while only its legal
moves, pushes, turn and outcome are asked for; the first read of anything else plays
the kernel's moves again in Python (``Game._sync``). The reference is the same deal
played in Python from the start: at every turn the same legal moves (the same objects,
in the same order), the same turn and outcome, and once synced the same state and
history. In the pure build (``make pure-test``) no kernel is made and the tests check
that Python alone gives the same.
"""

from __future__ import annotations

import copy
import os
import pickle
import random

import pytest

from fido import Game, IllegalMoveError, Move
from fido.engine.moves import DRAW, PASS
from support.cases import ALL_CASES

PURE = bool(os.environ.get("FIDO_FORCE_PURE"))
CASES = [
    *ALL_CASES,
    ("fido set=21 divisor=13", 9),
    ("fido set=40 divisor=5", 2),
]


def in_python(text: str, players: int, seed: int) -> Game:
    """The same deal, played in Python from the start."""
    game = Game.new(text, players, seed=seed)
    game._sync()
    assert game._k is None
    return game


def state(game: Game) -> tuple[object, ...]:
    """Everything the game holds (read through the public fields, which sync)."""
    return (
        game.history(), len(game), game.table.text(), game.table.open_slots(),
        game.table.ends_sum, game.hands.copy(), [r.copy() for r in game.by_value],
        game.scores.copy(), game.stock_count, game.stock_mask, game.stock_pos, game.turn,
        game.passes, game.outcome, game.stock, game.legal_moves(),
    )  # fmt: skip


def fits(text: str) -> bool:
    """Whether movegen.kernel takes this ruleset: FIDO's cross (not soenke_hansen's
    doubles in line), without Mother Theresa, up to double-21."""
    return (
        not PURE
        and text.startswith("fido")
        and not any(word in text for word in ("mother_theresa", "soenke_hansen", "set=40"))
    )


@pytest.mark.parametrize(("text", "players"), CASES, ids=[f"{t}-{p}p" for t, p in CASES])
def test_the_kernel_plays_the_python_game(text: str, players: int) -> None:
    for seed in range(3):
        fast, slow = Game.new(text, players, seed=seed), in_python(text, players, seed)
        assert (fast._k is not None) is fits(text)
        walk = random.Random(seed)
        while slow.outcome is None:
            legal = fast.legal_moves()
            want = slow.legal_moves()
            assert legal == want
            if fast._k is not None:  # the same objects (Python's own are not all interned)
                assert all(a is b for a, b in zip(legal, want, strict=True))
            assert fast.turn == slow.turn
            assert fast.outcome is None
            move = walk.choice(want)
            fast.push(move)
            slow.push(move)
        assert fast.outcome == slow.outcome
        assert fast.legal_moves() == [] and fast.is_over
        assert (fast._k is not None) is fits(text)  # nothing above left the kernel
        assert len(fast) == len(slow)
        assert state(fast) == state(slow)
        assert fast._k is None


@pytest.mark.parametrize("players", [3, 4, 6])
def test_leaving_the_kernel_mid_hand_goes_on_alike(players: int) -> None:
    """Synced at any turn, the game goes on as the Python one: moves, undo and all."""
    for stop in (0, 1, 2, 5, 17, 40):
        fast = Game.new("fido set=12", players, seed=stop)
        slow = in_python("fido set=12", players, stop)
        walk = random.Random(stop)
        for _ in range(stop):
            if slow.is_over:
                break
            move = walk.choice(slow.legal_moves())
            fast.push(move)
            slow.push(move)
        assert state(fast) == state(slow)  # reading syncs
        while not slow.is_over:
            move = walk.choice(slow.legal_moves())
            fast.push(move)
            slow.push(move)
        assert state(fast) == state(slow)
        while len(slow):  # take every move back
            assert fast.pop() == slow.pop()
            assert fast.legal_moves() == slow.legal_moves()
        assert state(fast) == state(slow)


def test_an_equal_move_is_made_as_the_legal_one() -> None:
    """A move read from text is equal to a legal one, not the same object: the game keeps
    the legal one, as in Python, and stays in the kernel."""
    fast, slow = Game.new("fido set=12", 4, seed=3), in_python("fido set=12", 4, 3)
    walk = random.Random(3)
    for _ in range(12):
        move = walk.choice(slow.legal_moves())
        fast.push(Move.from_text(move.text()))
        slow.push(Move.from_text(move.text()))
    assert fast._k is not None or PURE
    assert [t.move for t in fast.history()] == [t.move for t in slow.history()]
    assert all(a.move is b.move for a, b in zip(fast.history(), slow.history(), strict=True))


def test_an_illegal_move_is_refused_alike_and_changes_nothing() -> None:
    fast, slow = Game.new("fido set=12", 4, seed=5), in_python("fido set=12", 4, 5)
    for game in (fast, slow):
        game.push(game.legal_moves()[0])
        game.push(game.legal_moves()[0])
    bad = [
        Move.from_text("0-0@0n"),  # not in hand (or not on a side)
        Move.from_text("12-11@0e"),  # on an end: the second tile goes on a side
        Move.from_text("12-11@7n"),  # no tile 7 yet
        DRAW,  # a tile could be placed
        PASS,
        "12-11@0n",  # not a move
        None,
    ]
    for move in bad:
        fast2 = Game.new("fido set=12", 4, seed=5)
        for _ in range(2):
            fast2.push(fast2.legal_moves()[0])
        errors = []
        for game in (fast2, slow):
            before = state(game)
            with pytest.raises(IllegalMoveError) as e:
                game.push(move)  # type: ignore[arg-type]
            errors.append(str(e.value))
            assert state(game) == before
        assert errors[0] == errors[1]
    with pytest.raises(IllegalMoveError, match="seat"):
        fast.push(fast.legal_moves()[0], seat=(fast.turn + 1) % 4)
    assert fast._k is not None or PURE  # asking whose turn it is leaves it in the kernel


def test_a_finished_game_refuses_moves_and_copies_pickles_and_replays() -> None:
    fast, slow = Game.new("fido set=9", 3, seed=8), in_python("fido set=9", 3, 8)
    walk = random.Random(8)
    while not slow.is_over:
        move = walk.choice(slow.legal_moves())
        fast.push(move)
        slow.push(move)
    with pytest.raises(IllegalMoveError, match="over"):
        fast.push(DRAW)
    assert fast.is_legal(DRAW) is slow.is_legal(DRAW) is False
    for other in (copy.copy(fast), copy.deepcopy(fast), pickle.loads(pickle.dumps(fast))):
        assert state(other) == state(slow)


def test_a_copy_and_a_view_of_a_game_in_the_kernel() -> None:
    fast, slow = Game.new("fido set=12", 4, seed=9), in_python("fido set=12", 4, 9)
    walk = random.Random(9)
    for _ in range(10):
        move = walk.choice(slow.legal_moves())
        fast.push(move)
        slow.push(move)
    assert fast.is_legal(slow.legal_moves()[0]) and fast.is_legal(Move.from_text("draw")) is False
    twin = fast.copy()
    assert state(twin) == state(slow)
    assert fast.view(1) == slow.view(1)
    assert repr(fast) == repr(slow)


def test_from_deal_gets_the_kernel_and_explicit_chance_does_not() -> None:
    game = Game.new("fido set=6", 3, seed=1)
    hands = [game.hand(s) for s in range(3)]
    dealt = Game.from_deal("fido set=6", hands, game.stock)
    assert (dealt._k is not None) is not PURE
    assert Game.from_deal("fido set=6", hands, game.stock, explicit_chance=True)._k is None
    assert Game.new("fido set=6", 3, seed=1, explicit_chance=True)._k is None


def test_moves_that_only_look_like_moves_are_refused_alike() -> None:
    """Placements with numbers out of range or tiles of no set go to Python, which
    refuses them as it refuses them there (an anchor past any machine integer read
    as -1 would otherwise pass for the opening's)."""
    from fido.engine.moves import Placement  # noqa: PLC0415
    from fido.engine.tiles import Tile  # noqa: PLC0415

    fast, slow = Game.new("fido set=12", 4, seed=2), in_python("fido set=12", 4, 2)
    opening = slow.legal_moves()[0]
    assert isinstance(opening, Placement)
    huge = 10**30
    looks = [
        Placement(opening.tile, huge, huge),
        Placement(opening.tile, -huge, -huge),
        Placement(Tile(20, 20), -1, -1),
        Placement(opening.tile, 0, 9),
        Placement(opening.tile, 1.0, 1),  # type: ignore[arg-type]
        (opening.tile, -1, -1),
    ]
    for move in looks:
        game = Game.new("fido set=12", 4, seed=2)
        with pytest.raises(IllegalMoveError) as got:
            game.push(move)  # type: ignore[arg-type]
        with pytest.raises(IllegalMoveError) as want:
            slow.push(move)  # type: ignore[arg-type]
        assert str(got.value) == str(want.value)
        assert state(game) == state(slow)
    fast.push(opening)
    assert fast._k is not None or PURE


def test_the_kernel_is_what_the_compiled_suite_runs() -> None:
    """The compiled build makes kernels (else these tests would check Python twice)."""
    assert (Game.new("fido", 4, seed=1)._k is not None) is not PURE


@pytest.mark.parametrize(
    ("text", "players"),
    [("fido set=12", 4), ("fido set=21", 9), ("fido set=6", 3), ("block", 2), ("draw", 4)],
)
def test_the_deal_in_c_is_the_python_deal(text: str, players: int) -> None:
    """The same shuffle and hands from the same random numbers (and the generator left in
    the same state), for every seed tried; the pure build has only the Python."""
    from fido.engine import dealing  # noqa: PLC0415
    from fido.engine.plan import plan_of  # noqa: PLC0415
    from fido.engine.rules import Ruleset  # noqa: PLC0415

    native = dealing._NATIVE
    assert (native is not None) is not PURE
    if native is None:
        return
    plan = plan_of(Ruleset.from_text(text))
    dominoes = plan.dominoes
    size, width = plan.hand_size(players), dominoes.max_pips + 1
    for seed in range(100):
        here, there = list(dominoes.tiles), list(dominoes.tiles)
        a, b = random.Random(seed), random.Random(seed)
        got = native(here, a.random, players, size, width, seed % 2 == 0)
        want = dealing.deal_hands(there, b, players, size, width)
        if seed % 2:  # without the hands by value
            assert got == (want[0], None, want[2])
        else:
            assert got == want
        assert here == there
        assert a.getstate() == b.getstate()


def test_the_hands_by_value_in_c_are_the_python_ones() -> None:
    from fido.engine import game as engine_game  # noqa: PLC0415

    native = engine_game._NATIVE_INDEX
    assert (native is not None) is not PURE
    for text, players in [("fido set=12", 4), ("fido set=21", 9), ("fido set=40 divisor=5", 2)]:
        for seed in range(20):
            game = in_python(text, players, seed)
            hands = list(game.initial_hands)
            assert game._indexed(hands) == [game._index(h) for h in hands]
    if native is not None:
        for bad in ([1 << 300], [-1], [1 << 200], ["1"]):
            with pytest.raises(ValueError, match="hand"):
                native(bad, 13)  # type: ignore[arg-type]
