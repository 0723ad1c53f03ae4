"""Hostile input to `fido play`, `fido simulate` and `fido replay`, run as a user runs them.

Every case: exit code 1 (2 for a usage error Typer catches), one clear line
starting ``error:``, no traceback, and nothing started or written.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from fido import Game
from fido.record import MAX_RECORD_BYTES, GameRecord

FIDO = str(Path(sys.executable).with_name("fido"))
PASS_ENV = {k: os.environ[k] for k in ("PYTHONPATH",) if k in os.environ}


def run(
    *args: str, cwd: Path | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [FIDO, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        stdin=subprocess.DEVNULL,
        cwd=cwd,
        env={"COLUMNS": "200", "PATH": "/usr/bin:/bin", **PASS_ENV},
    )


def refused(out: subprocess.CompletedProcess[str], message: str, code: int = 1) -> None:
    assert out.returncode == code, (out.stdout, out.stderr)
    assert "Traceback" not in out.stderr + out.stdout
    if code == 1:
        assert out.stderr.startswith("error: "), out.stderr
        assert message in " ".join(out.stderr.split()), out.stderr
        assert len(out.stderr.strip().splitlines()) <= 2  # one line (Rich may wrap it)
    assert "Your move" not in out.stdout  # no game started


# ------------------------------------------------------------------ fido play

PLAY_CASES = [
    (["--hint", "nonsense"], "unknown bot 'nonsense'"),
    (["--hint", "search:sims=-5"], "sims is simulations per move, 1 to 1,000,000, not -5"),
    (["--delay", "nan"], "--delay is seconds, 0 to 60, not nan"),
    (["--delay", "inf"], "--delay is seconds, 0 to 60, not inf"),
    (["--delay", "-1"], "--delay is seconds, 0 to 60"),
    (["--save", "/nonexistent/x.json"], "the directory /nonexistent does not exist"),
    (["--save", "/proc/fido-x.json"], "cannot write in /proc"),
    (["--save", "/etc/hostname/x.json"], "/etc/hostname is not a directory"),
    (["--save", "/tmp"], "/tmp is a directory"),
    (["--seat", "4"], "--seat is 0 .. 3 at 4 players, not 4"),
    (["--seat", "-1"], "--seat is 0 .. 3 at 4 players, not -1"),
    (["--bots", "wizard"], "unknown bot 'wizard'"),
    (["--bots", "search:sims=1e9"], "sims is a whole number from 1 to 1,000,000"),
    (["--bots", "search:time=nan"], "time must be a finite number"),
    (["--bots", "expert,,greedy"], "empty bot name"),
    (["--bots", "expert,greedy"], "2 levels for 3 bot seats"),
    (["--bots", "[/x]"], "unknown bot '[/x]'"),
    (["--name", "\x1b[2Jevil"], "holds control characters"),
    (["--name", "a\u202eb"], "holds control characters"),
    (["--name", "   "], "--name must not be empty"),
    (["--name", "x" * 41], "--name is at most 40 characters"),
    (["--players", "0"], "played by 2 to 9 players, not 0"),
    (["--players", "99999999999"], "played by 2 to 9 players"),
    (["--rules", "chess"], "unknown ruleset 'chess'"),
    (["--resume", "/nonexistent/game.json"], "cannot read /nonexistent/game.json"),
]


@pytest.mark.parametrize(("args", "message"), PLAY_CASES)
def test_play_refuses_bad_options_before_the_deal(
    tmp_path: Path, args: list[str], message: str
) -> None:
    out = run("play", *args, cwd=tmp_path)
    refused(out, message)
    assert list(tmp_path.iterdir()) == []  # no record written


@pytest.mark.parametrize("args", [["--seat", "x"], ["--delay", "soon"], ["--players", "1e3"]])
def test_play_usage_errors_are_typers(tmp_path: Path, args: list[str]) -> None:
    refused(run("play", *args, cwd=tmp_path), "", code=2)


def _unfinished(path: Path, **extra: object) -> GameRecord:
    g = Game.new("fido set=6", 3, seed=2)
    for _ in range(4):
        g.push(g.legal_moves()[0])
    rec = GameRecord.from_game(g, ["Ann", "expert 2", "expert 3"], bots=[None, "expert", "expert"])
    data = rec.to_dict()
    data.update(extra)
    path.write_text(json.dumps(data))
    return rec


@pytest.mark.parametrize(
    ("extra", "args", "message"),
    [
        ({}, ["--rules", "block"], "--resume goes on with the record's deal; drop --rules"),
        ({}, ["--seed", "3", "--players", "3"], "drop --players, --seed"),
        ({"bots": [None, "wizard", "expert"]}, [], "unknown bot 'wizard'"),
        ({"bots": [None, "search:sims=0", "expert"]}, [], "sims is simulations per move"),
        ({"bots": [None, None, "expert"]}, [], "2 people's seats; say which is yours"),
        ({"results": {"seats": []}}, [], "the game is not over"),
        ({"players": ["Ann", "b"]}, [], "2 players but 3 hands"),
    ],
)
def test_resume_refuses_what_it_cannot_go_on_with(
    tmp_path: Path, extra: dict[str, object], args: list[str], message: str
) -> None:
    path = tmp_path / "saved.json"
    _unfinished(path, **extra)
    before = path.read_bytes()
    refused(run("play", "--resume", str(path), *args), message)
    assert path.read_bytes() == before


def test_resume_refuses_a_finished_game(tmp_path: Path) -> None:
    path = tmp_path / "done.json"
    out = run("demo", "--rules", "fido set=6", "--players", "3", "--seed", "1", "--save", str(path))
    assert out.returncode == 0
    refused(run("play", "--resume", str(path)), f"the game in {path} is finished")


# ------------------------------------------------------------------ fido simulate


@pytest.fixture
def http_listener() -> Iterator[str]:
    """A port that answers, but not as Ray does (an HTTP/1 server)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def answer() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                conn.recv(100)
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n")

    threading.Thread(target=answer, daemon=True).start()
    yield f"127.0.0.1:{server.getsockname()[1]}"
    server.close()


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


