"""Real ``fido serve`` processes and WebSocket players, for the durability tests.

:class:`ServerProcess` runs ``python -m fido.cli serve`` as a child process
(its output in a log file), can kill it with SIGKILL, stop or freeze it, and
lists its descendants (the bot workers), so a test can check that none
outlives it. :class:`Player` is one person at a table: a thread with a
WebSocket that follows the protocol (``welcome``, ``update``, ``ack``,
``refused``), plays a legal move whenever it is her turn, remembers every
event she saw, every ack she got and the move she sent without an answer,
and after a lost connection reconnects with her last sequence number and
sends that move again under the same message id.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, insert, select, update
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection, connect

import fido
from fido.engine.game import Game
from fido.engine.moves import Move
from fido.engine.rules import Ruleset
from fido.engine.tiles import Tile
from fido.record import GameRecord
from fido.store import EventRow, TableRow
from support.server_live import CURRENT, browser, cookie_header, csrf_hook, free_port

SRC = str(Path(fido.__file__).parent.parent)


# ---------------------------------------------------------------- processes


def _children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            out += [int(c) for c in (task / "children").read_text().split()]
    return out


def descendants(pid: int) -> set[int]:
    """Every living process under ``pid`` (Linux /proc)."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in _children(todo.pop()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def alive(pid: int) -> bool:
    """``pid`` runs (a zombie, dead but not yet reaped, does not count)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def wait_gone(pids: set[int], seconds: float = 10.0) -> set[int]:
    """The pids still alive after waiting up to ``seconds`` for them to end."""
    deadline = time.monotonic() + seconds
    while True:
        left = {p for p in pids if alive(p)}
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


class ServerProcess:
    """``fido serve`` on a loopback port, as a child process of the test."""

    def __init__(
        self, db_url: str, log: Path, *, port: int | None = None, bot_delay: float = 0.02,
        bot_processes: int = 1, args: tuple[str, ...] = (), stderr: Path | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.db_url, self.log = db_url, log
        self.env = env or {}  # more of its environment (a faked clock: support/faketime.py)
        self.args, self.stderr = args, stderr  # more options; its stderr apart from stdout
        self.chosen = port is None  # our pick, so another may be picked if it is taken
        self.port = port or free_port()
        self.bot_delay, self.bot_processes = bot_delay, bot_processes
        self.proc: subprocess.Popen[bytes] | None = None
        self.workers: set[int] = set()  # its descendants, last seen

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def start(self, timeout: float = 60.0) -> None:
        """Start it and wait until it answers. A port from free_port() is anybody's once
        returned: where another process took it meanwhile, a port of our own choosing is
        chosen again (a port the test gave, as a restart's, is an AssertionError)."""
        for _attempt in range(3 if self.chosen else 1):
            try:
                self._launch(timeout)
                return
            except PortTaken:
                self.ensure_dead()
                if not self.chosen:
                    raise
                self.port = free_port()
        raise AssertionError(f"three ports in a row were taken by others:\n{self.output()}")

    def _launch(self, timeout: float) -> None:
        env = {**os.environ, "PYTHONPATH": SRC, "PYTHONUNBUFFERED": "1", **self.env}
        env.pop("FIDO_DB", None)
        cmd = [sys.executable, "-m", "fido.cli", "serve", "--db", self.db_url,
               "--port", str(self.port), "--bot-delay", str(self.bot_delay),
               "--bot-processes", str(self.bot_processes), *self.args]
        with self.log.open("ab") as out, contextlib.ExitStack() as more:
            out.write(f"\n--- {' '.join(cmd[1:])}\n".encode())
            out.flush()
            err = more.enter_context(self.stderr.open("ab")) if self.stderr else None
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=err or subprocess.STDOUT,
                                         env=env)
        wait_healthy(self.base, self.proc, lambda: self.launch_output()[-3000:], timeout)

    def launch_output(self) -> str:
        """What the last start wrote (the log keeps every start's)."""
        return self.output().rsplit("\n--- ", 1)[-1]

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def note_workers(self) -> set[int]:
        self.workers |= descendants(self.pid)
        return self.workers

    def kill(self) -> set[int]:
        """SIGKILL (a crash, a power cut for the process); its descendants it leaves
        are returned if they do not end within seconds (they must)."""
        assert self.proc is not None
        self.note_workers()
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        return wait_gone(self.workers)

    def freeze(self) -> None:
        """SIGSTOP: the process reads nothing more (frames wait in the sockets)."""
        assert self.proc is not None
        self.note_workers()
        self.proc.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        """SIGCONT: a frozen process goes on (what waited in its sockets is read)."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGCONT)

    def stop(self, timeout: float = 30.0) -> tuple[int, set[int]]:
        """SIGTERM, as a service manager stops it: its exit code and the orphans left."""
        assert self.proc is not None
        if self.proc.poll() is None:
            self.note_workers()
        self.proc.send_signal(signal.SIGTERM)
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError(
                f"fido serve ignored SIGTERM:\n{self.output()[-3000:]}") from None
        return code, wait_gone(self.workers)

    def ensure_dead(self) -> None:
        """Test clean-up: nothing of this server may survive the test."""
        if self.proc is not None and self.proc.poll() is None:
            self.note_workers()
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)
        for pid in wait_gone(self.workers, 0.0):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


# ---------------------------------------------------------------- HTTP


class PortTaken(AssertionError):
    """Another process listens on the port a ``fido serve`` was to take."""


def listener(port: int) -> int | None:
    """The socket inode that listens on a local TCP ``port`` (Linux /proc), if any."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                if fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                    return int(fields[9])
    return None


