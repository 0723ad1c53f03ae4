"""Undo (Game.pop) and the explicit chance step: both must give back exactly the same states."""

from __future__ import annotations

import copy
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fido import DRAW, Game, IllegalMoveError, Move, Placement, Tile
from fido.engine.game import Chance
from support.cases import ALL_CASES, VARIANTS

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def state(g: Game) -> tuple[object, ...]:
    """Everything a game holds, in order where order matters (slots, history)."""
    t = g.table
    return (
        g.rules,
        g.players,
        tuple(g.hands),
        tuple(tuple(v) for v in g.by_value),
        g.stock_mask,
        g.stock_pos,
        tuple(t.placements),
        tuple(t.open.items()),
        t.ends_sum,
        t.spinner,
        t.arms_taken,
        g.turn,
        tuple(g.scores),
        g.passes,
        g.opener,
        g.opening_tile,
        tuple(g.history()),
        g.outcome,
        g.chance,
        tuple(g.legal_moves()),
    )


def play_and_undo(g: Game, rng: random.Random) -> int:
    """Plays ``g`` to its end; after every move, pop() must restore the state before it."""
    moves = 0
    while not g.is_over:
        before = state(g)
        saved = g.copy()
        move = rng.choice(g.legal_moves())
        g.push(move)
        after = state(g)
        assert g.pop() == move
        assert state(g) == before == state(saved)
        g.push(move)
        assert state(g) == after
        moves += 1
    return moves


@settings(max_examples=60, deadline=None)
@given(case=st.sampled_from(ALL_CASES), seed=SEEDS)
def test_pop_gives_back_the_state_before_every_move(case: tuple[str, int], seed: int) -> None:
    text, players = case
    g = Game.new(text, players, seed=seed)
    start = state(g)
    n = play_and_undo(g, random.Random(seed))
    for _ in range(n):  # and all the way back to the deal
        g.pop()
    assert state(g) == start
    with pytest.raises(IllegalMoveError, match="no move to take back"):
        g.pop()


@pytest.mark.parametrize(("text", "players"), VARIANTS)
def test_pop_in_every_variant(text: str, players: int) -> None:
    for seed in range(3):
        play_and_undo(Game.new(text, players, seed=seed), random.Random(seed))


def test_pop_returns_the_move_and_reopens_a_finished_game() -> None:
    g = Game.new("block", 2, seed=3)
    rng = random.Random(3)
    while not g.is_over:
        g.push(rng.choice(g.legal_moves()))
    last = g.last_turn()
    assert last is not None
    assert g.pop() == last.move
    assert not g.is_over and g.outcome is None
    assert last.move in g.legal_moves()


@settings(max_examples=40, deadline=None)
@given(case=st.sampled_from(ALL_CASES), seed=SEEDS)
def test_explicit_chance_follows_the_seeded_game(case: tuple[str, int], seed: int) -> None:
    """A game dealt with explicit chance, given the tiles the seeded game draws, is that game."""
    text, players = case
    seeded = Game.new(text, players, seed=seed)
    explicit = Game.new(text, players, seed=seed, explicit_chance=True)
    assert explicit.hands == seeded.hands and explicit.stock_count == seeded.stock_count
    rng = random.Random(seed)
    while not seeded.is_over:
        move = rng.choice(seeded.legal_moves())
        assert explicit.legal_moves() == seeded.legal_moves()
        seeded.push(move)
        explicit.push(move)
        if move is DRAW:
            chance = explicit.chance
            assert chance is not None and explicit.legal_moves() == []
            drawn = seeded.last_turn().drawn  # type: ignore[union-attr]
            assert chance.seat == seeded.last_turn().seat  # type: ignore[union-attr]
            # the stock: what the seeded game had left before this draw, in no order
            assert set(chance.tiles) == set(seeded.stock[seeded.stock_pos - 1 :])
            assert isinstance(drawn, Tile)
            explicit.apply_chance(drawn)
        assert explicit.chance is None
        assert state(explicit)[:-2] == state(seeded)[:-2]
    assert explicit.outcome == seeded.outcome
    # the record's stock: the tiles drawn in order, then the rest (no order: ascending)
    drawn_part = seeded.stock[: seeded.stock_pos]
    assert explicit.stock[: explicit.stock_pos] == drawn_part
    rest = explicit.stock[explicit.stock_pos :]
    assert list(rest) == sorted(seeded.stock[seeded.stock_pos :])


def _first_draw(text: str, players: int) -> Game:
    for seed in range(200):
        g = Game.new(text, players, seed=seed, explicit_chance=True)
        rng = random.Random(seed)
        while not g.is_over:
            moves = g.legal_moves()
            if DRAW in moves:
                return g
            g.push(rng.choice(moves))
    raise AssertionError("no draw in 200 games")


def test_a_waiting_draw_refuses_moves_and_wrong_tiles_and_can_be_taken_back() -> None:
    g = _first_draw("fido set=6", 4)
    before = state(g)
    seat = g.turn
    g.push(DRAW)
    chance = g.chance
    assert isinstance(chance, Chance) and chance.seat == seat
    assert len(chance.tiles) == g.stock_count
    waiting = state(g)
    with pytest.raises(IllegalMoveError, match="drawing"):
        g.push(DRAW)
    on_table = g.table.placements[0].tile
    for wrong in (on_table, g.hand(seat)[0], "6-6", None, Tile(20, 1)):
        with pytest.raises(IllegalMoveError, match="not in the stock"):
            g.apply_chance(wrong)
        assert state(g) == waiting
    assert g.pop() is DRAW  # the decision alone
    assert state(g) == before
    g.push(DRAW)
    tile = chance.tiles[-1]
    g.apply_chance(tile)
    assert tile in g.hand(seat) and g.chance is None
    assert g.last_turn().drawn is tile  # type: ignore[union-attr]
    with pytest.raises(IllegalMoveError, match="no draw waits"):
        g.apply_chance(chance.tiles[0])
    assert g.pop() is DRAW  # the draw with its tile
    assert state(g) == before


def test_forgetting_the_order_makes_draws_wait() -> None:
    g = _first_draw("fido set=6", 4)
    assert g.explicit_chance
    seeded = Game.new("fido set=6", 4, seed=0)
    assert not seeded.explicit_chance
    seeded.forget_stock_order()
    assert seeded.explicit_chance


def test_copies_and_pickles_keep_a_waiting_draw() -> None:
    g = _first_draw("fido set=9", 5)
    g.push(DRAW)
    for other in (g.copy(), copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        assert state(other) == state(g)
        other.apply_chance(other.chance.tiles[0])  # type: ignore[union-attr]
        assert g.chance is not None  # the original still waits


def test_push_canonicalises_an_equal_move() -> None:
    g = Game.new("fido set=6", 3, seed=1)
    g.push(g.legal_moves()[0])
    legal = next(m for m in g.legal_moves() if isinstance(m, Placement))
    lookalike = Placement(legal.tile, legal.anchor, legal.port)
    g.push(lookalike)
    assert g.table.placements[-1] is legal  # the game keeps its own move
    assert isinstance(g.last_turn().move, Move)  # type: ignore[union-attr]
