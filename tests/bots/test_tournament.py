"""Tournaments: duplicate deals, reproducibility across workers and Ray, statistics, CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fido import ConfigurationError
from fido.bots.runner import new_secret
from fido.record import GameRecord
from fido.tournament import Estimate, HandResult, TournamentResult, compare, run_tournament

FIDO = str(Path(sys.executable).with_name("fido"))
# the code under test: a source tree on PYTHONPATH comes before the installed one
PASS_ENV = {k: os.environ[k] for k in ("PYTHONPATH",) if k in os.environ}


def test_every_deal_is_replayed_in_every_rotation() -> None:
    res = run_tournament(
        "fido set=6", ["greedy", "random", "random"], deals=3, seed=4, workers=1, keep_records=True
    )
    assert len(res.hands) == 9
    for deal in range(3):
        hands = [h for h in res.hands if h.deal == deal]
        assert [h.rotation for h in hands] == [0, 1, 2]
        # greedy sits at seat r in rotation r
        assert [h.bots.index("greedy") for h in hands] == [0, 1, 2]
        records = [GameRecord.from_json(h.record or "") for h in hands]
        assert len({(r.hands, r.stock) for r in records}) == 1  # the same cards
    assert len({GameRecord.from_json(h.record or "").hands for h in res.hands}) == 3


def test_same_seed_and_secret_same_results_on_one_or_two_workers() -> None:
    bots = ["greedy", "random", "greedy", "random"]
    secret = new_secret()
    a = run_tournament("block", bots, deals=8, seed=9, workers=1, bot_secret=secret)
    b = run_tournament("block", bots, deals=8, seed=9, workers=2, bot_secret=secret)
    c = run_tournament("block", bots, deals=8, seed=10, workers=1, bot_secret=secret)
    assert a.hands == b.hands
    assert a.hands != c.hands
    # without the secret, the same seed deals the same cards but the bots throw other dice
    d = run_tournament("block", bots, deals=8, seed=9, workers=1, keep_records=True)
    e = run_tournament("block", bots, deals=8, seed=9, workers=1, keep_records=True)
    assert d.bot_secret != e.bot_secret and len(d.bot_secret) == 32
    assert [GameRecord.from_json(h.record or "").hands for h in d.hands] == [
        GameRecord.from_json(h.record or "").hands for h in e.hands
    ]
    assert [h.finals for h in d.hands] != [h.finals for h in e.hands]
    # the secret the result reveals replays the run
    again = run_tournament("block", bots, deals=8, seed=9, workers=1, bot_secret=d.bot_secret)
    assert [h.finals for h in again.hands] == [h.finals for h in d.hands]


def test_a_local_ray_instance_gives_the_same_results() -> None:
    import ray  # noqa: PLC0415 (the dev extra installs it; slow to import)

    bots = ["greedy", "random", "random"]
    secret = new_secret()
    local = run_tournament("fido set=6", bots, deals=6, seed=2, workers=1, bot_secret=secret)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote = run_tournament(
            "fido set=6", bots, deals=6, seed=2, ray_address="local", bot_secret=secret
        )
    finally:
        ray.shutdown()
    assert remote.hands == local.hands


def test_greedy_beats_random_with_a_confidence_interval_clear_of_zero() -> None:
    res = run_tournament("fido set=6", ["greedy", "random", "random"], deals=40, seed=1, workers=1)
    diff = compare(res, "greedy", "random")
    assert diff.excludes_zero() and diff.mean > 0
    stats = {s.bot: s for s in res.stats()}
    assert stats["greedy"].margin.low > 0 > stats["random"].margin.high
    assert stats["greedy"].hands == 120 and stats["random"].hands == 240
    assert stats["greedy"].win_rate.mean > 0.5


def test_estimate_math() -> None:
    e = Estimate.of([-1.0, 0.0, 1.0, 4.0])
    assert e.mean == 1.0 and e.n == 4
    # sd = sqrt(14 / 3), half = 1.95996 * sd / 2
    assert abs(e.half_width - 1.959964 * (14 / 3) ** 0.5 / 2) < 1e-5
    assert not e.excludes_zero()
    assert Estimate.of([5.0, 5.5, 6.0]).excludes_zero()


def test_compare_uses_deals_as_units() -> None:
    def hand(deal: int, rot: int, bots: tuple[str, str], scores: tuple[int, int]) -> HandResult:
        return HandResult(deal, rot, bots, scores, scores, (1, 2))

    res = TournamentResult(
        "fido set=6",
        2,
        ("a", "b"),
        0,
        [
            hand(0, 0, ("a", "b"), (10, 0)),
            hand(0, 1, ("b", "a"), (4, 6)),  # deal 0: a +10 and +2 -> +6
            hand(1, 0, ("a", "b"), (0, 2)),
            hand(1, 1, ("b", "a"), (0, 0)),  # deal 1: -2 and 0 -> -1
        ],
    )
    e = compare(res, "a", "b")
    assert e.n == 2 and e.mean == 2.5


def test_bad_tournaments_are_refused() -> None:
    with pytest.raises(ConfigurationError, match="unknown bot"):
        run_tournament("fido set=6", ["greedy", "wizard", "random"], deals=1, workers=1)
    with pytest.raises(ConfigurationError):
        run_tournament("sebastopol", ["greedy"] * 3, deals=1, workers=1)
    with pytest.raises(ConfigurationError, match="1 to 1,000,000 deals"):
        run_tournament("block", ["greedy"] * 2, deals=0, workers=1)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [FIDO, *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={"COLUMNS": "150", "PATH": "/usr/bin:/bin", **PASS_ENV},
    )


def test_simulate_command_end_to_end(tmp_path: Path) -> None:
    out = run(
        "simulate",
        "--rules",
        "fido set=6",
        "--players",
        "3",
        "--bots",
        "greedy,random,random",
        "--deals",
        "20",
        "--seed",
        "3",
        "--workers",
        "2",
        "--json",
        str(tmp_path / "r.json"),
        "--csv",
        str(tmp_path / "r.csv"),
        "--records",
        str(tmp_path / "recs"),
    )
    assert out.returncode == 0, out.stderr
    assert "greedy" in out.stdout and "margin" in out.stdout and "±" in out.stdout
    data = json.loads((tmp_path / "r.json").read_text())
    assert [s["bot"] for s in data["stats"]] == ["greedy", "random"]
    assert len(data["hands"]) == 60
    assert data["stats"][0]["margin"]["ci95"][0] > 0
    csv_lines = (tmp_path / "r.csv").read_text().splitlines()
    assert csv_lines[0].startswith("bot,hands,deals,stat") and len(csv_lines) == 9
    recs = sorted((tmp_path / "recs").glob("*.json"))
    assert len(recs) == 60
    again = subprocess.run(
        [FIDO, "replay", "-q", str(recs[0])], capture_output=True, text=True, check=False
    )
    assert again.returncode == 0, again.stderr


def test_simulate_errors_are_clear() -> None:
    out = run("simulate", "--bots", "wizard", "--deals", "2")
    assert out.returncode == 1
    assert "unknown bot 'wizard'" in out.stderr and "Traceback" not in out.stderr
    out = run("simulate", "--rules", "fido set=7", "--deals", "2")
    assert out.returncode == 1 and "divisor" in out.stderr
