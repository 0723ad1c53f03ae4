"""Hand sorting (difference classes, pairs, Ratzek order, jokers, tap-ins) and events."""

from __future__ import annotations

import pytest

from fido import DominoSet, Move, Table
from fido.announcements import Drew, Knocked, Passed, Scored, Wiped, events_of
from fido.engine.sorting import difference_class, is_joker, ratzek_order, ratzek_rows, tap_ins
from support.helpers import T, deal, tiles


@pytest.mark.parametrize(
    ("tile", "divisor", "cls"),
    [
        ("18-12", 11, 6),  # difference 6
        ("18-7", 11, 11),  # difference 11 = d: a joker
        ("9-0", 7, 2),  # 9 - 7 = 2 (fido-rules-de.txt's example)
        ("10-0", 7, 3),  # 10 and 3 do the same on divisor 7
        ("8-8", 11, 8),  # a double raises the sum by its number
        ("0-0", 7, 7),  # 0-0 keeps the remainder: the joker row
        ("7-7", 7, 7),
        ("12-12", 7, 5),
    ],
)
def test_difference_class(tile: str, divisor: int, cls: int) -> None:
    assert difference_class(T(tile), divisor) == cls


def test_jokers_on_double_12() -> None:
    # fido-rules-en.txt, "Tips": 0/7, 1/8, 2/9, 3/10, 4/11, 5/12, double zero and double seven
    jokers = {t.text() for t in DominoSet(12) if is_joker(t, 7)}
    assert jokers == {"7-0", "8-1", "9-2", "10-3", "11-4", "12-5", "0-0", "7-7"}


def test_ratzek_rows_pair_classes_and_orient_tiles() -> None:
    hand = tiles("3-0 10-0 5-1 12-8 7-0 4-4 2-1")
    rows = ratzek_rows(hand, 7)
    # classes 1|6: 2-1 (class 1); 3|4: 3-0, 10-0 (class 3), 5-1, 12-8, 4-4 (class 4)
    assert [r.classes for r in rows] == [(1, 6), (3, 4), (7,)]
    pair34 = rows[1]
    # class 3 left to right upwards, higher number on the right
    assert pair34.left == ((0, 3), (0, 10))
    # class 4 left to right downwards, higher number on the left
    assert pair34.right == ((12, 8), (5, 1), (4, 4))
    assert rows[-1].left == ((7, 0),)
    assert sorted(ratzek_order(hand, 7)) == sorted(hand)


def test_tap_ins_keep_the_remainder_on_a_free_side() -> None:
    table = Table.from_text("cross 12-12 12-5@0n")
    hand = tiles("12-7 12-0 12-3 7-0")
    found = {(t.text(), table.slot_name(code)) for t, code in tap_ins(hand, table, 7)}
    # 12-0 (+0) and 12-7 (+7) on the free side 0s; 12-3 changes the remainder
    assert found == {("12-7", "0s"), ("12-0", "0s")}


def test_events_of_a_fido_game() -> None:
    g = deal("fido set=6", 3, {0: tiles("6-6 0-0 1-0 2-0 3-0 4-0 5-0"), 1: tiles("6-3")})
    g.push(Move.from_text("6-6"))
    assert events_of(g.last_turn(), g.rules) == [Scored(0, 4, 12), Wiped(0, T("6-6"))]
    g.push(Move.from_text("6-3@0n"))  # 12 + 3 = 15: 5 points
    assert events_of(g.last_turn(), g.rules) == [Scored(1, 5, 15)]
    g.push(Move.from_text("5-3@1n"))  # 15 - 3 + 5 = 17: nothing to announce
    assert events_of(g.last_turn(), g.rules) == []


def test_draw_and_pass_events_hide_the_drawn_tile_from_others() -> None:
    stuck = tiles("1-1 2-1 2-2 3-1 3-2 3-3 4-1")
    g = deal("fido set=6", 3, {0: tiles("6-6 0-0 1-0 2-0 3-0 4-0 5-0"), 1: stuck}, [T("5-5")])
    g.push(Move.from_text("6-6"))
    g.push(Move.from_text("draw"))
    assert events_of(g.last_turn(), g.rules) == [Drew(1, T("5-5"))]
    seen_by_2 = g.view(2).history[-1]
    assert events_of(seen_by_2, g.rules) == [Drew(1, None)]
    assert events_of(g.view(1).history[-1], g.rules) == [Drew(1, T("5-5"))]
    b = deal("block", 2, {0: tiles("6-6 0-0 1-0 2-0 3-0 4-0 5-0")})
    b.push(Move.from_text("6-6"))
    assert b.legal_moves() == [Move.from_text("pass")]
    b.push(Move.from_text("pass"))
    assert events_of(b.last_turn(), b.rules) == [Passed(1)]


def test_a_double_that_does_not_score_knocks() -> None:
    g = deal("fido set=18", 4, {0: [T("18-18")], 1: tiles("18-12"), 2: tiles("12-12")})
    g.push(Move.from_text("18-18"))
    g.push(Move.from_text("18-12@0n"))
    g.push(Move.from_text("12-12@1n"))  # 48 + 12 = 60: no points
    assert events_of(g.last_turn(), g.rules) == [Knocked(2, T("12-12"))]
    # classic games do not knock
    b = deal("block", 2, {0: [T("6-6")]})
    b.push(Move.from_text("6-6"))
    assert events_of(b.last_turn(), b.rules) == []
