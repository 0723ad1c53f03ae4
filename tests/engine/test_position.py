"""One-line positions: games and views print to one line and parse back to the same state."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fido import DRAW, FidoError, Game, NotationError
from fido.position import game_text, parse_game, parse_view, view_text
from support.cases import ALL_CASES

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def played(text: str, players: int, seed: int, moves: int, explicit: bool = False) -> Game:
    g = Game.new(text, players, seed=seed, explicit_chance=explicit)
    rng = random.Random(seed)
    for _ in range(moves):
        if g.is_over:
            break
        if g.chance is not None:
            g.apply_chance(rng.choice(g.chance.tiles))
            continue
        g.push(rng.choice(g.legal_moves()))
    return g


def same_game(a: Game, b: Game) -> None:
    assert a.rules == b.rules and a.players == b.players
    assert a.hands == b.hands
    assert a.stock_mask == b.stock_mask
    if a.stock_mask:  # (an empty stock has no order to keep)
        assert a.explicit_chance == b.explicit_chance
    if not a.explicit_chance:
        assert a.stock[a.stock_pos :] == b.stock[b.stock_pos :]
    assert a.table.placements == b.table.placements
    assert list(a.table.open.items()) == list(b.table.open.items())
    assert a.ends_sum == b.ends_sum
    assert (a.turn, a.scores, a.passes, a.opener) == (b.turn, b.scores, b.passes, b.opener)
    assert a.chance == b.chance
    assert a.legal_moves() == b.legal_moves()
    assert a.outcome == b.outcome


@settings(max_examples=80, deadline=None)
@given(
    case=st.sampled_from(ALL_CASES),
    seed=SEEDS,
    moves=st.integers(0, 400),
    explicit=st.booleans(),
)
def test_a_game_round_trips(case: tuple[str, int], seed: int, moves: int, explicit: bool) -> None:
    g = played(*case, seed, moves, explicit)
    line = game_text(g)
    assert "\n" not in line
    back = parse_game(line)
    same_game(g, back)
    assert game_text(back) == line
    # and the parsed game plays on exactly like the original
    rng_a, rng_b = random.Random(seed), random.Random(seed)
    for _ in range(30):
        if g.is_over or g.chance is not None:
            break
        a, b = rng_a.choice(g.legal_moves()), rng_b.choice(back.legal_moves())
        g.push(a)
        back.push(b)
        same_game(g, back)


@settings(max_examples=80, deadline=None)
@given(case=st.sampled_from(ALL_CASES), seed=SEEDS, moves=st.integers(0, 400), data=st.data())
def test_a_view_round_trips(
    case: tuple[str, int], seed: int, moves: int, data: st.DataObject
) -> None:
    g = played(*case, seed, moves)
    if g.is_over:
        return
    seat = data.draw(st.sampled_from([None, *range(g.players)]), label="seat")
    view = g.spectator_view() if seat is None else g.view(seat)
    line = view_text(view)
    back = parse_view(line)
    assert view_text(back) == line
    fields = ("rules", "players", "seat", "hand", "hand_counts", "stock_count", "scores", "passes")
    for field in fields:
        assert getattr(back, field) == getattr(view, field), field
    assert back.table == view.table and back.to_move == view.to_move
    assert back.legal_moves == view.legal_moves
    # a view's line never shows a hidden tile
    for s in range(g.players):
        if s != seat:
            for t in g.hand(s):
                assert f" {t.text()} " not in f" {line.split(' | ')[2]} "


def test_a_waiting_draw_and_an_unordered_stock_print() -> None:
    for seed in range(100):
        g = played("fido set=6", 4, seed, 0, explicit=True)
        rng = random.Random(seed)
        while not g.is_over and DRAW not in g.legal_moves():
            g.push(rng.choice(g.legal_moves()))
        if g.is_over:
            continue
        g.push(DRAW)
        line = game_text(g)
        assert f"to {g.chance.seat} drawing" in line  # type: ignore[union-attr]
        assert "stock {" in line
        back = parse_game(line)
        assert back.chance == g.chance
        return
    raise AssertionError("no draw")


def test_the_seed_and_the_history_are_not_in_a_line() -> None:
    g = played("fido set=9", 4, 12345, 20)
    line = game_text(g)
    assert "12345" not in line
    with pytest.raises(FidoError, match="no move to take back"):
        parse_game(line).pop()


GOOD = game_text(played("fido set=6", 3, 7, 5))


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda s: s.replace("hands ", "hands 6-6 ", 1), "twice|tiles"),
        (lambda s: s.replace(" | to ", " | to 9", 1), "seat to move"),
        (lambda s: s.replace(" | scores ", " | scores ²", 1), "whole number"),
        (lambda s: s.replace(" | scores ", " | scores ４", 1), "whole number"),
        (lambda s: s.replace(" | passes 0", " | passes 99999999999999999999"), "passes"),
        (lambda s: s.replace("fido set=6", "fido set=²"), "ruleset"),
        (lambda s: s + " | extra", "sections"),
        (lambda s: s.replace("|", "\x1b[2J|", 1), "printable"),
        (lambda s: s.replace("fido set=6", "fido set=6 soenke_hansen", 1), "lays its table"),
        (lambda s: s.replace("hands ", "hands 100-1 ", 1), "not a tile"),
        (lambda s: "", "sections"),
        (lambda s: "x" * 30_000, "at most"),
    ],
)
def test_bad_lines_are_refused_with_a_reason(edit: object, message: str) -> None:
    bad = edit(GOOD)  # type: ignore[operator]
    with pytest.raises(NotationError, match=message):
        parse_game(bad)


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=300))
def test_any_text_is_a_position_or_a_notation_error(text: str) -> None:
    for parse in (parse_game, parse_view):
        with contextlib.suppress(NotationError):
            parse(text)


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_mangled_lines_never_crash(data: st.DataObject) -> None:
    words = GOOD.split(" ")
    i = data.draw(st.integers(0, len(words) - 1))
    words[i] = data.draw(
        st.sampled_from(["", "-", "#3", "{", "}", "/", "|", "99-99", "6-6", "0", "²", "drawing"])
    )
    with contextlib.suppress(NotationError):
        parse_game(" ".join(words))
