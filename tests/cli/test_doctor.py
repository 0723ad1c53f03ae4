"""The administrator's first day: ``fido serve`` on an empty database says how to make
the first federation account, and ``fido doctor`` checks the configuration.

Every check runs the real command in a fresh process (``python -m fido.cli``)
and reads its lines: ``LEVEL NAME message``, then a summary; exit code 1 when
a line is ``FAIL``. Each check has its OK case and its WARN or FAIL case; no
output ever holds a traceback, and the doctor changes nothing it looks at.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import socket
import sqlite3
import ssl
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, text

from fido.cli.doctor import check_websocket
from fido.store import MIGRATIONS, migrate, open_store
from support.server_live import free_port, stranger
from support.server_procs import SRC, ServerProcess, servers

POSTGRES = os.environ.get("FIDO_TEST_POSTGRES_URL")
STRONG = "o2Vd8kQ-1fZr7xWm3pLs9aTb4nYc6hJe5uGi0qRt"  # 40 characters, many different


def _head() -> str:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    head = ScriptDirectory.from_config(cfg).get_current_head()
    assert head is not None
    return head


HEAD = _head()  # the newest migration shipped


def fido(*args: str, cwd: Path, **env: str) -> tuple[int, str]:
    """``fido args`` in a fresh process, without the caller's FIDO_* settings."""
    base = {k: v for k, v in os.environ.items()
            if k not in ("FIDO_DB", "FIDO_SECRET", "FORWARDED_ALLOW_IPS")}
    out = subprocess.run(
        [sys.executable, "-m", "fido.cli", *args], capture_output=True, text=True,
        timeout=120, check=False, cwd=cwd,
        env={**base, "PYTHONPATH": SRC, "COLUMNS": "200", **env},
    )
    text_ = out.stdout + out.stderr
    assert "Traceback" not in text_, text_
    return out.returncode, text_


def doctor(*args: str, cwd: Path, **env: str) -> tuple[int, dict[str, list[str]], str]:
    """``fido doctor args``: its exit code, its lines by check ("LEVEL message"), all."""
    code, out = fido("doctor", *args, cwd=cwd, **env)
    lines: dict[str, list[str]] = {}
    *checks, summary = out.strip().splitlines()
    for line in checks:
        level, name, message = line.split(None, 2)
        assert level in ("OK", "WARN", "FAIL"), out
        lines.setdefault(name, []).append(f"{level} {message}")
    fails = sum(v.startswith("FAIL") for vs in lines.values() for v in vs)
    assert summary.startswith(f"{fails} failed,"), out
    assert code == (1 if fails else 0), out
    return code, lines, out


def write_legal_pages(url: str, cwd: Path) -> None:
    """The Impressum and the privacy page, as the administrator's first day writes them."""
    for page in ("impressum", "privacy"):
        (cwd / f"{page}.md").write_text(f"# {page}\n\nAnna Beispiel, Rostock\n")
        code, out = fido("legal", "set", page, str(cwd / f"{page}.md"), "--db", url, cwd=cwd)
        assert code == 0 and f"/{page} (en) written" in out, out


def levels(lines: dict[str, list[str]], name: str) -> list[str]:
    return [line.split()[0] for line in lines.get(name, [])]


def sqlite_db(tmp_path: Path, revision: str = "head") -> tuple[str, Path]:
    path = tmp_path / "fido.db"
    engine = create_engine(f"sqlite:///{path}")
    migrate(engine, revision)
    engine.dispose()
    return f"sqlite:///{path}", path


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ---------------------------------------------------------------- the first day


