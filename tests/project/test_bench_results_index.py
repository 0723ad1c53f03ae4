"""bench/results/README.md is the index of the benchmarks' data: every file there is
listed in it, and every file it names is there (a result added without its entry, or
renamed or deleted under its entry, fails here).

A file counts as named when a backtick span holds just its name (`fairness.jsonl`) or
its path under bench/results (`bench/results/fairness.jsonl`, as the quoted commands
write it). Other names in the commands (`--out cs.csv`) are the runs' own short names.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").exists())
RESULTS = ROOT / "bench" / "results"
NAME = r"[\w.+-]+\.(?:jsonl\.gz|jsonl|json|csv)"


def named() -> set[str]:
    """The data files the README names."""
    text = (RESULTS / "README.md").read_text()
    spans = set(re.findall(rf"`({NAME})`", text))
    paths = set(re.findall(rf"bench/results/({NAME})(?![\w.+-])", text))
    return spans | paths


def files() -> set[str]:
    return {p.name for p in RESULTS.iterdir() if p.is_file() and p.name != "README.md"}


def test_every_result_is_in_the_index() -> None:
    missing = files() - named()
    assert not missing, ("not in bench/results/README.md:", sorted(missing))


def test_every_name_in_the_index_exists() -> None:
    absent = named() - files()
    assert not absent, ("named in bench/results/README.md but not there:", sorted(absent))


def test_the_check_reads_the_index() -> None:
    """The parse is not vacuous: both forms of a name are read."""
    assert {"fairness.jsonl", "analysis-calibration-d9-truth-smart.jsonl.gz"} <= named()
    assert "cs.csv" not in named()
