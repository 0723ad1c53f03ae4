"""Every ranking command against hostile input: `error: ...`, exit code 1, nothing changed.

Hostile: numbers past the database's integers, markup and terminal control
sequences in names, notes and months, files in other encodings, JSON nested
too deeply, oversized CSV fields, databases that cannot be opened. Whatever
the input, the output holds no traceback and no control character, and user
text is shown as typed, never read as Rich markup. Runs on SQLite and, with
``FIDO_TEST_POSTGRES_URL``, PostgreSQL.
"""

from __future__ import annotations

import codecs
import csv
import json
from pathlib import Path

import pytest
from sqlalchemy import update
from typer.testing import CliRunner

from fido.cli import app
from fido.store import GameRow, Player, open_store

runner = CliRunner()
BIG = str(2**63)  # overflowed SQLite's INTEGER (OverflowError) before
HEADER = "game,date,event,set,divisor,player,points,pips\n"
SEASON = HEADER + "a,2026-10-03,Kiel,12,,1,31,4\na,2026-10-03,Kiel,12,,2,12,0\n"


def fido(*args: str, db: str | None = None, input: str | None = None) -> tuple[int, str]:
    extra = ["--db", db] if db is not None else []
    out = runner.invoke(app, [*args, *extra], input=input, env={"COLUMNS": "200"})
    return out.exit_code, out.output


def refused(code: int, out: str, message: str, *, echoed: bool = False) -> None:
    """Exit code 1, one line starting ``error:`` naming the fault, no traceback, no controls.

    ``echoed``: the output repeats what was typed at prompts; only the error is checked.
    """
    errors = [ln for ln in out.splitlines() if ln.startswith("error: ")]
    assert code == 1, out
    assert len(errors) == 1 and message in errors[0], out
    assert "Traceback" not in out
    shown = errors[0] if echoed else out
    assert not any(ord(c) < 32 and c != "\n" for c in shown), repr(out)


@pytest.fixture
def db(store_url: str) -> str:
    url = store_url  # SQLite, and PostgreSQL (32-bit INTEGER) when make test provides one
    for name in ("Anna", "Bert"):
        assert fido("players", "add", name, db=url)[0] == 0
    return url


def _state(db: str) -> str:
    return fido("players", "list", db=db)[1] + fido("results", "list", db=db)[1]


COMMANDS = [
    (["players", "add", "Eve\x1b[2J"], "holds control characters (\\x1b)"),
    (["players", "add", "Eve\u202egnp.exe"], "holds control characters (\\u202e)"),
    (["players", "add", "Eve", "--number", BIG], "less than or equal to 2147483647"),
    (["players", "add", "Eve", "--number", "0"], "greater than or equal to 1"),
    (["players", "add", "Eve", "--country", "[/]"], "a country is a code of 2 or 3 letters"),
    (["players", "add", ""], "at least 1 character"),
    (["players", "add", "E" * 201], "at most 200 characters"),
    (["results", "list", "--player", BIG], "player number must be from 1 to 2147483647"),
    (["results", "list", "--player", "7"], "no registered player has number 7"),
    (["results", "confirm", BIG, "--player", "1"], "game number must be from 1 to"),
    (["results", "dispute", "1", "--player", BIG], "no game 1|player number must be"),
    (["results", "settle", BIG, "--accept"], "game number must be from 1 to"),
    (["results", "dispute", "1", "--player", "2", "--note", "\x1b]0;pwned\x07"],
     "the note holds control characters (\\x1b, \\x07)"),
    (["ranking", "show", "--month", "２０２６-１１"], "a month is written YYYY-MM"),
    (["ranking", "show", "--month", "[/x]"], "not '[/x]'"),
    (["ranking", "show", "--month", "9999-12"], "year is from 0001 to 9998"),
    (["ranking", "show", "--month", "2026-10", "--top", "-1"], "--top is 1 or more"),
    (["ranking", "compute", "--month", "0000-01"], "year is from 0001 to 9998"),
    (["ranking", "verify", "--month", "2026-10\x1b[2J"], "a month is written YYYY-MM"),
    (["ranking", "report", "--month", "2026-10", "--player", BIG], "player number must be"),
    (["ranking", "export", "--month", "2026-10"], "give --csv FILE and/or --json FILE"),
    (["ranking", "export", "--month", "2026-10", "--csv", "x.csv"], "has not been published"),
]


@pytest.mark.parametrize(("args", "message"), COMMANDS)
def test_hostile_arguments(db: str, args: list[str], message: str) -> None:
    before = _state(db)
    code, out = fido(*args, db=db)
    refused(code, out, message.split("|", maxsplit=1)[0] if "|" not in message else "")
    assert any(m in out for m in message.split("|"))
    assert _state(db) == before


