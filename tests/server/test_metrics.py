"""``GET /metrics``: the process's numbers in Prometheus's text format, for the machine
itself (loopback, no proxy) or the configured token; anyone else finds nothing there.

A live server with `fido serve`'s settings plays a whole game of two people and a bot
over the table socket; its metrics then count every move the people sent, accepted, the
move histogram holds as many, the bot's decisions are timed, the writes are timed, the
open sockets and the tables by state are what the process holds, and a wrong password
is a sign-in refusal.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

import fido
from support.server_live import browser, free_port, live_server
from support.server_procs import SRC, Player, guest, open_table, wait_until

TOKEN = "metrics-token-0123456789abcdef"


def scrape(base: str, headers: dict[str, str] | None = None) -> dict[tuple[str, str], float]:
    """Each sample of /metrics by (name, its labels as text): the text format parsed."""
    r = httpx.get(f"{base}/metrics", headers=headers or {}, timeout=10)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain; version=")
    out: dict[tuple[str, str], float] = {}
    for family in text_string_to_metric_families(r.text):
        for s in family.samples:
            out[(s.name, ",".join(f"{k}={v}" for k, v in sorted(s.labels.items())))] = s.value
    return out


def test_a_game_counted(tmp_path: Path) -> None:
    with live_server(f"sqlite:///{tmp_path / 'fido.db'}") as base:
        before = scrape(base)
        assert before[("fido_moves_total", "outcome=accepted")] == 0
        assert before[("fido_open_sockets", "")] == 0
        anna, bert = guest(base), guest(base)
        table_id = open_table(anna, [bert], "fido set=9", ["me", "open", "greedy"])
        players = [Player("anna", anna, table_id, seed=1), Player("bert", bert, table_id,
                                                                 seed=2)]
        for p in players:
            p.hold.set()  # connected, no move yet: the sockets and the table are counted
            p.start()
        wait_until(lambda: all(p.connected.is_set() for p in players), 20, "no welcome")
        during = scrape(base)
        assert during[("fido_open_sockets", "")] == 2
        assert during[("fido_tables", "state=running")] == 1
        for p in players:
            p.hold.clear()
        wait_until(lambda: all(p.done.is_set() for p in players), 120,
                   lambda: f"the game does not end: {[p.errors for p in players]}")
        for p in players:
            p.join(timeout=10)
            assert not p.errors, p.errors
        record = json.loads(anna.get(f"/api/tables/{table_id}/record").text)
        people = sum(p.moves for p in players)
        bots = len(record["moves"]) - people
        assert people > 0 and bots > 0
        wait_until(lambda: scrape(base)[("fido_open_sockets", "")] == 0, 10, "sockets open")

        bad = browser(base)
        assert bad.post("/api/accounts", json={"name": "Clara", "password": "a long secret"}
                        ).status_code == 201
        bad.delete("/api/session")
        assert bad.post("/api/session", json={"name": "Clara", "password": "wrong one"}
                        ).status_code == 401
        after = scrape(base)

    assert after[("fido_moves_total", "outcome=accepted")] == people
    assert after[("fido_moves_total", "outcome=refused")] == 0
    assert after[("fido_move_seconds_count", "")] == people
    assert 0 < after[("fido_move_seconds_sum", "")] < people * 1.0
    assert after[("fido_bot_decision_seconds_count", "bot=greedy")] == bots
    # every move written, the table and the seats too, and the sign-up
    assert after[("fido_db_write_seconds_count", "")] >= len(record["moves"]) + 3
    assert after[("fido_signin_refusals_total", "reason=wrong_password")] == 1
    assert after[("fido_signin_refusals_total", "reason=rate_limited")] == 0
    assert after[("fido_tables", "state=running")] == 0
    assert after[("fido_analysis_jobs", "state=waiting")] == 0
    # the answers by class: the refused sign-in a 4xx, none a 5xx, and the rest 2xx/3xx
    assert after[("fido_http_responses_total", "status=4xx")] >= 1
    assert after[("fido_http_responses_total", "status=5xx")] == 0
    assert after[("fido_http_responses_total", "status=2xx")] > \
        before[("fido_http_responses_total", "status=2xx")]
    # what runs, and the process itself
    assert after[("fido_build_info", f"version={fido.__version__}")] == 1
    assert after[("process_resident_memory_bytes", "")] > 10 * 2**20
    assert after[("process_start_time_seconds", "")] > 0
    # the monthly close ran to its end at start (nothing was due): its time is known
    assert after[("fido_monthly_close_last_success_timestamp_seconds", "")] > 0


def test_only_from_the_machine_itself_or_with_the_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FIDO_METRICS_TOKEN", TOKEN)
    with live_server(f"sqlite:///{tmp_path / 'fido.db'}") as base:
        # what nginx passes on from outside: X-Forwarded-For, from loopback (trusted)
        outside = {"X-Forwarded-For": "203.0.113.7"}
        nothing = httpx.get(f"{base}/nothing-here", headers=outside)
        for headers in (outside,
                        {**outside, "Authorization": "Bearer wrong-token-0123456789abcdef"},
                        {**outside, "Authorization": f"Basic {TOKEN}"},
                        {"X-Forwarded-For": "127.0.0.1"},  # forwarded, whoever says so
                        {"Authorization": "Bearer " + TOKEN[:-1]}):  # a wrong token
            r = httpx.get(f"{base}/metrics", headers=headers)
            assert r.status_code == 404, headers
            assert r.json() == nothing.json()  # what an address that does not exist says
            assert "fido_" not in r.text
        r = httpx.get(f"{base}/metrics?token={TOKEN}", headers=outside)
        assert r.status_code == 404  # never from the query (the access log writes it)
        assert scrape(base, {**outside, "Authorization": f"Bearer {TOKEN}"})
        assert scrape(base)  # loopback, no proxy


def test_without_a_token_only_loopback(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FIDO_METRICS_TOKEN", raising=False)
    with live_server(f"sqlite:///{tmp_path / 'fido.db'}") as base:
        r = httpx.get(f"{base}/metrics", headers={"X-Forwarded-For": "203.0.113.7",
                                                  "Authorization": "Bearer x"})
        assert r.status_code == 404
        assert scrape(base)[("fido_open_sockets", "")] == 0


def test_a_short_token_is_refused_before_anything_starts(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("FIDO_")}
    env["PYTHONPATH"], env["FIDO_METRICS_TOKEN"] = SRC, "short"
    out = subprocess.run(
        [sys.executable, "-m", "fido.cli", "serve", "--port", str(free_port())],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert out.stderr.strip().splitlines() == [
        "error: --metrics-token: at least 16 characters (`openssl rand -hex 32`)"]
    assert "short" not in out.stdout + out.stderr  # the token is never echoed
    assert list(tmp_path.iterdir()) == []  # no database made, nothing served
