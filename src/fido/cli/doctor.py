"""``fido doctor``: checks a server's configuration and says what to fix.

One line per check, ``OK``, ``WARN`` or ``FAIL``, then a summary; exit code 1
when any check fails. It looks at what ``fido serve`` would use (the same
``--db`` / ``$FIDO_DB``, ``$FIDO_SECRET``, ``--host``, ``$FIDO_FORWARDED_ALLOW_IPS`` or
uvicorn's ``$FORWARDED_ALLOW_IPS``)
and changes nothing: the database is read, never created nor migrated (a
SQLite file is opened read-only), and PostgreSQL's LISTEN/NOTIFY is tried on
a channel of its own. Every check catches its own errors: a broken setup
gives ``FAIL`` lines, never a traceback.

Like ``fido ranking``, an administrator's command: English only.
"""

from __future__ import annotations

import os
import secrets
import shutil
import sqlite3
import ssl
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Literal

import typer
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, inspect, text
from sqlalchemy.engine import URL, make_url

from fido.safe_text import printable
from fido.server.settings import loopback
from fido.store import MIGRATIONS, database_url, db_message

__all__ = ["Check", "doctor_app"]

doctor_app = typer.Typer(
    add_completion=False, help="Check the server's configuration and say what to fix."
)

Level = Literal["OK", "WARN", "FAIL"]

# a secret shorter than this is guessable offline from one signed cookie
SECRET_MIN = 32
# secrets people copy from examples or type when asked for one
WEAK_SECRETS = frozenset({
    "secret", "changeme", "change-me", "change_me", "changeit", "password", "fido",
    "fido-secret", "fido_secret", "default", "test", "dev", "development", "example",
    "123456", "12345678", "admin", "letmein", "qwerty", "xxx", "none", "null",
})
KEEP = 7  # backups to keep by default (a week of daily ones)
PG_OLDEST = 13  # older PostgreSQL versions are out of upstream support


@dataclass(frozen=True)
class Check:
    """One line of the report."""

    level: Level
    name: str
    message: str


@dataclass
class Target:
    """The database as the checks see it (filled by the first checks)."""

    url: str
    parsed: URL | None = None
    engine: Engine | None = None
    sqlite_path: Path | None = None  # a SQLite file's path (None: PostgreSQL, memory)
    revision: str | None = None
    schema: bool = False  # the database holds fido's tables
    notes: list[str] = field(default_factory=list)


def _ok(name: str, message: str) -> Check:
    return Check("OK", name, message)


def _warn(name: str, message: str) -> Check:
    return Check("WARN", name, message)


def _fail(name: str, message: str) -> Check:
    return Check("FAIL", name, message)


def _shown(url: URL | None) -> str:
    if url is None:
        return "the database"
    return url.render_as_string(hide_password=True)


