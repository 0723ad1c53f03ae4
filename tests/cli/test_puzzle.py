"""``fido puzzle`` at the terminal (issue 44): a puzzle judged with the analysis's why, and
her puzzle rating kept in her file, moved by the rule the server uses, once a puzzle."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from fido import puzzles
from support.terminal import FIDO, PASS_ENV


def solve(home: Path, *args: str, typed: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([FIDO, "puzzle", *args], input=typed + "\n", capture_output=True,
                          text=True, timeout=60, check=False,
                          env={"COLUMNS": "100", "LINES": "40", "PATH": "/usr/bin:/bin",
                               "XDG_DATA_HOME": str(home), **PASS_ENV})


def test_a_puzzle_at_the_terminal_moves_her_rating_once(tmp_path: Path) -> None:
    p = puzzles.load()[-1]
    out = solve(tmp_path, "--id", p.id, typed=p.second)
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    flat = " ".join(out.stdout.split())  # the console wraps long lines
    assert f"Not this one: the best move is {p.best[0]}." in flat
    assert p.second in flat and "deals of the tiles you could not see" in flat
    assert "+" not in "".join(line for line in out.stdout.splitlines()
                              if line.startswith("  ") and "@" in line)  # no points shown
    after = puzzles.rated(puzzles.START, 0, p.rating, solved=False)
    assert f"Your puzzle rating: 1500 → {round(after)}." in flat
    kept = json.loads((tmp_path / "fido" / "puzzles.json").read_text())
    assert kept["answered"] == {p.id: False} and abs(kept["rating"] - after) < 0.01
    again = solve(tmp_path, "--id", p.id, typed=p.best[0])
    assert "Right." in again.stdout and "your rating stays" in " ".join(again.stdout.split())
    assert json.loads((tmp_path / "fido" / "puzzles.json").read_text())["answered"] == {
        p.id: False}


def test_the_next_puzzle_and_german(tmp_path: Path) -> None:
    out = solve(tmp_path, "--next", "--lang", "de", typed="1")
    assert out.returncode == 0, out.stderr
    flat = " ".join(out.stdout.split())
    assert "Finde den besten Zug" in flat and "Deine Lösestärke: 1500 →" in flat
    for english in ("Right.", "Not this one", "puzzle rating", "Your move"):
        assert english not in out.stdout, english


def test_a_bad_id_a_typo_and_a_broken_file(tmp_path: Path) -> None:
    out = solve(tmp_path, "--id", "nope", typed="q")
    assert out.returncode == 1 and "there is no puzzle nope" in out.stderr
    assert "Traceback" not in out.stderr
    (tmp_path / "fido").mkdir()
    (tmp_path / "fido" / "puzzles.json").write_text("{not json")
    out = solve(tmp_path, typed="zz\nq")  # the day's puzzle; a typo; she leaves
    assert out.returncode == 0 and "'zz' is none of your moves" in out.stdout
    assert (tmp_path / "fido" / "puzzles.json").read_text() == "{not json"  # left: unchanged
