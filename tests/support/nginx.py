"""nginx in front of fido serve for the tests, configured with docs/deploy.md's own site: a
self-signed certificate, loopback ports, unprivileged."""

from __future__ import annotations

import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from support.server_live import free_port
from support.web_browser import Person

ROOT = Path(__file__).resolve().parents[2]


NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx")
                                   else None)


OPENSSL = shutil.which("openssl")


BOT_DELAY = 0.05  # seconds a bot waits: the game goes quickly, a person can still follow


def _blocks() -> list[str]:
    """docs/deploy.md's nginx blocks: the http site (port 80), then the https site."""
    doc = (ROOT / "docs" / "deploy.md").read_text()
    found = re.findall(r"```nginx\n(.*?)```", doc, re.S)
    assert len(found) == 2, "docs/deploy.md has not its two nginx blocks"
    return found


def _sub(text: str, pattern: str, new: str, count: int) -> str:
    text, n = re.subn(pattern, new, text, flags=re.M)
    assert n == count, f"docs/deploy.md's nginx block: {pattern!r} found {n} times"
    return text


def http_site(port: int, webroot: Path) -> str:
    """docs/deploy.md's port-80 site (the certificate's challenge, the redirect), on the
    test's port and webroot."""
    text = _blocks()[0]
    text = _sub(text, r"^\s*listen \[::\]:80;\n", "", 1)
    text = _sub(text, r"listen 80;", f"listen 127.0.0.1:{port};", 1)
    return _sub(text, r"root /var/www/letsencrypt;", f"root {webroot};", 1)


def site(port: int, upstreams: tuple[int, int], cert: Path, key: Path,
         drop: tuple[str, ...] = ()) -> str:
    """docs/deploy.md's https site, on the test's ports and certificate; without the lines
    that hold one of ``drop`` (a site misconfigured on purpose)."""
    text = _blocks()[1]

    def sub(pattern: str, new: str, count: int) -> None:
        nonlocal text
        text = _sub(text, pattern, new, count)

    # the upstreams: the two processes (the document's 8001 and 8002)
    sub(r"server 127\.0\.0\.1:8001\b", f"server 127.0.0.1:{upstreams[0]}", 1)
    sub(r"server 127\.0\.0\.1:8002\b", f"server 127.0.0.1:{upstreams[1]}", 1)
    sub(r"^\s*listen \[::\]:443 .*\n", "", 1)
    sub(r"listen 443 ssl", f"listen 127.0.0.1:{port} ssl", 1)
    sub(r"ssl_certificate \S+;", f"ssl_certificate {cert};", 1)
    sub(r"ssl_certificate_key \S+;", f"ssl_certificate_key {key};", 1)
    # the site's own log in the test's directory, and beside it the test's log of which
    # process answered (a server's access_log replaces the http block's)
    sub(r"access_log /var/log/nginx/fido\.access\.log fido_private;",
        f"access_log {cert.parent / 'fido.access.log'} fido_private;\n"
        f"    access_log {cert.parent / 'access.log'} upstreams;", 1)
    # the release's maintenance answers (/opt/fido/deploy): the copy beside the certificate
    sub(r"root /opt/fido/deploy;", f"root {cert.parent / 'deploy'};", 1)
    for part in drop:
        kept = [line for line in text.splitlines() if part not in line]
        assert len(kept) < len(text.splitlines()), f"the site has no line with {part!r}"
        text = "\n".join(kept) + "\n"
    return text


