"""``fido serve --log-format json``: one JSON object a line on stderr, each with its
request's id, and nothing secret in any of them.

A real ``fido serve`` process plays a whole private game of an account (her password
known), a guest and a bot over the table socket; then she signs in again, once with a
wrong password; the guest opens the table's page and its record with the invite's code
in the address. The process's stderr then holds only JSON lines, each with the keys of
docs/deploy.md; every request's and socket's line carries an id (the one a request
sent when well-formed); and no line holds a tile of the deal, a session cookie, the
password, the wrong one, or the invite's code.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx

from support.server_live import browser
from support.server_procs import Player, ServerProcess, guest, servers, wait_until

PASSWORD = "correct horse battery"
WRONG = "incorrect donkey staple"
KEYS = {"time", "level", "logger", "message", "request_id"}


def tiles_in(value: Any) -> set[str]:
    """Every tile's notation (``6-4``) anywhere in a record's JSON."""
    if isinstance(value, str):
        return {value} if re.fullmatch(r"[0-9]{1,2}-[0-9]{1,2}", value) else set()
    if isinstance(value, dict):
        return set().union(*(tiles_in(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(tiles_in(v) for v in value))
    return set()


def test_a_whole_games_log(tmp_path: Path) -> None:
    err = tmp_path / "stderr.log"
    # bots in threads (--bot-processes 0): a spawned worker costs seconds on 2 cores
    proc = ServerProcess(f"sqlite:///{tmp_path / 'fido.db'}", tmp_path / "serve.log",
                         bot_processes=0, bot_delay=0.0, args=("--log-format", "json"),
                         stderr=err)
    with servers(proc):
        proc.start()
        base = proc.base
        clara = browser(base)
        r = clara.post("/api/accounts", json={"name": "Clara", "password": PASSWORD})
        assert r.status_code == 201, r.text
        bert = guest(base)
        r = clara.post("/api/tables", json={
            "ruleset": "fido set=9", "players": 3, "private": True,
            "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "bot", "level": "greedy"}]})
        assert r.status_code == 201, r.text
        table_id, invite = r.json()["id"], r.json()["invite"]
        assert invite
        r = bert.post(f"/api/tables/{table_id}/seats", json={"invite": invite})
        assert r.status_code == 200, r.text
        players = [Player("clara", clara, table_id, seed=3), Player("bert", bert, table_id,
                                                                   seed=4)]
        for p in players:
            p.start()
        wait_until(lambda: all(p.done.is_set() for p in players), 120,
                   lambda: f"the game does not end: {[p.errors for p in players]}")
        for p in players:
            p.join(timeout=10)
            assert not p.errors, p.errors
        assert bert.get(f"/tables/{table_id}?invite={invite}").status_code == 200
        r = bert.get(f"/api/tables/{table_id}/record?invite={invite}",
                     headers={"X-Request-ID": "trace-me-42"})
        assert r.status_code == 200, r.text
        assert r.headers["x-request-id"] == "trace-me-42"
        record = json.loads(r.text)
        odd = bert.get("/api/health", headers={"X-Request-ID": "not well formed!"})
        assert re.fullmatch(r"[0-9a-f]{32}", odd.headers["x-request-id"])
        cookies = {c.cookies["fido_session"] for c in (clara, bert)}
        clara.delete("/api/session")
        assert clara.post("/api/session", json={"name": "Clara", "password": WRONG}
                          ).status_code == 401
        assert clara.post("/api/session", json={"name": "Clara", "password": PASSWORD}
                          ).status_code == 200
        cookies.add(clara.cookies["fido_session"])
        assert httpx.get(f"{base}/metrics").status_code == 200
        proc.stop()

    tiles = tiles_in(record)
    assert len(tiles) == 55, "every tile of the double-nine set is in the record"
    text = err.read_text()
    lines = text.splitlines()
    assert len(lines) > 20, text
    ids: set[str] = set()
    access: list[dict[str, Any]] = []
    for line in lines:
        entry = json.loads(line)  # every line: JSON
        assert set(entry) >= KEYS, line
        if entry["logger"] == "fido.access":
            access.append(entry)
        if entry["request_id"] is not None:
            ids.add(entry["request_id"])
        elif entry["logger"] not in ("uvicorn.error", "fido.store") and not entry[
                "message"].startswith(("stopping: ", "fido server at ", "No federation")):
            # the start's (the migration's too) and the stop's lines belong to no request
            raise AssertionError(f"a line of {entry['logger']} without its request: {line}")
        for tile in tiles:
            assert not re.search(rf"(?<![A-Za-z0-9_-]){re.escape(tile)}(?![A-Za-z0-9_-])",
                                 line), (tile, line)
        for secret in (*cookies, PASSWORD, WRONG, invite):
            assert secret not in line, line
    # JSON from the first line: the database's migration, then the start's lines, and
    # nothing in plain text on stdout either (journalctl shows both: `| jq .` reads all)
    first = [json.loads(line) for line in lines[:3]]
    assert first[0]["logger"] == "fido.store" and first[0]["message"].startswith(
        "database migrated from revision none (empty) to "), lines[:3]
    assert first[1]["message"].startswith("fido server at http://127.0.0.1:"), lines[:3]
    assert first[2]["message"].startswith("No federation account yet"), lines[:3]
    said = [line for line in proc.log.read_text().splitlines()
            if line.strip() and not line.startswith("--- ")]  # the test's own header
    assert all(json.loads(line) for line in said), said
    assert {e["client"] for e in access} == {"127.0.0.1"}  # who asked, for the abuse desk
    paths = {(e["method"], e["path"], e["status"]) for e in access}
    assert ("POST", "/api/session", 401) in paths and ("GET", "/metrics", 200) in paths
    assert ("GET", f"/api/tables/{table_id}/record", 200) in paths
    assert all(isinstance(e["duration"], float) and e["request_id"] for e in access)
    assert "trace-me-42" in ids
    # each table socket's lines carry its own id (uvicorn's line of its handshake)
    sockets = [json.loads(line) for line in lines if f"/ws/tables/{table_id}" in line]
    assert len(sockets) >= 2 and all(s["request_id"] for s in sockets)
    assert len({s["request_id"] for s in sockets}) == len(sockets)


def test_text_lines_without_the_query(tmp_path: Path) -> None:
    """The default format stays uvicorn's lines (the access lines on stdout), each access
    line without its query (an invite's code travels there)."""
    err = tmp_path / "stderr.log"
    proc = ServerProcess(f"sqlite:///{tmp_path / 'fido.db'}", tmp_path / "serve.log",
                         bot_processes=0, stderr=err)
    with servers(proc):
        proc.start()
        r = httpx.get(f"{proc.base}/api/tables/abcdefgh/record?invite=SecretCode123")
        assert r.status_code == 404
        proc.stop()
    text = err.read_text() + proc.output()
    assert '"GET /api/tables/abcdefgh/record HTTP/1.1" 404' in text, text
    assert "SecretCode123" not in text
    assert not any(line.startswith("{") for line in text.splitlines())
