"""FLADUB: the formula on arrays, the monthly snapshots, bit-for-bit recomputation.

The store-backed tests run on SQLite and, with ``FIDO_TEST_POSTGRES_URL``, PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
import json
import math
from typing import Any

import numpy as np
import pytest
from sqlalchemy import select

from fido.ranking import ResultError, dispute, register_player, settle, submit
from fido.ranking.fladub import Params, compute, pair_result, weights, win_probability
from fido.ranking.snapshot import (
    compute_month,
    month_bounds,
    publish,
    published,
    stored_params,
    verify,
)
from fido.store import GameRow, Store

DEC1 = dt.datetime(2026, 12, 1, 0, 0, tzinfo=dt.UTC)


EXAMPLE = (
    np.array([0, 183]),
    np.array([0, 0, 0, 1, 1]),
    np.array([0, 1, 2, 0, 1]),
    np.array([27, 12, 3, 10, 20]),
    3,
)


def test_the_worked_example_of_docs_ranking_md() -> None:
    # A=0, B=1, C=2. Game 1 on the month's last day: A 27, B 12, C 3.
    # Game 2, 183 days earlier: A 10, B 20. One set, so one G.
    f = compute(*EXAMPLE)
    assert np.round(f.weight, 4).tolist() == [1, 1, 1, 0.4986, 0.4986]
    # G: the mean gap over the eight ordered pairs, (15+15+24+24+9+9+10+10)/8
    assert f.gap.tolist() == [14.5, 14.5]
    assert np.round(f.strength, 2).tolist() == [1603.45, 1526.60, 1369.95]
    assert np.round(f.performance, 2).tolist() == [1986.21, 1403.94, 1109.85, 1250.74, 1879.31]
    assert np.round(f.contribution, 2).tolist() == [331.03, 233.99, 184.98, 103.94, 156.18]
    assert np.round(f.fladub, 2).tolist() == [434.98, 390.17, 184.98]
    assert f.games.tolist() == [2, 2, 1] and f.provisional.all()
    # C's strength: her pairs of weight 1/2, lost by 24 and 9 (in units of G),
    # and K = 2 draws against 1500
    r = f.strength
    m_ac, m_bc = 400 * 24 / 14.5, 400 * 9 / 14.5
    assert math.isclose(r[2], (0.5 * (r[0] - m_ac) + 0.5 * (r[1] - m_bc) + 2 * 1500) / 3)
    # every FLADUB is the sum of its games' contributions
    players = np.array([0, 1, 2, 0, 1])
    for p in range(3):
        assert math.isclose(f.fladub[p], f.contribution[players == p].sum())


def test_version_1_pairs_count_only_who_finished_ahead() -> None:
    f = compute(*EXAMPLE, params=Params(margin_cap=0.0))
    assert np.round(f.strength, 2).tolist() == [1557.26, 1557.02, 1385.71]
    assert np.round(f.performance, 2).tolist() == [1871.37, 1471.49, 1157.14, 1157.02, 1957.26]
    assert np.round(f.fladub, 2).tolist() == [408.05, 407.91, 192.86]
    assert f.gap.tolist() == [0, 0]


def test_margins_are_capped_and_measured_per_set() -> None:
    assert pair_result(np.array([-100.0, -5.0, 0.0, 5.0, 100.0]), 10.0, Params()).tolist() == [
        -1200,
        -200,
        0,
        200,
        1200,
    ]
    assert pair_result(3.0, 0.0, Params()).tolist() == 0  # every game level: no margin to read
    # a double-18 game with ten times the margins does not change G of the double-6 games
    ages, lg, lp, lf, n = EXAMPLE
    big = compute(
        np.append(ages, 0),
        np.append(lg, [2, 2]),
        np.append(lp, [0, 2]),
        np.append(lf, [300, 50]),
        n,
        game_group=np.array([0, 0, 1]),
    )
    assert big.gap.tolist() == [14.5, 14.5, 250.0]
    one = compute(
        np.append(ages, 0),
        np.append(lg, [2, 2]),
        np.append(lp, [0, 2]),
        np.append(lf, [300, 50]),
        n,
    )
    assert one.gap[0] > 14.5  # without groups the big margins would shrink everyone's


def test_snapshots_from_before_margin_pairs_keep_their_formula() -> None:
    old = json.dumps({k: v for k, v in Params().to_dict().items() if k != "margin_cap"})
    assert stored_params(old).margin_cap == 0.0
    assert stored_params(json.dumps(Params().to_dict())) == Params()


def test_weights_age_to_nothing_in_a_year() -> None:
    w = weights(np.array([-1, 0, 73, 182, 364, 365, 900]), Params())
    assert w.tolist() == pytest.approx([0, 1, 0.8, 1 - 182 / 365, 1 / 365, 0, 0])


def league(seed: int, players: int = 40, games: int = 1500) -> tuple[Any, ...]:
    rng = np.random.default_rng(seed)
    truth = rng.normal(0, 1, players)
    seats = np.array([rng.choice(players, 4, replace=False) for _ in range(games)])
    finals = np.round(truth[seats] * 15 + rng.normal(0, 20, seats.shape)).astype(np.int64)
    ages = rng.integers(0, 365, games)
    return truth, ages, np.repeat(np.arange(games), 4), seats.ravel(), finals.ravel()


def test_strength_and_fladub_follow_the_truth_and_predict() -> None:
    truth, ages, lg, lp, lf = league(1)
    f = compute(ages, lg, lp, lf, truth.size)
    assert np.corrcoef(truth, f.strength)[0, 1] > 0.9
    assert np.corrcoef(truth, f.fladub)[0, 1] > 0.85
    np.testing.assert_allclose(np.bincount(lp, weights=f.contribution), f.fladub)
    assert not f.provisional.any() and f.iterations < 100
    assert float(win_probability(1700.0, 1500.0, Params())) == pytest.approx(1 / (1 + math.e**-1))


def test_fladub_shrinks_as_a_retired_players_games_age() -> None:
    # two players play 8 games early in a month and stop: while the games weigh 6 or
    # more together FLADUB is a weighted mean (it moves a little as the prior gains
    # weight), then it shrinks month by month to nothing a year on
    ages0 = np.array([10] * 8)
    lg = np.repeat(np.arange(8), 2)
    lp = np.array([0, 1] * 8)
    lf = np.array([10, 0] * 8)
    numbers = [compute(ages0 + 30 * k, lg, lp, lf, 2).fladub[0] for k in range(13)]
    assert abs(numbers[2] - numbers[0]) < 5
    steps = np.diff(numbers[2:])
    assert (steps < -50).all() and numbers[12] == 0


def test_a_late_result_cannot_move_a_player_far() -> None:
    truth, ages, lg, lp, lf = league(2)
    base = compute(ages, lg, lp, lf, truth.size)
    g = ages.size
    worst = int(np.argmin(base.strength))
    best = int(np.argmax(base.strength))

    def with_game(age: int) -> float:
        f = compute(
            np.append(ages, age),
            np.append(lg, [g, g]),
            np.append(lp, [worst, best]),
            np.append(lf, [50, 0]),
            truth.size,
        )
        return float(f.fladub[worst] - base.fladub[worst])

    fresh, late, too_old = with_game(0), with_game(300), with_game(400)
    assert 0 < late < fresh / 4 and too_old == 0
    assert fresh < 40  # one upset of the best player among ~150 games


# ------------------------------------------------------------ the store


def result(day: str, finals: list[tuple[int, int]], event: str = "Club") -> dict[str, Any]:
    lines = [{"player": p, "points": max(f, 0), "pips": max(-f, 0)} for p, f in finals]
    return {"date": day, "event": event, "set": 9, "lines": lines}


@pytest.fixture
def season(store: Store) -> Store:
    """Four players, games in October and November 2026, received on time."""
    with store.session() as s:
        for name in ("Anna", "Bert", "Cora", "Dana"):
            register_player(s, name, now=dt.datetime(2026, 1, 1, tzinfo=dt.UTC))
        at = dt.datetime(2026, 10, 31, 20, tzinfo=dt.UTC)
        for d in range(1, 29, 3):
            submit(s, result(f"2026-10-{d:02d}", [(1, 30), (2, 10), (3, 5), (4, -3)]), now=at)
        at = dt.datetime(2026, 11, 30, 20, tzinfo=dt.UTC)
        for d in range(2, 29, 4):
            submit(s, result(f"2026-11-{d:02d}", [(2, 25), (1, 20), (4, 8)]), now=at)
    return store


def test_publish_a_month_then_recompute_it_bit_for_bit(season: Store) -> None:
    with season.session() as s:
        with pytest.raises(ResultError, match="has not ended"):
            publish(s, "2026-11", now=DEC1 - dt.timedelta(seconds=1))
        oct_ = publish(s, "2026-10", now=DEC1)
        nov = publish(s, "2026-11", now=DEC1)
    assert [e.name for e in oct_.entries] == ["Anna", "Bert", "Cora", "Dana"]
    assert oct_.games == 10 and nov.games == 17
    anna, bert = nov.entry(1), nov.entry(2)
    assert anna is not None and bert is not None and anna.previous_position == 1
    assert anna.change is not None and bert.change is not None and bert.change > anna.change
    assert [e.provisional for e in nov.entries] == [False, False, False, False]
    with season.session() as s:
        # a late result for October and a dispute after the cutoff change nothing published
        late = dt.datetime(2026, 12, 3, tzinfo=dt.UTC)
        submit(s, result("2026-10-30", [(3, 40), (1, 0)]), now=late)
    with season.session() as s:
        stored = published(s, "2026-11")
        assert stored is not None
        assert stored.entries == nov.entries and stored.digest == nov.digest
        assert [e.fladub.hex() for e in stored.entries] == [e.fladub.hex() for e in nov.entries]
        assert verify(s, "2026-11") == stored
        with pytest.raises(ResultError, match="already published"):
            publish(s, "2026-11", now=DEC1)
        dec, _, _ = compute_month(s, "2026-12")
        assert dec.games == 18  # the late game counts from December, with its own date's weight


def test_disputed_results_do_not_count_until_settled(season: Store) -> None:
    with season.session() as s:
        game, _ = submit(
            s, result("2026-11-29", [(3, 90), (1, 0)]), now=dt.datetime(2026, 11, 29, tzinfo=dt.UTC)
        )
        before, _, _ = compute_month(s, "2026-11")
        dispute(s, game.id, 1, now=dt.datetime(2026, 11, 30, tzinfo=dt.UTC))
        disputed, _, _ = compute_month(s, "2026-11")
        settle(s, game.id, accept=True, now=dt.datetime(2026, 12, 5, tzinfo=dt.UTC))
        still, _, _ = compute_month(s, "2026-11")  # settled after November's cutoff
        settled, _, _ = compute_month(s, "2026-12")
    assert (before.games, disputed.games, still.games, settled.games) == (18, 17, 17, 18)


def test_bad_months() -> None:
    last, cutoff = month_bounds("2026-12")
    assert (last, cutoff) == (dt.date(2026, 12, 31), dt.datetime(2027, 1, 1, tzinfo=dt.UTC))
    for bad in ("2026-13", "26-1", "November"):
        with pytest.raises(ResultError, match="YYYY-MM"):
            month_bounds(bad)


def test_the_store_measures_margins_per_set_and_divisor(season: Store) -> None:
    # November gets two double-18 games with big margins and one on double-18
    # with another divisor: none of them may change the double-9 games' G
    at = dt.datetime(2026, 11, 30, 21, tzinfo=dt.UTC)
    with season.session() as s:
        nine, _, before = compute_month(s, "2026-11")
        for day, finals in (("2026-11-05", [(1, 90), (3, 10)]), ("2026-11-06", [(2, 70), (4, 0)])):
            submit(s, result(day, finals) | {"set": 18}, now=at)
        submit(s, result("2026-11-07", [(1, 40), (2, 0)]) | {"set": 18, "divisor": 5}, now=at)
        _, data, after = compute_month(s, "2026-11")
        rows = s.execute(select(GameRow.id, GameRow.set, GameRow.divisor)).all()
        kinds = {gid: (set_, divisor) for gid, set_, divisor in rows}
    gaps = {kinds[int(g)]: float(gap) for g, gap in zip(data.game_ids, after.gap, strict=True)}
    assert gaps[(18, 11)] == 75.0  # (80 + 80 + 70 + 70) / 4 ordered pairs
    assert gaps[(18, 5)] == 40.0
    assert gaps[(9, 5)] == float(before.gap[0])  # double-9 unchanged by the big games
    assert nine.games + 3 == data.game_ids.size
