"""``fido serve`` behind a reverse proxy (docs/deploy.md): which proxies it trusts with
``X-Forwarded-Proto`` (the ``Secure`` cookies) and ``X-Forwarded-For`` (the address the
rate limits count), and a mistyped ``--forwarded-allow-ips`` refused before anything
starts.

Each server is a real ``fido serve`` process on SQLite in a fresh directory; the test
plays the proxy itself from loopback, sending the headers nginx sends. A new guest is
the request that shows both: its cookies, and ``--accounts-per-address 1``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from support.server_live import browser, free_port
from support.server_procs import SRC, wait_healthy


@contextmanager
def serving(cwd: Path, *options: str) -> Iterator[str]:
    """``fido serve`` (one new account per address) until the block ends: its base URL."""
    port = free_port()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("FIDO_") and k != "FORWARDED_ALLOW_IPS"}
    env["PYTHONPATH"] = SRC
    log = cwd / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "fido.cli", "serve", "--port", str(port),
             "--bot-processes", "0", "--accounts-per-address", "1", *options],
            cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base, proc, lambda: log.read_text(errors="replace"), 60)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
    assert "Traceback" not in log.read_text(errors="replace")


def new_guest(base: str, address: str) -> httpx.Response:
    """A new browser behind the proxy at ``address`` becomes a guest (https, as nginx says)."""
    client = browser(base)
    try:
        return client.post("/api/guest", headers={"X-Forwarded-For": address,
                                                  "X-Forwarded-Proto": "https"})
    finally:
        client.close()


def cookie_flags(response: httpx.Response, name: str) -> set[str]:
    for line in response.headers.get_list("set-cookie"):
        if line.startswith(f"{name}="):
            return {part.strip().split("=")[0].lower() for part in line.split(";")[1:]}
    raise AssertionError(f"no {name} cookie: {response.headers}")


@pytest.mark.parametrize(("options", "trusted"), [
    ((), True),  # the default: a proxy on this machine (nginx before fido serve)
    (("--forwarded-allow-ips", "10.0.0.0/8, 127.0.0.1"), True),
    (("--forwarded-allow-ips", "10.1.2.3"), False),  # the proxy is elsewhere: not this one
    (("--no-proxy-headers",), False),
])
def test_the_proxy_it_trusts_gives_the_scheme_and_the_address(
        tmp_path: Path, options: tuple[str, ...], trusted: bool) -> None:
    with serving(tmp_path, *options) as base:
        first = new_guest(base, "203.0.113.7")
        assert first.status_code == 200, first.text
        for name in ("fido_session", "fido_csrf"):
            assert ("secure" in cookie_flags(first, name)) is trusted, first.headers
        # another player behind the proxy: her own address when the proxy is trusted,
        # else the proxy's, whose one new account is made
        second = new_guest(base, "198.51.100.9")
        if trusted:
            assert second.status_code == 200, second.text
            same = new_guest(base, "198.51.100.9")
            assert same.status_code == 429, same.text
        else:
            assert second.status_code == 429, second.text


@pytest.mark.parametrize("value", ["bogus", "127.0.0.1,", "10.0.0.0/33", "127.0.0.1\x1b[2J"])
def test_a_mistyped_proxy_address_is_refused_before_anything_starts(
        tmp_path: Path, value: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("FIDO_")}
    env["PYTHONPATH"] = SRC
    out = subprocess.run(
        [sys.executable, "-m", "fido.cli", "serve", "--port", str(free_port()),
         "--forwarded-allow-ips", value],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 2, (out.stdout, out.stderr)
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --forwarded-allow-ips: "), lines
    assert "\x1b" not in out.stderr and "Traceback" not in out.stderr
    assert list(tmp_path.iterdir()) == []  # no database made, nothing served