@pytest.mark.parametrize(
    "url",
    ["notaurl", "foo://x", "sqlite:////nonexistent/dir/fido.db", "postgresql://u:pw@h:port/db"],
)
@pytest.mark.parametrize(
    "args",
    [
        ["players", "list"],
        ["players", "add", "Eve"],
        ["results", "list"],
        ["results", "confirm", "1", "--player", "1"],
        ["ranking", "show", "--month", "2026-10"],
        ["ranking", "export", "--month", "2026-10", "--json", "x.json"],
    ],
)
def test_a_database_that_cannot_be_opened(args: list[str], url: str) -> None:
    code, out = fido(*args, db=url)
    refused(code, out, "cannot open the database")
    assert "pw" not in out  # the URL may hold a password: never repeated


def _bom(codec: str, bom: bytes) -> bytes:
    return bom + SEASON.encode(codec)


FILES = [
    ("latin1.csv", SEASON.replace("Kiel", "Köln").encode("latin-1"), "not UTF-8 text (byte 0xf6"),
    ("utf16.csv", SEASON.encode("utf-16-le"), "NUL bytes (UTF-16 without a byte-order mark?)"),
    ("deep.json", b"[" * 100_000, "deep.json: nested too deeply"),
    ("big.json", b'[{"set": ' + b"9" * 5000 + b"}]", "not JSON: Exceeds the limit"),
    ("big.csv", SEASON.replace("31,4", "9" * 5000 + ",4").encode(), "row 2: points: '99999"),
    ("wide.csv", (SEASON + "b,2026-10-04," + "x" * (csv.field_size_limit() + 1)).encode(),
     "field larger than field limit"),
    ("bigint.json", json.dumps([{"date": "2026-10-03", "event": "K", "set": 12, "divisor": 2**63,
                                 "lines": [{"player": 1, "points": 0, "pips": 0},
                                           {"player": 2, "points": 0, "pips": 0}]}]).encode(),
     "result 1: result: divisor: Input should be less than or equal to 2147483647"),
    ("bigplayer.csv", SEASON.replace(",1,31", f",{BIG},31").encode(),
     "row 2: player: '9223372036854775808' is out of range"),
    ("hugeplayer.csv", SEASON.replace(",1,31", ",2147483648,31").encode(),
     "rows 2-3: result: lines.0.player: Input should be less than or equal to 2147483647"),
    ("esc.csv", SEASON.replace("Kiel", "Kiel\x1b[2J").encode(),
     "event: holds control characters (\\x1b)"),
    ("markup.json", b'{"event": "[/x]"}', "result 1: result: date: Field required"),
    ("season.xlsx", SEASON.encode(), "import reads .csv or .json files"),
    ("empty.csv", b"", "missing column(s) game, date"),
]


@pytest.mark.parametrize(("name", "data", "message"), FILES)
def test_hostile_files_import_nothing(
    db: str, tmp_path: Path, name: str, data: bytes, message: str
) -> None:
    before = _state(db)
    f = tmp_path / name
    f.write_bytes(data)
    code, out = fido("results", "import", str(f), db=db)
    refused(code, out, message)
    assert "nothing imported" in out
    assert _state(db) == before


@pytest.mark.parametrize(
    ("codec", "bom"),
    [("utf-8", codecs.BOM_UTF8), ("utf-16-le", codecs.BOM_UTF16_LE),
     ("utf-16-be", codecs.BOM_UTF16_BE)],
)
def test_files_with_a_byte_order_mark_are_read(
    db: str, tmp_path: Path, codec: str, bom: bytes
) -> None:
    f = tmp_path / "season.csv"
    f.write_bytes(_bom(codec, bom))
    code, out = fido("results", "import", str(f), "--received", "2026-10-31", db=db)
    assert code == 0 and "imported 1 new game(s)" in out, out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--received", "２０２６-１０-３１"], "--received is a date, YYYY-MM-DD"),
        (["--received", "2999-01-01"], "--received 2999-01-01 is in the future"),
    ],
)
def test_bad_received_dates(db: str, tmp_path: Path, args: list[str], message: str) -> None:
    f = tmp_path / "season.csv"
    f.write_text(SEASON)
    refused(*fido("results", "import", str(f), *args, db=db), message)


def test_missing_and_unreadable_files(db: str, tmp_path: Path) -> None:
    refused(*fido("results", "import", str(tmp_path / "no.csv"), db=db), "cannot read")
    (tmp_path / "dir.json").mkdir()
    refused(*fido("results", "import", str(tmp_path / "dir.json"), db=db), "cannot read")