def _size(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError  # pragma: no cover


# ---------------------------------------------------------------- the database


def _sqlite_engine(path: Path) -> Engine:
    """A read-only engine on an existing SQLite file: nothing is created or changed."""
    uri = f"file:{path.resolve()}?mode=ro"
    return create_engine("sqlite://", creator=lambda: sqlite3.connect(uri, uri=True))


def check_database(t: Target) -> Iterator[Check]:
    name = "database"
    try:
        t.parsed = make_url(t.url)
    except Exception:
        yield _fail(name, "not a database URL: give --db sqlite:///PATH or "
                    "postgresql+psycopg://USER@HOST/NAME (or set $FIDO_DB)")
        return
    shown = _shown(t.parsed)
    backend = t.parsed.get_backend_name()
    if backend == "sqlite":
        db = t.parsed.database or ""
        if db in ("", ":memory:") or db.startswith("file::memory:"):
            yield _fail(name, f"{printable(t.url)} is in memory: everything is lost when "
                        "the server stops; give --db sqlite:///PATH or a PostgreSQL URL")
            return
        path = Path(db)
        t.sqlite_path = path
        if not path.is_absolute():
            t.notes.append(f"{db} is relative to the folder fido serve starts in "
                           f"(here: {path.resolve()}): give an absolute path "
                           "(sqlite:////srv/fido/fido.db) in --db or $FIDO_DB")
        if not path.exists():
            folder = path.resolve().parent
            if not folder.is_dir():
                yield _fail(name, f"{shown}: the folder {folder} does not exist; "
                            "make it or give another --db")
            elif not os.access(folder, os.W_OK):
                yield _fail(name, f"{shown}: the folder {folder} is not writable: "
                            "fido serve cannot create the database there")
            else:
                yield _warn(name, f"{shown} does not exist yet: fido serve creates it "
                            "on its first start")
            yield from (_warn(name, note) for note in t.notes)
            return
        if not os.access(path, os.R_OK | os.W_OK):
            yield _fail(name, f"{shown}: the server's user must read and write it "
                        "(check its owner and mode)")
            return
        engine = _sqlite_engine(path)
    elif backend == "postgresql":
        try:
            engine = create_engine(t.url, connect_args={"connect_timeout": 5})
        except Exception as e:
            yield _fail(name, f"{shown}: {db_message(e)} (is psycopg installed?)")
            return
    else:
        yield _fail(name, f"{shown}: fido runs on SQLite or PostgreSQL, not {backend}")
        return
    try:
        with engine.connect() as conn:
            if backend == "sqlite":
                conn.exec_driver_sql("SELECT count(*) FROM sqlite_master").scalar()
                version = f"SQLite {sqlite3.sqlite_version}"
            else:
                version = str(conn.exec_driver_sql("SHOW server_version").scalar())
                version = f"PostgreSQL {version.split()[0]}"
    except Exception as e:
        engine.dispose()
        yield _fail(name, f"{shown} cannot be reached: {db_message(e)}")
        return
    t.engine = engine
    yield _ok(name, f"{shown} reachable ({version})")
    for note in t.notes:
        yield _warn(name, note)


def _head() -> tuple[str | None, set[str], ScriptDirectory]:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    script = ScriptDirectory.from_config(cfg)
    known = {rev.revision for rev in script.walk_revisions()}
    return script.get_current_head(), known, script


def check_migrations(t: Target) -> Iterator[Check]:
    name = "migrations"
    if t.engine is None:
        return
    head, known, script = _head()
    with t.engine.connect() as conn:
        tables = set(inspect(conn).get_table_names())
        current = None
        if "alembic_version" in tables:
            current = conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
    t.revision = current
    t.schema = current is not None
    if current is None:
        if tables:
            yield _fail(name, "the database holds tables but no fido schema revision: "
                        "is it another program's database?")
        else:
            yield _warn(name, f"the database is empty: fido serve creates the schema "
                        f"(revision {head}) on its first start")
        return
    if current == head:
        yield _ok(name, f"the schema is current (revision {head})")
        return
    if current not in known:
        yield _fail(name, f"the database is at revision {current}, which this fido does not "
                    f"know (its newest is {head}): a newer fido migrated it; upgrade fido "
                    "to that version before serving it")
        return
    behind = sum(1 for _ in script.iterate_revisions(head, current))  # current excluded
    yield _warn(name, f"the database is at revision {current}, this fido's is {head} "
                f"({behind} migration{'s' if behind != 1 else ''} to run): back it up, then "
                "start one fido serve alone once (it migrates on start) before the others")


# ---------------------------------------------------------------- the secret


def weakness(secret: str) -> str | None:
    """Why a cookie secret is weak, or None."""
    if secret.strip().lower() in WEAK_SECRETS:
        return "a well-known value"
    if len(secret) < SECRET_MIN:
        return f"{len(secret)} characters, fewer than {SECRET_MIN}"
    if len(set(secret)) < 8:
        return f"only {len(set(secret))} different characters"
    return None


def check_secret(t: Target) -> Iterator[Check]:
    name = "secret"
    fix = ("set $FIDO_SECRET to a random one (e.g. `python3 -c 'import secrets; "
           "print(secrets.token_urlsafe(48))'`) for every fido serve")
    given = os.environ.get("FIDO_SECRET")
    if given:
        why = weakness(given)
        if why:
            yield _fail(name, f"$FIDO_SECRET is weak ({why}): whoever guesses it can sign "
                        f"anyone's session cookie; {fix}")
        else:
            yield _ok(name, "$FIDO_SECRET is set and long enough")
        return
    stored = None
    if t.engine is not None and t.schema:
        with t.engine.connect() as conn:
            stored = conn.execute(
                text("SELECT value FROM settings WHERE key = :key"), {"key": "secret"}
            ).scalar()
    if stored is None:
        yield _ok(name, "$FIDO_SECRET is not set: fido serve makes a random secret on its "
                  "first start and keeps it in the database (every process shares it)")
        return
    why = weakness(stored)
    if why:
        yield _fail(name, f"the secret stored in the database is weak ({why}); {fix}")
    else:
        yield _ok(name, "$FIDO_SECRET is not set: the random secret stored in the database "
                  "signs the cookies (every process shares it; backups hold it)")


# ---------------------------------------------------------------- the environment file

# what a shell does something with in an unquoted value (systemd's EnvironmentFile does not)
_SHELL_SPECIAL = set("&;|<>()$`\\\"' \t")


def check_env_file(path: Path) -> Iterator[Check]:
    """The environment file both systemd (``EnvironmentFile=``) and the administrator's
    shell (the ``fido`` wrapper's ``set -a; . fido.env``) read: each ``NAME=value`` must
    mean the same to both, so a value holding what a shell acts on (``&`` in a database
    URL, a space) is written in single quotes, which both strip. An unquoted ``&`` cut
    ``FIDO_DB`` short in the shell, and the administrator's command wrote into a new
    ``./fido.db``."""
    name = "env-file"
    try:
        lines = path.read_text().splitlines()
    except OSError as e:
        yield _fail(name, f"{printable(str(path))} cannot be read: {e.strerror or e}")
        return
    bad: list[str] = []
    for number, line in enumerate(lines, 1):
        text_ = line.strip()
        if not text_ or text_.startswith("#"):
            continue
        key, eq, value = text_.partition("=")
        if not eq or not key.replace("_", "").isalnum():
            bad.append(f"line {number} is not NAME=value")
            continue
        quoted = len(value) >= 2 and value[0] == value[-1] == "'" and "'" not in value[1:-1]
        if not quoted and _SHELL_SPECIAL & set(value):
            bad.append(f"{key} (line {number}) holds what a shell acts on: write it in "
                       f"single quotes, {key}='...'")
    if bad:
        yield _fail(name, f"{printable(str(path))}: " + "; ".join(bad[:5]))
    else:
        yield _ok(name, f"{printable(str(path))}: every value means the same to systemd "
                  "and to a shell")


# ---------------------------------------------------------------- cookies and TLS


def _trusted(value: str) -> list[str]:
    return [part.strip() for part in value.split(",") if part.strip()]


def check_cookies(host: str) -> Iterator[Check]:
    name = "cookies"
    trusted = _trusted(os.environ.get("FIDO_FORWARDED_ALLOW_IPS")
                       or os.environ.get("FORWARDED_ALLOW_IPS") or "127.0.0.1,::1")
    if "*" in trusted:
        yield _warn(name, "$FIDO_FORWARDED_ALLOW_IPS is '*': anyone who reaches fido serve can "
                    "claim HTTPS and any client address (the rate limits count by address); "
                    "name only the proxy's address")
    if loopback(host):
        yield _ok(name, f"fido serve listens on {host} only: a reverse proxy on this machine "
                  "terminating TLS and sending X-Forwarded-Proto: https makes its cookies "
                  "Secure (uvicorn's proxy headers, trusted from 127.0.0.1)")
        return
    remote = [ip for ip in trusted if ip != "*" and not loopback(ip)]
    if remote:
        yield _warn(name, f"fido serve listens on {host} and trusts proxy headers from "
                    f"{', '.join(remote)}: let only that proxy reach port, or people there "
                    "speak plain HTTP and their cookies go without Secure")
        return
    yield _warn(name, f"fido serve listens on {host} in plain HTTP (it does not speak TLS): "
                "session cookies cross the network readable and without Secure; listen on "
                "127.0.0.1 behind a reverse proxy terminating TLS (docs/deploy.md), or set "
                "$FIDO_FORWARDED_ALLOW_IPS to a proxy on another machine")


def _verify(ca: Path | None) -> ssl.SSLContext | bool:
    """How the public address's certificate is checked: the system's authorities, or
    ``ca``'s (a private authority, a test's self-signed certificate)."""
    return ssl.create_default_context(cafile=str(ca)) if ca is not None else True


def check_public(url: str, ca: Path | None = None) -> Iterator[Check]:
    """The server as people reach it (through the proxy): fido answers there, over HTTPS,
    its cookies come back ``Secure`` (the proxy tells it the request was HTTPS), and the
    tables' WebSocket passes the proxy."""
    import httpx  # noqa: PLC0415

    name = "proxy"
    base = url.rstrip("/")
    if not base.lower().startswith(("http://", "https://")):
        yield _fail(name, f"--url is the address people open, http(s)://HOST/, not "
                    f"{printable(url)}")
        return
    try:
        verify = _verify(ca)
        # two clients, as two first visits: each answer sets the cookies a browser gets
        with httpx.Client(timeout=10, follow_redirects=False, verify=verify) as web:
            health = web.get(f"{base}/api/health")
        with httpx.Client(timeout=10, follow_redirects=False, verify=verify) as web:
            session = web.get(f"{base}/api/session")
    except (httpx.HTTPError, OSError) as e:
        why = printable(e) or type(e).__name__
        yield _fail(name, f"{printable(base)} cannot be reached: {why}")
        return
    try:
        fido = health.status_code == 200 and health.json().get("status") == "ok"
    except ValueError:
        fido = False
    if not fido:
        yield _fail(name, f"{printable(base)}/api/health did not answer as fido does "
                    f"(HTTP {health.status_code}): does the proxy pass requests to fido serve?")
        return
    cookies = [c for answer in (health, session) for c in answer.headers.get_list("set-cookie")
               if c.lower().startswith("fido_csrf=")]
    secure = all("secure" in (part.strip().lower() for part in c.split(";")) for c in cookies)
    if base.lower().startswith("http://"):
        yield _warn(name, f"{printable(base)} is plain HTTP: passwords and session cookies "
                    "cross the network readable; serve it over HTTPS (a proxy terminating "
                    "TLS)")
    elif not cookies:
        yield _fail(name, f"{printable(base)} answers, but fido's cookies do not come back: "
                    "the proxy drops Set-Cookie (nginx: no proxy_hide_header Set-Cookie), "
                    "so nobody can sign in")
    elif not secure:
        yield _fail(name, f"{printable(base)} is HTTPS but fido's cookies come back without "
                    "Secure: the proxy does not tell fido serve the request was HTTPS; send "
                    "X-Forwarded-Proto (nginx: proxy_set_header X-Forwarded-Proto $scheme) "
                    "from an address in $FIDO_FORWARDED_ALLOW_IPS (default 127.0.0.1)")
    else:
        yield _ok(name, f"{printable(base)} answers over HTTPS and fido's cookies are Secure")
    yield from check_websocket(base, ca)


def check_websocket(base: str, ca: Path | None = None, wait: float = 10) -> Iterator[Check]:
    """A table's socket through the proxy: the upgrade passes, and fido answers it (a
    table that cannot exist: it closes with 4404, "no such table") within ``wait``
    seconds."""
    from websockets.exceptions import (  # noqa: PLC0415
        ConnectionClosed,
        InvalidHandshake,
        InvalidStatus,
    )
    from websockets.sync.client import connect  # noqa: PLC0415
    from websockets.typing import Origin  # noqa: PLC0415

    name = "websocket"
    secure = base.lower().startswith("https")
    ws = ("wss" + base[len("https"):]) if secure else ("ws" + base[len("http"):])
    context = ssl.create_default_context(cafile=str(ca) if ca else None) if secure else None
    try:
        with connect(f"{ws}/ws/tables/doctor-check", open_timeout=wait, close_timeout=5,
                     origin=Origin(base), ssl=context) as sock:
            try:
                sock.recv(timeout=wait)
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd is not None else None
            else:
                code = None
    except InvalidStatus as e:
        yield _fail(name, f"the tables' WebSocket does not pass the proxy (HTTP "
                    f"{e.response.status_code} to the upgrade): pass it on (nginx: "
                    "proxy_http_version 1.1; proxy_set_header Upgrade $http_upgrade; "
                    "proxy_set_header Connection \"upgrade\"; in location /ws/)")
        return
    except TimeoutError:  # connected, and nobody answers: not a missing upgrade
        yield _fail(name, f"the tables' WebSocket through {printable(base)} got no answer "
                    f"within {wait:g} s: the proxy waits on something that does not answer "
                    "(is every address in its upstream a fido serve process that is up?)")
        return
    except (InvalidHandshake, OSError, ConnectionClosed) as e:
        yield _fail(name, f"the tables' WebSocket cannot be opened through {printable(base)} "
                    f"({printable(e) or type(e).__name__}): does the proxy pass the upgrade "
                    "on? (nginx: proxy_http_version 1.1; proxy_set_header Upgrade "
                    "$http_upgrade; proxy_set_header Connection \"upgrade\"; in location /ws/)")
        return
    if code != 4404:
        yield _warn(name, f"the tables' WebSocket opens, but fido did not answer as it does "
                    f"for a table that cannot exist (close code {code}, not 4404)")
    else:
        yield _ok(name, "the tables' WebSocket passes the proxy (a table that cannot exist: "
                  "fido closes it with 4404)")


# ---------------------------------------------------------------- disk space


def _database_size(t: Target) -> int | None:
    if t.sqlite_path is not None:
        if not t.sqlite_path.exists():
            return 0
        wal = t.sqlite_path.with_name(t.sqlite_path.name + "-wal")
        return t.sqlite_path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)
    if t.engine is not None and t.engine.dialect.name == "postgresql":
        with t.engine.connect() as conn:
            return int(conn.exec_driver_sql(
                "SELECT pg_database_size(current_database())").scalar() or 0)
    return None


