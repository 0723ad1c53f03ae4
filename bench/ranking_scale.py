"""How fast are the import and the monthly ranking? 1,000,000 games of 100,000 players.

    .venv/bin/python bench/ranking_scale.py [--games 1000000] [--players 100000] [--store]
    .venv/bin/python bench/ranking_scale.py --store --keep /tmp/rk --previous --repeat 3
    .venv/bin/python bench/ranking_scale.py --import [--games 1000000]

Draws a year of FIDO games (3 to 5 players each, finals from the players'
strengths plus luck; each sheet received the day after its game, so a
month's last games arrive late, in the next month), then times one monthly
computation and reports the process's peak memory (``resource.getrusage``,
max RSS):

* ``formula``: :func:`fido.ranking.fladub.compute` on the arrays;
* ``--store``: also writes everything into a fresh SQLite file (bulk inserts,
  not timed as part of the month) and times the monthly close of 2026-10 the
  way the server runs it, :func:`fido.ranking.snapshot.publish` end to end
  (loading the month's results from the database, last month's published
  ranking, the formula, building and writing the ranking's entries, one
  transaction, rolled back so that it can run again), each time in a child
  process of its own: its wall time and its own peak RSS, so the drawing of
  the league and the filling of the file do not count. ``--keep DIR`` writes
  the file into ``DIR`` and reuses it when it is there (then only the close
  is timed); ``--repeat N`` runs the close N times (median and range);
  ``--previous`` publishes 2026-09 into the file first (once, committed), so
  the close reads and carries on a published month as it does every month
  but the first;
* ``--import``: writes the games as a results CSV (one row per line), then
  runs ``fido results import`` on it into a fresh SQLite file in a child
  process (wall time and the child's peak RSS), with ``fido players list``
  and ``fido players add`` run meanwhile to show other commands keep working,
  then ``compute_month`` on what was imported, again in a child process.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.table import Table
from sqlalchemy import insert

from fido.ranking.fladub import compute
from fido.ranking.snapshot import published
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


def fill_store(path: str, data: tuple[np.ndarray, ...], players: int) -> None:
    age, lg, lp, lf = data
    store = open_store(f"sqlite:///{path}")
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
from fido.ranking.snapshot import published
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


CLOSE = """
import datetime as dt, resource, sys, time
from fido.ranking.snapshot import publish
from fido.store import open_store
class Undo(Exception):
    pass
store = open_store(sys.argv[1])
t = time.perf_counter()
try:
    with store.session() as s:
        r = publish(s, sys.argv[2], now=dt.datetime(2026, 11, 1, 6, tzinfo=dt.UTC))
        wall = time.perf_counter() - t
        raise Undo
except Undo:
    pass
