"""How fast are the ranking pages on a big month?

    PYTHONPATH=src:tests .venv/bin/python bench/ranking_pages.py [--players 5000]

Builds a month of ``--players`` ranked players (12,000 games of four in
October 2026, bulk-imported, published) in a throwaway SQLite file, serves it
with a real server and times each page over HTTP (the median of 7 requests,
after one to warm up): the ranking's first and last page, a search, the CSV and
JSON downloads and a player's page (which recomputes her month to explain it).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))  # the support package

from fido.store import open_store
from support.ranking_league import big_league
from support.server_live import live_server


def timed(client: httpx.Client, path: str, reps: int = 7) -> tuple[float, int, int]:
    """(median seconds, status, bytes) of GET ``path``."""
    r = client.get(path)
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        r = client.get(path)
        times.append(time.perf_counter() - t)
    return statistics.median(times), r.status_code, len(r.content)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=5000)
    ap.add_argument("--games", type=int, default=12000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/big.db"
        store = open_store(url)
        t = time.perf_counter()
        big_league(store, args.players, args.games)
        store.close()
        print(f"league: {args.players} players, {args.games} games, published in "
              f"{time.perf_counter() - t:.1f} s")
        with live_server(url) as base, httpx.Client(base_url=base, timeout=120) as client:
            last = (args.players + 99) // 100
            for label, path in (
                ("ranking, first page", "/ranking/2026-10"),
                ("ranking, latest month", "/ranking"),
                (f"ranking, page {last}", f"/ranking/2026-10?page={last}"),
                ("search by name", "/ranking/2026-10?q=player+0421"),
                ("CSV download", "/ranking/2026-10.csv"),
                ("JSON download", "/ranking/2026-10.json"),
                ("a player's page", "/ranking/players/421?month=2026-10"),
            ):
                seconds, status, size = timed(client, path, 3 if "player's" in label else 7)
                print(f"{label:24} {status} {size / 1024:8.1f} KiB {seconds * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
