"""Every live table of one server process, and the wake-up calls between processes.

Rooms are loaded from the database when first needed (and, at start, every
running table, so its bots and clocks go on). With PostgreSQL a dedicated
connection LISTENs on ``fido_tables``: a process that commits to a table
NOTIFYs ``id:seq`` (its id, its new last sequence number), and the others
read that table's new events from the log by sequence number; a process
skips the notices of what it has already (its own writes: no read per
move). A notification carries nothing else, so a lost or repeated one
costs a read, never a move; after the listener reconnects every live room
reads its log again, and a room loaded on demand reads it once more when it
is in place (a commit notified during its load found no room to wake).

A person's new name (a guest who signs up) is no event of a table: the process
that signs her up renames her seats in its rooms (:meth:`Hub.rename`) and, on
PostgreSQL, NOTIFYs ``account:<id>``; the others read her name and do the same.
Each room's next view, and every welcome, names her so.

Presence is in the log too: a process that starts writes every seated
person of its running tables away (no one is connected to it yet), and a
process that reads an "away" of a seat it holds a connection for answers
"back", so a process started beside others never plays for their people.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from dataclasses import replace

from sqlalchemy import select, text
from sqlalchemy.orm import Session

from fido.safe_text import whole_or_none
from fido.server.analysis_jobs import AnalysisJobs
from fido.server.botpool import BotPool
from fido.server.settings import PlaySettings
from fido.server.tables import Room, RoomContext
from fido.server.tables.log import NOTIFY_CHANNEL
from fido.server.tables.matches import resume as resume_matches
from fido.store import Account, Store, TableRow

__all__ = ["Hub", "PlaySettings"]

RENAMED = "account"  # a notification's "table" part naming an account whose name changed

log = logging.getLogger("fido.server")


class Hub:
    def __init__(self, store: Store, settings: PlaySettings) -> None:
        self.store, self.settings = store, settings
        self.rooms: dict[str, Room] = {}
        self.bots = BotPool(settings.bot_processes)
        self.context = RoomContext(store, settings, self.bots, self.finished, self.room)
        self.analyses = AnalysisJobs(store, settings.analysis_samples,
                                     settings.analysis_processes,
                                     settings.analyses_per_account,
                                     settings.analyses_per_address)
        self._loading: dict[str, asyncio.Future[Room]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._listener: threading.Thread | None = None
        self._stopping = threading.Event()
        self._tasks: set[asyncio.Task[None]] = set()  # kept until done (not collected early)

    async def room(self, table_id: str, *, keep: bool = False) -> Room:
        """The live room of ``table_id`` (LookupError: no such table). ``keep``: a
        finished table's room too stays in memory until its last connection goes (a
        socket's: everyone at a finished table sees who asks to play again)."""
        room = self.rooms.get(table_id)
        if room is not None:
            return room
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Room] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            room = Room(self.context, table_id)
            await room.load()
            if room.status in ("finished", "abandoned") and not keep:
                # over: read from the store for each visitor (her seats' names as they
                # are now), never kept (a day of finished rooms would grow the heap)
                future.set_result(room)
                return room
            self.rooms[table_id] = room
            if self._listener is not None:
                # a commit notified while the log was read found no room: read again
                self._spawn(room)
            future.set_result(room)
            return room
        except BaseException as e:
            future.set_exception(e)
            future.exception()  # retrieved: no "never retrieved" warning
            raise
        finally:
            del self._loading[table_id]

    def finished(self, room: Room) -> None:
        """A game ended (or a table was abandoned): its room leaves memory once its
        last connection goes, and a later visitor loads it again from the log.
        Kept, the finished rooms of a busy day would grow the heap without end
        (and every full garbage collection with it: docs/performance.md)."""
        if (room.status in ("finished", "abandoned") and not room.feed.conns
                and self.rooms.get(room.id) is room):
            room.stop()
            del self.rooms[room.id]

    async def start(self) -> None:
        """Load every running table (its people away, its clock with the restart grace:
        :meth:`Room.load`) and start listening."""
        self.loop = asyncio.get_running_loop()
        # a match's hand that ended while no process was there: its next hand now
        await asyncio.to_thread(resume_matches, self.store)

        def running() -> list[str]:
            with self.store.session(write=False) as s:
                return list(s.scalars(select(TableRow.id).where(TableRow.status == "running")))

        for table_id in await asyncio.to_thread(running):
            room = Room(self.context, table_id)
            try:
                await room.load(restarted=True)
            except Exception as e:
                log.error("table %s cannot be loaded: %s", table_id, type(e).__name__)
                continue
            self.rooms[table_id] = room
        await self.analyses.resume()
        if self.store.engine.dialect.name == "postgresql":
            self._listener = threading.Thread(target=self._listen, name="fido-listen", daemon=True)
            self._listener.start()

    async def stop(self, settle: float = 5.0) -> None:
        self._stopping.set()
        for room in self.rooms.values():
            room.stop()
        await self._settle(settle)
        self.bots.close()
        self.analyses.close()

    async def _settle(self, timeout: float) -> None:
        """What is being written is written before the process goes (a bot's move in its
        transaction, another process's move being read): a task cut off half-way would
        leave a room's memory ahead of its log. Waits at most ``timeout`` seconds."""

        async def quiet(room: Room) -> None:
            async with room.lock:
                pass

        waits = [*self._tasks, *(asyncio.ensure_future(quiet(r)) for r in self.rooms.values())]
        if not waits:
            return
        _done, late = await asyncio.wait(waits, timeout=timeout)
        for task in late:
            task.cancel()

    # ------------------------------------------------------------ names

    def rename(self, account_id: int, name: str) -> int:
        """She goes by ``name`` now: every seat of hers in this process's rooms says so
        from its next view on (a name is no move: nothing is written to a log). How many
        seats."""
        renamed = 0
        for room in self.rooms.values():
            for i, seat in enumerate(room.seats):
                if seat.account_id == account_id and seat.kind == "person" \
                        and seat.name != name:
                    room.seats[i] = replace(seat, name=name)
                    renamed += 1
        return renamed

    @staticmethod
    def announce_rename(s: Session, account_id: int) -> None:
        """Tell the other processes (PostgreSQL), at the commit of ``s``, that the account's
        name changed: they read it and :meth:`rename` her seats."""
        if s.get_bind().dialect.name == "postgresql":
            s.execute(text("SELECT pg_notify(:channel, :id)"),
                      {"channel": NOTIFY_CHANNEL, "id": f"{RENAMED}:{account_id}"})

    async def _renamed(self, account_id: int) -> None:
        def name() -> str | None:
            with self.store.session(write=False) as s:
                account = s.get(Account, account_id)
                return account.name if account is not None else None

        new = await asyncio.to_thread(name)
        if new is not None:
            self.rename(account_id, new)

    # ------------------------------------------------------------ PostgreSQL

    def _notified(self, payload: str) -> None:
        table_id, _, seq = payload.partition(":")
        if table_id == RENAMED:
            account_id = whole_or_none(seq)
            if account_id is not None:
                task = asyncio.ensure_future(self._renamed(account_id))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
            return
        room = self.rooms.get(table_id)
        if room is not None:
            self._spawn(room, whole_or_none(seq))

    def _news(self, payload: str) -> bool:
        """Whether a notification may tell this process something, judged in the
        listener's thread: most are of its own writes (every process hears its own), and
        waking the event loop for each cost a thread's hand-over a move. A room's sequence
        number only grows, so one read here at or past the note's is past it for good."""
        table_id, _, seq = payload.partition(":")
        if table_id == RENAMED:
            return bool(self.rooms)  # her seats, if any, are in rooms this process holds
        room = self.rooms.get(table_id)
        known = whole_or_none(seq)
        return room is not None and (known is None or known > room.seq)

    def _refresh_all(self) -> None:
        for room in list(self.rooms.values()):
            self._spawn(room)

    def _spawn(self, room: Room, seq: int | None = None) -> None:
        if self._stopping.is_set():
            return  # the process is going: the next one reads the log
        if seq is not None and seq <= room.seq:
            return  # already known here (this process wrote it)
        self._keep(asyncio.ensure_future(room.refresh(seq)))

    def _keep(self, task: asyncio.Task[None]) -> None:
        """A task of the hub's own, kept until done; its failure is a line in the log (not
        asyncio's "exception was never retrieved" with a traceback, at a random time)."""
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and (e := task.exception()) is not None:
            log.error("a hub task failed (a table's refresh, a rename): %s", type(e).__name__)

    def _listen(self) -> None:
        """LISTEN on a dedicated psycopg connection (a thread: psycopg blocks)."""
        import psycopg  # noqa: PLC0415

        # the connection arguments SQLAlchemy itself gives psycopg: a URL rendered back
        # to text would garble a socket directory or a password with a space or a '+'
        engine = self.store.engine
        args, kwargs = engine.dialect.create_connect_args(engine.url)
        while not self._stopping.is_set():
            try:
                with psycopg.connect(*args, **{**kwargs, "autocommit": True}) as conn:
                    conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    loop = self.loop
                    assert loop is not None
                    loop.call_soon_threadsafe(self._refresh_all)  # what came while away
                    while not self._stopping.is_set():
                        for note in conn.notifies(timeout=1.0):
                            if self._news(note.payload):
                                loop.call_soon_threadsafe(self._notified, note.payload)
            except Exception as e:
                if self._stopping.is_set():
                    return
                log.warning("listener: %s; reconnecting", type(e).__name__)
                with contextlib.suppress(Exception):
                    self._stopping.wait(1.0)
