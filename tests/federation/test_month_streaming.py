"""The month read in chunks straight into arrays gives what one Python object per
row gave: random small leagues (several sets, late sheets, disputes settled both
ways, a merge, months across a new year), read with chunks of a few rows so that
a game's lines fall into two chunks, against a reference that reads the store row
by row (the way :func:`fido.ranking.snapshot.load_month` did before it streamed)
and ranks with :func:`fido.ranking.fladub.compute` directly. Every month is
compared before it is published, so last month's published numbers are carried
on, and verifies after. Runs on SQLite and, with ``FIDO_TEST_POSTGRES_URL``,
PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import numpy as np
import pytest
from sqlalchemy import select

from fido.ranking import ResultError, dispute, register_player, settle, snapshot, submit
from fido.ranking.clock import utc
from fido.ranking.fladub import Params, compute
from fido.ranking.players import merge_players, merged_ids
from fido.ranking.snapshot import (
    compute_month,
    load_month,
    month_bounds,
    previous_month,
    publish,
    published,
    verify,
)
from fido.store import GameRow, LineRow, Player, ReviewRow, SnapshotRow, Store

KINDS = [(6, 3), (9, 5), (12, 7)]  # set, divisor
MONTHS = [f"{y}-{m:02d}" for y, m in [(2025, 10), (2025, 11), (2025, 12)]] + [
    f"2026-{m:02d}" for m in range(1, 5)
]


def _reference(s: Any, month: str) -> dict[str, Any]:
    """The month's inputs and ranking the slow, obvious way: ORM rows, dicts, loops."""
    params = Params()
    last_day, cutoff = month_bounds(month)
    first_day = last_day - dt.timedelta(days=params.window_days - 1)
    state: dict[int, str] = {}
    for r in s.scalars(select(ReviewRow).where(ReviewRow.at < cutoff).order_by(ReviewRow.id)):
        if r.verdict in ("dispute", "accept", "reject") and state.get(r.game_id) != "reject":
            state[r.game_id] = r.verdict
    games = [
        g
        for g in s.scalars(select(GameRow).order_by(GameRow.id))
        if first_day <= g.played_on <= last_day
        and utc(g.received_at) < cutoff
        and state.get(g.id) not in ("dispute", "reject")
    ]
    published_at = s.scalar(select(SnapshotRow.computed_at).where(SnapshotRow.month == month))
    merges = merged_ids(s, before=published_at)
    lines = [
        (gi, merges.get(ln.player_id, ln.player_id), ln.final)
        for gi, g in enumerate(games)
        for ln in sorted(s.scalars(select(LineRow).where(LineRow.game_id == g.id)),
                         key=lambda ln: ln.seat)
    ]
    player_ids = sorted({p for _, p, _ in lines})
    index = {p: i for i, p in enumerate(player_ids)}
    kinds = sorted({(g.set, g.divisor) for g in games})

    def month_no(d: dt.date) -> int:
        return d.year * 12 + d.month

    data = {
        "game_ids": [g.id for g in games],
        "age_days": [(last_day - g.played_on).days for g in games],
        "game_group": [kinds.index((g.set, g.divisor)) for g in games],
        "late_months": [
            max(0, month_no(utc(g.received_at)) - month_no(g.played_on)) for g in games
        ],
        "line_game": [gi for gi, _, _ in lines],
        "line_player": [index[p] for _, p, _ in lines],
        "line_final": [f for _, _, f in lines],
        "player_ids": player_ids,
    }
    before = previous_month(month)
    prev = published(s, before) if before else None
    carried = np.full(len(player_ids), np.nan)
    if prev is not None:
        reviewed = {
            ln.player_id
            for r in s.scalars(select(ReviewRow).where(ReviewRow.at >= prev.cutoff,
                                                      ReviewRow.at < cutoff))
            for ln in s.scalars(select(LineRow).where(LineRow.game_id == r.game_id))
        }
        for e in prev.entries:
            if e.player_id in index and e.player_id not in reviewed:
                carried[index[e.player_id]] = e.fladub
    fit = compute(
        np.array(data["age_days"], dtype=np.int64),
        np.array(data["line_game"], dtype=np.int64),
        np.array(data["line_player"], dtype=np.int64),
        np.array(data["line_final"], dtype=np.int64),
        len(player_ids),
        game_group=np.array(data["game_group"], dtype=np.int64),
        last_day=last_day,
        late_months=np.array(data["late_months"], dtype=np.int64),
        previous=carried,
    )
    numbers = {p.id: p.number for p in s.scalars(select(Player))}
    ranked = sorted(
        (i for i in range(len(player_ids)) if fit.games[i] > 0),
        key=lambda i: (-float(fit.fladub[i]), numbers[player_ids[i]]),
    )
    rows: list[tuple[int, int, float, float, int, bool]] = []
    for k, i in enumerate(ranked, 1):
        f = float(fit.fladub[i])
        position = rows[-1][0] if rows and rows[-1][2] == f else k
        rows.append((position, numbers[player_ids[i]], f, float(fit.strength[i]),
                     int(fit.games[i]), bool(fit.provisional[i])))
    return {"data": data, "entries": rows}