def holds(pid: int, inode: int) -> bool | None:
    """``pid`` or one of its descendants has the socket ``inode`` open (None: /proc does
    not let this user tell)."""
    want = f"socket:[{inode}]"
    try:
        os.listdir(f"/proc/{pid}/fd")
    except PermissionError:
        return None
    except OSError:
        return False
    for p in (pid, *descendants(pid)):
        for fd in Path(f"/proc/{p}/fd").glob("*"):
            with contextlib.suppress(OSError):
                if os.readlink(fd) == want:
                    return True
    return False


def wait_healthy(base: str, proc: subprocess.Popen[bytes], output: Callable[[], str],
                 timeout: float) -> None:
    """Until ``fido serve`` at ``base`` answers its health check (AssertionError, with its
    ``output``, when it ends or does not answer within ``timeout`` seconds). The answer
    counts only from a socket the process holds: a stranger on the port is PortTaken,
    not a healthy server."""
    deadline = time.monotonic() + timeout
    port = int(base.rsplit(":", 1)[1].split("/", 1)[0])
    while True:
        try:
            if httpx.get(f"{base}/api/health", timeout=2).status_code == 200:
                inode = listener(port)
                if inode is None or holds(proc.pid, inode) is not False:
                    return
                if proc.poll() is not None:
                    raise PortTaken(f"port {port} answers, but from another process:\n"
                                    f"{output()}")
        except httpx.TransportError:
            pass
        if proc.poll() is not None and "Errno 98" in output():
            raise PortTaken(f"port {port} is taken by another process:\n{output()}")
        assert proc.poll() is None, f"fido serve ended:\n{output()}"
        assert time.monotonic() < deadline, f"fido serve did not answer:\n{output()}"
        time.sleep(0.05)


def guest(base: str) -> httpx.Client:
    """A browser signed in as a new guest (cookies and the CSRF header kept)."""
    client = browser(base)
    r = client.post("/api/guest")
    assert r.status_code == 200, r.text
    return client


def moved(client: httpx.Client, base: str) -> httpx.Client:
    """The same browser (cookies, CSRF token) talking to another server."""
    return httpx.Client(base_url=base, timeout=20, cookies=dict(client.cookies),
                        headers={"X-CSRF-Token": CURRENT}, event_hooks={"request": [csrf_hook]})


def open_table(creator: httpx.Client, others: list[httpx.Client], ruleset: str,
               seats: list[str], **more: Any) -> str:
    """A table with seats ``me``, ``open`` (taken by ``others`` in order) or a bot level."""
    body = {"ruleset": ruleset, "players": len(seats),
            "seats": [{"kind": k} if k in ("me", "open") else {"kind": "bot", "level": k}
                      for k in seats], **more}
    r = creator.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    table_id: str = r.json()["id"]
    for other in others:
        r = other.post(f"/api/tables/{table_id}/seats", json={})
        assert r.status_code == 200, r.text
    return table_id


# ---------------------------------------------------------------- the log


