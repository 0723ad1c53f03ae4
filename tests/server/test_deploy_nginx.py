"""The deployment of docs/deploy.md, tested: Debian's nginx terminating TLS in front of two
``fido serve`` processes on one PostgreSQL, a game played through it from chromium.

The nginx site is docs/deploy.md's own (its ``nginx`` block, with the loopback ports,
the certificate and the log paths of the test put in), so the document cannot drift from
what is tested. The test makes a self-signed certificate (``openssl req``) and runs
nginx unprivileged in a fresh directory (as ``nobody`` when the test runs as root).

Process A starts alone; a person opens a double-6 table with two bots through https
and plays, her page's socket on A (B is down: nginx passes over it). B starts (it loads
the running table as a restarted process does); A is killed (SIGKILL) mid-game. Her page
reconnects by itself, through nginx, to B and she plays the game to its end there.
Checked: her cookies are ``Secure`` over https (uvicorn trusts nginx's
``X-Forwarded-Proto``) and not when B is asked directly over http; nginx's log shows her
socket on A, then on B, and no answer of 500 or more; the page shows no error; the
table's log has every move once and replays, the record's moves being the log's.

While no process answers (every one stopped for a migration), the site's maintenance
answer: 503 with ``Retry-After``, the repository's ``deploy/maintenance.html`` for a page and
``deploy/maintenance.json`` for the API; a process that answers is passed on as it is, its
own 503 too.

Skipped, with the reason, without nginx or openssl (`make test` installs them); the tests
of two processes without PostgreSQL (``tests/with_postgres.py`` runs one).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser

from support.nginx import (
    BOT_DELAY,
    NGINX,
    OPENSSL,
    Nginx,
    frame,
    http_site,
    play_some,
    site,
    sockets_on,
)
from support.postgres import POSTGRES, empty_postgres
from support.server_live import free_port
from support.server_procs import ServerProcess, check_log, check_record, read_log, servers
from support.web_browser import Person

SRC = str(Path(__file__).resolve().parents[2] / "src")

ROOT = Path(SRC).parent

needs_postgres = pytest.mark.skipif(
    not POSTGRES, reason="two servers meet through PostgreSQL: FIDO_TEST_POSTGRES_URL is "
    "not set (tests/with_postgres.py sets it)")

pytestmark = [
    pytest.mark.skipif(NGINX is None, reason="nginx is not installed "
                       "(`make test` installs Debian's package: apt-get install nginx)"),
    pytest.mark.skipif(OPENSSL is None, reason="openssl is not installed, the test's "
                       "certificate needs it (`make test` installs it)"),
]


@needs_postgres
def test_a_game_through_nginx_survives_a_killed_process(browser: Browser,
                                                         tmp_path: Path) -> None:
    assert POSTGRES
    empty_postgres(POSTGRES)
    a, b = (ServerProcess(POSTGRES, tmp_path / f"{name}.log", bot_delay=BOT_DELAY,
                          bot_processes=1) for name in "ab")
    proxy = Nginx((a.port, b.port))
    try:
        with servers(a, b):
            a.start()
            proxy.start()
            anna = Person(browser, proxy.base, seed=3, ignore_https_errors=True)
            try:
                table = anna.create_table("fido", 6, ("me", "bot:greedy", "bot:greedy"))
                # the cookies she got through https are Secure (X-Forwarded-Proto)
                cookies = {c["name"]: c for c in anna.context.cookies()}
                assert cookies["fido_session"]["secure"], cookies["fido_session"]
                assert cookies["fido_csrf"]["secure"], cookies["fido_csrf"]
                anna.page.wait_for_function("() => window.fidoTable && window.fidoTable.view"
                                            " && window.fidoTable.socket"
                                            " && window.fidoTable.socket.readyState === 1")
                play_some(anna, 4)

                # B starts; her socket stays where it is, on A
                b.start()
                direct = httpx.get(f"{b.base}/api/session", timeout=10)
                assert "secure" not in direct.headers["set-cookie"].lower()  # http: not
                play_some(anna, 2)
                assert not anna.state()["over"], "the game ended before A was killed"
                anna.page.evaluate("() => { window.socketOnA = window.fidoTable.socket; }")

                assert not a.kill(), "A's bot worker outlived it"
                # nginx ends her socket; the page opens another, nginx gives it to B
                anna.page.wait_for_function(
                    "() => { const s = window.fidoTable.socket;"
                    " return s && s !== window.socketOnA && s.readyState === 1; }",
                    timeout=30_000)
                on_b = play_some(anna, 1000, timeout=240)  # to the end
                assert anna.state()["over"]
                assert on_b >= 1, "she made no move through B"
                assert sockets_on(proxy, a.port) >= 1, proxy.access()
                wait = time.monotonic() + 10
                anna.page.close()  # her socket on B ends: nginx logs it
                while sockets_on(proxy, b.port) < 1 and time.monotonic() < wait:
                    time.sleep(0.1)
                assert sockets_on(proxy, b.port) >= 1, proxy.access()
                assert not anna.errors, (anna.errors, proxy.access(), proxy.errors())
            finally:
                anna.close()
            failed = [line for line in proxy.access() if line[0] >= "500"]
            assert not failed, failed
            row, log = read_log(POSTGRES, table)
            check_log(log)
            assert row.status == "finished" and row.record is not None
            record = httpx.get(f"{proxy.base}/api/tables/{table}/record", verify=False,
                               timeout=10)
            assert record.status_code == 200, record.text
            check_record(record.text, row, log)
            for process in (a, b):
                assert "Traceback" not in process.output(), process.output()[-3000:]
    finally:
        proxy.stop()


@needs_postgres
@pytest.mark.parametrize(("drop", "failing"), [
    ((), None),  # the document's site as it is
    (("X-Forwarded-Proto",), "proxy"),  # fido is not told the request was HTTPS
    (("proxy_set_header Upgrade", 'Connection "upgrade"'), "websocket"),  # no upgrade
], ids=["docs-site", "no-forwarded-proto", "no-upgrade"])
def test_fido_doctor_passes_the_docs_site_and_fails_a_broken_one(
    tmp_path: Path, drop: tuple[str, ...], failing: str | None, down: int,
) -> None:
    assert POSTGRES
    empty_postgres(POSTGRES)
    a = ServerProcess(POSTGRES, tmp_path / "a.log")
    proxy = Nginx((a.port, down), drop=drop)  # the second process is down
    try:
        with servers(a):
            a.start()
            proxy.start()
            if failing is None:  # a private table's invite, a reset link's token
                for query in ("invite=InviteSecret42", "token=ResetSecret42"):
                    httpx.get(f"{proxy.base}/tables/abcdef123?{query}", verify=False,
                              headers={"Referer": f"{proxy.base}/x?{query}"})
            out = subprocess.run(
                [sys.executable, "-m", "fido.cli", "doctor", "--db", POSTGRES,
                 "--url", proxy.base, "--ca", str(proxy.dir / "cert.pem")],
                env={**os.environ, "PYTHONPATH": SRC}, capture_output=True, text=True,
                timeout=120, check=False, cwd=tmp_path)
            logged = proxy.site_log()
    finally:
        proxy.stop()
    levels = {line.split()[1]: line.split()[0] for line in out.stdout.splitlines()
              if line.split() and line.split()[0] in ("OK", "WARN", "FAIL")}
    expected = {"proxy": "OK", "websocket": "OK"}
    if failing is not None:
        expected[failing] = "FAIL"
    assert {k: levels.get(k) for k in expected} == expected, out.stdout + out.stderr
    assert (out.returncode == 1) == (failing is not None or "FAIL" in levels.values()), \
        out.stdout
    if failing is None:  # the site's log keeps the paths, never a query nor a referrer
        assert "/tables/abcdef123" in logged and "/api/health" in logged, logged
        assert "Secret42" not in logged, logged


def test_the_http_site_answers_the_certificate_challenge_and_sends_the_rest_to_https(
    tmp_path: Path,
) -> None:
    """The port-80 site: the first certificate's bootstrap passes ``nginx -t`` with no
    certificate yet (the https site does not), serves the challenge certbot writes into
    its webroot, and redirects everything else to https."""
    assert NGINX is not None
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "acme").mkdir()
    conf = alone / "nginx.conf"
    conf.write_text(frame(alone, http_site(free_port(), alone / "acme")))
    test = subprocess.run([NGINX, "-t", "-p", str(alone), "-c", str(conf),
                           "-e", str(alone / "error.log")],
                          capture_output=True, text=True, timeout=30, check=False)
    assert test.returncode == 0, test.stderr
    missing = tmp_path / "missing"
    missing.mkdir()
    conf.write_text(frame(missing, site(free_port(), (free_port(), free_port()),
                                        missing / "cert.pem", missing / "key.pem")))
    test = subprocess.run([NGINX, "-t", "-p", str(missing), "-c", str(conf),
                           "-e", str(missing / "error.log")],
                          capture_output=True, text=True, timeout=30, check=False)
    assert test.returncode != 0 and "cert.pem" in test.stderr, test.stderr

    proxy = Nginx((free_port(), free_port()))
    try:
        challenge = proxy.dir / "acme" / ".well-known" / "acme-challenge"
        challenge.mkdir(parents=True)
        (challenge / "tok3n").write_text("tok3n.key-authorization")
        proxy.start()
        http = f"http://127.0.0.1:{proxy.http_port}"
        r = httpx.get(f"{http}/.well-known/acme-challenge/tok3n")
        assert r.status_code == 200 and r.text == "tok3n.key-authorization"
        r = httpx.get(f"{http}/tables/abcdef123?invite=x", follow_redirects=False)
        assert r.status_code == 301
        # to the same host on https's own port (443: the doc's site)
        assert r.headers["location"] == "https://127.0.0.1/tables/abcdef123?invite=x"
        assert "nginx/" not in r.headers.get("server", "")  # server_tokens off
    finally:
        proxy.stop()


def _maintenance(proxy: Nginx) -> None:
    """nginx answers for the stopped processes: the page (and a socket's upgrade) with the
    maintenance page, the API with its JSON error, each 503 with Retry-After."""
    page = (ROOT / "deploy" / "maintenance.html").read_text()
    for method, path in (("GET", "/"), ("GET", "/tables/abcdef123?invite=x"),
                         ("POST", "/tables"), ("GET", "/ws/tables/abcdef123")):
        r = httpx.request(method, f"{proxy.base}{path}", verify=False, timeout=10)
        assert r.status_code == 503, (method, path, r.status_code, r.text[:300])
        assert r.headers["retry-after"] == "30", r.headers
        assert r.headers["content-type"].startswith("text/html"), r.headers
        assert r.text == page
        assert "strict-transport-security" in r.headers  # the location's add_header
    assert "fido is being updated" in page and "fido wird gerade aktualisiert" in page
    assert '<meta http-equiv="refresh" content="15">' in page  # it reloads itself
    for method, path in (("GET", "/api/health"), ("POST", "/api/session")):
        r = httpx.request(method, f"{proxy.base}{path}", verify=False, timeout=10)
        assert r.status_code == 503, (method, path, r.status_code, r.text[:300])
        assert r.headers["retry-after"] == "30", r.headers
        assert r.headers["content-type"] == "application/json", r.headers
        assert r.json()["error"]["code"] == "unavailable", r.text
        assert "fido is being updated" in r.json()["error"]["message"], r.text
    # the file is nginx's own, never served for the asking
    r = httpx.get(f"{proxy.base}/maintenance.html", verify=False, timeout=10)
    assert r.status_code == 404, r.status_code


def test_nginx_answers_with_the_maintenance_page_while_no_process_answers(
    tmp_path: Path, down: int,
) -> None:
    """Before the process starts and after it stops (SIGTERM: systemctl stop), as for an
    upgrade's migration, the maintenance page; while it answers, fido itself."""
    a = ServerProcess(f"sqlite:///{tmp_path / 'fido.db'}", tmp_path / "a.log")
    proxy = Nginx((a.port, down))  # the second process is down throughout
    try:
        with servers(a):
            proxy.start()
            _maintenance(proxy)
            a.start()
            r = httpx.get(f"{proxy.base}/", verify=False, timeout=10)
            assert r.status_code == 200 and "retry-after" not in r.headers, r.status_code
            assert "fido is being updated" not in r.text and "<form" in r.text
            r = httpx.get(f"{proxy.base}/api/health", verify=False, timeout=10)
            assert r.status_code == 200 and r.json()["status"] == "ok", r.text
            assert "retry-after" not in r.headers
            code, orphans = a.stop()
            assert code == 0 and not orphans, (code, orphans)
            _maintenance(proxy)
    finally:
        proxy.stop()


class _Busy(BaseHTTPRequestHandler):
    """A process that answers, with a 503 or a 502 of its own (the store stayed busy)."""

    def do_GET(self) -> None:
        status = 502 if self.path.startswith("/api/gateway") else 503
        body = json.dumps({"error": {"code": "busy", "message": "own answer"}}).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


def test_nginx_passes_a_process_s_own_503_unchanged(tmp_path: Path, down: int) -> None:
    """The maintenance page is nginx's answer when nobody answers, never a replacement of
    what a process said (the site has no proxy_intercept_errors): its 503 and its 502
    reach the browser with its own body, and no Retry-After of nginx's."""
    upstream = ThreadingHTTPServer(("127.0.0.1", free_port()), _Busy)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    proxy = Nginx((upstream.server_address[1], down))
    try:
        proxy.start()
        for path, status in (("/api/tables", 503), ("/lobby", 503), ("/api/gateway", 502)):
            r = httpx.get(f"{proxy.base}{path}", verify=False, timeout=10)
            assert r.status_code == status, (path, r.status_code, r.text[:300])
            assert r.json() == {"error": {"code": "busy", "message": "own answer"}}
            assert "retry-after" not in r.headers
    finally:
        proxy.stop()
        upstream.shutdown()
        upstream.server_close()
