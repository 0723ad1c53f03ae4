"""Standings, the normalisation of finals and duplicate deals (fido.events)."""

from __future__ import annotations

import hashlib
import hmac
from fractions import Fraction

import pytest

from fido.events import (
    EventError,
    GameResult,
    Line,
    deal_seed,
    duplicate_game,
    normalised_final,
    standings,
)

RULES = "fido set=12"  # 91 tiles: hands of 15 at tables of 5, 18 at tables of 4


def game(rnd: int, table: int, *lines: tuple[int, int, int], number: int = 1) -> GameResult:
    return GameResult(rnd, table, number, tuple(Line(p, pts, pips) for p, pts, pips in lines))


def test_normalisation_scales_by_the_hand_sizes_the_rules_deal() -> None:
    assert normalised_final(36, 4, rules=RULES, table_size=5) == Fraction(30)  # 36 * 15/18
    assert normalised_final(-7, 4, rules=RULES, table_size=5) == Fraction(-35, 6)
    assert normalised_final(40, 5, rules=RULES, table_size=5) == 40
    # double-18 (190 tiles): tables of 7 hold 23, tables of 6 hold 27
    assert normalised_final(27, 6, rules="fido set=18", table_size=7) == 23
    assert normalised_final(10, 3, rules=RULES, table_size=4) == Fraction(10 * 18, 22)


def test_normalisation_refuses_what_no_table_plays() -> None:
    with pytest.raises(EventError, match="above the event's table size"):
        normalised_final(10, 6, rules=RULES, table_size=5)
    with pytest.raises(EventError, match="3 to 9 players"):
        normalised_final(10, 2, rules=RULES, table_size=5)
    with pytest.raises(EventError, match="plays FIDO"):
        normalised_final(10, 4, rules="block", table_size=4)
    with pytest.raises(EventError, match="whole number"):
        normalised_final(1.5, 4, rules=RULES, table_size=5)  # type: ignore[arg-type]


def test_golden_standings_computed_by_hand() -> None:
    # 9 players, tables of 5 and 4, two rounds
    results = [
        game(1, 1, (1, 40, 0), (2, 30, 5), (3, 20, 0), (4, 10, 2), (5, 0, 10)),
        game(1, 2, (6, 48, 0), (7, 24, 6), (8, 12, 0), (9, 0, 12)),
        game(2, 1, (6, 20, 0), (2, 50, 0), (8, 30, 0), (9, 10, 5), (4, 5, 0)),
        game(2, 2, (1, 36, 0), (3, 18, 0), (5, 6, 0), (7, 0, 0)),
    ]
    # finals: r1t1 40 25 20 8 -10; r1t2 48 18 12 -12 -> x15/18: 40 15 10 -10;
    # r2t1 20 50 30 5 5; r2t2 36 18 6 0 -> 30 15 5 0
    got = standings(list(range(1, 10)), results, rules=RULES, table_size=5)
    by = {s.player: s for s in got}
    assert by[1].total == 40 + 30 and by[1].wins == 2 and by[1].best == 40
    assert by[2].total == 25 + 50 and by[2].wins == 1 and by[2].best == 50
    assert by[6].total == 40 + 20 and by[6].wins == 1
    assert by[3].total == 20 + 15
    assert by[8].total == 10 + 30
    assert by[7].total == 15 + 0
    assert by[4].total == 8 + 5 and by[9].total == -10 + 5 and by[5].total == -10 + 5
    assert [s.player for s in got] == [2, 1, 6, 8, 3, 7, 4, 5, 9]
    assert [s.position for s in got] == list(range(1, 10))
    assert got[0].decided_by is None and got[1].decided_by == "total"
    # 5 and 9 are level on -5 with no win and best 5; they met in no game...
    # ... 5: best 5 (r2t2 6*15/18 = 5); 9: best 5 (r2t1): equal; never at one table
    assert by[5].best == by[9].best == 5
    assert by[5].head_to_head == by[9].head_to_head == 0
    assert got[-1].decided_by == "lot" and got[-1].lot == 9