@dataclass(frozen=True)
class Logged:
    """One event as the database holds it."""

    seq: int
    kind: str
    seat: int | None
    account: int | None
    msg_id: str | None
    public: dict[str, Any]
    private: dict[str, Any] | None


def read_log(db_url: str, table_id: str) -> tuple[TableRow, list[Logged]]:
    """The table's row and its whole log, read directly from the database."""
    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            row = conn.execute(select(TableRow).where(TableRow.id == table_id)).one()
            events = [
                Logged(e.seq, e.kind, e.seat, e.account_id, e.msg_id, json.loads(e.public),
                       json.loads(e.private) if e.private else None)
                for e in conn.execute(select(EventRow).where(EventRow.table_id == table_id)
                                      .order_by(EventRow.seq))
            ]
    finally:
        engine.dispose()
    table = TableRow(**{c: getattr(row, c) for c in row._fields})
    return table, events


def as_seen(e: Logged, seat: int | None) -> dict[str, Any]:
    """What a connection of ``seat`` is sent of ``e`` (without its time)."""
    out = {"seq": e.seq, "kind": e.kind, "seat": e.seat, **e.public}
    if e.private is not None and seat is not None and seat == e.seat:
        out.update(e.private)
    return out


def replay_log(table: TableRow, events: list[Logged]) -> Game:
    """The game the log tells, rebuilt from the stored deal move by move: every move
    legal for the seat whose turn it was, every draw a tile of the stock."""
    rules = Ruleset.from_text(table.ruleset)
    assert table.deal is not None
    hands = [[Tile.from_text(t) for t in h] for h in json.loads(table.deal)]
    held = {t for h in hands for t in h}
    game = Game.from_deal(rules, hands, [t for t in rules.dominoes if t not in held],
                          explicit_chance=True)
    for e in events:
        if e.kind != "move":
            continue
        assert game.outcome is None, f"event {e.seq}: a move after the end"
        game.push(Move.from_text(e.public["move"]), seat=e.seat)
        if game.chance is not None:
            assert e.private is not None, f"event {e.seq}: a draw without its tile"
            game.apply_chance(Tile.from_text(e.private["drawn"]))
    return game


def check_record(record_json: str, table: TableRow, events: list[Logged]) -> None:
    """The finished table's record replays, and its moves are the log's, in order."""
    record = GameRecord.from_json(record_json)
    game = record.replay()
    moves = [(e.seat, e.public["move"]) for e in events if e.kind == "move"]
    assert [(m.seat, m.move) for m in record.moves] == moves
    assert game.outcome is not None
    logged = replay_log(table, events)
    assert logged.outcome is not None and logged.outcome.to_dict() == game.outcome.to_dict()
    # the game ends with its "end"; after it only who comes and goes (who is still there
    # decides "Play again"), the talk and the rematch
    ends = [i for i, e in enumerate(events) if e.kind == "end"]
    assert len(ends) == 1, ends
    after = {e.kind for e in events[ends[0] + 1:]}
    assert after <= {"away", "back", "chat", "again", "next"}, after
    assert events[ends[0]].public["outcome"] == game.outcome.to_dict()


def check_log(events: list[Logged]) -> None:
    """Sequence numbers 1..n without a gap or a repeat; a message id used once."""
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    ids = [(e.account, e.msg_id) for e in events if e.msg_id is not None]
    assert len(ids) == len(set(ids)), "a message applied twice"


# ---------------------------------------------------------------- players