def check_disk(t: Target, backups: Path | None, keep: int) -> Iterator[Check]:
    name = "disk"
    folder = backups
    if folder is None:
        folder = t.sqlite_path.resolve().parent if t.sqlite_path is not None else Path.cwd()
    if not folder.is_dir():
        yield _fail(name, f"the backup folder {folder} does not exist: make it, or give "
                    "--backups FOLDER")
        return
    if not os.access(folder, os.W_OK):
        yield _fail(name, f"the backup folder {folder} is not writable by this user")
        return
    size = _database_size(t)
    if size is None:
        return
    free = shutil.disk_usage(folder).free
    where = f"{_size(free)} free in {folder}"
    if backups is None:
        where += " (give --backups FOLDER for the backups' folder)"
    if not size:
        yield _ok(name, f"{where} (no database yet to measure backups by)")
    elif free < size:
        yield _fail(name, f"{where}, less than the database's {_size(size)}: a backup "
                    "would not fit; free space or back up to another disk")
    elif free < size * keep:
        yield _warn(name, f"{where}: room for {free // size} backup(s) of the database's "
                    f"{_size(size)}, not the {keep} to keep (--keep); free space or keep "
                    "fewer")
    else:
        yield _ok(name, f"{where}: room for {keep} backups of the database's {_size(size)}")


