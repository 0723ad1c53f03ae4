"""Fair shares of the server's CPU: another person's turns and analysis beside a greedy guest.

    .venv/bin/python bench/fairness.py                 # three runs
    .venv/bin/python bench/fairness.py --runs 1 --turns 10 --json bench/results/fairness.jsonl

Each run starts ``fido serve`` as its own process on a fresh SQLite database with its
defaults, as ``make run`` does (bot workers one per core, one analysis worker, a bot's
pause of one second before it moves: ``--bot-delay`` changes it).

* **She** (a guest from 127.0.0.1) plays a table of FIDO (``--rules``, double-9 by
  default) with three ``search`` bots, moving the moment it is her turn; the wait
  between her turns (her move sent to her next turn, three bot decisions) is timed
  for ``--turns`` turns. Then she asks for the analysis of her moves and the seconds
  to its end are taken, per decision of hers (games differ in length).
* **Quiet**: she plays and asks alone. **Attacked**: first a guest from another
  address (127.0.0.2, the clients bind to it) takes what the limits allow: guests
  opening tables of one person and eight ``search`` bots until refused (two), tables
  of one person and eight ``expert`` bots until refused (four more), each played at
  full speed, a new one at each end; and analyses of finished games of its guests
  (four of them played three double-12 games together beforehand) asked for
  whenever the server takes one (six waiting). After ``--warmup`` seconds she plays
  and asks as before.

Prints the medians and the ratios (attacked over quiet; the bound is 1.5) with the
load average: her whole wait, and its part the bots think (the wait less the three
bots' pauses: the stricter reading), and one JSON line a run (``--json FILE``
appends them).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

HER, ATTACKER = "127.0.0.1", "127.0.0.2"
BOUND = 1.5


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Server:
    """``fido serve`` with its defaults (but the bot delay), in its own process."""

    def __init__(self, db: Path, log: Path, bot_delay: float) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        cmd = [sys.executable, "-c", "from fido.cli import main; main()", "serve",
               "--db", f"sqlite:///{db}", "--port", str(self.port),
               "--bot-delay", str(bot_delay), "--close-every", "0"]
        with log.open("w") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {log.read_text()[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.base}/api/health", timeout=2).status_code == 200:
                    return
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start in 60 s")
            time.sleep(0.2)

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@dataclass
class Guest:
    """One browser of a guest, its connections bound to ``address``."""

    base: str
    address: str
    http: httpx.AsyncClient = field(init=False)

    def __post_init__(self) -> None:
        self.http = httpx.AsyncClient(
            base_url=self.base, timeout=60,
            transport=httpx.AsyncHTTPTransport(local_address=self.address))

    async def start(self) -> Guest:
        await self.http.get("/api/session")
        r = await self.post("/api/guest", {})
        r.raise_for_status()
        return self

    async def post(self, path: str, body: dict[str, Any]) -> httpx.Response:
        token = self.http.cookies.get("fido_csrf") or ""
        return await self.http.post(path, json=body, headers={"X-CSRF-Token": token})

    async def table(self, rules: str, players: int, level: str) -> str | None:
        """A table of her and bots of ``level`` ("open": seats for people; None: the
        server refused it)."""
        other = {"kind": "open"} if level == "open" else {"kind": "bot", "level": level}
        seats = [{"kind": "me"}] + [other] * (players - 1)
        r = await self.post("/api/tables", {"ruleset": rules, "players": players,
                                            "seats": seats})
        if r.status_code == 429:
            return None
        r.raise_for_status()
        table: str = r.json()["id"]
        return table

    async def play(self, table: str, waits: list[float] | None = None,
                   stop: asyncio.Event | None = None) -> int:
        """Her seat, moved at once each turn, to the end (or ``stop``): her decisions
        (turns with a choice); ``waits`` gets the seconds from each move of hers to her
        next turn."""
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        url = f"{self.base.replace('http://', 'ws://', 1)}/ws/tables/{table}"
        decisions = 0
        async with connect(url, additional_headers={"Cookie": cookie}, max_size=2**22,
                           local_addr=(self.address, 0), open_timeout=60) as ws:
            sent: float | None = None
            n = 0
            while stop is None or not stop.is_set():
                frame = json.loads(await asyncio.wait_for(ws.recv(), 300))
                view = frame.get("view")
                if frame["type"] not in ("welcome", "update") or view is None:
                    continue
                if view["outcome"] is not None:
                    break
                if view["turn"] != view["seat"] or not view["legal"]:
                    continue
                if sent is not None and waits is not None:
                    waits.append(time.monotonic() - sent)
                decisions += len(view["legal"]) > 1
                n += 1
                sent = time.monotonic()
                await ws.send(json.dumps({"type": "move", "id": f"m{n}", "seq": frame["seq"],
                                          "move": random.choice(view["legal"])["move"]}))
        return decisions

    async def analysis(self, table: str) -> float:
        """Ask for the analysis of her seat: the seconds to its end."""
        started = time.monotonic()
        while (r := await self.post(f"/api/tables/{table}/analysis", {})).status_code == 429:
            await asyncio.sleep(0.5)
        r.raise_for_status()
        while True:
            got = (await self.http.get(f"/api/tables/{table}/analysis")).json()
            if any(a["status"] == "done" for a in got["analyses"]):
                return time.monotonic() - started
            if any(a["status"] == "failed" for a in got["analyses"]):
                raise RuntimeError(f"the analysis failed: {got}")
            await asyncio.sleep(0.2)


async def her_figures(base: str, rules: str, turns: int, bot_delay: float
                      ) -> dict[str, float]:
    """She plays a table of search bots for ``turns`` turns (more games if one ends
    first), then asks for the analysis of her last game."""
    her = await Guest(base, HER).start()
    waits: list[float] = []
    last, decisions = "", 0
    while len(waits) < turns:
        table = await her.table(rules, 4, "search")
        assert table is not None, "her table was refused"
        decisions = await her.play(table, waits)
        last = table
    seconds = await her.analysis(last)
    await her.http.aclose()
    return {"wait": statistics.median(waits[:turns]), "wait_mean": statistics.mean(waits),
            "think": statistics.median(w - 3 * bot_delay for w in waits[:turns]),
            "analysis": seconds, "per_decision": seconds / max(1, decisions),
            "decisions": decisions, "turns": len(waits)}


class Attacker:
    """A guest's address taking every table with bots and every analysis it may."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.stop = asyncio.Event()
        self.tasks: list[asyncio.Task[None]] = []
        self.tables = {"search": 0, "expert": 0}
        self.analyses = 0

    async def prepare(self, rules: str) -> list[tuple[Guest, str]]:
        """Finished games to analyse: four guests play three games together (no bots:
        no bot's pause), each asks for her own seats (three each, six at once)."""
        guests = [await Guest(self.base, ATTACKER).start() for _ in range(4)]
        games = []
        for _ in range(3):
            table = await guests[0].table(rules, 4, "open")
            assert table is not None
            for guest in guests[1:]:
                (await guest.post(f"/api/tables/{table}/seats", {})).raise_for_status()
            await asyncio.gather(*(guest.play(table) for guest in guests))
            games += [(guest, table) for guest in guests]
        return games

    async def start(self, games: list[tuple[Guest, str]], most: dict[str, int]) -> None:
        for level in ("search", "expert"):
            while self.tables[level] < most.get(level, 1000):
                guest = await Guest(self.base, ATTACKER).start()
                table = await guest.table("fido set=12", 9, level)
                if table is None:
                    break
                self.tables[level] += 1
                self.tasks.append(asyncio.create_task(self.loop(guest, table, level)))
        self.tasks.append(asyncio.create_task(self.ask(games)))

    async def loop(self, guest: Guest, table: str | None, level: str) -> None:
        while not self.stop.is_set():
            if table is not None:
                with contextlib.suppress(Exception):
                    await guest.play(table, stop=self.stop)
            table = await guest.table("fido set=12", 9, level)
            if table is None:
                await asyncio.sleep(1)

    async def ask(self, games: list[tuple[Guest, str]]) -> None:
        """Each game's analysis, asked for again and again until the server takes it."""
        left = list(games)
        while left and not self.stop.is_set():
            for guest, table in list(left):
                r = await guest.post(f"/api/tables/{table}/analysis", {})
                if r.status_code != 429:
                    self.analyses += 1
                    left.remove((guest, table))
            await asyncio.sleep(0.5)

    async def close(self) -> None:
        self.stop.set()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


