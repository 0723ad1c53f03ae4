"""A small league with two published months, for the ranking pages' tests and screenshots,
and a big one (thousands of players) for measuring the pages.

Results go in through the ranking API (:func:`fido.ranking.submit`, or the bulk
importer for the big league) and the months are published with
:func:`fido.ranking.snapshot.publish`, as the monthly close does.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from fido.ranking import register_player, submit
from fido.ranking.bulk import import_results
from fido.ranking.snapshot import publish
from fido.store import Store

# September and October 2026: two months, both over by "now" (November 2026)
MONTHS = ("2026-09", "2026-10")
NAMES = (
    "Anna Berg", "Bert Olsen", "Cora Lind", "Dana Frei", "Emil Sand", "Frida Holm",
    "Gustav Ek", "<b>Hanna</b> & \"Co\"",
)
ROOKIE = "Ida Rookie"  # plays three games in October only: provisional


def received(month: str) -> dt.datetime:
    y, m = int(month[:4]), int(month[5:])
    return dt.datetime(y, m, 27, 12, tzinfo=dt.UTC)


def _sheet(rng: random.Random, day: dt.date, players: list[int], skill: dict[int, int],
           n: int) -> dict[str, Any]:
    lines = []
    for p in players:
        points = max(0, skill[p] + rng.randint(-12, 12))
        pips = rng.randint(0, 12)
        lines.append({"player": p, "points": points, "pips": pips})
    return {"date": day.isoformat(), "event": f"Club night {n}", "set": 9, "lines": lines}


def small_league(store: Store, seed: int = 5) -> dict[str, int]:
    """Eight regulars (about 14 games each over two months) and a rookie (3 games
    in October), both months published; name -> player number."""
    rng = random.Random(seed)
    with store.session() as s:
        numbers = {name: register_player(s, name, country=c).number
                   for name, c in zip(NAMES, ("DE", "DK", "SE", "CH", "NO", None, "SE", "AT"),
                                      strict=True)}
        numbers[ROOKIE] = register_player(s, ROOKIE, country="FI").number
    regulars = [numbers[n] for n in NAMES]
    skill = {p: 18 + 4 * i for i, p in enumerate(regulars)}
    skill[numbers[ROOKIE]] = 30
    game = 0
    for month in MONTHS:
        y, m = int(month[:4]), int(month[5:])
        with store.session() as s:
            for day in range(1, 26, 2):
                game += 1
                table = rng.sample(regulars, 4)
                if month == MONTHS[1] and day in (3, 11, 19):
                    table[0] = numbers[ROOKIE]
                submit(s, _sheet(rng, dt.date(y, m, day), table, skill, game),
                       now=received(month))
            for day in (8, 16):  # everyone once more, in two tables
                game += 1
                players = regulars[:4] if day == 8 else regulars[4:]
                submit(s, _sheet(rng, dt.date(y, m, day), players, skill, game),
                       now=received(month))
        with store.session() as s:
            publish(s, month, now=dt.datetime(y + m // 12, m % 12 + 1, 1, 0, 5, tzinfo=dt.UTC))
    return numbers


def big_league(store: Store, players: int = 5000, games: int = 12000, seed: int = 1) -> None:
    """``players`` ranked players from ``games`` games of four in October 2026, published."""
    rng = random.Random(seed)
    with store.session() as s:
        for i in range(players):
            register_player(s, f"Player {i + 1:05d}", country=rng.choice(("DE", "DK", "SE")))
    skill = {p: rng.randint(10, 45) for p in range(1, players + 1)}
    order = list(range(1, players + 1))

    def items() -> Any:
        for g in range(games):
            table = order[(4 * g) % players: (4 * g) % players + 4]
            if len(table) < 4:
                table = rng.sample(order, 4)
            day = dt.date(2026, 10, 1 + g % 27)
            yield f"g{g}", _sheet(rng, day, table, skill, g)

    import_results(store, items(), now=received("2026-10"))
    with store.session() as s:
        publish(s, "2026-10", now=dt.datetime(2026, 11, 1, 0, 5, tzinfo=dt.UTC))