def test_the_first_day_from_fido_serve_to_a_clean_doctor(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'club.db'}"
    server = ServerProcess(url, tmp_path / "serve.log")
    with servers(server):
        server.start()
        out = server.output()
        assert "No federation account yet" in out, out
        assert f"fido accounts grant NAME federation --db '{url}'" in out, out
        assert "fido doctor" in out
        # she follows it: signs up on the web, then grants herself the role
        with httpx.Client(base_url=server.base, timeout=20) as web:
            web.get("/api/session")
            r = web.post("/api/accounts", json={"name": "Anna", "password": "a long pass 42"},
                         headers={"X-CSRF-Token": web.cookies["fido_csrf"]})
            assert r.status_code == 201, r.text
        server.stop()
    code, out = fido("accounts", "grant", "Anna", "federation", "--db", url, cwd=tmp_path)
    assert code == 0 and "Anna is federation" in out, out
    # the next start says nothing of it
    again = ServerProcess(url, tmp_path / "again.log")
    with servers(again):
        again.start()
        assert "No federation account" not in again.output()
        assert "fido server at" in again.output()
        again.stop()
    # and writes who runs the site, and who answers for the data held (fido legal)
    write_legal_pages(url, tmp_path)
    code, lines, out = doctor("--db", url, cwd=tmp_path)
    assert code == 0, out
    assert {level for name in lines for level in levels(lines, name)} == {"OK"}, out
    assert "stored in the database" in lines["secret"][0]  # made by the first start
    assert lines["federation"] == ["OK 1 federation account"]
    assert lines["legal"] == ["OK /impressum and /privacy are written (en)"]
    assert out.strip().endswith("0 failed, 0 warnings, 7 ok")


def test_without_a_federation_account_the_doctor_says_how_to_make_one(tmp_path: Path) -> None:
    url, _ = sqlite_db(tmp_path)
    code, lines, _out = doctor("--db", url, cwd=tmp_path, FIDO_SECRET=STRONG)
    assert code == 0
    assert levels(lines, "federation") == ["WARN"]
    assert "fido accounts grant NAME federation" in lines["federation"][0]
    assert "granted at once to people on this machine" in lines["federation"][0]


@pytest.mark.parametrize(("grants", "level", "said"), [
    ("", "WARN", "wait for one"),  # auto: nothing is granted to the internet
    ("always", "FAIL", "grants organiser roles and player links at once to whoever asks"),
])
def test_a_public_server_without_a_federation(tmp_path: Path, grants: str, level: str,
                                              said: str) -> None:
    url, _ = sqlite_db(tmp_path)
    _code, lines, out = doctor("--db", url, "--host", "0.0.0.0", cwd=tmp_path,
                              FIDO_SECRET=STRONG, FIDO_GRANTS=grants)
    assert levels(lines, "federation") == [level], out
    assert said in lines["federation"][0], out


def test_a_public_server_without_its_legal_pages_fails(tmp_path: Path) -> None:
    url, _ = sqlite_db(tmp_path)
    code, lines, out = doctor("--db", url, "--host", "0.0.0.0", cwd=tmp_path,
                              FIDO_SECRET=STRONG)
    assert code == 1 and levels(lines, "legal") == ["FAIL"], out
    assert "`fido legal set impressum FILE` and `fido legal set privacy FILE`" in out
    _code, lines, out = doctor("--db", url, cwd=tmp_path, FIDO_SECRET=STRONG)  # loopback
    assert levels(lines, "legal") == ["WARN"], out
    (tmp_path / "i.md").write_text("Verein, Straße 1\n", encoding="utf-8")
    assert fido("legal", "set", "impressum", str(tmp_path / "i.md"), "--lang", "de",
                "--db", url, cwd=tmp_path)[0] == 0
    _code, lines, out = doctor("--db", url, "--host", "0.0.0.0", cwd=tmp_path,
                               FIDO_SECRET=STRONG)
    assert levels(lines, "legal") == ["FAIL"] and "/privacy not written" in out, out
    # a text with a terminal's escape, or not UTF-8, is refused and changes nothing
    (tmp_path / "bad.md").write_bytes(b"Verein \x1b[2J\n")
    (tmp_path / "latin1.md").write_bytes("Stra\u00dfe".encode("latin-1"))
    (tmp_path / "huge.md").write_bytes(b"x" * 300_000)  # read no further than a page
    for bad, said in (("bad.md", "control characters: U+001B"), ("latin1.md", "not UTF-8"),
                      ("huge.md", "longer than a page may be")):
        code, out = fido("legal", "set", "privacy", str(tmp_path / bad), "--db", url,
                         cwd=tmp_path)
        assert code == 1 and said in out and "\x1b" not in out, out
    code, out = fido("legal", "show", "--db", url, cwd=tmp_path)
    assert code == 0 and "/impressum: de" in out and "/privacy: not written" in out, out


# ---------------------------------------------------------------- the database


