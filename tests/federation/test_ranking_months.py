"""FLADUB 4 through the store, month after month: what the federation publishes keeps
the promises (a quitter's number falls visibly, a late result is held), and every
month verifies. Runs on SQLite and, with ``FIDO_TEST_POSTGRES_URL``, PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
import random

from fido.ranking import register_player, submit
from fido.ranking.snapshot import compute_month, publish, verify
from fido.store import Store

PLAYERS = 12


def day(month: int, d: int = 10) -> dt.date:
    return dt.date(2026, month, d)


def at(month: int, d: int = 12) -> dt.datetime:
    return dt.datetime(2026, month, d, 12, tzinfo=dt.UTC)


def sheet(when: dt.date, players: list[int], rng: random.Random) -> dict[str, object]:
    return {
        "date": when.isoformat(),
        "event": "club night",
        "set": 6,
        "divisor": 3,
        "lines": [
            {"player": p, "points": rng.randint(10, 30) + 2 * p, "pips": rng.randint(0, 15)}
            for p in players
        ],
    }


def test_published_months_keep_the_promises(store: Store) -> None:
    rng = random.Random(7)
    with store.session() as s:
        for i in range(PLAYERS):
            register_player(s, f"Player {i + 1}", now=at(1, 2))
    quitter = 1  # plays January and February only
    numbers: list[float] = []
    moved: list[int] = []
    for month in range(1, 8):
        key = f"2026-{month:02d}"
        with store.session() as s:
            for _ in range(8):
                table = rng.sample(range(2, PLAYERS + 1), 3)
                if month <= 2 and rng.random() < 0.5:
                    table[0] = quitter
                submit(s, sheet(day(month), table, rng), now=at(month))
            if month == 5:
                # an April result received in May: May's ranking with it and without it
                without = compute_month(s, key)[0]
                submit(s, sheet(day(4, 20), [2, 3, 4], rng), now=at(5, 3))
                with_it = compute_month(s, key)[0]
                before = {e.number: e.position for e in without.entries}
                moved = [
                    abs(e.position - before[e.number])
                    for e in with_it.entries
                    if e.number in before and not e.provisional
                ]
            ranking = publish(s, key, now=at(month + 1, 1))
            assert verify(s, key)
            entry = ranking.entry(quitter)
            numbers.append(entry.fladub if entry else 0.0)
    after = numbers[1]  # her number after her last game (February)
    assert after > 0
    for k in range(1, len(numbers) - 1):
        old, new = numbers[k], numbers[k + 1]
        assert new <= old - after / 12 + 1e-9, (k, old, new)  # a twelfth a month at least
        assert abs(new - after * (12 - k) / 12) < 1e-6 * after  # exactly (12 - k) / 12
    assert moved and max(moved) <= max(len(moved) * 2 // 100, 5)
