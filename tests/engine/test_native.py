"""The C playouts (fido.engine._core) play the Python rollouts' moves, and change nothing.

``playout_outcome`` and ``smart_outcome`` hand a world to C from its first fast turn;
the reference is the Python playout (``playout``, ``smart_playout``) on a copy, from the
same random numbers. Equal outcomes and equal generator states after the playout say
that C chose the same move at every turn (a different move would give a different
hand, or draw other random numbers). In the pure build (``make pure-test``) the
extension is hidden and the same tests check the Python path of the two functions.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from fido import Game, IllegalMoveError
from fido.engine import rollout
from fido.engine.dice import PyDice, seeded
from fido.engine.results import seat_margin
from fido.engine.rollout import (
    native_playouts,
    playout,
    playout_margin,
    playout_outcome,
    smart_margin,
    smart_outcome,
    smart_playout,
)
from support.cases import ALL_CASES

PURE = bool(os.environ.get("FIDO_FORCE_PURE"))
SEEDS = range(1 if PURE else 2)
CASES = [*ALL_CASES, ("fido set=40 divisor=5", 2), ("fido set=21 divisor=13", 9)]
POLICIES = [("random", 0.0), ("random", 0.5), ("random", 1.0), ("smart", 0.0), ("smart", 0.1)]


def snapshot(game: Game) -> tuple[object, ...]:
    """Everything a playout in place would change."""
    return (
        game.history(), game.table.text(), game.hands.copy(), game.scores.copy(),
        game.stock_count, game.turn, game.passes, game.outcome,
    )  # fmt: skip


def check(game: Game, policy: str, param: float, dice: int, *, searches: bool = False) -> None:
    """``searches``: the searches' dice (the C's own Dice, drawn without a call, against
    the Python generator), else a random.Random for both."""
    before = snapshot(game)
    fast: Any = seeded(dice) if searches else random.Random(dice)
    slow: Any = PyDice(dice) if searches else random.Random(dice)
    if policy == "smart":
        got = smart_outcome(game, fast, param)
        want = smart_playout(game.copy(), slow, param)
    else:
        got = playout_outcome(game, fast, param)
        want = playout(game.copy(), slow, param)
    assert got == want
    assert fast.getstate() == slow.getstate()  # the same random numbers: the same moves
    # what the searches read: one seat's margin, the C's without the outcome's records
    seat = dice % game.players
    again: Any = seeded(dice) if searches else random.Random(dice)
    by_margin = smart_margin if policy == "smart" else playout_margin
    assert by_margin(game, again, seat, param) == seat_margin(want, seat)
    assert snapshot(game) == before


@pytest.mark.parametrize(("text", "players"), CASES, ids=[f"{t}-{p}p" for t, p in CASES])
def test_the_outcome_is_the_python_playouts(text: str, players: int) -> None:
    """From the deal and from every third move of a random game, the policies in turn,
    with a random.Random and the searches' dice in turn."""
    for seed in SEEDS:
        game = Game.new(text, players, seed=seed)
        walk = random.Random(seed)
        step = 0
        while not game.is_over:
            if step % 3 == 0:  # each policy in turn
                policy, param = POLICIES[step // 3 % len(POLICIES)]
                check(game, policy, param, seed * 1000 + step, searches=step // 3 % 2 == 1)
            game.push(walk.choice(game.legal_moves()))
            step += 1


def test_the_extension_is_what_the_compiled_suite_runs() -> None:
    """The compiled build has the C playouts (else these tests would check Python twice)."""
    assert native_playouts() is not PURE


def test_the_weights_are_the_rollouts() -> None:
    """The smart policy's weights are written twice (rollout.py and _core.c): the same."""
    source = (Path(rollout.__file__).parent / "_core.c").read_text()
    found = dict(re.findall(r"static const double (W_\w+) = ([0-9.]+);", source))
    assert found == {
        name: repr(getattr(rollout, name)) for name in ("W_JOKER", "W_DOUBLE", "W_HEAVY", "W_SPARE")
    }


def test_a_draw_without_the_stock_order_is_refused_alike() -> None:
    """Explicit chance: the stock has no order, so a playout cannot draw (as in place)."""
    for seed in range(40):
        game = Game.new("fido set=6", 3, seed=seed, explicit_chance=True)
        walk = random.Random(seed)
        while not game.is_over and len(game.table) < 6 and game.chance is None:
            game.push(walk.choice(game.legal_moves()))
        if game.is_over or game.chance is not None:
            continue
        errors: list[tuple[str, object]] = []
        for smart in (smart_outcome, smart_playout):
            try:
                errors.append(("ok", smart(game.copy(), random.Random(1), 0.1)))
            except IllegalMoveError as e:
                errors.append(("refused", str(e)))
        assert errors[0] == errors[1]
        if errors[0][0] == "refused":
            return
    pytest.fail("no explicit-chance game needed a draw")


def test_a_finished_game_gives_its_outcome() -> None:
    game = Game.new("fido set=12", 4, seed=3)
    playout(game, random.Random(1))
    assert smart_outcome(game, random.Random(2)) is game.outcome
    assert playout_outcome(game, random.Random(2)) is game.outcome


@pytest.mark.skipif(PURE, reason="the C playouts are hidden in the pure build")
def test_the_extension_refuses_what_is_not_a_game() -> None:
    """fido.engine._core reads a game's fields: anything else is an error, not a crash."""
    from fido.engine import _core  # noqa: PLC0415

    with pytest.raises(AttributeError):
        _core.finish(object(), random.random, 1, 0.1, [], 1.0)
    with pytest.raises(TypeError):
        _core.finish(Game.new("fido", 4, seed=1), random.random, 1, 0.1, None, 1.0)  # type: ignore[arg-type]
    game = Game.new("fido set=12", 4, seed=1)
    while len(game.table) < 6:
        game.push(game.legal_moves()[0])
    game.by_value[0][0] = 1 << 40  # not a hand of this set: left to Python
    assert _core.finish(game, random.random, 1, 0.1, [-1] * 4, 1.0) is None
    # a look-alike whose fields are of other types: declined, not misread
    fields = ("players", "turn", "passes", "divisor", "_clockwise", "stuck", "keep_in_stock",
              "mother_theresa", "pending", "outcome", "stock_count", "stock_pos", "_order",
              "table", "by_value", "scores")  # fmt: skip
    like = SimpleNamespace(**{name: getattr(game, name) for name in fields})
    assert _core.finish(like, random.random, 1, 0.1, [-1] * 4, 1.0) is None  # the bad hand
    good = like.by_value = [row.copy() for row in game.by_value]
    good[0][0] = 0
    assert _core.finish(like, random.random, 1, 0.1, [-1] * 4, 1.0) is not None
    for name, other in (("_order", list(game._order)), ("by_value", tuple(like.by_value)),
                        ("scores", "0000"), ("divisor", 10**30), ("players", 0)):  # fmt: skip
        setattr(like, name, other)
        assert _core.finish(like, random.random, 1, 0.1, [-1] * 4, 1.0) is None, name
        setattr(like, name, good if name == "by_value" else getattr(game, name))
    like.table = SimpleNamespace(**{k: getattr(game.table, k) for k in ("shape", "spinner",
                                 "arms_taken", "ends_sum", "placements")}, open=[])  # fmt: skip
    assert _core.finish(like, random.random, 1, 0.1, [-1] * 4, 1.0) is None
    not_a_number: Any = "x".upper  # a random() that answers text
    assert _core.finish(game, not_a_number, 0, 0.5, [], 1.0) is None
    game.by_value[0][0] = 0
    with pytest.raises(TypeError):
        _core.finish(game, not_a_number, 0, 0.5, [], 1.0)
