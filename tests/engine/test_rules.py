"""Sets, divisors, hand sizes (fido-rules-de.txt cell by cell), rulesets and their errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fido import ConfigurationError, DominoSet, NotationError, Ruleset, Tile, ruleset
from fido.engine.rules import FIDO_DIVISORS, RULESETS

# fido-rules-de.txt, "Spielvorbereitung": tiles per player by set (columns) and players (rows)
HAND_TABLE = {
    3: (7, 13, 22, 34, 47),
    4: (5, 11, 18, 27, 38),
    5: (4, 9, 15, 22, 31),
    6: (4, 7, 13, 19, 27),
    7: (3, 6, 11, 17, 23),
    8: (3, 6, 10, 15, 21),
    9: (2, 5, 9, 13, 19),
}
SETS = (6, 9, 12, 15, 18)


@pytest.mark.parametrize("players", sorted(HAND_TABLE))
@pytest.mark.parametrize("column", range(5))
def test_hand_size_table_cell_by_cell(players: int, column: int) -> None:
    rules = ruleset("fido", set=SETS[column])
    assert rules.hand_size(players) == HAND_TABLE[players][column]


@pytest.mark.parametrize(
    ("n", "count", "divisor"),
    [
        (6, 28, 3),
        (9, 55, 5),
        (12, 91, 7),
        (15, 136, 9),
        (18, 190, 11),
        (21, 253, 13),
    ],
)
def test_fido_sets_and_divisors(n: int, count: int, divisor: int) -> None:
    assert DominoSet(n).count == count == (n + 1) * (n + 2) // 2
    assert ruleset("fido", set=n).divisor == divisor == FIDO_DIVISORS[n]


@pytest.mark.parametrize("n", [0, 1, 6, 12, 21, 30])
def test_set_composition_each_tile_exactly_once(n: int) -> None:
    if n == 0:
        with pytest.raises(ValueError, match="double-1"):
            DominoSet(n)
        return
    s = DominoSet(n)
    pairs = [(t.high, t.low) for t in s]
    assert len(pairs) == len(set(pairs)) == (n + 1) * (n + 2) // 2
    assert all(0 <= b <= a <= n for a, b in pairs)
    assert {(a, b) for a in range(n + 1) for b in range(a + 1)} == set(pairs)
    # every number appears n + 2 times (the double counts twice)
    for v in range(n + 1):
        assert sum((t.high == v) + (t.low == v) for t in s) == n + 2


def test_tiles_are_interned_and_normalised() -> None:
    assert Tile(12, 18) is Tile(18, 12)
    assert Tile(3, 5) == Tile(5, 3) and hash(Tile(3, 5)) == hash(Tile(5, 3))
    t = Tile(18, 12)
    assert (t.high, t.low, t.pips, t.difference, t.is_double) == (18, 12, 30, 6, False)
    with pytest.raises(AttributeError):
        t.high = 3
    with pytest.raises(ValueError, match="between 0"):
        Tile(-1, 3)


@given(st.integers(0, 99), st.integers(0, 99))
def test_tile_text_round_trip(a: int, b: int) -> None:
    t = Tile(a, b)
    assert Tile.from_text(t.text()) is t
    assert Tile.from_text(f"{b}-{a}") is t


@pytest.mark.parametrize("bad", ["", "18", "18-", "a-b", "1-2-3", "18--12", "100-1"])
def test_bad_tile_text(bad: str) -> None:
    with pytest.raises(NotationError):
        Tile.from_text(bad)


def test_classic_hand_sizes() -> None:
    assert [ruleset("straight").hand_size(p) for p in (2, 3, 4)] == [8, 6, 5]
    assert [ruleset("block").hand_size(p) for p in (2, 3, 4)] == [7, 5, 5]
    assert [ruleset("draw").hand_size(p) for p in (2, 3, 4)] == [7, 5, 6]
    assert [ruleset("muggins").hand_size(p) for p in (2, 3, 4)] == [7, 5, 5]
    assert [ruleset("fives_and_threes").hand_size(p) for p in (2, 3, 4)] == [7, 7, 7]
    assert ruleset("sebastopol").hand_size(4) == 7


def test_fido_players_official_and_two_player_unofficial() -> None:
    r = ruleset("fido")
    assert r.hand_size(2) == 91 // 3
    assert not r.is_official(2) and r.is_official(3) and r.is_official(9)
    for bad in (1, 10):
        with pytest.raises(ConfigurationError, match="2 to 9 players"):
            r.hand_size(bad)


@pytest.mark.parametrize(
    "text",
    [
        "fido set=12",
        "fido set=18",
        "fido set=21",
        "fido set=6 mother_theresa",
        "fido set=9 direction=counterclockwise soenke_hansen",
        "fido set=10 divisor=4",
        "straight",
        "straight count_pips",
        "block",
        "draw",
        "muggins",
        "fives_and_threes",
        "sebastopol",
        "sebastopol all_fives",
    ],
)
def test_ruleset_text_round_trip(text: str) -> None:
    r = Ruleset.from_text(text)
    assert r.text() == text
    assert Ruleset.from_text(r.text()) == r


def test_every_named_ruleset_builds() -> None:
    for name in RULESETS:
        assert ruleset(name).name == name


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("chess", "unknown ruleset 'chess'"),
        ("fido set=7", "give a divisor too"),
        ("fido colour=red", "unknown option for fido: colour"),
        ("fido direction=up", "clockwise or counterclockwise"),
        ("fido divisor=1", "at least 2"),
        ("block set=9", "double-six set"),
        ("sebastopol all_fives=maybe", "on or off"),
        ("", "empty ruleset"),
    ],
)
def test_bad_rulesets_name_the_fix(text: str, message: str) -> None:
    with pytest.raises((ConfigurationError, NotationError), match=message):
        Ruleset.from_text(text)


def test_teams_and_direction() -> None:
    assert ruleset("block").teams(4) == ((0, 2), (1, 3))
    assert ruleset("block").teams(3) is None
    assert ruleset("straight").teams(4) is None
    assert ruleset("fido").teams(4) is None
    ccw = ruleset("fido", direction="counterclockwise")
    assert [ccw.next_seat(s, 4) for s in range(4)] == [3, 0, 1, 2]
    assert [ruleset("fido").next_seat(s, 4) for s in range(4)] == [1, 2, 3, 0]


def test_match_targets() -> None:
    assert ruleset("straight").match_target == 100
    assert ruleset("muggins").match_target == 61
    assert ruleset("fives_and_threes").match_target == 31
    assert ruleset("block").match_target is None