# ---------------------------------------------------------------- PostgreSQL


def check_postgres(t: Target) -> Iterator[Check]:
    if t.engine is None or t.engine.dialect.name != "postgresql":
        return
    with t.engine.connect() as conn:
        number = int(conn.exec_driver_sql("SHOW server_version_num").scalar() or 0)
    major = number // 10000
    if major < PG_OLDEST:
        yield _warn("postgresql", f"version {major} is out of upstream support: "
                    f"upgrade to {PG_OLDEST} or newer")
    else:
        yield _ok("postgresql", f"version {major}")
    yield from _check_notify(t.engine)


def _check_notify(engine: Engine) -> Iterator[Check]:
    """Several fido serve processes meet through LISTEN/NOTIFY: a pooler in transaction
    mode (PgBouncer's default) or a proxy that drops notifications breaks that."""
    import psycopg  # noqa: PLC0415

    name = "notify"
    channel = f"fido_doctor_{secrets.token_hex(4)}"  # never the servers' fido_tables
    args, kwargs = engine.dialect.create_connect_args(engine.url)
    kwargs = {**kwargs, "autocommit": True, "connect_timeout": 5}
    with psycopg.connect(*args, **kwargs) as listener, \
            psycopg.connect(*args, **kwargs) as sender:
        listener.execute(f"LISTEN {channel}")
        started = time.monotonic()
        sender.execute("SELECT pg_notify(%s, %s)", (channel, "doctor"))
        got = [n.payload for n in listener.notifies(timeout=5.0, stop_after=1)]
        took = time.monotonic() - started
    if got == ["doctor"]:
        yield _ok(name, f"LISTEN/NOTIFY works ({took * 1000:.0f} ms): several fido serve "
                  "processes can share the tables")
    else:
        yield _fail(name, "a NOTIFY did not reach a LISTENing connection within 5 s: "
                    "several fido serve processes would not see each other's moves; connect "
                    "them to PostgreSQL directly, not through a pooler in transaction mode")