def _league(rng: random.Random) -> list[dict[str, Any]]:
    """Games of 3 to 5 of 14 players from October 2025 to April 2026, each received
    on its day or up to two months later (so some enter a later month late)."""
    games = []
    for _ in range(70):
        played = dt.date(2025, 10, 1) + dt.timedelta(days=rng.randrange(0, 205))
        received = played + dt.timedelta(days=rng.choice([0, 0, 0, 1, 3, 20, 45, 70]))
        received = min(received, dt.date(2026, 4, 30))
        set_, divisor = rng.choice(KINDS)
        players = rng.sample(range(1, 15), rng.randint(3, 5))
        games.append({
            "received": dt.datetime(received.year, received.month, received.day,
                                    rng.randrange(0, 24), rng.randrange(0, 60),
                                    tzinfo=dt.UTC),
            "sheet": {
                "date": played.isoformat(), "event": "club", "set": set_, "divisor": divisor,
                "lines": [{"player": p, "points": rng.randint(0, 40), "pips": rng.randint(0, 25)}
                          for p in players],
            },
        })
    return sorted(games, key=lambda g: g["received"])


@pytest.mark.parametrize("seed", range(4))
def test_streamed_months_equal_the_row_by_row_reference(
    store: Store, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(snapshot, "CHUNK", 3)  # chunk edges inside games, many chunks
    rng = random.Random(seed)
    with store.session() as s:
        for i in range(15):
            register_player(s, f"P{i + 1}", now=dt.datetime(2025, 9, 1, tzinfo=dt.UTC))
    league = _league(rng)
    stored: list[tuple[int, list[int]]] = []  # (game id, player numbers)
    late_seen = 0
    for month in MONTHS:
        _, cutoff = month_bounds(month)
        start = month_bounds(previous_month(month) or month)[1]
        with store.session() as s:
            for g in league:
                if start <= g["received"] < cutoff:
                    game, _ = submit(s, g["sheet"], now=g["received"])
                    stored.append((game.id, [ln["player"] for ln in g["sheet"]["lines"]]))
                    late_seen += g["sheet"]["date"][:7] < month
            # a few disputes in the month, one settled each way; one merge once
            for game_id, numbers in rng.sample(stored, min(3, len(stored))):
                when = start + dt.timedelta(days=rng.randrange(0, 25))
                try:
                    dispute(s, game_id, numbers[-1], now=when)
                except ResultError:  # settled, rejected, a merged number: not this one
                    continue
                if rng.random() < 0.6:
                    settle(s, game_id, rng.random() < 0.5, now=when + dt.timedelta(days=1))
            if month == MONTHS[-1]:
                merged = next(
                    (a, b) for a in range(15, 0, -1) for b in range(1, 15)
                    if a != b and not any(a in ns and b in ns for _, ns in stored)
                )
                merge_players(s, *merged, now=start + dt.timedelta(days=3))
        with store.session() as s:
            got = load_month(s, month)
            want = _reference(s, month)
            for name, values in want["data"].items():
                arr = getattr(got, name)
                assert arr.dtype == np.int64, name
                assert arr.tolist() == values, (month, name)
            ranking = compute_month(s, month)[0]
            assert [
                (e.position, e.number, e.fladub, e.strength, e.games, e.provisional)
                for e in ranking.entries
            ] == want["entries"], month
            published_now = publish(s, month, now=cutoff + dt.timedelta(hours=1))
            assert published_now.digest == ranking.digest
        with store.session(write=False) as s:
            assert verify(s, month).entries == ranking.entries
    assert late_seen > 3  # the leagues do have late sheets entering later months


@pytest.mark.parametrize("high", [3, 50, 10**6, 2**40])
def test_players_numbered_as_numpy_unique_does(high: int) -> None:
    """Dense ids (a table over them) and sparse ones (a sort) give np.unique's answer."""
    rng = np.random.default_rng(high)
    for size in (1, 7, 1000):
        players = rng.integers(1, high, size)
        ids, index = snapshot._numbered(players.copy())
        want_ids, want_index = np.unique(players, return_inverse=True)
        assert ids.dtype == index.dtype == np.int64
        assert ids.tolist() == want_ids.tolist()
        assert index.tolist() == want_index.ravel().tolist()
