"""Every worked example of docs/rules.md, as golden tests."""

from __future__ import annotations

import pytest

from fido import Move, Placement, Table, ruleset
from fido.engine.moves import E, N, S, W
from support.helpers import T, deal

D18 = ruleset("fido", set=18)


def after(text: str) -> Table:
    return Table.from_text(text)


def test_opening_18_18_gives_36_and_no_points() -> None:
    t = after("cross 18-18")
    assert t.ends_sum == 36
    assert D18.points(36) == 0
    assert sorted(t.ends()) == [18, 18] and t.sides() == [18, 18]


def test_second_move_on_a_side_gives_three_ends_48() -> None:
    t = after("cross 18-18 18-12@0n")
    assert sorted(t.ends()) == [12, 18, 18]
    assert t.ends_sum == 48 and D18.points(48) == 0


@pytest.mark.parametrize(
    ("move", "total", "points"),
    [
        ("18-7@0s", 55, 5),  # on the free side of 18-18: a fourth end
        ("16-12@1n", 52, 0),  # 12-16 on the 12 raises the sum by 4
        ("18-14@0e", 44, 4),  # 18-14 on an 18 lowers it by 4
        ("18-14@0w", 44, 4),
        ("12-8@1n", 44, 4),  # 12-8 on the 12
    ],
)
def test_third_move_from_48(move: str, total: int, points: int) -> None:
    t = after(f"cross 18-18 18-12@0n {move}")
    assert t.ends_sum == total
    assert D18.points(total) == points


@pytest.mark.parametrize(
    ("move", "total", "ends"),
    [
        ("18-8@2n", 54, [18, 18, 18]),  # on the 8: three 18s
        ("18-8@0e", 34, [8, 8, 18]),  # on an 18: 18 + 8 + 8
        ("18-8@0s", 52, [8, 8, 18, 18]),  # on the free side: four ends
    ],
)
def test_the_18_8_three_ways_from_44(move: str, total: int, ends: list[int]) -> None:
    base = "cross 18-18 18-12@0n 12-8@1n"
    assert after(base).ends_sum == 44
    t = after(f"{base} {move}")
    assert t.ends_sum == total
    assert sorted(t.ends()) == ends


def test_double_8_8_crosswise_raises_the_sum_by_8() -> None:
    base = after("cross 18-18 18-12@0n 12-8@1n")
    t = after("cross 18-18 18-12@0n 12-8@1n 8-8@2n")
    assert t.ends_sum - base.ends_sum == 8
    # two new ends of 8 at right angles, and a free side straight on
    assert t.open_slots()[3 * 4 + E] == (8, "end")
    assert t.open_slots()[3 * 4 + W] == (8, "end")
    assert t.open_slots()[3 * 4 + N] == (8, "side")
    assert 3 * 4 + S not in t.open_slots()


def test_doubles_never_lower_the_sum() -> None:
    t = after("cross 12-12 12-5@0n 5-5@1n")
    assert t.ends_sum == 24 + 5 + 5


def test_double_six_opening_scores_4_on_divisor_3() -> None:
    d6 = ruleset("fido", set=6)
    assert d6.divisor == 3
    g = deal(d6, 3, {1: [T("6-6")]})
    assert g.turn == 1
    g.push(Placement(T("6-6")))
    assert g.ends_sum == 12
    assert g.scores == [0, 4, 0]


def test_110_on_divisor_11_scores_10() -> None:
    assert D18.points(110) == 10
    assert D18.points(111) == 0


def test_worked_example_through_a_game() -> None:
    """Players 1-3 of the text: 18-18, then 18-12 crosswise, then 12-8 for 4 points."""
    g = deal(D18, 4, {0: [T("18-18")], 1: [T("18-12")], 2: [T("12-8"), T("18-7")]})
    g.push(Move.from_text("18-18"))
    g.push(Move.from_text("18-12@0n"))
    assert (g.ends_sum, g.scores) == (48, [0, 0, 0, 0])
    assert g.points_for(Move.from_text("18-7@0s")) == 5
    g.push(Move.from_text("12-8@1n"))
    assert (g.ends_sum, g.scores) == (44, [0, 0, 4, 0])


def test_hand_size_formula_examples() -> None:
    assert [D18.hand_size(p) for p in range(3, 10)] == [47, 38, 31, 27, 23, 21, 19]


def test_soenke_hansen_doubles_change_nothing() -> None:
    t = Table.from_text("inline 12-12 12-5@0e 5-5@1e")
    assert t.ends_sum == 24 - 12 + 5
    assert t.sides() == []


def test_classic_double_at_an_end_counts_both_halves() -> None:
    # muggins: 4-4 at one end and 6-6 at the other = 20 = 4 points
    t = Table.from_text("line 6-6 6-4@0w 4-4@1w")
    assert t.ends_sum == 20
    assert ruleset("muggins").points(20) == 4
    assert ruleset("muggins").points(Table.from_text("line 5-5").ends_sum) == 2


def test_fives_and_threes_15_scores_8() -> None:
    assert ruleset("fives_and_threes").points(15) == 8
    assert ruleset("fives_and_threes").points(9) == 3
    assert ruleset("fives_and_threes").points(10) == 2


def test_sebastopol_spinner_counts_12_until_two_arms() -> None:
    assert Table.from_text("spinner 6-6").ends_sum == 12
    assert Table.from_text("spinner 6-6 6-4@0n").ends_sum == 16
    assert Table.from_text("spinner 6-6 6-4@0n 6-2@0e").ends_sum == 6
