"""bench/duel.py (issue 45): a duel's plan is written before its first deal, no figure is
given before its last, and a stopped run goes on under its own plan."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from fido.tournament import distinct_rotations, play_deal

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


def test_distinct_seatings_play_each_seating_once(tmp_path: Path) -> None:
    """Six seats alternating A and B hold two seatings: the plan says so, each deal plays
    two hands, not six, and A sits on every seat once."""
    assert distinct_rotations(["a", "b"] * 3) == [0, 1]
    assert distinct_rotations(["a", "b", "a", "b", "b"]) == [0, 1, 2, 3, 4]
    hands = play_deal("fido set=6", ["greedy", "random"] * 2, 5, 0, rotations=[0, 1])
    assert [h.rotation for h in hands] == [0, 1]
    assert {s for h in hands for s, bot in enumerate(h.bots) if bot == "greedy"} == {0, 1, 2, 3}
    out = tmp_path / "d.jsonl"
    ran = duel("run", "--game", "6:4", "--a", "greedy", "--b", "random", "--deals", "2",
               "--seed", "5", "--seatings", "distinct", "--workers", "1", "--out", str(out))
    assert ran.returncode == 0, ran.stderr
    plan, *deals, _ = [json.loads(x) for x in out.read_text().splitlines()]
    assert plan["seatings"] == "distinct" and "--seatings distinct" in plan["command"]
    assert [d["hands"] for d in deals] == [2, 2]


def test_a_bot_from_elsewhere_is_registered_in_the_plan(tmp_path: Path) -> None:
    """``--register`` names a bot that is not a level (bench/weighed_worlds.py's, say): the
    plan keeps it, every worker knows it, and a resumed run registers it again; a spec
    that builds no bot is refused before any plan is written."""
    out = tmp_path / "r.jsonl"
    ran = duel("run", "--game", "6:3", "--a", "plain", "--b", "random", "--deals", "2",
               "--seed", "5", "--workers", "1", "--out", str(out),
               "--register", "plain=fido.bots.simple:GreedyBot")
    assert ran.returncode == 0, ran.stderr
    plan, *deals, _result = [json.loads(x) for x in out.read_text().splitlines()]
    assert plan["register"] == ["plain=fido.bots.simple:GreedyBot"] and len(deals) == 2
    stopped = tmp_path / "stopped.jsonl"
    stopped.write_text(json.dumps(plan) + "\n")
    again = duel("run", "--resume", str(stopped), "--workers", "1")
    assert again.returncode == 0 and "playing 2" in again.stdout, again.stderr
    bad = tmp_path / "bad.jsonl"
    for spec in ("nobody", "plain:depth=3"):
        refused = duel("run", "--game", "6:3", "--a", spec, "--deals", "2", "--out", str(bad),
                       "--register", "plain=fido.bots.simple:GreedyBot")
        assert refused.returncode != 0 and "--a/--b" in refused.stderr, refused.stderr
        assert "Traceback" not in refused.stderr and not bad.exists()
    for given in ("plain", "plain=fido.bots.simple", "=fido.bots.simple:GreedyBot"):
        refused = duel("run", "--game", "6:3", "--a", "plain", "--deals", "2", "--out",
                       str(bad), "--register", given)
        assert refused.returncode != 0 and "give it as name=module:factory" in (
            refused.stderr), refused.stderr
        assert "Traceback" not in refused.stderr and not bad.exists()