class Player(threading.Thread):
    """A person at a table over the WebSocket (see the module's docstring).

    The test steers her with events: ``hold`` (set: she sends no new move),
    ``online`` (clear: after a lost connection she waits before reconnecting).
    Every violation of the protocol she notices goes to ``errors``.
    """

    def __init__(self, name: str, client: httpx.Client, table_id: str, *,
                 think: float = 0.0, seed: int = 0) -> None:
        super().__init__(name=f"player-{name}", daemon=True)
        self.who, self.client, self.table_id = name, client, table_id
        self.think, self.rng = think, random.Random(seed)
        self.base = str(client.base_url).rstrip("/")
        self.lock = threading.RLock()
        self.seat: int | None = None
        self.last = 0  # the last sequence number seen
        self.seen: dict[int, dict[str, Any]] = {}  # seq -> event (without "at")
        self.acks: dict[str, int] = {}  # message id -> seq of its event
        self.duplicates: dict[str, int] = {}  # acks marked duplicate (a resend's answer)
        self.refusals: list[dict[str, Any]] = []
        self.pending: dict[str, Any] | None = None  # the move sent, not yet answered
        self.view: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None
        self.welcomes: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.hold = threading.Event()
        self.online = threading.Event()
        self.online.set()
        self.deaf = threading.Event()  # set: frames are read and dropped (an ack lost)
        self.connected = threading.Event()
        self.done = threading.Event()  # the game is over and she saw it
        self.quit = threading.Event()
        self.ws: ClientConnection | None = None
        self.sent_at: dict[str, float] = {}  # message id -> when sent (monotonic)
        self.got_at: dict[int, float] = {}  # event seq -> when received (monotonic)
        self.moves = 0  # her moves sent
        self._count = 0

    # -------------------------------------------------------- state

    def move_events(self) -> int:
        with self.lock:
            return sum(1 for e in self.seen.values() if e["kind"] == "move")

    def my_turn(self) -> bool:
        with self.lock:
            v = self.view
            # an ack comes before the update that holds her move: wait for it
            acked = max(self.acks.values(), default=0)
            return (v is not None and self.seat is not None and v["outcome"] is None
                    and self.last >= acked
                    and v["turn"] == self.seat and self.table is not None
                    and self.table["status"] == "running")

    def _events(self, events: list[dict[str, Any]], where: str) -> None:
        now = time.monotonic()
        for e in events:
            e = {k: v for k, v in e.items() if k != "at"}
            if e["seq"] != self.last + 1:
                self.errors.append(f"{self.who}: {where}: event {e['seq']} after {self.last}")
            if e["seq"] in self.seen:
                self.errors.append(f"{self.who}: {where}: event {e['seq']} twice")
            self.seen[e["seq"]] = e
            self.got_at.setdefault(e["seq"], now)
            self.last = max(self.last, e["seq"])

    def _frame(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        with self.lock:
            if kind == "welcome":
                self.welcomes.append(msg)
                self.seat = msg["seat"]
                if msg["events"] is None:
                    self.errors.append(f"{self.who}: welcome without the events after {self.last}")
                else:
                    self._events(msg["events"], "welcome")
                if msg["seq"] != self.last:
                    self.errors.append(
                        f"{self.who}: welcome at {msg['seq']}, events to {self.last}")
                self.view, self.table = msg["view"], msg["table"]
            elif kind == "update":
                self._events(msg["events"], "update")
                if msg["seq"] != self.last:
                    self.errors.append(f"{self.who}: update at {msg['seq']}, events to {self.last}")
                self.view, self.table = msg["view"], msg["table"]
            elif kind == "ack":
                pending = self.pending
                if pending is None or msg["id"] != pending["id"]:
                    self.errors.append(f"{self.who}: an ack for nothing sent: {msg}")
                else:
                    self.pending = None
                self.acks[msg["id"]] = msg["seq"]
                if msg.get("duplicate"):
                    self.duplicates[msg["id"]] = msg["seq"]
            elif kind == "refused":
                self.refusals.append(msg)
                if self.pending is not None and msg.get("id") == self.pending["id"]:
                    self.pending = None
            elif kind != "pong":
                self.errors.append(f"{self.who}: unknown frame {kind}")
            if self.view is not None and self.view["outcome"] is not None:
                self.done.set()

    # -------------------------------------------------------- sending

    def _send(self, msg: dict[str, Any]) -> None:
        ws = self.ws
        assert ws is not None
        self.sent_at[msg["id"]] = time.monotonic()
        ws.send(json.dumps(msg))

    def _play(self) -> None:
        with self.lock:
            if self.pending is not None or self.hold.is_set() or not self.my_turn():
                return
            assert self.view is not None
            self._count += 1
            move = self.rng.choice(self.view["legal"])["move"]
            self.pending = {"type": "move", "id": f"{self.who}-{self._count}", "seq": self.last,
                            "move": move}
            self.moves += 1
            self._send(self.pending)

    def send_move_now(self) -> dict[str, Any]:
        """Send her move at once (it must be her turn), from the test's thread."""
        with self.lock:
            assert self.my_turn() and self.pending is None, (self.who, self.view, self.pending)
            hold = self.hold.is_set()
            self.hold.clear()
            self._play()
            if hold:
                self.hold.set()
            assert self.pending is not None
            return dict(self.pending)

    # -------------------------------------------------------- the thread

    def url(self) -> str:
        return f"ws{self.base[4:]}/ws/tables/{self.table_id}?seq={self.last}"

    def _connect(self) -> ClientConnection | None:
        cookie = cookie_header(self.client)
        try:
            return connect(self.url(), additional_headers={"Cookie": cookie},
                           open_timeout=5, close_timeout=1)
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError):
            return None

    def run(self) -> None:
        try:
            while not self.quit.is_set():
                self.online.wait()
                ws = self._connect()
                if ws is None:
                    time.sleep(0.05)
                    continue
                with ws:
                    self.ws = ws
                    self._session(ws)
                    self.connected.clear()
                    self.ws = None
                if self.done.is_set():
                    return
        except Exception as e:
            self.errors.append(f"{self.who}: {type(e).__name__}: {e}")

    def _session(self, ws: ClientConnection) -> None:
        first = True
        next_move = 0.0
        try:
            while not self.quit.is_set():
                try:
                    frame = ws.recv(timeout=0.02)
                except TimeoutError:
                    frame = None
                if frame is not None and not self.deaf.is_set():
                    self._frame(json.loads(frame))
                    if first:
                        first = False
                        self.connected.set()
                        with self.lock:
                            if self.pending is not None:  # no answer came: the same id again
                                self._send(self.pending)
                if self.done.is_set():
                    with contextlib.suppress(Exception):
                        ws.close()
                    return
                if not first and not self.deaf.is_set() and self.my_turn():
                    now = time.monotonic()
                    if next_move == 0.0:
                        next_move = now + self.think
                    if now >= next_move:
                        self._play()
                        next_move = 0.0
        except ConnectionClosed:
            return


