"""The `fido` command, run as a user runs it (a subprocess of the installed script)."""

from __future__ import annotations

import json
from pathlib import Path

from support.terminal import run


def test_demo_saves_a_record_that_replays(tmp_path: Path) -> None:
    rec = tmp_path / "game.json"
    out = run("demo", "--rules", "fido set=9", "--players", "5", "--seed", "3", "--save", str(rec))
    assert out.returncode == 0, out.stderr
    assert "Result" in out.stdout and "record saved" in out.stdout
    again = run("replay", str(rec))
    assert again.returncode == 0, again.stderr
    assert "verified" in again.stdout and "game finished" in again.stdout
    data = json.loads(rec.read_text())
    assert data["ruleset"] == "fido set=9" and len(data["players"]) == 5


def test_demo_is_reproducible(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    run("demo", "--seed", "11", "--save", str(a))
    run("demo", "--seed", "11", "--save", str(b))
    assert json.loads(a.read_text())["moves"] == json.loads(b.read_text())["moves"]


def test_replay_refuses_a_tampered_record(tmp_path: Path) -> None:
    rec = tmp_path / "game.json"
    run("demo", "--rules", "block", "--seed", "2", "--save", str(rec))
    data = json.loads(rec.read_text())
    data["moves"][3]["move"] = "6-6@0e"
    rec.write_text(json.dumps(data))
    out = run("replay", str(rec))
    assert out.returncode == 1
    assert "record refused: move 4 (6-6@0e)" in out.stderr
    assert "Traceback" not in out.stderr


def test_replay_of_a_missing_file() -> None:
    out = run("replay", "/nonexistent/game.json")
    assert out.returncode == 1
    assert "cannot read" in out.stderr and "Traceback" not in out.stderr


def test_demo_with_a_bad_ruleset() -> None:
    out = run("demo", "--rules", "fido set=7")
    assert out.returncode == 1
    assert "give a divisor too" in out.stderr


def test_rules_lists_every_ruleset() -> None:
    out = run("rules")
    assert out.returncode == 0
    for name in ("fido", "straight", "block", "draw", "muggins", "fives_and_threes", "sebastopol"):
        assert name in out.stdout
