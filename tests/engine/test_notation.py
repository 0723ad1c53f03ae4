"""The notation round-trips: tiles, moves, tables, rulesets; bad text is refused clearly."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fido import (
    DRAW,
    PASS,
    AmbiguousMoveError,
    Game,
    IllegalMoveError,
    Move,
    NotationError,
    Placement,
    Table,
    Tile,
)
from fido.notation import parse_move
from support.helpers import T, deal, tiles

tile_st = st.builds(Tile, st.integers(0, 21), st.integers(0, 21))
placement_st = st.one_of(
    tile_st.map(Placement),
    st.builds(Placement, tile_st, st.integers(0, 9999), st.integers(0, 3)),
)
move_st = st.one_of(placement_st, st.just(DRAW), st.just(PASS))


@given(move_st)
def test_move_text_round_trip(move: Placement) -> None:
    text = move.text()
    assert Move.from_text(text) == move
    assert Move.from_text(text).text() == text
    assert eval(repr(move), {"Move": Move, "DRAW": DRAW, "PASS": PASS}) == move  # repr rebuilds


@pytest.mark.parametrize(
    "bad", ["", "18-7@", "18-7@0", "18-7@0x", "18-7@n", "drew", "18", "18-7@-1n", "@0n", "18-7@0nn"]
)
def test_bad_move_text(bad: str) -> None:
    with pytest.raises(NotationError, match="not a move"):
        Move.from_text(bad)


def test_move_text_is_lenient_about_case_and_spaces() -> None:
    assert Move.from_text(" 18-7@0N ") == Placement(T("18-7"), 0, 0)
    assert Move.from_text("DRAW") is DRAW


RULESETS = [
    "fido set=6",
    "fido set=12",
    "fido set=18 soenke_hansen",
    "block",
    "draw",
    "muggins",
    "sebastopol",
]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(RULESETS), st.integers(0, 10**6), st.integers(0, 200))
def test_table_text_round_trip(rules: str, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    players = 4
    g = Game.new(rules, players, rng=rng)
    for _ in range(steps):
        if g.is_over:
            break
        g.push(rng.choice(g.legal_moves()))
        text = g.table.text()
        again = Table.from_text(text)
        assert again == g.table
        assert again.text() == text
        assert again.open == g.table.open
        assert again.ends_sum == g.table.ends_sum


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty table"),
        ("round 6-6", "unknown layout"),
        ("cross 6-6 6-5", "only the first tile"),
        ("cross 6-5@0n", "only the first tile"),
        ("cross 6-6 6-5@3n", "not on the table yet"),
        ("cross 6-6 6-5@0n 6-5@1n", "does not show 5|on the table already"),
        ("cross 6-6 6-5@0n 5-4@1n 6-6@2n", "on the table already"),
        ("cross 6-6 draw", "placements only"),
        ("cross 6-6 5-4@0n", "does not show 6"),
        ("cross 6-5", "must open with a double"),
    ],
)
def test_bad_table_text(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        Table.from_text(text)


def test_short_moves_resolve_against_the_position() -> None:
    g = deal("fido set=18", 4, {0: [T("18-18")], 1: tiles("18-12 18-0")})
    assert parse_move(g, "18-18") == Placement(T("18-18"))
    g.push(parse_move(g, "18-18"))
    # 18-12 fits both free sides: ambiguous, and the message lists both
    with pytest.raises(AmbiguousMoveError, match="18-12@0n, 18-12@0s"):
        parse_move(g, "18-12")
    assert parse_move(g, "18-12@0s") == Placement(T("18-12"), 0, 2)
    with pytest.raises(IllegalMoveError, match="cannot be placed now"):
        parse_move(g, "3-1")
    with pytest.raises(IllegalMoveError, match="not legal now"):
        parse_move(g, "18-12@0e")
    with pytest.raises(NotationError):
        parse_move(g, "eighteen")


def test_a_view_resolves_moves_too() -> None:
    g = deal("fido set=18", 4, {0: [T("18-18")], 1: tiles("18-12 12-0")})
    g.push(Move.from_text("18-18"))
    view = g.view(1)
    with pytest.raises(AmbiguousMoveError):
        parse_move(view.legal_moves, "18-12")
