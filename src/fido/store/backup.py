"""Backups of the store that restore: ``fido backup FILE`` and ``fido restore FILE``.

A backup is one gzip'd tar file, readable with ``tar xzf``:

* ``manifest.json`` first: the format and its version, the fido version, the schema
  revision (Alembic's), the source's kind (``sqlite`` or ``postgresql``), each
  table's row count, each part's size and SHA-256, and the time it was taken;
* the data: ``database.sqlite`` (SQLite: a copy made by SQLite's online backup
  API, consistent while the server writes), or one ``tables/NAME.jsonl`` per
  table (PostgreSQL: every table read in one REPEATABLE READ transaction, a
  first line with the column names, then one JSON array per row), and
  ``postgresql.dump`` beside them when ``pg_dump`` is installed (taken in the
  same snapshot, for ``pg_restore`` by hand; restore reads the JSON lines).

:func:`restore` reads either kind into either kind of database (the rows are
copied through SQLAlchemy), into an empty database only. It checks the whole
file before it touches the target (a part that is missing, truncated, altered
or not a backup, a schema newer than this fido) and then restores in one
transaction: the schema of the backup's revision, the rows, the migrations up
to this fido's head. Any error rolls it all back: nothing is half restored.
"""

from __future__ import annotations

import datetime as dt
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import sqlite3
import subprocess
import tarfile
import tempfile
import time
import zlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import orjson
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import (
    Connection,
    Engine,
    MetaData,
    Table,
    bindparam,
    create_engine,
    event,
    func,
    select,
    text,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import NullPool

from fido import __version__
from fido.store import (
    MIGRATIONS,
    StoreError,
    database_url,
    db_message,
    sqlite_begin,
    sqlite_connect,
)

__all__ = ["FORMAT", "BackupError", "Manifest", "backup", "read_manifest", "restore"]

FORMAT = "fido-backup"
VERSION = 1  # of the file's layout; a reader refuses a newer one
MANIFEST = "manifest.json"
SQLITE_PART = "database.sqlite"
PG_DUMP_PART = "postgresql.dump"
VERSION_TABLE = "alembic_version"
BATCH = 5000  # rows a statement when restoring
CHUNK = 1 << 20


class BackupError(StoreError):
    """A backup that cannot be taken or restored; the target was left as it was."""


@dataclass(frozen=True)
class Manifest:
    revision: str
    source: str  # "sqlite" or "postgresql"
    created: str
    fido: str
    tables: dict[str, int]  # table -> rows
    parts: dict[str, dict[str, Any]]  # part -> {"bytes", "sha256"}

    def to_json(self) -> bytes:
        return json.dumps({
            "format": FORMAT, "version": VERSION, "fido": self.fido, "revision": self.revision,
            "source": self.source, "created": self.created, "tables": self.tables,
            "parts": self.parts,
        }, indent=2, sort_keys=True).encode()


# ------------------------------------------------------------------ helpers


def _config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def _head() -> str:
    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None
    return head


def _engine(url: str) -> Engine:
    """An engine without migrations (a backup reads the schema it finds)."""
    engine = create_engine(url, poolclass=NullPool)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", sqlite_connect)
        event.listen(engine, "begin", sqlite_begin)
    return engine


def _sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL (None: another database, or one in memory)."""
    u = make_url(url)
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:":
        return None
    return Path(u.database)


class _Hashing:
    """A file being written, with its SHA-256 and size as it goes."""

    def __init__(self, f: IO[bytes]) -> None:
        self.f, self.sha, self.size = f, hashlib.sha256(), 0

    def write(self, data: bytes) -> None:
        self.f.write(data)
        self.sha.update(data)
        self.size += len(data)

    def part(self) -> dict[str, Any]:
        return {"bytes": self.size, "sha256": self.sha.hexdigest()}


def _file_part(path: Path) -> dict[str, Any]:
    sha, size = hashlib.sha256(), 0
    with path.open("rb") as f:
        while chunk := f.read(CHUNK):
            sha.update(chunk)
            size += len(chunk)
    return {"bytes": size, "sha256": sha.hexdigest()}


def _data_tables(conn: Connection) -> MetaData:
    meta = MetaData()
    meta.reflect(bind=conn)
    for name in list(meta.tables):
        if name == VERSION_TABLE or name.startswith("sqlite_"):
            meta.remove(meta.tables[name])
    return meta


def _ordered(table: Table) -> Any:
    keys = list(table.primary_key.columns) or list(table.columns)
    return select(table).order_by(*keys)


def _encode(value: Any) -> Any:
    if isinstance(value, bytes):
        return {"$bytes": value.hex()}
    raise TypeError(f"cannot write a {type(value).__name__} into a backup")


# ------------------------------------------------------------------ backup


def backup(path: Path, url: str | None = None) -> Manifest:
    """Write a backup of the database at ``url`` (default ``$FIDO_DB``) to ``path``.

    The file appears whole or not at all (written beside it, then renamed),
    readable by its owner only: it holds every hand dealt and every password hash.
    """
    url = database_url(url)
    if (f := _sqlite_file(url)) is not None and not f.is_file():
        raise BackupError(f"there is no SQLite database at {f}")
    path = Path(path)
    if path.is_dir():
        raise BackupError(f"{path} is a directory; name the backup file")
    if not path.parent.is_dir():
        raise BackupError(f"there is no directory {path.parent}")
    engine = _engine(url)
    try:
        with tempfile.TemporaryDirectory(prefix=".fido-backup-", dir=path.parent) as tmp:
            work = Path(tmp)
            if engine.dialect.name == "sqlite":
                manifest = _backup_sqlite(engine, work)
            elif engine.dialect.name == "postgresql":
                manifest = _backup_portable(engine, work, url)
            else:
                raise BackupError(f"cannot back up a {engine.dialect.name} database")
            partial = work / "backup.tar.gz"
            fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as out, \
                    tarfile.open(fileobj=out, mode="w:gz", compresslevel=6) as tar:
                _add(tar, MANIFEST, io.BytesIO(manifest.to_json()), len(manifest.to_json()))
                for name, part in manifest.parts.items():
                    with (work / name).open("rb") as data:
                        _add(tar, name, data, part["bytes"])
                out.flush()
                os.fsync(out.fileno())
            os.replace(partial, path)
    except (SQLAlchemyError, OSError, CommandError) as e:
        raise BackupError(f"cannot back up the database: {db_message(e)}") from None
    finally:
        engine.dispose()
    return manifest


def _add(tar: tarfile.TarFile, name: str, data: IO[bytes], size: int) -> None:
    info = tarfile.TarInfo(name)
    info.size, info.mode, info.mtime = size, 0o600, int(time.time())
    tar.addfile(info, data)


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def _revision(conn: Connection) -> str:
    rev = MigrationContext.configure(conn).get_current_revision()
    if rev is None:
        raise BackupError("the database holds no fido schema (no migration has run on it)")
    return rev


def _backup_sqlite(engine: Engine, work: Path) -> Manifest:
    """SQLite's online backup API: a consistent copy while other processes write (in
    WAL mode a reader neither waits for a writer nor holds one up)."""
    copy = work / SQLITE_PART
    raw = engine.raw_connection()
    try:
        source = raw.driver_connection
        assert isinstance(source, sqlite3.Connection)
        with closing(sqlite3.connect(copy)) as dest:
            source.backup(dest)  # all pages in one step: one snapshot
            dest.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
    finally:
        raw.close()
    copied = _engine(f"sqlite:///{copy}")
    try:
        with copied.connect() as conn:
            revision = _revision(conn)
            meta = _data_tables(conn)
            counts = {name: conn.execute(select(func.count()).select_from(t)).scalar_one()
                      for name, t in sorted(meta.tables.items())}
    finally:
        copied.dispose()
    return Manifest(revision, "sqlite", _now(), __version__, counts,
                    {SQLITE_PART: _file_part(copy)})


def _backup_portable(engine: Engine, work: Path, url: str) -> Manifest:
    """Every table as JSON lines, all read in one REPEATABLE READ transaction (one
    snapshot of the whole database while the server writes)."""
    (work / "tables").mkdir()
    parts: dict[str, dict[str, Any]] = {}
    counts: dict[str, int] = {}
    with engine.connect().execution_options(
        isolation_level="REPEATABLE READ", postgresql_readonly=True
    ) as conn, conn.begin():
        revision = _revision(conn)
        snapshot = conn.execute(text("SELECT pg_export_snapshot()")).scalar_one()
        dump = _pg_dump(url, snapshot, work / PG_DUMP_PART)
        meta = _data_tables(conn)
        for name, table in sorted(meta.tables.items()):
            part = f"tables/{name}.jsonl"
            rows = 0
            with (work / part).open("wb") as f:
                out = _Hashing(f)
                out.write(orjson.dumps([c.name for c in table.columns]) + b"\n")
                result = conn.execution_options(stream_results=True, yield_per=BATCH).execute(
                    _ordered(table))
                for batch in result.partitions():
                    lines = [orjson.dumps(tuple(row), default=_encode,
                                          option=orjson.OPT_NAIVE_UTC) for row in batch]
                    out.write(b"\n".join(lines) + b"\n")
                    rows += len(batch)
            parts[part], counts[name] = out.part(), rows
        if dump:
            parts[PG_DUMP_PART] = _file_part(work / PG_DUMP_PART)
    return Manifest(revision, "postgresql", _now(), __version__, counts, parts)


def _pg_dump(url: str, snapshot: str, out: Path) -> bool:
    """``pg_dump`` of the same snapshot, when it is installed and works (a server newer
    than the client refuses it): an extra for ``pg_restore``; restore reads the JSON."""
    program = shutil.which("pg_dump")
    if program is None:
        return False
    u = make_url(url)
    # the password goes by the environment, never on a command line (ps shows those)
    env = {**os.environ, **({"PGPASSWORD": str(u.password)} if u.password else {})}
    libpq = u.set(drivername="postgresql", password=None).render_as_string()
    done = subprocess.run(
        [program, "--format=custom", f"--snapshot={snapshot}", "--no-owner",
         f"--file={out}", f"--dbname={libpq}"],
        capture_output=True, timeout=24 * 3600, check=False, env=env,
    )
    if done.returncode != 0:
        out.unlink(missing_ok=True)
        return False
    return True


# ------------------------------------------------------------------ reading a file


def read_manifest(data: bytes) -> Manifest:
    try:
        m = json.loads(data)
        if not isinstance(m, dict) or m.get("format") != FORMAT:
            raise BackupError("not a fido backup (its manifest is not one)")
        if not isinstance(m.get("version"), int) or m["version"] > VERSION:
            raise BackupError(
                f"the backup's format is version {m.get('version')!r}; this fido reads "
                f"version {VERSION} and older: upgrade fido to restore it")
        manifest = Manifest(str(m["revision"]), str(m["source"]), str(m["created"]),
                            str(m["fido"]), dict(m["tables"]), dict(m["parts"]))
        for name, rows in manifest.tables.items():
            if not isinstance(rows, int) or isinstance(rows, bool) or rows < 0:
                raise ValueError(f"table {str(name)[:80]!r}: a row count is a whole number")
        for part in manifest.parts.values():
            size = part["bytes"]
            if not isinstance(size, int) or isinstance(size, bool) or size < 0:
                raise ValueError("a part's size is a whole number of bytes")
            if not isinstance(part["sha256"], str) or not _SHA256.fullmatch(part["sha256"]):
                raise ValueError("a part's checksum is 64 hexadecimal digits")
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise BackupError(f"not a fido backup (its manifest cannot be read: {e})") from None
    if manifest.source not in ("sqlite", "postgresql"):
        raise BackupError(f"not a fido backup (unknown source {manifest.source!r})")
    _check_names(manifest)
    return manifest


_SHA256 = re.compile(r"[0-9a-f]{64}")
_TABLE = re.compile(r"[a-z][a-z0-9_]{0,62}")  # fido's table names (the manifest's are checked)


def _known_parts(manifest: Manifest) -> set[str]:
    """The parts a backup of its source may hold: nothing else is ever unpacked."""
    if manifest.source == "sqlite":
        return {SQLITE_PART}
    return {f"tables/{t}.jsonl" for t in manifest.tables} | {PG_DUMP_PART}


def _check_names(manifest: Manifest) -> None:
    """Every table and part the manifest names is one fido writes: a table's name is an
    identifier, a part is one of :func:`_known_parts` (no ``..``, no absolute path, no
    folder of its own), and a backup holds the parts its source needs."""
    for name in manifest.tables:
        if not _TABLE.fullmatch(name):
            raise BackupError(f"not a fido backup (a table named {name[:80]!r})")
    known = _known_parts(manifest)
    for name in manifest.parts:
        if name not in known:
            raise BackupError(f"not a fido backup (it names a part {name[:80]!r}, which no "
                              "fido backup holds); nothing was restored")
    needed = known - {PG_DUMP_PART}
    if not needed <= set(manifest.parts):
        missing = sorted(needed - set(manifest.parts))[0]
        raise BackupError(f"not a fido backup (its manifest has no part {missing}); "
                          "nothing was restored")


def _check_revision(revision: str) -> None:
    scripts = ScriptDirectory.from_config(_config())
    try:
        known = scripts.get_revision(revision)
    except CommandError:
        known = None
    if known is None:
        raise BackupError(
            f"the backup is of schema revision {revision!r}, which this fido does not know "
            f"(its newest is {_head()}): it was made by a newer fido; upgrade fido to "
            "restore it")


@contextmanager
def _unpacked(path: Path) -> Iterator[tuple[Manifest, Path]]:
    """The backup's manifest and its parts, unpacked into a private directory and each
    checked against the manifest (size and SHA-256)."""
    if not path.is_file():
        raise BackupError(f"there is no file {path}")
    with tempfile.TemporaryDirectory(prefix="fido-restore-") as tmp:
        work = Path(tmp)
        try:
            manifest = _unpack(path, work)
        except (tarfile.TarError, EOFError, zlib.error, gzip.BadGzipFile) as e:
            raise BackupError(
                f"{path.name} is damaged or not a fido backup (cannot be unpacked: "
                f"{str(e) or type(e).__name__}); nothing was restored") from None
        except OSError as e:
            raise BackupError(f"cannot read {path.name}: {e.strerror or e}") from None
        yield manifest, work


def _unpack(path: Path, work: Path) -> Manifest:
    manifest: Manifest | None = None
    seen: set[str] = set()
    with tarfile.open(path, mode="r|gz") as tar:
        for member in tar:
            if manifest is None:
                if member.name != MANIFEST or not member.isfile() or member.size > CHUNK:
                    raise BackupError(f"{path.name} is not a fido backup (no manifest first)")
                f = tar.extractfile(member)
                assert f is not None
                manifest = read_manifest(f.read())
                _check_revision(manifest.revision)
                continue
            want = manifest.parts.get(member.name)
            if want is None or not member.isfile() or member.name in seen:
                raise BackupError(f"{path.name} is damaged: it holds an unexpected "
                                  f"{member.name[:80]!r}; nothing was restored")
            seen.add(member.name)
            size = int(want["bytes"])
            if member.size != size:  # before a byte of it is read
                raise BackupError(f"{path.name} is damaged: {member.name} holds "
                                  f"{member.size} bytes, its manifest says {size}; nothing "
                                  "was restored")
            target = (work / member.name).resolve()
            if not target.is_relative_to(work.resolve()):  # a known name never is: kept so
                raise BackupError(f"{path.name} is not a fido backup; nothing was restored")
            src = tar.extractfile(member)
            assert src is not None
            target.parent.mkdir(parents=True, exist_ok=True)
            with target.open("xb") as out:
                sink = _Hashing(out)
                left = size
                while left > 0 and (chunk := src.read(min(CHUNK, left))):
                    sink.write(chunk)
                    left -= len(chunk)
            if sink.part() != {"bytes": size, "sha256": want["sha256"]}:
                raise BackupError(f"{path.name} is damaged: {member.name} does not match "
                                  "its checksum; nothing was restored")
    if manifest is None:
        raise BackupError(f"{path.name} is not a fido backup (it is empty)")
    missing = sorted(set(manifest.parts) - seen)
    if missing:
        raise BackupError(f"{path.name} is damaged: {missing[0]} is missing; "
                          "nothing was restored")
    return manifest


# ------------------------------------------------------------------ restore


@dataclass(frozen=True)
class Restored:
    manifest: Manifest
    rows: int
    seconds: float


def restore(path: Path, url: str | None = None) -> Restored:
    """Restore the backup at ``path`` into the EMPTY database at ``url``.

    The file is checked whole first; then one transaction creates the backup's schema,
    copies the rows, and migrates to this fido's newest schema. A refusal or a failure
    leaves the target as it was (a SQLite file this created is removed again).
    """
    start = time.perf_counter()
    url = database_url(url)
    with _unpacked(Path(path)) as (manifest, work):
        file = _sqlite_file(url)
        created = file is not None and not file.exists()
        if file is not None and not file.parent.is_dir():
            raise BackupError(f"there is no directory {file.parent}")
        engine = _engine(url)
        try:
            _check_empty(engine)
            if file is not None and manifest.source == "sqlite" and manifest.revision == _head():
                rows = _copy_file(engine, work / SQLITE_PART, manifest)
            else:
                with engine.execution_options(fido_write=True).begin() as conn, \
                        ExitStack() as stack:
                    rows = _load(conn, manifest, work, stack)
            done = Restored(manifest, rows, time.perf_counter() - start)
            if file is not None:  # as private as the backup: every hand, every password hash
                for private in (file, Path(f"{file}-wal"), Path(f"{file}-shm")):
                    if private.exists():
                        private.chmod(0o600)
        except BaseException as e:
            engine.dispose()
            if created and file is not None:
                for leftover in (file, Path(f"{file}-wal"), Path(f"{file}-shm")):
                    leftover.unlink(missing_ok=True)
            if isinstance(e, SQLAlchemyError | CommandError | sqlite3.Error):
                raise BackupError(f"cannot restore: {db_message(e)}; nothing was "
                                  "restored") from None
            raise
        engine.dispose()
        return done


def _check_empty(engine: Engine) -> None:
    with engine.connect() as conn:
        meta = _data_tables(conn)
        for name, table in sorted(meta.tables.items()):
            if conn.execute(select(table).limit(1)).first() is not None:
                raise BackupError(
                    f"the target database is not empty (its table {name} has rows): restore "
                    "goes into an empty database only; nothing was restored")


def _copy_file(engine: Engine, copy: Path, manifest: Manifest) -> int:
    """SQLite into SQLite at the same schema: the file's pages copied whole by SQLite's
    backup API, which replaces the (empty) target in one step."""
    with closing(sqlite3.connect(copy)) as source:
        for name, expected in manifest.tables.items():
            found = source.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0]
            if found != expected:
                raise BackupError(f"the backup holds {found} rows of {name}, its manifest "
                                  f"says {expected}: it is damaged; nothing was restored")
    raw = engine.raw_connection()
    try:
        dest = raw.driver_connection
        assert isinstance(dest, sqlite3.Connection)
        with closing(sqlite3.connect(copy)) as source:
            source.backup(dest)
        dest.execute("PRAGMA journal_mode=WAL")  # as fido keeps its files
    except sqlite3.Error as e:
        raise BackupError(f"cannot restore: {e}; nothing was restored") from None
    finally:
        raw.close()
    return sum(manifest.tables.values())


def _load(conn: Connection, manifest: Manifest, work: Path, stack: ExitStack) -> int:
    # the target may hold an empty schema (fido serve ran on it once): made anew at
    # the backup's revision, in this transaction
    _data_tables(conn).drop_all(conn)
    conn.execute(text(f"DROP TABLE IF EXISTS {VERSION_TABLE}"))
    cfg = _config()
    cfg.attributes["connection"] = conn
    command.upgrade(cfg, manifest.revision)
    target = _data_tables(conn)
    if sorted(target.tables) != sorted(manifest.tables):
        raise BackupError("the backup's tables are not those of its schema revision "
                          f"{manifest.revision}; nothing was restored")
    source = _Source(manifest, work, stack)
    total = 0
    for table in target.sorted_tables:
        total += _copy(conn, table, source.rows(table), manifest.tables[table.name])
    command.upgrade(cfg, "head")
    if conn.dialect.name == "postgresql":
        _reset_sequences(conn, target)
    return total


class _Source:
    """The rows of each table, from the SQLite copy or the JSON lines."""

    def __init__(self, manifest: Manifest, work: Path, stack: ExitStack) -> None:
        self.manifest, self.work = manifest, work
        self.conn: Connection | None = None
        self.meta: MetaData | None = None
        if manifest.source == "sqlite":
            engine = create_engine(f"sqlite:///{work / SQLITE_PART}", poolclass=NullPool)
            stack.callback(engine.dispose)
            self.conn = stack.enter_context(engine.connect())
            self.meta = _data_tables(self.conn)

    def rows(self, table: Table) -> Iterator[dict[str, Any]]:
        if self.conn is not None:
            assert self.meta is not None
            src = self.meta.tables.get(table.name)
            if src is None:
                raise BackupError(f"the backup has no table {table.name}")
            result = self.conn.execution_options(yield_per=BATCH).execute(_ordered(src))
            for row in result:
                yield dict(row._mapping)
            return
        yield from self._json_rows(table)

    def _json_rows(self, table: Table) -> Iterator[dict[str, Any]]:
        kinds = {c.name: _python_type(c) for c in table.columns}
        with (self.work / f"tables/{table.name}.jsonl").open("rb") as f:
            try:
                names = orjson.loads(f.readline())
                if sorted(names) != sorted(kinds):
                    raise BackupError(f"the backup's columns of {table.name} are not those "
                                      "of its schema revision; nothing was restored")
                for line in f:
                    values = orjson.loads(line)
                    yield {n: _decode(v, kinds[n]) for n, v in zip(names, values, strict=True)}
            except (orjson.JSONDecodeError, ValueError, TypeError) as e:
                raise BackupError(f"the backup's rows of {table.name} cannot be read ({e}); "
                                  "nothing was restored") from None


def _python_type(column: Any) -> type | None:
    try:
        kind: type = column.type.python_type
    except NotImplementedError:
        return None
    return kind


def _decode(value: Any, kind: type | None) -> Any:
    if value is None:
        return None
    if kind is dt.datetime and isinstance(value, str):
        return dt.datetime.fromisoformat(value)
    if kind is dt.date and isinstance(value, str):
        return dt.date.fromisoformat(value)
    if isinstance(value, dict) and "$bytes" in value:
        return bytes.fromhex(value["$bytes"])
    if kind is float and isinstance(value, int):
        return float(value)
    return value


def _utc(value: Any) -> Any:
    """Every time as UTC: SQLite keeps a time's figures and drops its zone (a naive one,
    as SQLite gives them back, is in UTC already)."""
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.UTC) if value.tzinfo else value.replace(tzinfo=dt.UTC)
    return value


def _copy(conn: Connection, table: Table, rows: Iterable[dict[str, Any]], expected: int) -> int:
    """Insert ``rows``; a column that refers to its own table (a merged player's
    survivor) is set afterwards, once every row it may point at is there."""
    own = [fk.parent.name for fk in table.foreign_keys if fk.column.table.name == table.name]
    keys = [c.name for c in table.primary_key.columns]
    later: list[dict[str, Any]] = []
    count = 0
    with _writer(conn, table) as write:
        for row in rows:
            row = {k: _utc(v) for k, v in row.items()}
            if own and any(row[c] is not None for c in own):
                later.append({**{f"k_{k}": row[k] for k in keys}, **{c: row[c] for c in own}})
                row.update(dict.fromkeys(own, None))
            write(row)
            count += 1
    if later:
        where = [table.c[k] == bindparam(f"k_{k}") for k in keys]
        conn.execute(table.update().where(*where).values({c: bindparam(c) for c in own}),
                     later)
    if count != expected:
        raise BackupError(f"the backup holds {count} rows of {table.name}, its manifest "
                          f"says {expected}: it is damaged; nothing was restored")
    return count


@contextmanager
def _writer(conn: Connection, table: Table) -> Iterator[Callable[[dict[str, Any]], None]]:
    """Where a table's rows go: PostgreSQL's COPY (about ten times the rows a second of
    batched INSERTs, in the same transaction), else INSERTs of ``BATCH`` rows."""
    names = [c.name for c in table.columns]
    driver: Any = conn.connection.driver_connection
    dbapi: Any = conn.dialect.dbapi
    if conn.dialect.name == "postgresql" and hasattr(driver, "cursor"):
        quote = conn.dialect.identifier_preparer.quote
        sql = (f"COPY {quote(table.name)} ({', '.join(quote(n) for n in names)}) "
               "FROM STDIN")
        try:
            with driver.cursor() as cursor, cursor.copy(sql) as copy:

                def put(row: dict[str, Any]) -> None:
                    copy.write_row(_values(table, names, row))

                yield put
        except dbapi.Error as e:  # the driver's own, not wrapped by SQLAlchemy
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise BackupError(f"cannot restore the rows of {table.name}: {first}; "
                              "nothing was restored") from None
        return
    batch: list[dict[str, Any]] = []
    insert = table.insert()

    def add(row: dict[str, Any]) -> None:
        batch.append(row)
        if len(batch) >= BATCH:
            conn.execute(insert, batch)
            batch.clear()

    yield add
    if batch:
        conn.execute(insert, batch)


def _values(table: Table, names: list[str], row: dict[str, Any]) -> tuple[Any, ...]:
    try:
        values = tuple(row[n] for n in names)
    except KeyError as e:
        raise BackupError(f"the backup's rows of {table.name} have no column {e}; "
                          "nothing was restored") from None
    if len(row) != len(names):
        raise BackupError(f"the backup's columns of {table.name} are not those of its "
                          "schema revision; nothing was restored")
    return values


def _reset_sequences(conn: Connection, meta: MetaData) -> None:
    """PostgreSQL: each serial key's sequence goes on after the largest restored key."""
    for table in meta.sorted_tables:
        keys = list(table.primary_key.columns)
        if len(keys) != 1 or _python_type(keys[0]) is not int:
            continue
        col = keys[0].name
        conn.execute(text(
            f"SELECT setval(pg_get_serial_sequence(:t, :c), COALESCE(MAX({col}), 1), "
            f"MAX({col}) IS NOT NULL) FROM {table.name}"), {"t": table.name, "c": col})


def inspect_file(path: Path) -> Manifest:
    """The manifest of a backup, its parts checked (``fido restore --check``)."""
    with _unpacked(Path(path)) as (manifest, _work):
        return manifest

