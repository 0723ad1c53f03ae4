"""The fido command for the tests: run to its end, or spawned in a pty (pexpect) in
either language."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
from pathlib import Path

import pexpect

FIDO = str(Path(sys.executable).with_name("fido"))
# the code under test: a source tree on PYTHONPATH comes before the installed one
PASS_ENV = {k: os.environ[k] for k in ("PYTHONPATH",) if k in os.environ}


PROMPT = r"Your move \(key or notation"


LANGS = ["en", "de"]


# the child's environment per language: German from LANG alone (--lang: its own tests)
LANG_ENV = {"en": {}, "de": {"LANG": "de_DE.UTF-8"}}


# what the game says, per language: the tests read the screen in the language it speaks
SAYS: dict[str, dict[str, str]] = {
    "en": {
        "prompt": PROMPT,
        "saved": "game record saved to",
        "result": "Result (",
        "final": "final",
        "not a move": "not a move",
        "not held": r"'0-0@99e': (you do not hold 0-0|no tile #99)",
        "leave": "Leave the game",
        "left": "left without saving",
        "game saved": "game saved to",
        # the hint is wrapped to the screen's 80 columns: a long list of scoring moves
        # (the bots' opening differs from run to run) breaks it across lines anywhere
        "hint": r"(?s)hint:\s+(scoring\s+now:.*?|nothing\s+scores\s+now);\s+expert\s+plays\s+\S+",
        "deal": "the deal",
        "move": "move",
        "sum": "sum of the ends",
        "go on": r"go\s+on\s+with",
        "up to": "up to 6",
        "open": "'",
        "close": "'",
    },
    "de": {
        "prompt": r"Dein Zug \(Taste oder Notation",
        "saved": "Spielprotokoll gespeichert in",
        "result": "Ergebnis (",
        "final": "Endstand",
        "not a move": "kein Zug",
        "not held": r"„0-0@99e“: (Du hast 0-0 nicht|kein Stein Nr. 99)",
        "leave": "Spiel verlassen",
        "left": "ohne Speichern verlassen",
        "game saved": "Spiel gespeichert in",
        "hint": (
            r"(?s)Tipp:\s+(jetzt\s+punkten:.*?|jetzt\s+punktet\s+nichts);\s+Profi\s+spielt\s+\S+"
        ),
        "deal": "das Austeilen",
        "move": "Zug",
        "sum": "Summe der Enden",
        "go on": r"weiter\s+mit",
        "up to": "Die Zahlen gehen bis 6",
        "open": "„",
        "close": "“",
    },
}


def _ctrl_c_on() -> None:
    # a shell's background job ignores SIGINT and a child inherits that: the
    # player's Ctrl-C must reach fido however the test run was started
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(
    *args: str, log: io.StringIO | None = None, env: dict[str, str] | None = None
) -> pexpect.spawn:
    child = pexpect.spawn(
        FIDO,
        list(args),
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=60,
        env={"TERM": "dumb", **PASS_ENV, **(env or {})},
        preexec_fn=_ctrl_c_on,
    )
    if log is not None:
        child.logfile_read = log
    return child


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [FIDO, *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={"COLUMNS": "120", "PATH": "/usr/bin:/bin", **PASS_ENV},
    )
