"""How fast are the import and the monthly ranking? 1,000,000 games of 100,000 players.

    .venv/bin/python bench/ranking_scale.py [--games 1000000] [--players 100000] [--store]
    .venv/bin/python bench/ranking_scale.py --import [--games 1000000]

Draws a year of FIDO games (3 to 5 players each, finals from the players'
strengths plus luck; each sheet received the day after its game, so a
month's last games arrive late, in the next month), then times one monthly
computation and reports the process's peak memory (``resource.getrusage``,
max RSS):

* ``formula``: :func:`fido.ranking.fladub.compute` on the arrays;
* ``--store``: also writes everything into a fresh SQLite file (bulk inserts,
  not timed as part of the month) and times
  :func:`fido.ranking.snapshot.compute_month` end to end: loading the month's
  results from the database, the formula, and building the ranking's entries;
* ``--import``: writes the games as a results CSV (one row per line), then
  runs ``fido results import`` on it into a fresh SQLite file in a child
  process (wall time and the child's peak RSS), with ``fido players list``
  and ``fido players add`` run meanwhile to show other commands keep working,
  then ``compute_month`` on what was imported, again in a child process.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import resource
import subprocess
import sys
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
                     "source": "import", "received_at": received_at(int(age[g]), now),
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


def received_at(age: int, now: dt.datetime) -> dt.datetime:
    """A game's sheet arrives the day after it was played (a month's last games arrive
    in the next month: late by one ranking, as in a real federation), never after ``now``."""
    day = LAST_DAY - dt.timedelta(days=age - 1)
    return min(dt.datetime(day.year, day.month, day.day, 12, tzinfo=dt.UTC), now)


def write_csv(path: Path, data: tuple[np.ndarray, ...]) -> None:
    age, lg, lp, lf = data
    now = dt.datetime(2026, 10, 31, 12, tzinfo=dt.UTC)
    with path.open("w") as f:
        f.write("game,date,event,set,divisor,player,points,pips,received\n")
        days = {a: (LAST_DAY - dt.timedelta(days=int(a))).isoformat() for a in np.unique(age)}
        got = {a: f"{received_at(int(a), now):%Y-%m-%d}" for a in np.unique(age)}
        for i in range(lg.size):
            g, fin = int(lg[i]), int(lf[i])
            f.write(f"{g},{days[int(age[g])]},bench,12,,{int(lp[i]) + 1},"
                    f"{max(fin, 0)},{max(-fin, 0)},{got[int(age[g])]}\n")


def child(*args: str) -> tuple[float, float, str]:
    """(wall seconds, peak RSS GB of the children so far, output) of a fido command."""
    code = "import sys; from fido.cli import app; app(sys.argv[1:], prog_name='fido')"
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                         check=False, env={**os.environ, "COLUMNS": "120"})
    wall = time.perf_counter() - t
    if out.returncode:
        raise SystemExit(f"fido {' '.join(args[:2])} failed: {out.stdout}{out.stderr}")
    return wall, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024**2, out.stdout


MONTH = """
import sys, time
from fido.ranking.snapshot import compute_month
from fido.store import open_store
t = time.perf_counter()
with open_store(sys.argv[1]).session(write=False) as s:
    r, _, _ = compute_month(s, "2026-10")
print(f"{time.perf_counter() - t:.1f} {r.games}")
"""


def bench_import(args: argparse.Namespace, console: Console) -> None:
    data = league(args.games, args.players)
    table = Table(title=f"Import and month: {args.games:,} games, {data[1].size:,} lines, "
                        f"{args.players:,} players (SQLite)")
    for col in ("step", "seconds", "peak RSS (GB)", "note"):
        table.add_column(col, justify="left" if col in ("step", "note") else "right")
    with tempfile.TemporaryDirectory() as tmp:
        csv_file = Path(tmp) / "season.csv"
        t = time.perf_counter()
        write_csv(csv_file, data)
        console.print(f"CSV written in {time.perf_counter() - t:.0f} s "
                      f"({csv_file.stat().st_size / 1e6:.0f} MB)")
        url = f"sqlite:///{Path(tmp) / 'bench.db'}"
        store = open_store(url)
        now = dt.datetime(2026, 9, 1, tzinfo=dt.UTC)
        with store.engine.begin() as conn:
            conn.execute(insert(Player), [
                {"number": i + 1, "name": f"P{i + 1}", "registered_at": now}
                for i in range(args.players)
            ])
        store.close()
        code = "import sys; from fido.cli import app; app(sys.argv[1:], prog_name='fido')"
        t = time.perf_counter()
        imp = subprocess.Popen(
            [sys.executable, "-c", code, "results", "import", str(csv_file),
             "--received", "2026-10-31", "--db", url],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        time.sleep(min(20.0, args.games / 20_000))  # into the storing pass
        probes = []
        for cmd in (("players", "add", "Probe"),):
            wall, _, _ = child(*cmd, "--db", url)
            probes.append(f"{' '.join(cmd[:2])} {wall:.1f} s")
        out, _ = imp.communicate()
        wall = time.perf_counter() - t
        if imp.returncode:
            raise SystemExit(f"import failed: {out}")
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024**2
        table.add_row("fido results import", f"{wall:.0f}", f"{peak:.2f}",
                      f"{out.strip()}; meanwhile {', '.join(probes)}")
        t = time.perf_counter()
        out2 = subprocess.run([sys.executable, "-c", MONTH, url], capture_output=True,
                              text=True, check=True).stdout.split()
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024**2
        table.add_row("compute_month 2026-10", out2[0], f"{peak:.2f}",
                      f"{int(out2[1]):,} games counted (max RSS over all children)")
    console.print(table)


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--players", type=int, default=100_000)
    ap.add_argument("--store", action="store_true", help="also time the month from SQLite")
    ap.add_argument("--import", dest="import_", action="store_true",
                    help="time fido results import of a CSV, then the month")
    args = ap.parse_args()
    console = Console(width=120)
    if args.import_:
        bench_import(args, console)
        return
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