SIMULATE_CASES = [
    (["--workers", "0"], "--workers is 1 or more processes, not 0"),
    (["--workers", "-2"], "--workers is 1 or more processes, not -2"),
    (["--json", "/nonexistent/r.json"], "--json /nonexistent/r.json: the directory"),
    (["--csv", "/tmp"], "--csv /tmp is a directory"),
    (["--csv", "/proc/fido.csv"], "cannot write in /proc"),
    (["--records", "/etc/hostname/recs"], "/etc/hostname is not a directory"),
    (["--records", "/proc/fido-recs"], "cannot write in /proc"),
    (["--bots", "search:sims=1e9"], "sims is a whole number from 1 to 1,000,000"),
    (["--bots", "search:time=inf"], "time must be a finite number"),
    (["--bots", "search:sims=２"], "sims is a whole number"),
    (["--bots", "search:width=1"], "width is candidate moves, 2 to 64, not 1"),
    (["--bots", "greedy;;random"], "empty bot name"),
    (["--deals", "0"], "a tournament plays 1 to 1,000,000 deals, not 0"),
    (["--deals", "10000000000"], "1 to 1,000,000 deals"),
    (["--players", "10000000000"], "played by 2 to 9 players"),
    (["--bot-secret", "xyz"], "--bot-secret is hex digits"),
    (["--ray", "nonsense"], "give host:port"),
]


@pytest.mark.parametrize(("args", "message"), SIMULATE_CASES)
def test_simulate_refuses_bad_options_before_the_run(
    tmp_path: Path, args: list[str], message: str
) -> None:
    # a million deals of search: refused in seconds, so before the run
    base = ["simulate", "--deals", "1000000", "--bots", "search:time=0,random"]
    start = time.perf_counter()
    out = run(*base, *args, cwd=tmp_path, timeout=30)
    refused(out, message)
    assert time.perf_counter() - start < 30
    assert list(tmp_path.iterdir()) == []