# ---------------------------------------------------------------- accounts


def check_federation(t: Target, host: str, public: str | None) -> Iterator[Check]:
    """A federation account answers the requests to organise and to be a ranking player;
    without one, a server that people reach from elsewhere must not grant them to whoever
    asks first (``$FIDO_GRANTS``, :func:`fido.server.policy.grants_at_once`)."""
    if t.engine is None or not t.schema:
        return
    with t.engine.connect() as conn:
        n = conn.execute(text(
            "SELECT count(*) FROM account_roles WHERE role = 'federation'")).scalar()
    if n:
        yield _ok("federation", f"{n} federation account{'s' if n != 1 else ''}")
        return
    grants = (os.environ.get("FIDO_GRANTS") or "auto").strip().lower()
    reached = not loopback(host) or public is not None  # from elsewhere, or a proxy
    fix = "sign up on the web, then run `fido accounts grant NAME federation`"
    if grants == "always" and reached:
        yield _fail("federation", "no federation account, and $FIDO_GRANTS=always grants "
                    "organiser roles and player links at once to whoever asks, on a server "
                    f"people reach from elsewhere: unset it (auto), then {fix}")
    elif grants == "always" or (grants == "auto" and not reached):
        yield _warn("federation", "no federation account yet (requests to organise and "
                    f"player links are granted at once to people on this machine): {fix}")
    else:
        yield _warn("federation", "no federation account yet (requests to organise and "
                    f"player links wait for one: nobody can answer them): {fix}")


