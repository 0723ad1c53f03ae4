"""The server `make run` starts, exercised once end to end: every feature over HTTP and
the table socket, against a real ``fido serve`` process on its defaults.

``fido serve --host 127.0.0.1 --port PORT`` runs in a fresh directory (so its database
is ./fido.db, SQLite), with no other option and none of fido's environment variables:
bots wait a second a move, bots and analyses run in their worker processes, an analysis
takes the number of worlds its set gets by default. Nothing here sets what the tests'
in-thread server (tests/support/server_live.py) changes. The steps: the pages; a guest's table
with two bots played to its end over the socket; its record (which replays) and replay;
"Analyse my moves" requested and finished; the guest signing up and keeping her game;
player numbers made by the accounts themselves (no federation on the server); a score
sheet entered and confirmed; the ranking page; an online event with a duplicate round
(an organiser's role granted with ``fido accounts grant``), played by the stand-ins, its
tables' replays sealed while the round plays and open to their players after; the
table assistant. At the end the server stops on SIGTERM with its worker processes, no
request answered 500 and it wrote no traceback.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

import fido
from fido.record import GameRecord
from support.server_client import Person, check_acks_first, check_sequence, play_to_end
from support.server_live import free_port
from support.server_procs import descendants, wait_gone, wait_healthy

SRC = str(Path(fido.__file__).parent.parent)


class Served:
    """The ``fido serve`` process: its base URL, directory and output (one log file)."""

    def __init__(self, cwd: Path) -> None:
        self.cwd, self.port = cwd, free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.db = f"sqlite:///{cwd / 'fido.db'}"
        self.log = cwd / "serve.log"
        # the environment of a shell without fido's variables: only where fido's code is
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("FIDO_")}
        self.env["PYTHONPATH"] = SRC
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "fido.cli", "serve", "--host", "127.0.0.1",
                 "--port", str(self.port)],
                cwd=cwd, env=self.env, stdout=out, stderr=subprocess.STDOUT)

    def wait_up(self, timeout: float = 60) -> None:
        wait_healthy(self.base, self.proc, self.output, timeout)

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def fido(self, *args: str) -> subprocess.CompletedProcess[str]:
        """A ``fido`` command on the server's database, as its operator runs one."""
        return subprocess.run([sys.executable, "-m", "fido.cli", *args, "--db", self.db],
                              cwd=self.cwd, env=self.env, capture_output=True, text=True,
                              timeout=120, check=False)

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                return self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
                raise AssertionError(f"fido serve did not stop:\n{self.output()}") from None
        return self.proc.returncode


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    server = Served(tmp_path)
    try:
        server.wait_up()
        yield server
    finally:
        server.stop()


def _text(html: str) -> str:
    """A page's text, tags and runs of white space made one space."""
    return re.sub(r"(<[^>]+>|\s)+", " ", html)


def _player(person: Person) -> int:
    """She becomes a new ranking player in her own name (no federation on this server)."""
    r = person.http.post("/api/account/player")
    assert r.status_code == 201, r.text
    number: int = r.json()["player"]
    assert number >= 1
    return number


def _wait(what: str, probe: Any, timeout: float) -> Any:
    """``probe()`` until it returns something true (its value), polling."""
    deadline = time.monotonic() + timeout
    while True:
        got = probe()
        if got:
            return got
        assert time.monotonic() < deadline, f"{what}: not within {timeout} s"
        time.sleep(0.25)


EVENT = {"name": "Home Cup", "starts_on": "2026-01-01", "ends_on": "2026-12-31", "set": 6,
         "table_size": 3, "rounds": 1, "mode": "online", "duplicate": True, "grace": 0}


