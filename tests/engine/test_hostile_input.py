"""Bad input, as a hostile or clumsy user gives it, raises fido's own errors and changes nothing."""

from __future__ import annotations

import contextlib
import gc
import random
import sys
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fido
from fido import (
    FidoError,
    Game,
    IllegalMoveError,
    Move,
    NotationError,
    Placement,
    Ruleset,
    Table,
    Tile,
    ruleset,
)
from fido.bots import make_bot
from fido.bots.runner import play_out
from fido.engine import movegen
from fido.notation import parse_move
from fido.position import game_text
from fido.safe_text import whole_or_none

# text a user might type: digits of other scripts, fullwidth, superscripts, huge
# numbers, whitespace, control characters, markup
TRICKY = st.one_of(
    st.text(max_size=60),
    st.sampled_from(
        [
            "100-1", "999-9", "6-6@99999999999999999999n", "²-1", "２-１", "٣-١", "6 - 6",
            "6-6@0x", "6-6@-1n", "-1-6", "draw ", " PASS", "6-6@0n@0n", "\x1b[2J", "[/x]",
            "fido set=²", "fido set=１２", "fido set=" + "9" * 5000, "fido divisor=0",
            "fido set=12 set=9", "cross 6-6 6-5@0n 6-5@0s", "cross 6-6 5-4@0n", "line",
            "fido set=12 =5", "fido \t set=12", "straight hand=99999999",
        ]
    ),
    st.from_regex(r"[0-9²３٣ \-@nesw|:]{0,20}", fullmatch=True),
)

PARSERS: dict[str, Callable[[str], object]] = {
    "tile": Tile.from_text,
    "move": Move.from_text,
    "table": Table.from_text,
    "ruleset": Ruleset.from_text,
}


@pytest.mark.parametrize("name", sorted(PARSERS))
@settings(max_examples=400, deadline=None)
@given(text=TRICKY)
def test_parsers_raise_only_fido_errors(name: str, text: str) -> None:
    try:
        PARSERS[name](text)
    except FidoError as e:
        assert "\x1b" not in str(e)  # a message never replays an escape sequence
        assert len(str(e)) < 600


@settings(max_examples=300, deadline=None)
@given(text=TRICKY)
def test_typed_moves_are_legal_or_refused(text: str) -> None:
    g = Game.new("fido set=6", 3, seed=1)
    before = game_text(g)
    with contextlib.suppress(FidoError):
        parse_move(g, text)
    assert game_text(g) == before


@pytest.mark.parametrize("text", ["100-1", "999-9", "6-6@100000n"])
def test_three_digit_halves_are_notation_errors(text: str) -> None:
    with pytest.raises(NotationError):
        Move.from_text(text)


@pytest.mark.parametrize("text", ["fido set=²", "fido set=１２", "fido set=" + "9" * 5000])
def test_ruleset_numbers_are_plain_digits(text: str) -> None:
    with pytest.raises(FidoError):
        Ruleset.from_text(text)


def test_non_text_is_refused_by_every_parser() -> None:
    for parse in PARSERS.values():
        for bad in (None, 12, b"6-6", ["6-6"]):
            with pytest.raises(FidoError):
                parse(bad)  # type: ignore[arg-type]


BAD_PLACEMENTS = [
    Placement("6-6", 0, 1),  # type: ignore[arg-type]
    Placement(None, 0, 1),  # type: ignore[arg-type]
    Placement(Tile(6, 5), "0", "n"),  # type: ignore[arg-type]
    Placement(Tile(6, 5), -3, -3),
    Placement(Tile(6, 5), 0, 7),
    Placement(Tile(6, 5), 99, 0),
    Placement(Tile(6, 5), 2**70, 0),
    Placement(Tile(6, 5), 0.0, 1.0),  # type: ignore[arg-type]
    Placement(Tile(20, 5), 0, 0),
    ("6-5", 0, 0),
    "6-5@0n",
    None,
    object(),
]


@pytest.mark.parametrize("when", ["opening", "open table"])
@pytest.mark.parametrize("bad", BAD_PLACEMENTS, ids=range(len(BAD_PLACEMENTS)))
def test_malformed_pushes_are_refused_before_anything_changes(when: str, bad: object) -> None:
    g = Game.new("fido set=6", 3, seed=1)
    if when == "open table":
        g.push(g.legal_moves()[0])
    before = game_text(g), len(g)
    with pytest.raises(IllegalMoveError):
        g.push(bad)  # type: ignore[arg-type]
    assert (game_text(g), len(g)) == before
    g.push(g.legal_moves()[0])  # and the game goes on


def test_a_non_canonical_opening_is_refused() -> None:
    g = Game.new("fido set=6", 3, seed=1)
    opening = g.legal_moves()[0]
    assert isinstance(opening, Placement)
    for anchor, port in ((-2, -1), (-1, 0), (0, -1), (-5, -5)):
        with pytest.raises(IllegalMoveError, match="opens with"):
            g.push(Placement(opening.tile, anchor, port))
    assert not g.table.placements