def wait_until(what: Callable[[], bool], seconds: float, message: str | Callable[[], str]) -> None:
    deadline = time.monotonic() + seconds
    while not what():
        if time.monotonic() > deadline:
            raise AssertionError(message() if callable(message) else message)
        time.sleep(0.02)


@contextlib.contextmanager
def servers(*procs: ServerProcess) -> Iterator[None]:
    """Whatever happens in the block, no server process nor worker of theirs survives it."""
    try:
        yield
    finally:
        for p in procs:
            p.ensure_dead()


def write_unnoticed(db_url: str, table_id: str, text: str) -> int:
    """Append a chat event to the table's log as another process would, row lock and
    sequence number included, but without its NOTIFY (a lost notification): the
    servers learn of it only when their next write finds the row ahead. Its seq."""
    engine = create_engine(db_url)
    try:
        with engine.begin() as conn:
            seq = 1 + conn.execute(
                select(TableRow.seq).where(TableRow.id == table_id).with_for_update()
            ).scalar_one()
            conn.execute(insert(EventRow).values(
                table_id=table_id, seq=seq, kind="chat", seat=None, account_id=None,
                msg_id=None, public=json.dumps({"name": "elsewhere", "text": text}),
                private=None, at=time.time(),
            ))
            conn.execute(update(TableRow).where(TableRow.id == table_id).values(seq=seq))
    finally:
        engine.dispose()
    return seq


RESTART = 1012  # the close code of a process that stops (docs/protocol.md)


class Moving(Player):
    """A :class:`Player` who, told 1012 by her process, reconnects to ``elsewhere`` at once
    (what nginx does for the web page: the stopping process no longer listens). Notes each
    close code, and the seconds from a 1012 to the first frame on the other process."""

    def __init__(self, name: str, client: httpx.Client, table_id: str, *,
                 elsewhere: str, **more: Any) -> None:
        super().__init__(name, client, table_id, **more)
        self.elsewhere = elsewhere
        self.codes: list[int | None] = []
        self.told_at: float | None = None
        self.back_after: list[float] = []  # a 1012 to the next welcome, seconds

    def _session(self, ws: ClientConnection) -> None:
        super()._session(ws)
        code = ws.close_code
        with self.lock:
            self.codes.append(code)
            if code == RESTART and self.base != self.elsewhere:
                self.told_at = time.monotonic()
                self.client, self.base = moved(self.client, self.elsewhere), self.elsewhere

    def _frame(self, msg: dict[str, Any]) -> None:
        if msg.get("type") == "welcome" and self.told_at is not None:
            self.back_after.append(time.monotonic() - self.told_at)
            self.told_at = None
        super()._frame(msg)