def test_the_server_make_run_starts_does_everything_once(served: Served) -> None:
    base = served.base

    # ---- the pages, to a first visitor
    anon = httpx.Client(base_url=base, timeout=20)
    for path, needle in (("/", "Play now"), ("/games", "</html>"), ("/rules", "FIDO"),
                         ("/events", "</html>"), ("/ranking", "World ranking"),
                         ("/assistant", "</html>"), ("/signup", "</html>")):
        r = anon.get(path)
        assert r.status_code == 200 and needle in r.text, (path, r.status_code)
        assert r.headers["content-type"].startswith("text/html"), path
    assert anon.get("/api/health").json()["version"] == fido.__version__
    assert "/api/tables/{table_id}/analysis" in anon.get("/openapi.json").json()["paths"]

    # ---- six accounts with ranking players of their own, for the event (no federation
    # account on this server: each makes herself a player)
    names = ["Olga", "Bea", "Cem", "Dora", "Eli", "Finn"]
    people = {n: Person.sign_up(base, n) for n in names}
    numbers = {n: _player(p) for n, p in people.items()}
    assert len(set(numbers.values())) == 6
    olga = people["Olga"]

    # ---- an event with a duplicate round: an organiser's role first (403 without one)
    r = olga.http.post("/api/events", json=EVENT)
    assert r.status_code == 403 and r.json()["error"]["code"] == "organiser", r.text
    done = served.fido("accounts", "grant", "Olga", "organiser", "--scope", "club:Home")
    assert done.returncode == 0 and "organiser" in done.stdout, done.stdout + done.stderr
    r = olga.http.post("/api/events", json=EVENT)
    assert r.status_code == 201, r.text
    event = r.json()
    eid = event["id"]
    assert event["mine"] and event["status"] == "registration" and event["duplicate"]
    assert "secret" not in event
    for n in names:
        r = people[n].http.post(f"/api/events/{eid}/entries", json={})
        assert r.status_code == 201, (n, r.text)
    assert people["Bea"].http.post(f"/api/events/{eid}/rounds").status_code == 403
    r = olga.http.post(f"/api/events/{eid}/rounds")
    assert r.status_code == 201, r.text
    event = r.json()
    assert event["drawn"] == 1 and event["status"] == "running"
    tables = event["tables"]
    assert len(tables) == 2 and all(len(t["seats"]) == 3 for t in tables)
    seated = sorted(s["account"] for t in tables for s in t["seats"])
    assert seated == sorted(p.id for p in people.values())
    # nobody is connected: the stand-ins play the round (grace 0) while the rest goes on
    event_tables = [t["table"] for t in tables]
    first_at = {t["table"]: next(p for p in people.values() if p.id == t["seats"][0]["account"])
                for t in tables}

    # ---- a guest's table with two bots, played to its end over the table's socket
    ada = Person.guest(base)
    assert ada.http.get("/api/session").json()["kind"] == "guest"
    guest_name = ada.name
    assert re.fullmatch(r"guest \d+", guest_name)
    table = ada.open_table("fido set=6", 3, seats=[
        {"kind": "me"}, {"kind": "bot", "level": "expert"}, {"kind": "bot", "level": "greedy"}])
    tid = table["id"]
    assert table["status"] == "running"  # full at once: dealt
    # a running game has no record, replay or analysis (its hands are secret)
    for what in ("record", "replay", "analysis"):
        assert ada.http.get(f"/api/tables/{tid}/{what}").status_code == 409
    sock = ada.connect(tid, seq=0)
    try:
        assert sock.seat == 0 and sock.view is not None and len(sock.view["hand"]) == 7
        play_to_end([sock], timeout=150)
    finally:
        sock.close()
    check_sequence(sock.frames)
    check_acks_first(sock.frames)
    moves = [e for e in sock.events() if e["kind"] == "move"]
    assert {e["by"] for e in moves if e["seat"] != 0} == {"bot"}
    assert {e["by"] for e in moves if e["seat"] == 0} == {"player"}
    assert sock.view is not None and sock.view["outcome"] is not None
    outcome = sock.view["outcome"]

    # ---- its record (it replays to the same outcome) and its replay
    r = ada.http.get(f"/api/tables/{tid}/record")
    assert r.status_code == 200, r.text
    record = GameRecord.from_json(r.text)
    final = record.replay()
    assert final.outcome is not None and final.outcome.to_dict() == outcome
    assert len(record.moves) == len(moves) and record.players[0] == guest_name
    r = anon.get(f"/api/tables/{tid}/replay")  # a public table's replay is anyone's
    assert r.status_code == 200, r.text
    replay = r.json()
    assert len(replay["steps"]) == len(record.moves) + 1
    assert replay["outcome"] == outcome
    assert [s["move"] for s in replay["steps"][1:]] == [m.move for m in record.moves]
    assert anon.get(f"/tables/{tid}/replay").status_code == 200

    # ---- "Analyse my moves": queued in the analyses' worker process
    r = anon.post(f"/api/tables/{tid}/analysis", json={}, headers={"X-CSRF-Token": "x"})
    assert r.status_code == 403  # no CSRF token: refused before anything runs
    r = ada.http.post(f"/api/tables/{tid}/analysis", json={})
    assert r.status_code in (200, 202), r.text
    asked = r.json()
    assert asked["seat"] == 0 and asked["status"] in ("queued", "running", "done")
    assert asked["samples"] == 1000  # the analysis's own default on double-6

    # ---- she signs up: the guest becomes the account, her game stays hers
    old_token = ada.http.cookies["fido_csrf"]
    r = ada.http.post("/api/accounts", json={"name": "Ada", "password": "correct horse"})
    assert r.status_code == 201, r.text
    session = r.json()
    assert session["kind"] == "account" and session["account"]["id"] == ada.id
    assert session["account"]["name"] == "Ada" and not session["account"]["guest"]
    assert ada.http.cookies["fido_csrf"] != old_token  # a new session, a new token
    r = ada.http.post("/api/account/player", headers={"X-CSRF-Token": old_token})
    assert r.status_code == 403  # the guest's token is no longer good
    ada_number = _player(ada)
    assert ada.table(tid)["seats"][0]["account"] == ada.id
    mine = ada.http.get("/api/tables", params={"status": "finished", "account": ada.id})
    listed = {t["id"]: t for t in mine.json()["tables"]}
    assert listed[tid]["seats"][0]["name"] == "Ada"
    assert "Ada" in _text(anon.get(f"/players/{ada.id}").text)
    assert tid in anon.get("/games").text

    # ---- a score sheet of a game at a real table: entered by Ada, confirmed by Bea
    today = dt.date.today().isoformat()
    form = {"csrf_token": ada.http.cookies["fido_csrf"], "date": today,
            "event": "Home club night", "set": "6", "player0": str(ada_number),
            "points0": "12", "pips0": "0", "player1": str(numbers["Bea"]), "points1": "5",
            "pips1": "9"}
    r = ada.http.post("/sheets", data=form)
    assert r.status_code == 303, _text(r.text)[-2000:]
    found = re.fullmatch(r"/sheets/(\d+)\?sent=1", r.headers["location"])
    assert found is not None, r.headers["location"]
    sheet = int(found.group(1))
    page = _text(ada.http.get(f"/sheets/{sheet}").text)
    assert "Home club night" in page and "Bea" in page
    bea = people["Bea"]
    r = bea.http.post(f"/sheets/{sheet}/review",
                      data={"csrf_token": bea.http.cookies["fido_csrf"], "verdict": "confirm"})
    assert r.status_code == 303, _text(r.text)[-2000:]
    assert "confirmed by Bea" in _text(anon.get(f"/sheets/{sheet}").text)
    assert f'href="/sheets/{sheet}"' in ada.http.get("/sheets").text

    # ---- the world ranking: nothing published in the month the first results came in
    r = ada.http.get("/ranking")
    assert r.status_code == 200
    assert "No monthly ranking has been published yet" in _text(r.text)

    # ---- the table assistant judges a game entered at a real table (stores nothing)
    r = anon.post("/api/assistant/state", json={
        "set": 6, "seats": [{"name": "Ann"}, {"name": "Ben"}, {"name": "Cy"}], "opener": 0,
        "moves": ["6-6", "6-3@0n", "6-3@0s"]})
    assert r.status_code == 200, r.text
    state = r.json()
    assert state["accepted"] == 2 and state["table"] == ["6-6", "6-3@0n"]
    assert state["refused"]["index"] == 2 and state["to_move"] == 2 and not state["over"]
    assert state["hand_counts"] == [6, 6, 7] and state["stock"] == 7

    # ---- the event's round: sealed while it plays, its replays open after
    stranger = Person.guest(base)
    for t in event_tables:
        assert stranger.http.get(f"/api/tables/{t}/replay").status_code == 403  # private
        r = first_at[t].http.get(f"/api/tables/{t}/replay")
        assert r.status_code in (200, 409), r.text  # 409 until the whole round has ended
    event = _wait("the event's round", lambda: (
        e if (e := olga.http.get(f"/api/events/{eid}").json())["round_over"] else None), 180)
    assert event["status"] == "finished"
    assert len(event["standings"]) == 6
    assert all(s["final"] is not None for t in event["tables"] for s in t["seats"])
    records = []
    for t in event_tables:
        player = first_at[t]
        assert stranger.http.get(f"/api/tables/{t}/replay").status_code == 403
        r = player.http.get(f"/api/tables/{t}/replay")
        assert r.status_code == 200, r.text
        steps = r.json()["steps"]
        assert steps[-1]["move"] is not None and r.json()["outcome"] is not None
        r = player.http.get(f"/api/tables/{t}/record")
        assert r.status_code == 200, r.text
        records.append(GameRecord.from_json(r.text))
        records[-1].replay()
        at_table = next(x for x in event["tables"] if x["table"] == t)["seats"]
        assert list(records[-1].players) == [x["name"] for x in at_table]
        assert f"/tables/{t}/replay" in player.http.get(f"/players/{player.id}").text
    assert records[0].hands == records[1].hands  # one deal for the round's tables
    assert {m.seat for rec in records for m in rec.moves} == {0, 1, 2}
    r = olga.http.get(f"/events/{eid}")
    assert r.status_code == 200 and "Home Cup" in r.text
    assert "Home Cup" in anon.get("/events").text
    # the round's games are rated: in the players' results
    assert "online" in _text(olga.http.get("/sheets").text)

    # ---- the analysis, finished by its worker
    def analysed() -> dict[str, Any] | None:
        r = anon.get(f"/api/tables/{tid}/analysis")
        assert r.status_code == 200, r.text
        rows = [a for a in r.json()["analyses"] if a["seat"] == 0]
        assert len(rows) == 1 and rows[0]["status"] != "failed", rows
        return rows[0] if rows[0]["status"] == "done" else None

    analysis = _wait("the analysis", analysed, 180)["result"]
    assert analysis["format"] == "fido-analysis" and analysis["seats"] == [0]
    assert analysis["samples"] == 1000
    assert analysis["summaries"][0]["seat"] == 0
    assert analysis["decisions"] or analysis["nothing_to_analyse"]
    assert {d["seat"] for d in analysis["decisions"]} <= {0}
    assert analysis["summaries"][0]["decisions"] == len(analysis["decisions"])
    for d in analysis["decisions"]:  # her own moves, as the record has them
        played = record.moves[d["number"] - 1]
        assert played.seat == 0 and played.move == d["played"], (d, played)
    assert ada.http.post(f"/api/tables/{tid}/analysis", json={}).status_code == 200

    name_at_table = ada.table(tid)["seats"][0]["name"]

    # ---- the server ends cleanly on SIGTERM (uvicorn's graceful shutdown, then the signal
    # raised again: -15), its worker processes with it, having answered no request with a 500
    workers = descendants(served.proc.pid)
    assert len(workers) >= 2  # the bots' pool and the analyses' worker (and their helper)
    assert served.stop() in (0, -signal.SIGTERM)
    assert not wait_gone(workers), "a worker outlived the server"
    out = served.output()
    assert "Application shutdown complete" in out, out[-5000:]
    assert "Traceback" not in out, out[-5000:]
    assert not re.search(r'HTTP/1\.1" 5\d\d', out), out[-5000:]

    # ---- the table shows the name she signed up with, as the lobby's list does
    assert name_at_table == "Ada"