def check_legal(t: Target, host: str, public: str | None) -> Iterator[Check]:
    """A site people reach from elsewhere shows who runs it (/impressum) and who is
    responsible for their data (/privacy): the operator writes both (``fido legal set``);
    a club's laptop need not."""
    if t.engine is None or not t.schema:
        return
    with t.engine.connect() as conn:
        keys = set(conn.execute(text(
            "SELECT key FROM settings WHERE key LIKE 'legal.%'")).scalars())
    missing = [page for page in ("impressum", "privacy")
               if not any(k.startswith(f"legal.{page}.") for k in keys)]
    if not missing:
        langs = sorted({k.rsplit(".", 1)[1] for k in keys})
        yield _ok("legal", f"/impressum and /privacy are written ({', '.join(langs)})")
        return
    fix = " and ".join(f"`fido legal set {page} FILE`" for page in missing)
    pages = " and ".join(f"/{page}" for page in missing)
    if not loopback(host) or public is not None:  # from elsewhere, or a proxy
        yield _fail("legal", f"{pages} not written, on a server people reach from "
                    f"elsewhere (the law asks a public site for both): {fix} "
                    "(docs/privacy.md)")
    else:
        yield _warn("legal", f"{pages} not written (needed once people reach the server "
                    f"from elsewhere): {fix}")


