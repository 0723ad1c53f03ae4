"""Storage of players, results and rankings: SQLAlchemy 2, migrated by Alembic.

:func:`open_store` takes a database URL (default: ``FIDO_DB`` or
``sqlite:///fido.db`` in the current directory), brings the schema up to date
with the migrations shipped in this package, and returns a :class:`Store`
whose :meth:`Store.session` gives transactions::

    store = open_store("sqlite:///:memory:")
    with store.session() as s:   # commits at the end, rolls back on an error
        ...

PostgreSQL works the same (``postgresql+psycopg://user@host/db``).
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from fido.errors import FidoError
from fido.store.models import (
    INT_MAX,
    Account,
    AnalysisRow,
    Base,
    Block,
    ChallengeRow,
    Championship,
    ChampionshipEntry,
    ChampionshipTable,
    EntryRow,
    EventRow,
    Follow,
    GameRating,
    GameRow,
    LineRow,
    MatchRow,
    Notification,
    OrganiserRequest,
    OutboxMail,
    Player,
    PlayerClaim,
    PuzzleAnswer,
    PuzzleRating,
    QueueEntry,
    RatingChange,
    Report,
    ReviewRow,
    RoleRow,
    SeatRow,
    Setting,
    SnapshotRow,
    TableRow,
    WebSession,
)

log = logging.getLogger("fido.store")


def aware(at: dt.datetime) -> dt.datetime:
    """A stored time as an aware one: SQLite gives a timezone's column back naive (UTC)."""
    return at if at.tzinfo is not None else at.replace(tzinfo=dt.UTC)

__all__ = [
    "BUSY_SECONDS",
    "DEFAULT_URL",
    "INT_MAX",
    "Account",
    "AnalysisRow",
    "Base",
    "Block",
    "ChallengeRow",
    "Championship",
    "ChampionshipEntry",
    "ChampionshipTable",
    "EntryRow",
    "EventRow",
    "Follow",
    "GameRating",
    "GameRow",
    "LineRow",
    "MatchRow",
    "Notification",
    "OrganiserRequest",
    "OutboxMail",
    "Player",
    "PlayerClaim",
    "PuzzleAnswer",
    "PuzzleRating",
    "QueueEntry",
    "RatingChange",
    "Report",
    "ReviewRow",
    "RoleRow",
    "SeatRow",
    "Setting",
    "SnapshotRow",
    "Store",
    "StoreError",
    "TableRow",
    "WebSession",
    "aware",
    "database_url",
    "db_message",
    "open_store",
    "sqlite_begin",
    "sqlite_connect",
]

DEFAULT_URL = "sqlite:///fido.db"
MIGRATIONS = Path(__file__).with_name("migrations")


class StoreError(FidoError):
    """The database cannot be opened or brought up to date; nothing was changed."""


BUSY_SECONDS = 30.0  # how long a writer waits for another one before giving up
_BUSY_TIMEOUT = f"PRAGMA busy_timeout={int(BUSY_SECONDS * 1000)}"  # SQLite's, in ms


def db_message(e: BaseException) -> str:
    """A database error as one line, without SQLAlchemy's SQL and links."""
    inner = e.orig if isinstance(e, DBAPIError) and e.orig is not None else e
    lines = str(inner).strip().splitlines()
    first = lines[0] if lines else type(inner).__name__
    if first in ("database is locked", "database is busy"):
        return (
            f"the database is busy: another command kept writing to it for more than "
            f"{BUSY_SECONDS:g} s; try again when it has finished"
        )
    return first


def database_url(url: str | None = None) -> str:
    """The URL to use: ``url``, else ``$FIDO_DB``, else ``sqlite:///fido.db``."""
    return url or os.environ.get("FIDO_DB") or DEFAULT_URL


def sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    """A new SQLite connection's settings (an engine's ``connect`` listener: the store's
    and the backup's)."""
    # the driver's own transaction handling off: sqlite_begin says BEGIN itself
    dbapi_connection.isolation_level = None
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute(_BUSY_TIMEOUT)
    # readers never wait for a writer, nor a writer for readers (a file database)
    cur.execute("PRAGMA journal_mode=WAL")
    # in WAL mode, NORMAL syncs the log at checkpoints, not at every commit: a commit
    # survives a crash of the process (the server's acknowledged moves, an import), and
    # a power cut or an OS crash may lose the last ones but never corrupts the file.
    # FULL (the default) made each commit wait for the disk (docs/performance.md)
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()


def sqlite_begin(conn: Connection) -> None:
    """A writing transaction takes SQLite's write lock at its start (BEGIN IMMEDIATE).

    With a plain BEGIN, two writers both read, then the second one's first
    write finds the snapshot it read outdated and fails at once, whatever
    the busy timeout; IMMEDIATE makes it wait its turn instead, so what it
    reads (the next player number, whether a game is stored) is still true
    when it writes.
    """
    write = conn.get_execution_options().get("fido_write", False)
    conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


@dataclass
class Store:
    engine: Engine
    sessions: sessionmaker[Session]
    readers: sessionmaker[Session] | None = None
    # SQLite: the writers of this process take turns here, woken as soon as the one
    # before commits; waiting in BEGIN IMMEDIATE, SQLite's busy handler polls by
    # sleeps of up to 100 ms (the server's threads queued there, docs/performance.md)
    writing: threading.RLock | None = None
    # told each writing transaction's seconds, its turn's wait included (the server's
    # metrics: fido_db_write_seconds); called on the writer's thread
    on_write: Callable[[float], None] | None = None

    @contextmanager
    def session(self, *, write: bool = True) -> Iterator[Session]:
        """One transaction: committed when the block ends, rolled back on any error.

        ``write=False`` for a command that only reads: on SQLite it then does
        not wait for, nor hold up, a writer such as a long import.
        """
        maker = self.sessions if write or self.readers is None else self.readers
        turn = self.writing if write else None
        timed = self.on_write if write else None
        started = time.perf_counter()
        # past the busy timeout, BEGIN IMMEDIATE waits (and fails) as it did alone
        held = turn is not None and turn.acquire(timeout=BUSY_SECONDS)
        try:
            with maker.begin() as s:
                yield s
        finally:
            if held:
                assert turn is not None
                turn.release()
            if timed is not None:
                timed(time.perf_counter() - started)

    @cached_property
    def _writer(self) -> Engine:
        return self.engine.execution_options(fido_write=True)

    @contextmanager
    def connection(self) -> Iterator[Connection]:
        """One writing transaction on the driver's connection, without an ORM session:
        the server's write of each move (a session's setup and unit of work cost more
        than the two statements it runs). The same turn and lock as :meth:`session`."""
        turn = self.writing
        timed = self.on_write
        started = time.perf_counter()
        held = turn is not None and turn.acquire(timeout=BUSY_SECONDS)
        try:
            with self._writer.begin() as conn:
                yield conn
        finally:
            if held:
                assert turn is not None
                turn.release()
            if timed is not None:
                timed(time.perf_counter() - started)

    @contextmanager
    def write_now(self) -> Iterator[Any | None]:
        """SQLite: a writing transaction on the caller's own thread, if it need not wait:
        this process's turn is free and no other process holds the file's write lock
        (SQLite's busy handler is off for the attempt). Yields the driver's cursor, or
        None, and then the caller writes from a worker thread as usual.

        The server's event loop writes a move this way: a commit in WAL mode with
        ``synchronous=NORMAL`` writes to the log without waiting for the disk (40-70
        µs), less than the hand-off to a thread and back, and a move never waits for
        a writer here (docs/performance.md). Committed at the end of the block, rolled
        back on any error. PostgreSQL: always None (its writes wait for the server).
        """
        turn = self.writing
        if turn is None or not turn.acquire(blocking=False):
            yield None
            return
        timed = self.on_write
        started = time.perf_counter()
        try:
            raw = self.engine.raw_connection()
            cursor = raw.cursor()
            try:
                cursor.execute("PRAGMA busy_timeout=0")
                try:
                    cursor.execute("BEGIN IMMEDIATE")
                except self.engine.dialect.loaded_dbapi.OperationalError:  # another writer
                    yield None
                    return
                try:
                    yield cursor
                except BaseException:
                    cursor.execute("ROLLBACK")
                    raise
                cursor.execute("COMMIT")
                if timed is not None:
                    timed(time.perf_counter() - started)
            finally:
                cursor.execute(_BUSY_TIMEOUT)
                cursor.close()
                raw.close()  # back to the pool
        finally:
            turn.release()

    def close(self) -> None:
        self.engine.dispose()