SHEET = "2026-10-30\n{event}\n12\n\n{count}\n"


@pytest.mark.parametrize(
    ("sheet", "message"),
    [
        (SHEET.format(event="Kiel\x1b[2J", count=2) + "1\n5\n0\n2\n3\n1\ny\n",
         "event: holds control characters (\\x1b)"),
        (SHEET.format(event="Kiel", count=0), "a FIDO game has 2 to 9 players, not 0"),
        (SHEET.format(event="Kiel", count=10**9), "a FIDO game has 2 to 9 players"),
        ("２０２６-１０-３０\nKiel\n12\n\n2\n1\n5\n0\n2\n3\n1\ny\n", "date: Input should be"),
    ],
)
def test_results_add_refuses_a_hostile_sheet(db: str, sheet: str, message: str) -> None:
    before = _state(db)
    code, out = fido("results", "add", db=db, input=sheet)
    refused(code, out, message, echoed=True)
    assert "nothing stored" in out and "Store this result?" not in out
    assert _state(db) == before


def test_results_add_answers_a_huge_player_number_at_once(db: str) -> None:
    before = _state(db)
    sheet = SHEET.format(event="Kiel", count=2) + f"{BIG}\n1\n5\n0\n2\n3\n1\nn\n"
    code, out = fido("results", "add", db=db, input=sheet)
    assert code == 0 and "Traceback" not in out, out
    assert f"a player number must be from 1 to 2147483647, not {BIG}; type another" in out
    assert "Player 1 (1 Anna): points" in out and out.rstrip().endswith("nothing stored")
    assert _state(db) == before


# ---------------------------------------------------------------- output


def test_markup_in_a_name_is_shown_as_typed(db: str, tmp_path: Path) -> None:
    # "[/x]" used to make `players list` raise MarkupError for everyone, for good
    for name in ("[/x]", "[bold]Bo[/bold]", "back\\"):
        code, out = fido("players", "add", name, db=db)
        assert code == 0 and f"registered {name} as player" in out, out
    code, out = fido("players", "list", db=db)
    assert code == 0 and "[/x]" in out and "[bold]Bo[/bold]" in out and "back\\ " in out


def test_stored_control_characters_are_shown_escaped(db: str, tmp_path: Path) -> None:
    # rows written before input was checked (or by another client) still list safely
    f = tmp_path / "season.csv"
    f.write_text(SEASON)
    assert fido("results", "import", str(f), "--received", "2026-10-31", db=db)[0] == 0
    store = open_store(db)
    with store.session() as s:
        s.execute(update(Player).where(Player.number == 1).values(name="Anna\x1b[2J[/x]"))
        s.execute(update(GameRow).values(event="Kiel\x9b31m\u202e"))
    store.close()
    assert fido("ranking", "compute", "--month", "2026-10", db=db)[0] == 0
    for args in (
        ["players", "list"],
        ["results", "list"],
        ["ranking", "show", "--month", "2026-10"],
        ["ranking", "report", "--month", "2026-10", "--player", "1"],
        ["ranking", "report", "--month", "2026-10", "--player", "2"],
    ):
        code, out = fido(*args, db=db)
        assert code == 0, (args, out)
        assert "\x1b" not in out and "\x9b" not in out and "\u202e" not in out
        assert "Anna\\x1b[2J[/x]" in out or "Kiel\\x9b31m\\u202e" in out, (args, out)


def test_a_plot_with_markup_and_dollars_in_the_name(db: str, tmp_path: Path) -> None:
    f = tmp_path / "season.csv"
    f.write_text(SEASON)
    assert fido("results", "import", str(f), "--received", "2026-10-31", db=db)[0] == 0
    assert fido("players", "add", "$\\frac{$ [/x]", "--number", "9", db=db)[0] == 0
    store = open_store(db)
    with store.session() as s:
        s.execute(update(Player).where(Player.number == 1).values(name="$\\frac{$ [/x]"))
    store.close()
    plot = tmp_path / "p.svg"
    code, out = fido("ranking", "report", "--month", "2026-10", "--player", "1",
                     "--plot", str(plot), db=db)
    assert code == 0 and plot.exists(), out
    code, out = fido("ranking", "report", "--month", "2026-10", "--player", "1",
                     "--plot", str(tmp_path / "p.gif"), db=db)
    refused(code, out, "a plot is written as .png or .svg")
    code, out = fido("ranking", "report", "--month", "2026-10", "--player", "1",
                     "--plot", str(tmp_path / "no" / "p.svg"), db=db)
    refused(code, out, "No such file or directory")
