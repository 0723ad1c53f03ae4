"""How fast is the monthly ranking? 1,000,000 games of 100,000 players.

    .venv/bin/python bench/ranking_scale.py [--games 1000000] [--players 100000] [--store]

Draws a year of FIDO games (3 to 5 players each, finals from the players'
strengths plus luck), then times one monthly computation and reports the
process's peak memory (``resource.getrusage``, max RSS):

* ``formula``: :func:`fido.ranking.fladub.compute` on the arrays;
* ``--store``: also writes everything into a fresh SQLite file (bulk inserts,
  not timed as part of the month) and times
  :func:`fido.ranking.snapshot.compute_month` end to end: loading the month's
  results from the database, the formula, and building the ranking's entries.
"""

from __future__ import annotations

import argparse
import datetime as dt
import resource
import tempfile
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table
from sqlalchemy import insert

from fido.ranking.fladub import compute
from fido.ranking.snapshot import compute_month
from fido.store import GameRow, LineRow, Player, open_store

LAST_DAY = dt.date(2026, 10, 31)


def peak_gb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2  # kB on Linux


def league(games: int, players: int, seed: int = 0) -> tuple[np.ndarray, ...]:
    rng = np.random.default_rng(seed)
    truth = rng.normal(0, 1, players)
    sizes = rng.integers(3, 6, games)
    line_game = np.repeat(np.arange(games), sizes)
    line_player = rng.integers(0, players, line_game.size)
    # a player twice in a game is redrawn until no game has one
    while True:
        key = line_game * players + line_player
        order = np.argsort(key, kind="stable")
        dup = np.zeros(key.size, dtype=bool)
        dup[order[1:][np.diff(key[order]) == 0]] = True
        if not dup.any():
            break
        line_player[dup] = rng.integers(0, players, int(dup.sum()))
    finals = np.round(20 * (truth[line_player] + rng.normal(0, 1.5, line_player.size)))
    age = rng.integers(0, 365, games)
    return age, line_game, line_player, finals.astype(np.int64)


def fill_store(url: str, data: tuple[np.ndarray, ...], players: int) -> None:
    age, lg, lp, lf = data
    store = open_store(url)
    now = dt.datetime(2026, 10, 31, 12, tzinfo=dt.UTC)
    with store.engine.begin() as conn:
        conn.execute(
            insert(Player),
            [{"id": i + 1, "number": i + 1, "name": f"P{i + 1}", "registered_at": now}
             for i in range(players)],
        )
        step = 100_000
        for lo in range(0, age.size, step):
            hi = min(lo + step, age.size)
            conn.execute(
                insert(GameRow),
                [
                    {"id": g + 1, "key": f"g{g + 1}", "event": "bench", "set": 12, "divisor": 7,
                     "source": "import", "received_at": now,
                     "played_on": LAST_DAY - dt.timedelta(days=int(age[g]))}
                    for g in range(lo, hi)
                ],
            )
        start = np.searchsorted(lg, np.arange(age.size))
        seat = np.arange(lg.size) - start[lg]
        for lo in range(0, lg.size, 4 * step):
            hi = min(lo + 4 * step, lg.size)
            conn.execute(
                insert(LineRow),
                [
                    {"game_id": int(lg[i]) + 1, "seat": int(seat[i]),
                     "player_id": int(lp[i]) + 1, "points": max(int(lf[i]), 0),
                     "pips": max(-int(lf[i]), 0), "final": int(lf[i])}
                    for i in range(lo, hi)
                ],
            )
    store.close()


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--players", type=int, default=100_000)
    ap.add_argument("--store", action="store_true", help="also time the month from SQLite")
    args = ap.parse_args()
    console = Console(width=120)
    table = Table(title=f"One monthly FLADUB computation: {args.games:,} games, "
                        f"{args.players:,} players")
    for col in ("step", "lines", "seconds", "peak RSS (GB)", "CG iterations"):
        table.add_column(col, justify="left" if col == "step" else "right")

    t = time.perf_counter()
    age, lg, lp, lf = league(args.games, args.players)
    console.print(f"league drawn in {time.perf_counter() - t:.1f} s")
    t = time.perf_counter()
    f = compute(age, lg, lp, lf, args.players)
    table.add_row("formula (arrays)", f"{lg.size:,}", f"{time.perf_counter() - t:.1f}",
                  f"{peak_gb():.2f}", str(f.iterations))
    if args.store:
        with tempfile.TemporaryDirectory() as tmp:
            url = f"sqlite:///{Path(tmp) / 'bench.db'}"
            t = time.perf_counter()
            fill_store(url, (age, lg, lp, lf), args.players)
            filled = time.perf_counter() - t
            console.print(f"store filled in {filled:.0f} s (not part of the month)")
            store = open_store(url)
            t = time.perf_counter()
            with store.session() as s:
                ranking, _, result = compute_month(s, "2026-10")
            table.add_row("month from SQLite (load + formula + entries)", f"{lg.size:,}",
                          f"{time.perf_counter() - t:.1f}", f"{peak_gb():.2f}",
                          str(result.iterations))
            assert ranking.games == args.games
            store.close()
    console.print(table)


if __name__ == "__main__":
    main()