# PostgreSQL's advisory lock held while one process migrates (any fixed number: fido's)
MIGRATION_LOCK = 0x46_49_44_4F  # "FIDO"


def migrate(engine: Engine, revision: str = "head") -> None:
    """Upgrade the schema to ``revision``; a database already there is only read
    (so opening it never waits for a writer such as a long import).

    Several processes started at once on one PostgreSQL migrate one after the other:
    each takes an advisory lock first and Alembic reads the revision after it, so the
    second finds the schema at its head and does nothing (without it the second failed
    to start on a duplicate table). SQLite's write lock (BEGIN IMMEDIATE) does the same."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    script = ScriptDirectory.from_config(cfg)
    with engine.connect() as conn:
        current = MigrationContext.configure(conn).get_current_revision()
    if current is not None and current not in {r.revision for r in script.walk_revisions()}:
        # a newer release migrated it: this one must not touch it (docs/deploy.md, Upgrades)
        raise StoreError(
            f"the database's schema is at revision {current}, newer than this fido "
            f"(revision {script.get_current_head()}): run the release that migrated it, "
            "or restore the backup made before the upgrade with this one "
            "(docs/deploy.md, Upgrades)")
    if revision == "head" and current == script.get_current_head():
        return
    with engine.execution_options(fido_write=True).begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        before = MigrationContext.configure(conn).get_current_revision()
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
        after = MigrationContext.configure(conn).get_current_revision()
    if after != before:  # the administrator's sign that an upgrade changed the schema
        log.info("database migrated from revision %s to %s", before or "none (empty)", after)


def open_store(url: str | None = None) -> Store:
    """Connect, run the migrations up to the newest, and return the store.

    A URL that is not one, a database that cannot be reached or a schema newer
    than this fido raises :class:`StoreError` (the URL is not repeated: it may
    hold a password).
    """
    url = database_url(url)
    # a database error's text never repeats its statement's values (a session id, a
    # password's hash, a hand in a record), since such errors reach the server's log
    kwargs: dict[str, Any] = {"hide_parameters": True}
    if url.startswith("sqlite") and (":memory:" in url or url in ("sqlite://", "sqlite:///")):
        kwargs |= {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
    if url.startswith("postgresql"):  # a connection the database dropped (it restarted)
        kwargs |= {"pool_pre_ping": True}  # is found out before use, and replaced
    try:
        engine = create_engine(url, **kwargs)
        if engine.dialect.name == "sqlite":
            event.listen(engine, "connect", sqlite_connect)
            event.listen(engine, "begin", sqlite_begin)
        migrate(engine)
    except StoreError:
        raise
    except (SQLAlchemyError, CommandError, OSError, ImportError, ValueError) as e:
        raise StoreError(f"cannot open the database: {db_message(e)}") from None
    writer = engine.execution_options(fido_write=True)
    return Store(
        engine,
        sessionmaker(writer, expire_on_commit=False),
        sessionmaker(engine, expire_on_commit=False),
        threading.RLock() if engine.dialect.name == "sqlite" else None,
    )