def test_simulate_refuses_an_unreachable_ray_cluster_quickly(http_listener: str) -> None:
    start = time.perf_counter()
    refused(run("simulate", "--deals", "2", "--ray", f"127.0.0.1:{_closed_port()}"), "cannot reach")
    refused(run("simulate", "--deals", "2", "--ray", http_listener), "answers there, but not Ray")
    assert time.perf_counter() - start < 30


def test_simulate_with_a_given_secret_is_reproducible(tmp_path: Path) -> None:
    args = ["simulate", "--rules", "fido set=6", "--players", "3", "--deals", "3", "--workers", "1"]
    a, b, c = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "c.json"
    assert run(*args, "--bots", "random", "--json", str(a)).returncode == 0
    secret = json.loads(a.read_text())["bot_secret"]
    assert len(bytes.fromhex(secret)) == 32
    assert run(*args, "--bots", "random", "--json", str(b), "--bot-secret", secret).returncode == 0
    assert run(*args, "--bots", "random", "--json", str(c)).returncode == 0
    hands = [json.loads(p.read_text())["hands"] for p in (a, b, c)]
    assert hands[0] == hands[1] != hands[2]


# ------------------------------------------------------------------ fido replay


def _record_text(**change: object) -> str:
    g = Game.new("fido set=6", 3, seed=4)
    while not g.is_over:
        g.push(g.legal_moves()[-1])
    data = GameRecord.from_game(g, ["A", "B", "C"]).to_dict()
    data.update(change)
    return json.dumps(data, ensure_ascii=False)


REPLAY_CASES = [
    ("utf16.json", "x".encode("utf-16"), "the record is UTF-16 text"),
    ("latin1.json", _record_text(event="café").encode("latin-1"), "not UTF-8 text (byte 0xe9"),
    ("deep.json", b"[" * 200_000, "JSON nested too deeply"),
    ("bigint.json", b'{"format": "fido-record", "version": ' + b"7" * 6000 + b"}", "digits"),
    ("types.json", _record_text(players=[1, 2, 3]).encode(), "malformed record: players.0"),
    ("notile.json", _record_text(deal={"hands": [["100-1"]], "stock": []}).encode(), "not a tile"),
    ("list.json", b"[1, 2]", "a JSON list, not an object"),
    ("[bold]x.json", b"{", "not JSON"),
]


@pytest.mark.parametrize(("name", "content", "message"), REPLAY_CASES)
def test_replay_refuses_hostile_files(
    tmp_path: Path, name: str, content: bytes, message: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    out = run("replay", str(path))
    refused(out, message)
    assert out.stderr.startswith("error: record refused: ")


def test_replay_refuses_a_huge_file_before_reading_it(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("wb") as f:
        f.truncate(MAX_RECORD_BYTES * 16)
    start = time.perf_counter()
    refused(run("replay", str(path)), "too large for a game record")
    assert time.perf_counter() - start < 20


def test_replay_refuses_a_directory(tmp_path: Path) -> None:
    refused(run("replay", str(tmp_path)), "cannot read")


def test_names_and_events_with_markup_and_control_characters_are_shown_as_text(
    tmp_path: Path,
) -> None:
    path = tmp_path / "[red]odd.json"
    path.write_text(
        _record_text(players=["[/x]", "\x1b[2Jeve", "bo\u202eb"], event="[bold]night\x07"),
        encoding="utf-8",
    )
    out = run("replay", str(path))
    assert out.returncode == 0, out.stderr
    assert "\x1b" not in out.stdout and "\x07" not in out.stdout and "\u202e" not in out.stdout
    assert "[/x]" in out.stdout and "\\x1b[2Jeve" in out.stdout and "bo\\u202eb" in out.stdout
    assert "[bold]night\\x07" in out.stdout and "[red]odd.json" in out.stdout
    assert "verified" in out.stdout


def test_demo_checks_its_save_path_before_the_game() -> None:
    out = run("demo", "--save", "/nonexistent/d.json")
    refused(out, "--save /nonexistent/d.json: the directory /nonexistent does not exist")
    assert "Result" not in out.stdout
