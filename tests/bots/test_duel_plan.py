"""bench/duel.py (issue 45): a duel's plan is written before its first deal, no figure is
given before its last, and a stopped run goes on under its own plan."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").exists())
DUEL = ROOT / "bench" / "duel.py"


def duel(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(DUEL), *args], capture_output=True, text=True,
                          timeout=300, check=False, cwd=ROOT)


def test_a_duel_is_planned_played_and_only_then_reported(tmp_path: Path) -> None:
    out = tmp_path / "d.jsonl"
    ran = duel("run", "--game", "6:3", "--a", "greedy", "--b", "random", "--deals", "4",
               "--seed", "5", "--workers", "1", "--out", str(out))
    assert ran.returncode == 0, ran.stderr
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    plan, *deals, result = lines
    assert plan["kind"] == "plan" and plan["deals"] == 4 and plan["seed"] == 5
    assert plan["a"] == "greedy" and "--deals 4" in plan["command"]
    assert sorted(d["deal"] for d in deals) == [0, 1, 2, 3]
    assert result["kind"] == "result" and result["deals"] == 4
    assert result["mean"] > 0  # greedy out-scores random on double-6
    # while it ran, it told only how many deals were done
    assert "a hand" not in ran.stdout.splitlines()[-2]
    report = duel("report", str(out))
    assert report.returncode == 0 and "greedy - random" in report.stdout
    # a run stopped after two deals: no figure; resumed, it plays the two it missed
    stopped = tmp_path / "stopped.jsonl"
    stopped.write_text("\n".join(json.dumps(x) for x in [plan, *deals[:2]]) + "\n")
    refused = duel("report", str(stopped))
    assert refused.returncode != 0 and "2 of 4 deals: no figure before the last deal" in (
        refused.stderr)
    again = duel("run", "--resume", str(stopped), "--workers", "1")
    assert again.returncode == 0 and "playing 2" in again.stdout
    assert duel("report", str(stopped)).returncode == 0
    # a plan is written once
    twice = duel("run", "--game", "6:3", "--deals", "4", "--out", str(out))
    assert twice.returncode != 0 and "a plan is written once" in twice.stderr