CONSTRUCTORS: list[Callable[[], object]] = [
    Game,
    lambda: Game.new(None),  # type: ignore[arg-type]
    lambda: Game.new(42),  # type: ignore[arg-type]
    lambda: Game.new("fido", players="4"),
    lambda: Game.new("fido", players=4.0),
    lambda: Game.new("fido", players=True),
    lambda: Game.new("fido", players=10**100),
    lambda: Game.new("fido", players=-1),
    lambda: Game.new("fido", seed=[1]),
    lambda: Game.new("fido", rng="not a generator"),
    lambda: Game.new("nonsense"),
    lambda: Game.from_deal("fido set=6", None),  # type: ignore[arg-type]
    lambda: Game.from_deal("fido set=6", "6-6"),  # type: ignore[arg-type]
    lambda: Game.from_deal("fido set=6", [[1, 2], [3]]),  # type: ignore[list-item]
    lambda: Game.from_deal("fido set=6", [None, None, None]),  # type: ignore[list-item]
    lambda: Game.from_deal("fido set=6", [[Tile(6, 6)]] * 3),
    lambda: Game.from_deal("fido set=6", [[]], stock=5),  # type: ignore[arg-type]
    lambda: Game.from_view(None, []),  # type: ignore[arg-type]
    lambda: Game.from_view(Game.new("fido set=6", 3, seed=1).view(0), None),  # type: ignore[arg-type]
    lambda: Game.from_view(Game.new("fido set=6", 3, seed=1).view(0), [[], [], []]),
    lambda: Game.from_view(Game.new("fido set=6", 3, seed=1).view(0), [1, 2, 3]),  # type: ignore[list-item]
    lambda: Game.new("fido set=6", 3, seed=1).view(3),
    lambda: Game.new("fido set=6", 3, seed=1).view(-1),
    lambda: Game.new("fido set=6", 3, seed=1).view("0"),
    lambda: Game.new("fido set=6", 3, seed=1).view(None),
    lambda: Game.new("fido set=6", 3, seed=1).hand(7),
    lambda: Tile("6", 5),
    lambda: Tile(6.0, 5),
    lambda: Tile(None, None),
    lambda: Tile(100, 1),
    lambda: Tile(-1, 1),
    lambda: Tile(10**5000, 1),
    lambda: Tile([1], 2),
    lambda: fido.DominoSet("6"),
    lambda: fido.DominoSet([6]),
    lambda: fido.DominoSet(0),
    lambda: Tile(6, 5).other(9),
    lambda: fido.ruleset(None),  # type: ignore[arg-type]
    lambda: fido.ruleset("fido", set="12"),
    lambda: fido.ruleset("fido", set=10**100),
]


@pytest.mark.parametrize("make", CONSTRUCTORS, ids=range(len(CONSTRUCTORS)))
def test_constructor_misuse_raises_fido_errors(make: Callable[[], object]) -> None:
    sys.set_int_max_str_digits(4300)
    with pytest.raises(FidoError) as info:
        make()
    assert len(str(info.value)) < 600


# ---------------------------------------------------------------- hidden information


def _module_state() -> dict[str, object]:
    """Every container held at module or class level in fido, summarised by its contents."""
    out: dict[str, object] = {}
    for name, module in sorted(sys.modules.items()):
        if not (name == "fido" or name.startswith("fido.")):
            continue
        for attr, value in list(vars(module).items()):
            holders = [(attr, value)]
            if isinstance(value, type) and value.__module__ == name:
                holders += [(f"{attr}.{k}", v) for k, v in vars(value).items()]
            for key, obj in holders:
                if isinstance(obj, dict | list | set | tuple | frozenset):
                    try:
                        out[f"{name}.{key}"] = repr(obj)
                    except Exception:
                        out[f"{name}.{key}"] = len(obj)
    return out


def _play(seed: int) -> Game:
    g = Game.new("fido set=12", 4, seed=seed)
    bots = [make_bot(b) for b in ("expert", "greedy", "random", "search:sims=20,time=0")]
    play_out(g, bots, [random.Random(seed + s) for s in range(4)])
    gc.collect()
    return g


# the interned placements grow from public tables only (tested below)
PUBLIC_CACHES = ("fido.engine.movegen._ROWS",)


def test_no_module_level_state_grows_from_a_hand() -> None:
    """Two different deals played to the end leave fido's module-level state identical."""

    def state(seed: int) -> dict[str, object]:
        _play(seed)
        return {k: v for k, v in _module_state().items() if k not in PUBLIC_CACHES}

    state(1)  # warm up every lazy cache with a first game
    assert state(2) == state(3)


def test_the_interned_placements_follow_the_number_of_tiles_placed_alone() -> None:
    """Each cached row holds every tile of the set, for the slots of the first n tiles."""
    movegen._ROWS.clear()
    for seed in (4, 5):
        _play(seed)
    tiles = ruleset("fido", set=12).dominoes.tiles
    filled = [code for code, row in enumerate(movegen._ROWS) if row]
    assert filled == list(range(len(filled)))  # no gaps: the first n tiles' slots
    for code in filled:
        row = movegen._ROWS[code]
        assert row == [Placement(t, code >> 2, code & 3) for t in tiles]


def test_a_view_holds_no_reference_to_the_game() -> None:
    g = Game.new("fido set=9", 4, seed=5)
    view = g.view(1)
    referents = gc.get_referents(view)
    assert g not in referents and all(not isinstance(r, Game) for r in referents)
    hidden = {t for s in (0, 2, 3) for t in g.hand(s)} | set(g.stock)
    assert not hidden & set(view.hand)
    for m in view.legal_moves:
        assert not isinstance(m, Placement) or m.tile not in hidden


@given(text=st.text(max_size=12) | st.sampled_from(["²", "¹²", "١٢", "１２", "-1", "+1", " 1",
                                                   "9" * 5000, "", "0", "007"]))
def test_a_typed_whole_number_is_read_as_int_reads_it_or_refused(text: str) -> None:
    """The pages read typed numbers with this: never an exception, and never a number
    int() would not give ("²" is a digit to str.isdigit, not to int)."""
    number = whole_or_none(text)
    if number is None:
        assert not (text.isdecimal() and len(text) <= 4000)
    else:
        assert number == int(text) >= 0 and text.isdecimal()