use = resource.getrusage(resource.RUSAGE_SELF)
rss, cpu = use.ru_maxrss / 1024**2, use.ru_utime + use.ru_stime
print(f"{wall:.2f} {rss:.3f} {r.games} {len(r.entries)} {r.digest} {cpu:.2f}")
"""


def close_child(
    url: str, month: str, commit: bool = False
) -> tuple[float, float, int, int, str, float]:
    """(wall s, the child's own peak RSS GB, games, entries, digest, the child's CPU s:
    the close and the imports before it) of publishing ``month`` in a child process;
    rolled back unless ``commit``."""
    code = CLOSE.replace("raise Undo", "pass") if commit else CLOSE
    out = subprocess.run([sys.executable, "-c", code, url, month], capture_output=True,
                         text=True, check=False)
    if out.returncode:
        raise SystemExit(f"the close of {month} failed: {out.stdout}{out.stderr}")
    wall, rss, games, entries, digest, cpu = out.stdout.split()
    return float(wall), float(rss), int(games), int(entries), digest, float(cpu)


def bench_close(args: argparse.Namespace, console: Console, table: Table, data: Any) -> None:
    """Fill (or reuse) the SQLite file and time the close of 2026-10 in children."""
    with contextlib.ExitStack() as stack:
        folder = Path(args.keep) if args.keep else Path(stack.enter_context(
            tempfile.TemporaryDirectory()))
        folder.mkdir(parents=True, exist_ok=True)
        db = folder / f"bench-{args.games}-{args.players}.db"
        url = f"sqlite:///{db}"
        if not db.exists():
            t = time.perf_counter()
            fill_store(str(db) + ".part", data(), args.players)
            Path(str(db) + ".part").rename(db)
            console.print(f"store filled in {time.perf_counter() - t:.0f} s "
                          "(not part of the month)")
        else:
            console.print(f"reusing {db}")
        store = open_store(url)
        with store.session(write=False) as s:
            has_previous = published(s, "2026-09") is not None
        store.close()
        if args.previous and not has_previous:
            wall, rss, *_ = close_child(url, "2026-09", commit=True)
            console.print(f"2026-09 published first: {wall:.1f} s, {rss:.2f} GB")
            has_previous = True
        walls, peaks, cpus, digests = [], [], [], set()
        for _ in range(args.repeat):
            load = os.getloadavg()[0]
            wall, rss, games, entries, digest, cpu = close_child(url, "2026-10")
            walls.append(wall)
            cpus.append(cpu)
            peaks.append(rss)
            digests.add(digest)
            console.print(f"close 2026-10: {wall:.1f} s, peak RSS {rss:.2f} GB, CPU {cpu:.1f} s, "
                          f"{games:,} games, {entries:,} players, load avg {load:.2f}, "
                          f"digest {digest[:16]}")
            assert games == args.games
        if len(digests) != 1:
            raise SystemExit(f"the close gave different rankings: {sorted(digests)}")
        what = "after 2026-09" if has_previous else "first month"
        table.add_row(f"close 2026-10 from SQLite ({what}; child process)", "",
                      f"{statistics.median(walls):.1f} ({min(walls):.1f}-{max(walls):.1f})",
                      f"{statistics.median(peaks):.2f} ({min(peaks):.2f}-{max(peaks):.2f})",
                      f"digest {digests.pop()[:16]}, CPU {statistics.median(cpus):.1f} s")


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--players", type=int, default=100_000)
    ap.add_argument("--store", action="store_true", help="also time the close from SQLite")
    ap.add_argument("--keep", metavar="DIR", help="write the SQLite file here; reuse it if there")
    ap.add_argument("--repeat", type=int, default=1, help="run the close this many times")
    ap.add_argument("--previous", action="store_true",
                    help="publish 2026-09 first, so the close carries a published month on")
    ap.add_argument("--import", dest="import_", action="store_true",
                    help="time fido results import of a CSV, then the month")
    args = ap.parse_args()
    console = Console(width=120)
    if args.import_:
        bench_import(args, console)
        return
    table = Table(title=f"One monthly FLADUB computation: {args.games:,} games, "
                        f"{args.players:,} players")
    for col in ("step", "lines", "seconds", "peak RSS (GB)", "CG iterations / digest"):
        table.add_column(col, justify="left" if col == "step" else "right")

    drawn: list[tuple[np.ndarray, ...]] = []

    def data() -> tuple[np.ndarray, ...]:
        if not drawn:
            t = time.perf_counter()
            drawn.append(league(args.games, args.players))
            console.print(f"league drawn in {time.perf_counter() - t:.1f} s")
        return drawn[0]

    kept = args.keep and (Path(args.keep) / f"bench-{args.games}-{args.players}.db").exists()
    if not (args.store and kept):  # a reused file: only the close is timed
        age, lg, lp, lf = data()
        t = time.perf_counter()
        f = compute(age, lg, lp, lf, args.players)
        table.add_row("formula (arrays)", f"{lg.size:,}", f"{time.perf_counter() - t:.1f}",
                      f"{peak_gb():.2f}", str(f.iterations))
    if args.store:
        bench_close(args, console, table, data)
    console.print(table)


if __name__ == "__main__":
    main()
