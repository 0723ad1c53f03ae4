"""docs/deploy.md's Prometheus alerts, ``deploy/prometheus/fido-alerts.yml``: Prometheus
accepts the file (``promtool check rules``), each rule's expression names only metrics
fido exports, and promtool's unit tests (``tests/server/fido_alerts_test.yml``) see each
alert fire on the series it is for, naming the process, and stay quiet on healthy ones.

Skipped, with the reason, without promtool (`make test` installs Debian's ``prometheus``
package, which has it).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from fido.cli.backup import _write_metrics
from fido.server.metrics import Metrics

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "deploy" / "prometheus" / "fido-alerts.yml"
UNIT_TESTS = Path(__file__).with_name("fido_alerts_test.yml")
PROMTOOL = shutil.which("promtool")

needs_promtool = pytest.mark.skipif(
    PROMTOOL is None, reason="promtool is not installed (`make test` installs Debian's "
    "package: apt-get install --no-install-recommends prometheus)")


def _rules() -> list[dict[str, object]]:
    groups = yaml.safe_load(RULES.read_text())["groups"]
    return [rule for group in groups for rule in group["rules"]]


def _promtool(*args: str) -> subprocess.CompletedProcess[str]:
    assert PROMTOOL is not None
    return subprocess.run([PROMTOOL, *args], capture_output=True, text=True, timeout=120,
                          check=False, cwd=UNIT_TESTS.parent)


@needs_promtool
def test_prometheus_accepts_the_rules_file() -> None:
    out = _promtool("check", "rules", str(RULES))
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"SUCCESS: {len(_rules())} rules found" in out.stdout, out.stdout


@needs_promtool
def test_the_alerts_fire_on_their_series_and_not_on_healthy_ones() -> None:
    out = _promtool("test", "rules", UNIT_TESTS.name)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "SUCCESS" in out.stdout, out.stdout
    # every alert of the file is tested, firing at least once
    tested = yaml.safe_load(UNIT_TESTS.read_text())["tests"]
    fired = {case["alertname"] for test in tested for case in test["alert_rule_test"]
             if case["exp_alerts"]}
    assert fired == {rule["alert"] for rule in _rules()}


def test_each_rule_names_only_fido_s_metrics_and_says_what_it_is(tmp_path: Path) -> None:
    """The names in the expressions are those fido's /metrics has (a renamed metric would
    leave its alert silent for ever, and promtool cannot know)."""
    _write_metrics(tmp_path / "fido_backup.prom", 1)  # `fido backup --metrics-file`'s
    exported = Metrics().text().decode() + (tmp_path / "fido_backup.prom").read_text()
    names = set(re.findall(r"^([a-z_]+)(?:\{| )", exported, re.M)) | {"up"}
    functions = {"rate", "increase", "sum", "max", "by", "le", "time", "histogram_quantile",
                 "and"}
    rules = _rules()
    assert len(rules) >= 6
    for rule in rules:
        expr = str(rule["expr"])
        without_labels = re.sub(r"\{[^}]*\}", "", expr)
        used = set(re.findall(r"\b([a-z_]+)\b", without_labels)) - functions
        assert used and used <= names, (rule["alert"], used - names)
        assert rule["for"], rule
        labels, annotations = rule["labels"], rule["annotations"]
        assert isinstance(labels, dict) and labels["severity"] in ("warning", "critical")
        assert isinstance(annotations, dict)
        assert annotations["summary"] and annotations["description"], rule