# ---------------------------------------------------------------- the report


def _guarded(name: str, check: Callable[[], Iterator[Check]]) -> Iterator[Check]:
    """A check's lines; an error it did not expect is a FAIL line, not a traceback."""
    try:
        yield from check()
    except Exception as e:
        yield _fail(name, f"the check stopped: {db_message(e)}")


def run_checks(url: str, host: str, backups: Path | None, keep: int,
               public: str | None = None, *, ca: Path | None = None,
               env_file: Path | None = None) -> list[Check]:
    t = Target(url)
    checks: list[tuple[str, Callable[[], Iterator[Check]]]] = [
        ("database", lambda: check_database(t)),
        ("migrations", lambda: check_migrations(t)),
        ("secret", lambda: check_secret(t)),
        *([("env-file", lambda: check_env_file(env_file))] if env_file is not None else []),
        ("cookies", lambda: check_cookies(host)),
        *([("proxy", lambda: check_public(public, ca))] if public is not None else []),
        ("disk", lambda: check_disk(t, backups, keep)),
        ("postgresql", lambda: check_postgres(t)),
        ("federation", lambda: check_federation(t, host, public)),
        ("legal", lambda: check_legal(t, host, public)),
    ]
    try:
        return [line for name, check in checks for line in _guarded(name, check)]
    finally:
        if t.engine is not None:
            t.engine.dispose()


@contextmanager
def _no_traceback() -> Iterator[None]:
    try:
        yield
    except (typer.Exit, KeyboardInterrupt):
        raise
    except Exception as e:  # the report itself failed: still one line
        typer.echo(f"FAIL  doctor      {printable(db_message(e))}")
        raise typer.Exit(code=1) from None


@doctor_app.command()
def doctor(
    db: Annotated[
        str | None, typer.Option(help="database URL (default: $FIDO_DB or sqlite:///fido.db)")
    ] = None,
    host: Annotated[
        str, typer.Option(help="the address fido serve listens on (its --host)")
    ] = "127.0.0.1",
    backups: Annotated[
        Path | None,
        typer.Option(help="the folder backups go to (default: the SQLite file's folder, "
                     "else the current one)"),
    ] = None,
    keep: Annotated[
        int, typer.Option(min=1, max=1_000_000, help="backups to keep there")
    ] = KEEP,
    url: Annotated[
        str | None,
        typer.Option(help="the address people open (https://fido.example.org/): asks the "
                     "running server through the proxy whether its cookies are Secure "
                     "and its tables' WebSocket passes"),
    ] = None,
    *,
    ca: Annotated[
        Path | None,
        typer.Option(exists=True, dir_okay=False,
                     help="the certificate authority that signed --url's certificate "
                     "(PEM), if not one the system trusts"),
    ] = None,
    env_file: Annotated[
        Path | None,
        typer.Option(help="the environment file the service and the administrator's "
                     "commands read (/etc/fido/fido.env): each value must mean the same "
                     "to systemd and to a shell"),
    ] = None,
) -> None:
    """Check the database, the migrations, the secret, cookie security (with --url: through
    the proxy), disk space for backups (and PostgreSQL's LISTEN/NOTIFY); exit code 1 when a
    check fails."""
    with _no_traceback():
        lines = run_checks(database_url(db), host, backups, keep, url, ca=ca,
                           env_file=env_file)
        for c in lines:
            typer.echo(f"{c.level:<5} {c.name:<11} {printable(c.message)}")
        fails = sum(c.level == "FAIL" for c in lines)
        warns = sum(c.level == "WARN" for c in lines)
        typer.echo(f"{fails} failed, {warns} warning{'s' if warns != 1 else ''}, "
                   f"{len(lines) - fails - warns} ok")
    if fails:
        raise typer.Exit(code=1)
