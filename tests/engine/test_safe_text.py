"""User text on a terminal: never markup, never a control sequence; `fido replay` too."""

from __future__ import annotations

import io
import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from fido.cli import app
from fido.rich_text import shown
from fido.safe_text import control_chars, printable

CONTROLS = [chr(c) for c in (*range(32), *range(0x7F, 0xA0))] + [
    "\u2028", "\u2029", "\u202a", "\u202e", "\u2066", "\u2069"
]


def test_every_control_character_is_named_and_written_visibly() -> None:
    for c in CONTROLS:
        assert control_chars(f"a{c}b") == [printable(c)]
        assert printable(c).startswith("\\") and printable(c).isprintable()
    assert printable("\x1b[2J") == "\\x1b[2J" and printable("\u202e") == "\\u202e"
    assert printable("tab\there\n") == "tab\\there\\n"
    assert control_chars("Anna Köln 東京 ²") == []  # letters of any script are not controls


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(CONTROLS + list("[]/\\ab ")), max_size=30)
       | st.text(max_size=30))
def test_shown_text_is_printed_as_typed_without_controls(text: str) -> None:
    out = io.StringIO()
    Console(file=out, width=500, color_system=None).print(shown(text))
    printed = out.getvalue().removesuffix("\n")
    assert control_chars(printed) == []
    assert printed == printable(text)  # every character kept, markup not read


def test_replay_shows_names_as_typed(tmp_path: Path) -> None:
    runner = CliRunner()
    rec = tmp_path / "game.json"
    out = runner.invoke(app, ["demo", "--players", "2", "--rules", "fido set=6", "--seed", "1",
                              "--save", str(rec)])
    assert out.exit_code == 0, out.output
    data = json.loads(rec.read_text())
    data["players"] = ["[/x]", "Eve\x1b[2J"]
    rec.write_text(json.dumps(data))
    out = runner.invoke(app, ["replay", str(rec)], env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    assert "[/x]" in out.output and "Eve\\x1b[2J" in out.output
    assert "\x1b" not in out.output