def frame(where: Path, sites: str) -> str:
    """Debian's nginx.conf around ``sites`` (its ``http`` block), every file of nginx's
    in ``where`` (pid, logs, buffers): nothing of the system's is touched."""
    temp = "\n".join(f"    {kind}_temp_path {where / kind};"
                     for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return f"""daemon off;
worker_processes 1;
pid {where / "nginx.pid"};
error_log {where / "error.log"} info;
events {{ worker_connections 256; }}
http {{
{temp}
    log_format upstreams '$status $request_method $uri $upstream_addr';
    access_log {where / "access.log"} upstreams;
{sites}
}}
"""


def configuration(where: Path, port: int, upstreams: tuple[int, int],
                  drop: tuple[str, ...] = (), http_port: int | None = None) -> Path:
    """nginx.conf with both of the document's sites (the https one on ``port``, the
    port-80 one on ``http_port`` with its webroot ``where/acme``), and the repository's
    ``deploy/`` (the maintenance page) copied to ``where/deploy``."""
    cert, key = where / "cert.pem", where / "key.pem"
    subprocess.run([str(OPENSSL), "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                    "-keyout", str(key), "-out", str(cert), "-days", "2",
                    "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                   check=True, capture_output=True, timeout=60)
    shutil.copytree(ROOT / "deploy", where / "deploy", dirs_exist_ok=True)
    sites = site(port, upstreams, cert, key, drop)
    if http_port is not None:
        (where / "acme").mkdir(exist_ok=True)
        sites = http_site(http_port, where / "acme") + sites
    conf = where / "nginx.conf"
    conf.write_text(frame(where, sites))
    return conf


class Nginx:
    """nginx on ``port`` (https) before the processes at ``upstreams``, in a directory of
    its own, unprivileged (``drop``: :func:`site`'s); its certificate is ``dir/cert.pem``."""

    def __init__(self, upstreams: tuple[int, int], drop: tuple[str, ...] = ()) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="fido-nginx-"))
        self.port, self.http_port = free_port(), free_port()
        self.conf = configuration(self.dir, self.port, upstreams, drop, self.http_port)
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    def start(self) -> None:
        assert NGINX is not None
        user: dict[str, object] = {}
        if os.geteuid() == 0:  # never as root: nobody, who owns its directory
            pw = pwd.getpwnam("nobody")
            for path in [self.dir, *self.dir.rglob("*")]:
                os.chown(path, pw.pw_uid, pw.pw_gid)
            user = {"user": pw.pw_uid, "group": pw.pw_gid, "extra_groups": []}
        with (self.dir / "nginx.out").open("wb") as out:
            self.proc = subprocess.Popen(  # type: ignore[call-overload]
                [NGINX, "-p", str(self.dir), "-c", str(self.conf),
                 "-e", str(self.dir / "error.log")],
                stdout=out, stderr=subprocess.STDOUT, **user)
        deadline = time.monotonic() + 20
        while True:
            assert self.proc.poll() is None, f"nginx ended:\n{self.errors()}"
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                assert time.monotonic() < deadline, f"nginx does not listen:\n{self.errors()}"
                time.sleep(0.05)

    def errors(self) -> str:
        out = ""
        for name in ("nginx.out", "error.log"):
            path = self.dir / name
            if path.exists():
                out += path.read_text(errors="replace")[-3000:]
        return out

    def site_log(self) -> str:
        """The site's own access log (docs/deploy.md's ``fido_private`` format)."""
        path = self.dir / "fido.access.log"
        return path.read_text() if path.exists() else ""

    def access(self) -> list[list[str]]:
        """nginx's log of answers: status, method, path, the upstream(s) tried."""
        path = self.dir / "access.log"
        return [line.split(" ", 3) for line in path.read_text().splitlines()]

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        shutil.rmtree(self.dir, ignore_errors=True)


def play_some(person: Person, events: int, timeout: float = 60) -> int:
    """She plays whenever it is her turn until ``events`` more are in her log (or the game
    is over). Her moves made."""
    start, made = person.state()["log"], 0
    deadline = time.monotonic() + timeout
    while True:
        st = person.state()
        if st["over"] or st["log"] >= start + events:
            return made
        assert time.monotonic() < deadline, f"the game does not go on: {st}"
        if person.my_turn(st):
            person.play_one()
            made += 1
        else:
            time.sleep(0.05)


def sockets_on(proxy: Nginx, port: int) -> int:
    """Table sockets nginx opened (101) to the process on ``port`` and that have closed
    (nginx logs a socket when it ends), or that are still open when ``port`` is dead."""
    return sum(1 for status, _method, path, upstream in proxy.access()
               if status == "101" and path.startswith("/ws/tables/")
               and upstream.split(", ")[-1] == f"127.0.0.1:{port}")
