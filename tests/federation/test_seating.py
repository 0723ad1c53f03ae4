"""Seat draws (fido.events.seating): seated once a round, sizes, seeds, repeats, seats."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fido.events import (
    EventError,
    Round,
    TableSeating,
    draw,
    meetings,
    naive_draw,
    repeat_lower_bound,
    repeat_meetings,
    seat_counts,
    seat_spread,
    table_sizes,
)
from fido.events.seating import MAX_TABLE


def seatable(n: int, size: int) -> bool:
    try:
        table_sizes(n, size)
    except EventError:
        return False
    return True


events = st.tuples(st.integers(3, 32), st.integers(3, 7), st.integers(1, 4)).filter(
    lambda e: seatable(e[0], e[1])
)


@settings(max_examples=30, deadline=None)
@given(events, st.integers(0, 10**6))
def test_every_player_is_seated_once_a_round_at_the_documented_sizes(
    event: tuple[int, int, int], seed: int
) -> None:
    n, size, rounds = event
    players = [1000 + 7 * i for i in range(n)]  # any player numbers, not 0..n-1
    drawn = draw(players, rounds, table_size=size, seed=seed)
    assert [r.number for r in drawn] == list(range(1, rounds + 1))
    for r in drawn:
        assert sorted(r.players()) == sorted(players)
        assert sorted((len(t.seats) for t in r.tables), reverse=True) == list(
            table_sizes(n, size)
        )
        assert [t.number for t in r.tables] == list(range(1, len(r.tables) + 1))
    # reproducible: test_the_same_arguments_draw_the_same_rounds (a second draw of
    # every example here doubled this test's time)
    naive = naive_draw(players, rounds, table_size=size, seed=seed)
    assert repeat_lower_bound(n, size, rounds) <= repeat_meetings(drawn)
    assert repeat_meetings(drawn) <= repeat_meetings(naive)


def test_the_same_arguments_draw_the_same_rounds() -> None:
    # 6 players at tables of 3 over 3 rounds stay above the lower bound, so the draw
    # goes through the greedy start, the annealing and all its restarts
    players = [1000 + 7 * i for i in range(6)]
    drawn = draw(players, 3, table_size=3, seed=5)
    assert repeat_lower_bound(6, 3, 3) < repeat_meetings(drawn)
    assert draw(players, 3, table_size=3, seed=5) == drawn


def test_table_sizes_follow_the_documented_rule() -> None:
    assert table_sizes(15, 5) == (5, 5, 5)
    assert table_sizes(17, 5) == (5, 4, 4, 4)
    assert table_sizes(11, 5) == (4, 4, 3)
    assert table_sizes(6, 5) == (3, 3)
    assert table_sizes(500, 5) == (5,) * 100
    assert table_sizes(501, 5) == (5,) * 97 + (4,) * 4
    assert table_sizes(10, 9) == (5, 5)
    for n in range(3, 200):
        for size in range(3, MAX_TABLE + 1):
            if not seatable(n, size):
                continue
            sizes = table_sizes(n, size)
            assert sum(sizes) == n and max(sizes) - min(sizes) <= 1
            assert min(sizes) >= 3 and max(sizes) <= size
            assert len(sizes) == -(-n // size)  # as few tables as seat everyone


@pytest.mark.parametrize(
    ("players", "size", "message"),
    [
        (4, 3, "cannot sit"),
        (5, 3, "cannot sit"),
        (2, 5, "at least 3 players"),
        (10, 2, "3 to 9"),
        (10, 10, "3 to 9"),
    ],
)
def test_numbers_that_cannot_be_seated_are_refused(players: int, size: int, message: str) -> None:
    with pytest.raises(EventError, match=message):
        table_sizes(players, size)
    with pytest.raises(ValueError, match=message):  # an EventError is a ValueError
        draw(range(players), 1, table_size=size)


def test_bad_input_is_refused_clearly() -> None:
    with pytest.raises(EventError, match="player 3 is registered twice"):
        draw([1, 2, 3, 3, 4, 5], 1)
    with pytest.raises(EventError, match="player number"):
        draw([1, 2, "3"], 1)  # type: ignore[list-item]
    with pytest.raises(EventError, match="player number"):
        draw([1, 2, True], 1)
    with pytest.raises(EventError, match="rounds must be 1 to"):
        draw(range(10), 0)
    with pytest.raises(EventError, match="table size must be a whole number"):
        draw(range(10), 1, table_size=4.5)  # type: ignore[arg-type]
    with pytest.raises(EventError, match="seeding must list every registered player"):
        draw(range(10), 1, seeding=list(range(9)))
    with pytest.raises(EventError, match="seats player 1 twice"):
        draw(range(10), 1, earlier=[
            Round(1, (TableSeating(1, (1, 2, 3)), TableSeating(2, (1, 4, 5))))])


def test_fifteen_players_in_fives_cannot_avoid_repeats_and_the_draw_reaches_the_bound() -> None:
    # Pigeonhole: a table of 5 of round 2 takes its players from round 1's 3
    # tables, so at least 2 pairs of it have met: 6 a round from round 2 on.
    assert repeat_lower_bound(15, 5, 2) == 6
    assert repeat_lower_bound(15, 5, 3) == 12
    for seed in range(3):
        drawn = draw(range(1, 16), 3, table_size=5, seed=seed)
        assert repeat_meetings(drawn) == 12
        assert max(meetings(drawn).values()) <= 3
        naive = naive_draw(range(1, 16), 3, table_size=5, seed=seed)
        assert repeat_meetings(naive) > 12


@pytest.mark.parametrize(
    ("players", "size", "rounds"),
    [(9, 3, 4), (16, 4, 5), (25, 5, 6), (15, 3, 7), (20, 4, 3), (500, 5, 7)],
)
def test_zero_repeats_where_a_resolvable_design_exists(
    players: int, size: int, rounds: int
) -> None:
    # affine planes of order 3, 4, 5, Kirkman's schoolgirls, and roomy cases
    drawn = draw(range(players), rounds, table_size=size, seed=0)
    assert repeat_meetings(drawn) == 0
    assert seat_spread(drawn, size) <= 1


def test_seventeen_players_sit_at_tables_of_five_and_four_and_share_the_small_ones() -> None:
    for seed in range(3):
        drawn = draw(range(17), 4, table_size=5, seed=seed)
        assert repeat_meetings(drawn) <= repeat_lower_bound(17, 5, 4) + 3
        assert repeat_meetings(drawn) < repeat_meetings(naive_draw(range(17), 4, seed=seed))
        small = Counter(p for r in drawn for t in r.tables if len(t.seats) == 4 for p in t.seats)
        # 12 of 17 seats a round are at tables of 4: over 4 rounds 3 each is fair
        assert max(small.values()) <= 4 and len(small) >= 15


def test_seats_are_balanced_over_the_rounds() -> None:
    drawn = draw(range(100), 7, table_size=5, seed=4)
    counts = seat_counts(drawn, 5)
    assert all(sum(c) == 7 for c in counts.values())
    assert seat_spread(drawn, 5) <= 1  # every seat once or twice in 7 rounds
    assert seat_spread(naive_draw(range(100), 7, seed=4), 5) >= 3


def test_later_rounds_count_the_earlier_ones() -> None:
    first = draw(range(1, 61), 2, seed=9)
    more = draw(range(1, 61), 3, seed=9, earlier=first)
    assert [r.number for r in more] == [3, 4, 5]
    assert repeat_meetings(first + more) == 0
    late = draw([*range(1, 60), 99], 1, seed=9, earlier=first + more)  # 60 left, 99 came
    assert 99 in late[0].players() and 60 not in late[0].players()
    assert repeat_meetings(first + more + late) == 0


def test_seeding_seats_similar_standings_together_without_repeats() -> None:
    # 9 players at tables of 3: the smallest event whose second round can avoid every
    # meeting of a seeded first one (an affine plane, as 25 in fives); a seeded draw
    # runs its whole search budget whatever the size, so 25 in fives took twice as long
    standing = list(range(9, 0, -1))  # player 9 leads
    seeded = draw(range(1, 10), 1, table_size=3, seed=1, seeding=standing)
    assert [set(t.seats) for t in seeded[0].tables] == [
        set(standing[i : i + 3]) for i in range(0, 9, 3)
    ]
    unseeded = draw(range(1, 10), 1, table_size=3, seed=1)
    assert [set(t.seats) for t in unseeded[0].tables] != [set(t.seats) for t in seeded[0].tables]
    again = draw(range(1, 10), 1, table_size=3, seed=1, earlier=seeded, seeding=standing)
    assert repeat_meetings(seeded + again) == 0  # repeats weigh more than the seeding