def test_tie_breaks_apply_in_the_documented_order() -> None:
    players = [10, 20, 30, 40, 50, 60]
    # wins: 10 and 20 both total 30; 10 won a game, 20 never did
    wins = [
        game(1, 1, (10, 30, 0), (40, 20, 0), (50, 0, 0)),
        game(1, 2, (20, 10, 0), (30, 25, 0), (60, 0, 0)),
        game(2, 1, (10, 0, 0), (30, 5, 0), (60, 1, 0)),
        game(2, 2, (20, 20, 0), (40, 25, 0), (50, 0, 0)),
    ]
    got = standings(players, wins, rules=RULES, table_size=3)
    order = [s.player for s in got]
    assert order.index(10) < order.index(20)
    assert next(s for s in got if s.player == 20).decided_by == "wins"
    # best: both total 30 and one win; 30's best single game is higher
    best = [
        game(1, 1, (10, 20, 0), (20, 10, 0), (30, 0, 0)),
        game(2, 1, (10, 10, 0), (20, 20, 0), (40, 0, 0)),
        game(3, 1, (30, 30, 0), (50, 0, 0), (60, 0, 0)),
    ]
    got = standings(players, best, rules=RULES, table_size=3)
    assert [s.player for s in got][:3] == [30, 10, 20]
    assert got[1].decided_by == "best"
    assert got[2].decided_by == "lot"  # 10 and 20: best 20 each, one game each ahead of the other
    # head-to-head: 10 and 20 total 20, one win, best 20 each; 20 beat 10 when they met
    h2h = [
        game(1, 1, (10, 0, 1), (20, 0, 0), (30, 30, 0)),  # 20 ahead of 10
        game(2, 1, (10, 20, 0), (40, 0, 0), (50, 0, 0)),
        game(3, 1, (20, 20, 0), (50, 1, 0), (60, 1, 0)),
        game(4, 1, (10, 1, 0), (40, 5, 0), (60, 5, 0)),
    ]  # 10: -1 + 20 + 1 = 20, 20: 0 + 20 = 20; one win and a best of 20 each
    got = standings(players, h2h, rules=RULES, table_size=3)
    assert [s.player for s in got][:3] == [30, 20, 10]
    assert got[2].decided_by == "head-to-head" and got[1].head_to_head == 1
    # lot: nobody played; the registration order decides
    got = standings([5, 3, 9], [], rules=RULES, table_size=5)
    assert [s.player for s in got] == [5, 3, 9]
    assert [s.decided_by for s in got] == [None, "lot", "lot"]
    assert got[0].best is None and got[0].games == 0


def test_a_shared_best_final_is_a_win_for_each() -> None:
    got = standings(
        [1, 2, 3], [game(1, 1, (1, 10, 0), (2, 10, 0), (3, 0, 0))], rules=RULES, table_size=3
    )
    assert [s.wins for s in got] == [1, 1, 0]


@pytest.mark.parametrize(
    ("players", "results", "message"),
    [
        ([1, 1, 2], [], "registered twice"),
        ([1, 2, 3], [game(1, 1, (1, 1, 0), (2, 1, 0), (4, 1, 0))], "not registered"),
        ([1, 2, 3], [game(1, 1, (1, 1, 0), (2, 1, 0), (1, 1, 0))], "seated twice"),
        ([1, 2, 3], [game(1, 1, (1, 1, 0), (2, 1, 0))], "has 2 lines"),
        ([1, 2, 3], [game(1, 1, (1, -1, 0), (2, 1, 0), (3, 0, 0))], "at least 0"),
        ([1, 2, 3], [game(1, 1, (1, 1, 0), (2, 1, 0), (3, 0, 0))] * 2, "given twice"),
        (
            [*range(1, 7)],
            [
                game(1, 1, (1, 1, 0), (2, 1, 0), (3, 0, 0)),
                game(1, 2, (1, 1, 0), (5, 1, 0), (6, 0, 0)),
            ],
            "seated twice",
        ),
        ([1, 2, 3], [game(0, 1, (1, 1, 0), (2, 1, 0), (3, 0, 0))], "at least 1"),
    ],
)
def test_bad_results_are_refused_clearly(
    players: list[int], results: list[GameResult], message: str
) -> None:
    with pytest.raises(EventError, match=message):
        standings(players, results, rules=RULES, table_size=5)


def test_bad_event_settings_are_refused() -> None:
    with pytest.raises(EventError, match="3 to 9"):
        standings([1, 2, 3], [], rules=RULES, table_size=12)
    with pytest.raises(EventError, match="not a ruleset"):
        standings([1, 2, 3], [], rules="fido set=x", table_size=5)


def test_duplicate_deals_are_the_same_at_every_table_and_differ_between_games() -> None:
    secret = bytes(range(32))
    expected = int.from_bytes(
        hmac.new(secret, b"fido duplicate deal|2|3", hashlib.sha256).digest(), "big"
    )
    assert deal_seed(secret, 2, 3) == expected
    one, two = duplicate_game(RULES, 5, secret, 2, 3), duplicate_game(RULES, 5, secret, 2, 3)
    assert one.initial_hands == two.initial_hands and one.stock == two.stock
    other = duplicate_game(RULES, 5, secret, 2, 4)
    assert other.initial_hands != one.initial_hands
    assert duplicate_game(RULES, 5, bytes(32), 2, 3).initial_hands != one.initial_hands
    four = duplicate_game(RULES, 4, secret, 2, 3)
    assert len(four.initial_hands) == 4
    for bad in (0, -1, 1.0, True):
        with pytest.raises(EventError, match="round number"):
            deal_seed(secret, bad, 1)  # type: ignore[arg-type]
    with pytest.raises(EventError, match="at least 16 bytes"):
        deal_seed(b"short", 1, 1)
