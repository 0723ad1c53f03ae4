"""The server under load: simulated players over real WebSockets against ``fido serve``.

    .venv/bin/python bench/server_load.py                         # 1000 players + 100 bot tables
    .venv/bin/python bench/server_load.py --ramp 100,250,500,1000,1500
    .venv/bin/python bench/server_load.py --db postgresql+psycopg://fido@/fido?host=/run/pg

Each step starts ``fido serve`` as its own process on a fresh database (SQLite:
a new file; PostgreSQL: a new database ``<name>_load_<step>`` created beside
the one ``--db`` names, dropped afterwards, so the URL's role needs CREATEDB)
and loopback port, with ``--bot-delay`` (default 0.2 s, the server's default
is 1 s). Then ``--clients`` processes (asyncio, the ``websockets`` library)
play:

* ``--players`` people at ``players / 4`` tables of four (``--rules``, FIDO
  double-9 by default): one creates the table over HTTP as a guest, the
  other three join it, all four open the table's WebSocket; each moves as
  soon as it is her turn (``--think`` 0) with the first legal move of her
  view (``--moves random``: a random one); when the game ends they sit
  down at a new table at once;
* ``--bot-tables`` tables of one person and three bots (``--bot-level``).

Every first table is seated and every person connected before the clock
starts (a 1,000-player lobby takes a while); then, after ``--warmup``
seconds of play, the figures of ``--seconds`` of steady state are taken:
committed moves per second (every table's moves, bots' too, counted from
the updates of one connection per table), the round trip of a person's move
(sent, to the ``update`` holding it received by the mover, after her
``ack``), refusals and errors, the CPU of the server process (a percentage
of one core, and per committed move; its bot workers and, for PostgreSQL,
the database's processes apart) and its peak RSS, the load generator's CPU,
and the whole machine's (the clients and the server share it).

With ``--think 0`` the load is a closed loop without pauses: every table
always has a move in flight, so once the server is saturated the round
trip grows with the number of tables (Little's law: tables / moves per
second), and that is where the ramp finds the p99 passing 100 ms.
``--think T`` gives each person a pause of 0 to 2T seconds (uniform) before
her move: a pace people could keep. ``--py-spy FILE`` records the server's
stacks during the window (py-spy on PATH; ``.svg``: a flame graph,
otherwise collapsed stacks; ``--py-spy-gil``: only the thread holding the
GIL).

Prints a table and one JSON line per step (``--json FILE`` appends them).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.cookiejar
import json
import multiprocessing
import os
import random
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.table import Table
from websockets.asyncio.client import ClientConnection, connect

from fido.delta import patch

TICK = os.sysconf("SC_CLK_TCK")
TARGET_MS = 100.0  # the p99 bound
RECV_TIMEOUT = 30.0  # a table silent this long is counted as an error and left


# ------------------------------------------------------------------ /proc


def cpu_seconds(pid: int, *, children: bool = False) -> float:
    """User + system CPU of ``pid`` (all its threads); ``children``: plus its reaped children."""
    try:
        rest = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = int(rest[11]) + int(rest[12])  # utime, stime (fields 14, 15)
    if children:
        ticks += int(rest[13]) + int(rest[14])  # cutime, cstime
    return ticks / TICK


def waited(pid: int) -> float:
    """Seconds the main thread of ``pid`` was ready to run but had no core (schedstat)."""
    try:
        return int(Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def parent_of(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except OSError:
        return 0


def children_of(pid: int) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit() and parent_of(int(d.name)) == pid:
            out.append(int(d.name))
    return out


def status_kb(pid: int, key: str) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies of all cores, from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


# ------------------------------------------------------------------ the clients


@dataclass
class ClientConf:
    bases: list[str]  # http://127.0.0.1:PORT of each server process
    groups: int  # tables of four people
    bot_tables: int
    rules: str
    bot_level: str
    think: float
    moves: str  # first | random
    deflate: bool
    protocol: int  # the table socket's version (1: whole views, 2: what changed)
    seed: int
    dump: bool = False
    sticky: bool = False  # --servers: each table's people on one process, not spread


@dataclass
class ClientResult:
    rtt_people: list[float] = field(default_factory=list)  # ms, moves sent in the window
    rtt_bot_tables: list[float] = field(default_factory=list)
    rtt_at: list[tuple[float, float, str]] = field(default_factory=list)  # --dump-rtt
    moves: int = 0  # committed moves seen in the window (one connection per table)
    person_moves: int = 0  # acknowledged moves of people sent in the window
    games: int = 0  # games that ended in the window
    refusals: dict[str, int] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)
    cpu: float = 0.0  # seconds of this process's CPU in the window
    setup_seconds: float = 0.0


@dataclass
class Player:
    cookie: str
    csrf: str
    base: str  # the server process she speaks to (--servers: people of a table are spread)


class Client:
    """One load-generating process: its share of the tables, in one event loop."""

    def __init__(self, conf: ClientConf) -> None:
        self.conf = conf
        self.rng = random.Random(conf.seed)
        self.result = ClientResult()
        self.refusals: Counter[str] = Counter()
        self.errors: Counter[str] = Counter()
        self.start = self.end = float("inf")
        self.stopping = asyncio.Event()
        self.go = asyncio.Event()  # every first table is seated and connected: play
        self.seated = 0
        self.all_seated = asyncio.Event()
        self.people = 4 * conf.groups + conf.bot_tables
        jar = http.cookiejar.CookieJar(http.cookiejar.DefaultCookiePolicy(allowed_domains=[]))
        self.http = httpx.AsyncClient(  # cookies are sent by hand: one client, many people
            cookies=jar, timeout=60,
            limits=httpx.Limits(max_connections=32, max_keepalive_connections=32,
                                keepalive_expiry=2.0),  # uvicorn closes idle ones at 5 s
        )
        self.msg = 0
        self.guests = 0

    def in_window(self, t: float) -> bool:
        return self.start <= t < self.end

    async def guest(self, gate: asyncio.Semaphore) -> Player:
        n = self.guests
        if self.conf.sticky and n < 4 * self.conf.groups:
            n //= 4  # the four of a table together (people[4i:4i + 4] sit at one table)
        base = self.conf.bases[n % len(self.conf.bases)]  # else the next one's the next
        self.guests += 1
        async with gate:
            r = await self.http.get(f"{base}/api/session")
            r.raise_for_status()
            token = r.json()["csrf_token"]
            r = await self.http.post(
                f"{base}/api/guest",
                headers={"Cookie": f"fido_csrf={token}", "X-CSRF-Token": token})
            r.raise_for_status()
            session = ""
            for header in r.headers.get_list("set-cookie"):
                name, _, value = header.split(";", 1)[0].partition("=")
                if name.strip() == "fido_session":
                    session = value.strip()
            if not session:
                raise RuntimeError("no session cookie from POST /api/guest")
            token = r.json()["csrf_token"]  # the guest's session has its own (fido.server.csrf)
            return Player(f"fido_csrf={token}; fido_session={session}", token, base)

    async def post(self, who: Player, path: str, body: dict[str, Any]) -> dict[str, Any]:
        r = await self.http.post(who.base + path, json=body,
                                 headers={"Cookie": who.cookie, "X-CSRF-Token": who.csrf})
        if r.status_code >= 400:
            raise RuntimeError(f"POST {path.rsplit('/', 1)[-1]}: {r.status_code}")
        out: dict[str, Any] = r.json()
        return out

    def failed(self, e: BaseException) -> None:
        if time.time() < self.end:  # what breaks when the window closes is not an error
            name = str(e) if isinstance(e, RuntimeError) else type(e).__name__
            self.errors[name[:60]] += 1

    # -------------------------------------------------------------- tables

    async def group(self, people: list[Player]) -> None:
        """Four people: a table, a game, the next table, until the end."""
        seats = [{"kind": "me"}] + [{"kind": "open"}] * 3
        while not self.stopping.is_set():
            try:
                table = await self.post(people[0], "/api/tables",
                                        {"ruleset": self.conf.rules, "players": 4,
                                         "seats": seats})
                await asyncio.gather(*(self.post(p, f"/api/tables/{table['id']}/seats", {})
                                       for p in people[1:]))
                await asyncio.gather(*(self.play(p, table["id"], counter=i == 0, kind="people")
                                       for i, p in enumerate(people)))
            except Exception as e:
                self.failed(e)
                await asyncio.sleep(1.0)

    async def bot_table(self, person: Player) -> None:
        seats = [{"kind": "me"}] + [{"kind": "bot", "level": self.conf.bot_level}] * 3
        while not self.stopping.is_set():
            try:
                table = await self.post(person, "/api/tables",
                                        {"ruleset": self.conf.rules, "players": 4,
                                         "seats": seats})
                await self.play(person, table["id"], counter=True, kind="bots")
            except Exception as e:
                self.failed(e)
                await asyncio.sleep(1.0)

    async def play(self, who: Player, table_id: str, *, counter: bool, kind: str) -> None:
        """One person at one table until the game ends (or the run does)."""
        rtts = self.result.rtt_people if kind == "people" else self.result.rtt_bot_tables
        async with connect(
            f"{who.base.replace('http://', 'ws://', 1)}/ws/tables/{table_id}"
            f"?v={self.conf.protocol}",
            additional_headers={"Cookie": who.cookie},
            compression="deflate" if self.conf.deflate else None, open_timeout=60,
            close_timeout=2, max_size=2**22,
        ) as ws:
            if not self.go.is_set():  # the first game waits for everyone's
                self.seated += 1
                if self.seated == self.people:
                    self.all_seated.set()
                await self.go.wait()
            seat: int | None = None
            seq = 0
            view: dict[str, Any] | None = None
            pending: tuple[str, float, float] | None = None  # id, perf_counter, time
            acked: int | None = None
            while True:
                if view is not None and view["outcome"] is not None:
                    return
                if (pending is None and view is not None and view["turn"] == seat
                        and not self.stopping.is_set()):
                    if self.conf.think > 0:
                        await asyncio.sleep(self.rng.uniform(0, 2 * self.conf.think))
                    pending = await self.send_move(ws, view, seq)
                    acked = None
                try:
                    raw = await asyncio.wait_for(ws.recv(), RECV_TIMEOUT)
                except TimeoutError:
                    if self.stopping.is_set():
                        return
                    raise RuntimeError("stalled table") from None
                now = time.time()
                msg = json.loads(raw)
                kind_ = msg["type"]
                if kind_ == "update":
                    seq = msg["seq"]
                    if "delta" in msg:  # version 2: what changed
                        assert view is not None
                        view = patch(view, msg["delta"])
                    elif msg["view"] is not None:
                        view = msg["view"]
                    if counter and self.in_window(now):
                        self.result.moves += sum(e["kind"] == "move" for e in msg["events"])
                        if view is not None and view["outcome"] is not None:
                            self.result.games += 1
                    if pending is not None and acked is not None and seq >= acked:
                        if self.in_window(pending[2]):
                            rtts.append((time.perf_counter() - pending[1]) * 1000)
                            if self.conf.dump:
                                self.result.rtt_at.append((pending[2], rtts[-1], table_id))
                            self.result.person_moves += 1
                        pending = None
                elif kind_ == "ack":
                    if pending is not None and msg["id"] == pending[0]:
                        acked = msg["seq"]
                elif kind_ == "refused":
                    if self.in_window(now):
                        self.refusals[msg["code"]] += 1
                    if pending is not None and msg.get("id") == pending[0]:
                        pending = None
                        await asyncio.sleep(0.05)  # then judge her turn again
                elif kind_ == "welcome":
                    seat, seq, view = msg["seat"], msg["seq"], msg["view"]

    async def send_move(
        self, ws: ClientConnection, view: dict[str, Any], seq: int
    ) -> tuple[str, float, float]:
        legal = view["legal"]
        move = legal[0] if self.conf.moves == "first" else self.rng.choice(legal)
        self.msg += 1
        msg_id = f"m{self.msg}"
        sent = (msg_id, time.perf_counter(), time.time())
        await ws.send(json.dumps({"type": "move", "id": msg_id, "seq": seq,
                                  "move": move["move"]}))
        return sent

    # -------------------------------------------------------------- the run

    async def run(self, pipe: Connection) -> None:
        loop = asyncio.get_running_loop()
        t0 = time.perf_counter()
        gate = asyncio.Semaphore(16)
        people = await asyncio.gather(*(self.guest(gate) for _ in range(self.people)))
        tasks = [asyncio.create_task(self.group(people[4 * i:4 * i + 4]))
                 for i in range(self.conf.groups)]
        tasks += [asyncio.create_task(self.bot_table(p)) for p in people[4 * self.conf.groups:]]
        if self.people:
            with contextlib.suppress(TimeoutError):  # if some never sit, play without them
                await asyncio.wait_for(self.all_seated.wait(), 600)
        self.result.setup_seconds = time.perf_counter() - t0
        pipe.send("ready")
        self.start, self.end = await loop.run_in_executor(None, pipe.recv)
        self.go.set()
        await asyncio.sleep(max(0.0, self.start - time.time()))
        cpu0 = _own_cpu()
        await asyncio.sleep(max(0.0, self.end - time.time()))
        self.result.cpu = _own_cpu() - cpu0
        self.stopping.set()
        for t in tasks:
            t.cancel()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 15)
        await self.http.aclose()
        self.result.refusals = dict(self.refusals)
        self.result.errors = dict(self.errors)
        pipe.send(asdict(self.result))


def _own_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def client_main(conf: ClientConf, pipe: Connection) -> None:
    asyncio.run(Client(conf).run(pipe))


# ------------------------------------------------------------------ the server


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Database:
    """A fresh database for one step: a SQLite file, or a PostgreSQL database beside ``url``."""

    def __init__(self, url: str | None, step: int, tmp: Path) -> None:
        self.base = url
        self.name: str | None = None
        self.postmaster = 0
        if url is None or url.startswith("sqlite"):
            self.url = f"sqlite:///{tmp / f'load-{step}.db'}"
            return
        from sqlalchemy.engine import make_url  # noqa: PLC0415

        base = make_url(url)
        self.name = f"{base.database or 'fido'}_load_{os.getpid()}_{step}"
        self.url = base.set(database=self.name).render_as_string(hide_password=False)
        with self._admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}"')
            conn.execute(f'CREATE DATABASE "{self.name}"')
            backend = conn.execute("SELECT pg_backend_pid()").fetchone()
            if backend is not None and Path(f"/proc/{backend[0]}").exists():
                self.postmaster = parent_of(int(backend[0]))  # a local server: its CPU counts

    def _admin(self) -> Any:
        import psycopg  # noqa: PLC0415
        from sqlalchemy.engine import make_url  # noqa: PLC0415

        assert self.base is not None
        dsn = make_url(self.base).set(drivername="postgresql")
        return psycopg.connect(dsn.render_as_string(hide_password=False), autocommit=True)

    def cpu(self) -> float:
        """CPU seconds of the local PostgreSQL server so far (0 for SQLite: it is in-process)."""
        if not self.postmaster:
            return 0.0
        return cpu_seconds(self.postmaster, children=True) + sum(
            cpu_seconds(c) for c in children_of(self.postmaster))

    def drop(self) -> None:
        if self.name is not None:
            with contextlib.suppress(Exception), self._admin() as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


class ServerProcess:
    """``fido serve`` in its own process, its output in a log file."""

    def __init__(self, db_url: str, bot_delay: float, log: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        cmd = [sys.executable, "-c", "from fido.cli import main; main()", "serve",
               "--db", db_url, "--port", str(self.port), "--bot-delay", str(bot_delay),
               # a thousand guests and their tables from one (loopback) address, on purpose
               "--accounts-per-address", "0", "--tables-per-address", "0",
               "--bot-tables-per-address", "0"]
        with log.open("w") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        self.pid = self.proc.pid
        deadline = time.monotonic() + 60
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.base}/api/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start in 60 s")
            time.sleep(0.2)

    def workers(self) -> list[int]:
        return children_of(self.pid)

    def cpu(self) -> tuple[float, float]:
        """(the server process, its children: bot workers) CPU seconds so far."""
        return cpu_seconds(self.pid), sum(cpu_seconds(c) for c in self.workers())

    def errors(self) -> int:
        text = self.log.read_text(errors="replace")
        return sum(line.startswith(("ERROR", "Traceback")) for line in text.splitlines())

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Servers:
    """``--servers`` processes of ``fido serve`` on one database, measured together."""

    def __init__(self, procs: list[ServerProcess]) -> None:
        self.procs = procs
        self.pid = procs[0].pid  # py-spy and the wait for a core: the first one's

    def workers(self) -> list[int]:
        return [w for p in self.procs for w in p.workers()]

    def cpu(self) -> tuple[float, float]:
        both = [p.cpu() for p in self.procs]
        return sum(c for c, _w in both), sum(w for _c, w in both)

    def errors(self) -> int:
        return sum(p.errors() for p in self.procs)

    def peak_kb(self) -> int:
        return sum(status_kb(p.pid, "VmHWM") for p in self.procs)

    def stop(self) -> None:
        for p in self.procs:
            p.stop()


class Sampler(threading.Thread):
    """Peak RSS of the server and of its workers, every 0.25 s."""

    def __init__(self, server: Servers) -> None:
        super().__init__(daemon=True)
        self.server = server
        self.peak_workers_kb = 0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.25):
            kb = sum(status_kb(c, "VmRSS") for c in self.server.workers())
            self.peak_workers_kb = max(self.peak_workers_kb, kb)


# ------------------------------------------------------------------ one step


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def run_step(args: argparse.Namespace, players: int, step: int, tmp: Path) -> dict[str, Any]:
    console = Console(stderr=True)
    load = os.getloadavg()
    db = Database(args.db, step, tmp)
    groups = players // 4
    console.print(f"[dim]step {step}: {groups * 4} players at {groups} tables + "
                  f"{args.bot_tables} bot tables, load average {load[0]:.2f}[/dim]")
    logs = Path(args.logs) if args.logs else tmp
    logs.mkdir(parents=True, exist_ok=True)
    serving: list[ServerProcess] = []
    try:
        for k in range(args.servers):
            serving.append(ServerProcess(
                db.url, args.bot_delay, logs / f"server-{step}{'' if k == 0 else f'-{k}'}.log"))
    except BaseException:
        for started in serving:
            started.stop()
        db.drop()
        raise
    server = Servers(serving)
    ctx = multiprocessing.get_context("spawn")
    procs, pipes = [], []
    try:
        for k in range(args.clients):
            conf = ClientConf(
                bases=[p.base for p in serving],
                groups=len(range(k, groups, args.clients)),
                bot_tables=len(range(k, args.bot_tables, args.clients)),
                rules=args.rules, bot_level=args.bot_level, think=args.think,
                moves=args.moves, deflate=not args.no_deflate, protocol=args.protocol,
                sticky=args.sticky,
                seed=1000 * step + k,
                dump=args.dump_rtt is not None,
            )
            mine, theirs = ctx.Pipe()
            proc = ctx.Process(target=client_main, args=(conf, theirs), daemon=True)
            proc.start()
            procs.append(proc)
            pipes.append(mine)
        t_setup = time.perf_counter()
        for p in pipes:
            if not p.poll(900):
                raise RuntimeError("a client did not seat its players in 15 minutes")
            p.recv()
        setup = time.perf_counter() - t_setup
        start = time.time() + args.warmup
        end = start + args.seconds
        for p in pipes:
            p.send((start, end))
        sampler = Sampler(server)
        sampler.start()
        time.sleep(max(0.0, start - time.time()))
        spy = None
        if args.py_spy:
            out = Path(args.py_spy)
            out = out.with_name(f"{out.stem}-{step}{out.suffix}")
            out.parent.mkdir(parents=True, exist_ok=True)
            spy = subprocess.Popen(
                ["py-spy", "record", "--pid", str(server.pid), "--duration",
                 str(int(args.seconds)), "--rate", "200", "--nonblocking",
                 "--format", "flamegraph" if out.suffix == ".svg" else "raw", "-o", str(out),
                 *(["--gil"] if args.py_spy_gil else [])],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            )
        cpu0, workers0, db0, busy0 = (*server.cpu(), db.cpu(), machine_busy())
        wait0 = waited(server.pid)
        time.sleep(max(0.0, end - time.time()))
        cpu1, workers1, db1, busy1 = (*server.cpu(), db.cpu(), machine_busy())
        wait1 = waited(server.pid)
        seconds = args.seconds
        results = []
        for p in pipes:
            if not p.poll(120):
                raise RuntimeError("a client did not report")
            results.append(p.recv())
        if spy is not None and spy.wait(60) != 0:
            console.print(f"[red]py-spy failed ({spy.returncode})[/red]")
        sampler.done.set()
        peak_kb = server.peak_kb()
        errors_logged = server.errors()
    finally:
        for proc in procs:
            proc.join(30)
            if proc.is_alive():
                proc.kill()
        server.stop()
        db.drop()
    if args.dump_rtt:
        with open(f"{args.dump_rtt}-{step}", "w") as f:
            for r in results:
                for at, ms, table_id in r["rtt_at"]:
                    f.write(f"{at:.4f} {ms:.2f} {table_id}\n")
    people = [x for r in results for x in r["rtt_people"]]
    bots = [x for r in results for x in r["rtt_bot_tables"]]
    every = people + bots
    refusals: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    for r in results:
        refusals.update(r["refusals"])
        errors.update(r["errors"])
    ncores = os.cpu_count() or 1
    moves = sum(r["moves"] for r in results)
    row = {
        "bench": "server_load", "db": "postgresql" if db.name else "sqlite",
        "servers": args.servers, "sticky": args.sticky,
        "players": groups * 4, "bot_tables": args.bot_tables, "rules": args.rules,
        "think": args.think, "bot_delay": args.bot_delay, "clients": args.clients,
        "deflate": not args.no_deflate, "protocol": args.protocol, "seconds": seconds,
        "load_average_at_start": round(load[0], 2),
        "moves_per_s": round(moves / seconds, 1),
        "person_moves_per_s": round(sum(r["person_moves"] for r in results) / seconds, 1),
        "games_per_s": round(sum(r["games"] for r in results) / seconds, 2),
        "rtt_ms": {"n": len(every), "p50": round(pct(every, 0.50), 1),
                   "p95": round(pct(every, 0.95), 1), "p99": round(pct(every, 0.99), 1),
                   "max": round(max(every, default=float("nan")), 1)},
        "rtt_people_p99_ms": round(pct(people, 0.99), 1),
        "rtt_bot_tables_p99_ms": round(pct(bots, 0.99), 1),
        "server_cpu_pct": round(100 * (cpu1 - cpu0) / seconds, 1),
        "server_waited_for_cpu_pct": round(100 * (wait1 - wait0) / seconds, 1),
        "server_cpu_ms_per_move": round(1000 * (cpu1 - cpu0) / max(1, moves), 2),
        "bot_workers_cpu_pct": round(100 * (workers1 - workers0) / seconds, 1),
        "db_cpu_pct": round(100 * (db1 - db0) / seconds, 1) if db.postmaster else None,
        "server_peak_rss_mb": round(peak_kb / 1024, 1),
        "bot_workers_peak_rss_mb": round(sampler.peak_workers_kb / 1024, 1),
        "client_cpu_pct": [round(100 * r["cpu"] / seconds, 1) for r in results],
        "machine_busy_pct": round(100 * ncores * (busy1[0] - busy0[0]) / (busy1[1] - busy0[1]),
                                  1),
        "refusals": dict(refusals), "errors": dict(errors),
        "server_errors_logged": errors_logged,
        "setup_s": round(setup, 1),
    }
    if people:
        row["rtt_people_p50_ms"] = round(statistics.median(people), 1)
    return row


# ------------------------------------------------------------------ main


def show(rows: list[dict[str, Any]]) -> None:
    ncores = os.cpu_count() or 1
    table = Table(title=f"fido serve under load (round trip of a person's move, ms; CPU in % "
                        f"of one core, {ncores} cores)")
    cols = ("db", "players", "bot tables", "load avg", "moves/s", "people's", "p50", "p95",
            "p99", "max", "server CPU", "ms/move", "bots CPU", "db CPU", "server RSS MB",
            "clients CPU", "machine", "srv waited", "refused", "errors")
    for c in cols:
        table.add_column(c, justify="left" if c == "db" else "right")
    for r in rows:
        rtt = r["rtt_ms"]
        p99 = f"{rtt['p99']:.0f}"
        table.add_row(
            "pg" if r["db"] == "postgresql" else r["db"], str(r["players"]),
            str(r["bot_tables"]), f"{r['load_average_at_start']:.2f}",
            f"{r['moves_per_s']:,.0f}", f"{r['person_moves_per_s']:,.0f}",
            f"{rtt['p50']:.0f}", f"{rtt['p95']:.0f}",
            f"[bold red]{p99}[/]" if rtt["p99"] > TARGET_MS else f"[green]{p99}[/]",
            f"{rtt['max']:.0f}", f"{r['server_cpu_pct']:.0f}",
            f"{r['server_cpu_ms_per_move']:.2f}", f"{r['bot_workers_cpu_pct']:.0f}",
            "-" if r["db_cpu_pct"] is None else f"{r['db_cpu_pct']:.0f}",
            f"{r['server_peak_rss_mb']:.0f}", "+".join(f"{c:.0f}" for c in r["client_cpu_pct"]),
            f"{r['machine_busy_pct']:.0f}", f"{r['server_waited_for_cpu_pct']:.0f}%",
            str(sum(r["refusals"].values())),
            str(sum(r["errors"].values()) + r["server_errors_logged"]),
        )
    Console(width=200).print(table)
    over = [r for r in rows if not r["rtt_ms"]["p99"] <= TARGET_MS]
    if len(rows) > 1:
        if over:
            ok = [r["players"] for r in rows if r["rtt_ms"]["p99"] <= TARGET_MS]
            print(f"p99 passes {TARGET_MS:.0f} ms at {over[0]['players']} players "
                  f"(last under: {max(ok) if ok else 'none'})")
        else:
            print(f"p99 stays under {TARGET_MS:.0f} ms up to {rows[-1]['players']} players")
    for r in rows:
        if r["refusals"] or r["errors"]:
            print(f"{r['players']} players: refusals {r['refusals']}, errors {r['errors']}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=1000, help="people at tables of four")
    ap.add_argument("--bot-tables", type=int, default=100, help="tables of one person + 3 bots")
    ap.add_argument("--ramp", help="player counts to run in turn, e.g. 100,250,500,1000,1500")
    ap.add_argument("--seconds", type=float, default=20.0, help="steady state measured per step")
    ap.add_argument("--warmup", type=float, default=8.0, help="seconds before the measure")
    ap.add_argument("--db", help="database URL (default: a fresh SQLite file per step)")
    ap.add_argument("--rules", default="fido set=9", help='e.g. "fido set=12"')
    ap.add_argument("--bot-level", default="greedy")
    ap.add_argument("--bot-delay", type=float, default=0.2, help="fido serve --bot-delay")
    ap.add_argument("--think", type=float, default=0.0,
                    help="a person's mean pause before her move (uniform 0..2x), seconds")
    ap.add_argument("--moves", choices=("first", "random"), default="first")
    ap.add_argument("--clients", type=int, default=2, help="load-generating processes")
    ap.add_argument("--servers", type=int, default=1,
                    help="fido serve processes on the one database (PostgreSQL for more than "
                         "one); each table's people are spread over them")
    ap.add_argument("--sticky", action="store_true",
                    help="--servers: each table's people on one process (as a proxy that "
                         "routes a table's sockets by its id would)")
    ap.add_argument("--protocol", type=int, choices=(1, 2), default=1,
                    help="the table socket's version: 1 whole views, 2 what changed")
    ap.add_argument("--no-deflate", action="store_true",
                    help="clients refuse permessage-deflate (browsers ask for it)")
    ap.add_argument("--py-spy", metavar="FILE", help="record the server's stacks (py-spy)")
    ap.add_argument("--py-spy-gil", action="store_true",
                    help="only the thread holding the GIL: the Python work")
    ap.add_argument("--dump-rtt", metavar="FILE",
                    help="write every round trip (sent at, ms, table) to FILE-<step>")
    ap.add_argument("--logs", metavar="DIR", help="keep the server's output in DIR")
    ap.add_argument("--json", metavar="FILE", help="append the JSON lines to FILE")
    args = ap.parse_args()
    if args.servers < 1 or (args.servers > 1 and not (args.db or "").startswith("postgres")):
        ap.error("--servers: 1, or several on a PostgreSQL --db")
    if args.py_spy and shutil.which("py-spy") is None:
        ap.error("--py-spy: py-spy is not on PATH")
    steps = [int(x) for x in args.ramp.split(",")] if args.ramp else [args.players]
    rows = []
    with tempfile.TemporaryDirectory(prefix="fido-load-") as tmp:
        for i, players in enumerate(steps):
            row = run_step(args, players, i, Path(tmp))
            rows.append(row)
            line = json.dumps(row)
            print(line, flush=True)
            if args.json:
                with open(args.json, "a") as f:
                    f.write(line + "\n")
    show(rows)


if __name__ == "__main__":
    main()