async def one_run(args: argparse.Namespace, where: Path) -> dict[str, Any]:
    server = Server(where / "fido.db", where / "serve.log", args.bot_delay)
    try:
        quiet = await her_figures(server.base, args.rules, args.turns, args.bot_delay)
        attacker = Attacker(server.base)
        games = await attacker.prepare(args.analysis_rules)
        search, expert = (int(x) for x in args.attacker.split(","))
        await attacker.start(games, {"search": search, "expert": expert})
        await asyncio.sleep(args.warmup)
        load_before = os.getloadavg()[0]
        attacked = await her_figures(server.base, args.rules, args.turns, args.bot_delay)
        load = (load_before + os.getloadavg()[0]) / 2
        tables, analyses = dict(attacker.tables), attacker.analyses
        await attacker.close()
    finally:
        server.stop()
    return {"quiet": quiet, "attacked": attacked, "attacker_tables": tables,
            "attacker_analyses": analyses, "load": round(load, 2),
            "wait_ratio": attacked["wait"] / quiet["wait"],
            "think_ratio": attacked["think"] / quiet["think"],
            "analysis_ratio": attacked["per_decision"] / quiet["per_decision"],
            "cores": os.cpu_count(), "bot_delay": args.bot_delay, "rules": args.rules}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--turns", type=int, default=12, help="her turns timed, each phase")
    ap.add_argument("--rules", default="fido set=9", help="her table's game")
    ap.add_argument("--analysis-rules", default="fido set=12",
                    help="the attacker's analysed games")
    ap.add_argument("--bot-delay", type=float, default=1.0, help="fido serve's (its default)")
    ap.add_argument("--warmup", type=float, default=10.0)
    ap.add_argument("--attacker", default="1000,1000", metavar="SEARCH,EXPERT",
                    help="at most so many tables of each (default: until refused; 2,4 "
                    "against a server without the per-address bound, the same attacker)")
    ap.add_argument("--json", metavar="FILE", help="append one JSON line a run")
    args = ap.parse_args()
    rows = []
    for run in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            row = asyncio.run(one_run(args, Path(tmp)))
        rows.append(row)
        q, a = row["quiet"], row["attacked"]
        print(f"run {run + 1}: wait between her turns {q['wait']:.2f} s quiet, "
              f"{a['wait']:.2f} s attacked ({row['wait_ratio']:.2f}x), of it the bots' "
              f"thinking {q['think']:.2f} s, {a['think']:.2f} s ({row['think_ratio']:.2f}x); "
              f"her analysis "
              f"{q['per_decision']:.2f} s a decision quiet, {a['per_decision']:.2f} s "
              f"attacked ({row['analysis_ratio']:.2f}x); attacker tables "
              f"{row['attacker_tables']}, analyses {row['attacker_analyses']}; "
              f"load {row['load']}", flush=True)
        if args.json:
            with open(args.json, "a") as out:
                out.write(json.dumps(row) + "\n")
    worst = max(max(r["wait_ratio"], r["think_ratio"], r["analysis_ratio"]) for r in rows)
    print(f"worst ratio {worst:.2f} (bound {BOUND})")


if __name__ == "__main__":
    main()