@pytest.mark.parametrize(("url", "said"), [
    ("postgresql+psycopg://fido@127.0.0.1:{down}/fido", "cannot be reached"),
    ("sqlite:////no/such/folder/fido.db", "does not exist"),
    ("not a url at all", "not a database URL"),
    ("mysql://fido@localhost/fido", "SQLite or PostgreSQL"),
    ("sqlite:///:memory:", "in memory"),
])
def test_a_database_it_cannot_use_fails(tmp_path: Path, url: str, said: str, down: int) -> None:
    code, lines, out = doctor("--db", url.replace("{down}", str(down)), cwd=tmp_path,
                              FIDO_SECRET=STRONG)
    assert code == 1
    assert levels(lines, "database") == ["FAIL"], out
    assert said in lines["database"][0]
    assert "migrations" not in lines  # nothing to check behind it
    assert levels(lines, "secret") == ["OK"]  # the others still run


def test_a_password_in_the_url_is_never_shown(tmp_path: Path, down: int) -> None:
    url = f"postgresql+psycopg://fido:hunter2secret@127.0.0.1:{down}/fido"
    code, _lines, out = doctor("--db", url, cwd=tmp_path)
    assert code == 1 and "hunter2secret" not in out and "***" in out


def test_fido_db_is_read_from_the_environment(tmp_path: Path) -> None:
    url, _ = sqlite_db(tmp_path)
    code, lines, out = doctor(cwd=tmp_path, FIDO_DB=url, FIDO_SECRET=STRONG)
    assert code == 0 and url in lines["database"][0], out


def test_a_database_not_made_yet_warns_and_is_not_made(tmp_path: Path) -> None:
    code, lines, out = doctor(cwd=tmp_path, FIDO_SECRET=STRONG)  # sqlite:///fido.db here
    assert code == 0
    assert levels(lines, "database") == ["WARN", "WARN"], out
    assert "fido serve creates it" in lines["database"][0]
    assert "relative" in lines["database"][1]  # the default is the folder it starts in
    assert not (tmp_path / "fido.db").exists()


def test_a_file_that_is_no_database_fails(tmp_path: Path) -> None:
    (tmp_path / "fido.db").write_text("these are my notes, not a database\n" * 100)
    code, lines, out = doctor("--db", f"sqlite:///{tmp_path / 'fido.db'}", cwd=tmp_path)
    assert code == 1 and levels(lines, "database") == ["FAIL"], out


# ---------------------------------------------------------------- migrations


def test_a_current_schema_is_ok_and_the_doctor_changes_nothing(tmp_path: Path) -> None:
    url, path = sqlite_db(tmp_path)
    before, files = digest(path), sorted(os.listdir(tmp_path))
    code, lines, out = doctor("--db", url, cwd=tmp_path, FIDO_SECRET=STRONG)
    assert code == 0
    assert lines["migrations"] == [f"OK the schema is current (revision {HEAD})"], out
    assert digest(path) == before and sorted(os.listdir(tmp_path)) == files


def test_a_database_behind_on_migrations_warns_and_stays_behind(tmp_path: Path) -> None:
    url, path = sqlite_db(tmp_path, "0014")
    code, lines, out = doctor("--db", url, cwd=tmp_path, FIDO_SECRET=STRONG)
    assert code == 0
    assert levels(lines, "migrations") == ["WARN"], out
    said = lines["migrations"][0]
    assert "revision 0014" in said and HEAD in said and "fido serve" in said
    assert f"{int(HEAD) - 14} migrations to run" in said
    with sqlite3.connect(path) as conn:  # not migrated by the doctor
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone() == ("0014",)


def test_a_database_from_a_newer_fido_fails(tmp_path: Path) -> None:
    url, path = sqlite_db(tmp_path)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '0099'")
    code, lines, out = doctor("--db", url, cwd=tmp_path, FIDO_SECRET=STRONG)
    assert code == 1
    assert levels(lines, "migrations") == ["FAIL"], out
    assert "0099" in lines["migrations"][0] and "upgrade fido" in lines["migrations"][0]


def test_an_empty_database_warns_that_serve_makes_the_schema(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    sqlite3.connect(path).close()
    code, lines, out = doctor("--db", f"sqlite:///{path}", cwd=tmp_path, FIDO_SECRET=STRONG)
    assert code == 0 and levels(lines, "migrations") == ["WARN"], out
    assert "empty" in lines["migrations"][0]


# ---------------------------------------------------------------- the secret


@pytest.mark.parametrize(("secret", "why"), [
    ("secret", "well-known"),
    ("changeme", "well-known"),
    ("my-own-little-secret", "fewer than 32"),
    ("ab" * 30, "different characters"),
])
def test_a_weak_secret_fails(tmp_path: Path, secret: str, why: str) -> None:
    url, _ = sqlite_db(tmp_path)
    code, lines, out = doctor("--db", url, cwd=tmp_path, FIDO_SECRET=secret)
    assert code == 1
    assert levels(lines, "secret") == ["FAIL"], out
    assert why in lines["secret"][0] and "FIDO_SECRET" in lines["secret"][0]
    assert secret == "secret" or secret not in out  # never repeated (but a word of it)


def test_a_strong_secret_is_ok(tmp_path: Path) -> None:
    url, _ = sqlite_db(tmp_path)
    code, lines, out = doctor("--db", url, cwd=tmp_path, FIDO_SECRET=STRONG)
    assert code == 0 and levels(lines, "secret") == ["OK"] and STRONG not in out


def test_a_weak_stored_secret_fails(tmp_path: Path) -> None:
    url, path = sqlite_db(tmp_path)
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO settings (key, value) VALUES ('secret', 'fido')")
    code, lines, out = doctor("--db", url, cwd=tmp_path)
    assert code == 1 and levels(lines, "secret") == ["FAIL"], out
    assert "stored in the database" in lines["secret"][0]


# ---------------------------------------------------------------- cookies behind a proxy


def test_loopback_behind_a_proxy_is_ok(tmp_path: Path) -> None:
    for host in ("127.0.0.1", "::1", "localhost"):
        _code, lines, out = doctor("--db", "sqlite:///x.db", "--host", host, cwd=tmp_path)
        assert levels(lines, "cookies") == ["OK"], out
        assert "X-Forwarded-Proto" in lines["cookies"][0]


def test_a_public_address_in_plain_http_warns(tmp_path: Path) -> None:
    _code, lines, out = doctor("--db", "sqlite:///x.db", "--host", "0.0.0.0", cwd=tmp_path)
    assert levels(lines, "cookies") == ["WARN"], out
    assert "Secure" in lines["cookies"][0] and "127.0.0.1" in lines["cookies"][0]


def test_a_proxy_on_another_machine_is_named(tmp_path: Path) -> None:
    _code, lines, out = doctor("--db", "sqlite:///x.db", "--host", "10.0.0.2", cwd=tmp_path,
                               FORWARDED_ALLOW_IPS="10.0.0.1")
    assert levels(lines, "cookies") == ["WARN"], out
    assert "10.0.0.1" in lines["cookies"][0]


def test_trusting_every_address_warns(tmp_path: Path) -> None:
    _code, lines, out = doctor("--db", "sqlite:///x.db", cwd=tmp_path, FORWARDED_ALLOW_IPS="*")
    assert levels(lines, "cookies") == ["WARN", "OK"], out
    assert "'*'" in lines["cookies"][0]


# ---------------------------------------------------------------- through the proxy


@contextlib.contextmanager
def tls_proxy(backend: str, tmp_path: Path, *, forwarded_proto: bool) -> Iterator[str]:
    """A reverse proxy terminating TLS (a self-signed certificate made here) in front of
    ``backend``, that sends ``X-Forwarded-Proto: https`` as nginx is told to, or not (the
    mistake the doctor finds). Yields its https:// address; the certificate is
    trusted through ``SSL_CERT_FILE``."""
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True, timeout=60)

    class Forward(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            headers = {"X-Forwarded-Proto": "https"} if forwarded_proto else {}
            r = httpx.get(backend + self.path, headers=headers, timeout=20)
            self.send_response(r.status_code)
            for name, value in r.headers.multi_items():
                if name.lower() not in ("content-length", "transfer-encoding", "connection",
                                        "content-encoding"):
                    self.send_header(name, value)
            self.send_header("Content-Length", str(len(r.content)))
            self.end_headers()
            self.wfile.write(r.content)

        def log_message(self, *_args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", free_port()), Forward)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"https://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=10)


@pytest.mark.skipif(shutil.which("openssl") is None, reason="no openssl to make a certificate")
def test_cookies_through_the_proxy(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'fido.db'}"
    server = ServerProcess(url, tmp_path / "serve.log")
    cert = str(tmp_path / "cert.pem")
    with servers(server):
        server.start()
        write_legal_pages(url, tmp_path)  # a public site's, so that they pass
        # a proxy that tells fido the request was HTTPS: Secure cookies
        with tls_proxy(server.base, tmp_path, forwarded_proto=True) as public:
            code, lines, out = doctor("--db", url, "--url", public, cwd=tmp_path,
                                      FIDO_SECRET=STRONG, SSL_CERT_FILE=cert)
        assert levels(lines, "proxy") == ["OK"], out
        assert "Secure" in lines["proxy"][0]
        # this proxy passes no WebSocket upgrade: the tables cannot be played through it
        assert code == 1 and levels(lines, "websocket") == ["FAIL"], out
        assert "Upgrade" in lines["websocket"][0]
        # one that does not (nginx without proxy_set_header X-Forwarded-Proto)
        with tls_proxy(server.base, tmp_path, forwarded_proto=False) as public:
            code, lines, out = doctor("--db", url, "--url", public, cwd=tmp_path,
                                      FIDO_SECRET=STRONG, SSL_CERT_FILE=cert)
        assert code == 1 and levels(lines, "proxy") == ["FAIL"], out
        assert "X-Forwarded-Proto" in lines["proxy"][0]
        # fido itself in plain HTTP, as people would reach a server on a public address
        code, lines, out = doctor("--db", url, "--url", server.base, cwd=tmp_path,
                                  FIDO_SECRET=STRONG)
        assert code == 0 and levels(lines, "proxy") == ["WARN"], out
        assert "plain HTTP" in lines["proxy"][0]
        assert levels(lines, "websocket") == ["OK"], out  # fido itself answers the upgrade
        server.stop()


@pytest.mark.parametrize(("url", "said"), [
    ("http://127.0.0.1:{down}/", "cannot be reached"),
    ("fido.example.org", "the address people open"),
])
def test_a_public_address_it_cannot_use_fails(tmp_path: Path, url: str, said: str,
                                              down: int) -> None:
    code, lines, out = doctor("--db", "sqlite:///x.db", "--url",
                              url.replace("{down}", str(down)), cwd=tmp_path)
    assert code == 1 and levels(lines, "proxy") == ["FAIL"], out
    assert said in lines["proxy"][0]


def test_a_public_address_that_is_not_fido_fails(tmp_path: Path) -> None:
    with stranger(b"<h1>Welcome to nginx!</h1>") as port:
        code, lines, out = doctor("--db", "sqlite:///x.db", "--url",
                                  f"http://127.0.0.1:{port}", cwd=tmp_path)
    assert code == 1 and levels(lines, "proxy") == ["FAIL"], out
    assert "did not answer as fido does" in lines["proxy"][0]


# ---------------------------------------------------------------- disk space for backups


def test_room_for_the_backups_is_ok(tmp_path: Path) -> None:
    url, _ = sqlite_db(tmp_path)
    backups = tmp_path / "backups"
    backups.mkdir()
    code, lines, out = doctor("--db", url, "--backups", str(backups), cwd=tmp_path,
                              FIDO_SECRET=STRONG)
    assert code == 0 and levels(lines, "disk") == ["OK"], out
    assert str(backups) in lines["disk"][0] and "room for 7 backups" in lines["disk"][0]


def test_too_little_room_for_the_backups_to_keep_warns(tmp_path: Path) -> None:
    url, _ = sqlite_db(tmp_path)
    code, lines, out = doctor("--db", url, "--keep", "1000000", cwd=tmp_path,
                              FIDO_SECRET=STRONG)
    assert code == 0  # a warning
    assert levels(lines, "disk") == ["WARN"], out
    assert "not the 1000000 to keep" in lines["disk"][0]


def test_no_room_for_one_backup_fails(tmp_path: Path) -> None:
    url, path = sqlite_db(tmp_path)
    free = shutil.disk_usage(tmp_path).free
    try:  # the file as big as the disk's free space and more, but sparse: no room taken
        with path.open("r+b") as f:
            f.truncate(free * 2 + 2**30)
    except OSError:
        pytest.skip("this filesystem holds no sparse file that large")
    code, lines, out = doctor("--db", url, cwd=tmp_path, FIDO_SECRET=STRONG)
    assert code == 1
    assert levels(lines, "disk") == ["FAIL"], out
    assert "would not fit" in lines["disk"][0]


def test_a_missing_backup_folder_fails(tmp_path: Path) -> None:
    url, _ = sqlite_db(tmp_path)
    code, lines, out = doctor("--db", url, "--backups", str(tmp_path / "nope"), cwd=tmp_path,
                              FIDO_SECRET=STRONG)
    assert code == 1 and levels(lines, "disk") == ["FAIL"], out


# ---------------------------------------------------------------- PostgreSQL


@pytest.mark.skipif(not POSTGRES, reason="FIDO_TEST_POSTGRES_URL is not set "
                    "(tests/with_postgres.py sets it)")
def test_postgresql_version_and_listen_notify(tmp_path: Path) -> None:
    assert POSTGRES
    open_store(POSTGRES).close()
    code, lines, out = doctor("--db", POSTGRES, "--backups", str(tmp_path), cwd=tmp_path,
                              FIDO_SECRET=STRONG)
    assert code == 0, out
    assert levels(lines, "database") == ["OK"] and "PostgreSQL" in lines["database"][0], out
    assert levels(lines, "migrations") == ["OK"], out
    assert levels(lines, "postgresql") == ["OK"], out
    assert levels(lines, "notify") == ["OK"] and "LISTEN/NOTIFY" in lines["notify"][0], out
    assert levels(lines, "disk") == ["OK"], out
    # behind on migrations there too, stamped older; the doctor leaves it so
    engine = create_engine(POSTGRES)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0016'"))
    try:
        _code, lines, out = doctor("--db", POSTGRES, cwd=tmp_path, FIDO_SECRET=STRONG)
        assert levels(lines, "migrations") == ["WARN"] and "0016" in lines["migrations"][0]
        with engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() \
                == "0016"
    finally:
        with engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = :h"), {"h": HEAD})
        engine.dispose()


# ---------------------------------------------------------------- the environment file


def _doc_env_lines() -> list[str]:
    """The lines of /etc/fido/fido.env that docs/deploy.md shows."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "deploy.md").read_text()
    shown = [line[4:] for line in doc.splitlines()
             if re.match(r"    (#|FIDO_[A-Z_]+=)", line)]
    assert any(line.startswith("FIDO_DB=") for line in shown), shown
    return shown


def test_the_docs_env_file_means_the_same_to_systemd_and_a_shell(tmp_path: Path) -> None:
    env = tmp_path / "fido.env"
    env.write_text("\n".join(_doc_env_lines()) + "\n")
    url, _ = sqlite_db(tmp_path)
    _code, lines, out = doctor("--db", url, "--env-file", str(env), cwd=tmp_path,
                               FIDO_SECRET=STRONG)
    assert levels(lines, "env-file") == ["OK"], out


@pytest.mark.parametrize(("line", "key"), [
    ("FIDO_DB=postgresql+psycopg://fido@db/fido?sslmode=require&connect_timeout=5", "FIDO_DB"),
    ("FIDO_MAIL_FROM=fido <fido@example.org>", "FIDO_MAIL_FROM"),
    ("FIDO_SECRET=abc   # a comment the shell drops and systemd keeps", "FIDO_SECRET"),
])
def test_an_env_file_a_shell_reads_otherwise_fails(tmp_path: Path, line: str, key: str) -> None:
    env = tmp_path / "fido.env"
    env.write_text(f"# the service's settings\nFIDO_GRANTS=auto\n{line}\n")
    url, _ = sqlite_db(tmp_path)
    code, lines, out = doctor("--db", url, "--env-file", str(env), cwd=tmp_path,
                              FIDO_SECRET=STRONG)
    assert code == 1 and levels(lines, "env-file") == ["FAIL"], out
    assert f"{key} (line 3)" in lines["env-file"][0] and "single quotes" in out



def test_a_socket_nobody_answers_is_told_apart_from_a_proxy_without_the_upgrade(
    down: int,
) -> None:
    """A proxy that connects and waits on something that never answers (an upstream that
    is no fido) is no missing upgrade: the doctor says it waited, and on what; a port
    that refuses is the other failure, with the upgrade's lines."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)  # connects, and never says a word
        port = silent.getsockname()[1]
        [check] = check_websocket(f"http://127.0.0.1:{port}", wait=0.5)
    assert check.level == "FAIL", check
    assert "no answer within 0.5 s" in check.message and "upstream" in check.message
    assert "Upgrade" not in check.message, check.message
    [check] = check_websocket(f"http://127.0.0.1:{down}", wait=0.5)
    assert check.level == "FAIL" and "proxy_set_header Upgrade" in check.message, check
