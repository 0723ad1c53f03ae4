"""``fido players``, ``fido results`` and ``fido ranking`` end to end (in process).

Runs on SQLite and, with ``FIDO_TEST_POSTGRES_URL``, PostgreSQL.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from support.ranking_cli import SEASON, fido


@pytest.fixture
def db(store_url: str) -> str:
    for name in ("Anna", "Bert", "Cora", "Dana"):
        code, out = fido(store_url, "players", "add", name)
        assert code == 0, out
    return store_url


def test_players(db: str) -> None:
    assert fido(db, "players", "add", "Emil", "--number", "40", "--country", "dk")[0] == 0
    code, out = fido(db, "players", "add", "Fritz", "--number", "40")
    assert code == 1 and "already registered" in out
    code, out = fido(db, "players", "list")
    assert code == 0 and "Emil" in out and "DK" in out and "Fritz" not in out


def test_import_compute_show_report_export(db: str, tmp_path: Path) -> None:
    season = tmp_path / "season.csv"
    season.write_text(SEASON)
    code, out = fido(db, "results", "import", str(season), "--received", "2026-10-31")
    assert code == 0 and "imported 3 new game(s)" in out, out
    code, out = fido(db, "results", "import", str(season), "--received", "2026-10-31")
    assert code == 0 and "0 new game(s), 3 already stored" in out
    code, out = fido(db, "ranking", "compute", "--month", "2026-10")
    assert code == 0 and "published 2026-10: 4 players" in out, out
    assert "Anna" in out and "provisional" in out
    code, out = fido(db, "ranking", "verify", "--month", "2026-10")
    assert code == 0 and "bit for bit" in out
    code, out = fido(db, "ranking", "compute", "--month", "2026-10")
    assert code == 1 and "already published" in out
    code, out = fido(db, "ranking", "show", "--month", "2026-10")
    assert code == 0 and "FIDO world ranking 2026-10 (3 games)" in out
    plot = tmp_path / "anna.svg"
    code, out = fido(db, "ranking", "report", "--month", "2026-10", "--player", "1",
                     "--plot", str(plot))
    assert code == 0, out
    assert "sum of the contributions" in out and "Rostock round" in out
    flat = " ".join(out.split())  # the table model's numbers, for checking by hand
    assert "400 * (final / G - level)" in flat and "this month beta =" in flat
    assert plot.read_text().lstrip().startswith("<?xml")
    csv_file, json_file = tmp_path / "r.csv", tmp_path / "r.json"
    code, out = fido(db, "ranking", "export", "--month", "2026-10",
                     "--csv", str(csv_file), "--json", str(json_file))
    assert code == 0, out
    rows = list(csv.DictReader(csv_file.open()))
    data = json.loads(json_file.read_text())
    assert [r["player"] for r in rows] == [str(e["player"]) for e in data["entries"]]
    assert float(rows[0]["fladub"]) == data["entries"][0]["fladub"]
    assert len(rows) == 4 and data["games"] == 3


BAD_ROWS = [
    ("a,2026-10-03,Rostock round,12,,1,31,x\n", "row 2: pips: 'x' is not a whole number"),
    ("a,2026-10-03,Kiel,12,,2,12,0\n", "row 4: game 'a' has event 'Rostock round' in row 2"),
    ("b,2026-10-04,Kiel,12,,1,1,0\nb,2026-10-04,Kiel,12,,1,2,0\n", "rows 4-5: player 1 appears"),
    ("b,2026-10-04,Kiel,12,,1,1,0\nb,2026-10-04,Kiel,12,,9,2,0\n", "rows 4-5: no registered"),
    ("b,2099-10-04,Kiel,12,,1,1,0\nb,2099-10-04,Kiel,12,,2,2,0\n", "rows 4-5: the game's date"),
]


@pytest.mark.parametrize(("extra", "message"), BAD_ROWS)
def test_a_bad_row_imports_nothing(db: str, tmp_path: Path, extra: str, message: str) -> None:
    good = SEASON.splitlines()[:3]
    bad = tmp_path / "bad.csv"
    if extra.startswith("a,") and "x" in extra:
        bad.write_text(SEASON.splitlines()[0] + "\n" + extra + "\n".join(good[1:]) + "\n")
    else:
        bad.write_text("\n".join(good) + "\n" + extra)
    code, out = fido(db, "results", "import", str(bad))
    assert code == 1 and "nothing imported" in out and message in " ".join(out.split()), out
    code, out = fido(db, "results", "list")
    assert code == 0 and "Rostock" not in out


def test_json_import_and_reviews(db: str, tmp_path: Path) -> None:
    results = [
        {"date": "2026-10-05", "event": "Basel", "set": 6,
         "lines": [{"player": 1, "points": 3, "pips": 1}, {"player": 2, "points": 5, "pips": 0}]},
        {"date": "2026-10-06", "event": "Basel", "set": 6, "colour": "red",
         "lines": [{"player": 1, "points": 3, "pips": 1}, {"player": 2, "points": 5, "pips": 0}]},
    ]
    f = tmp_path / "r.json"
    f.write_text(json.dumps(results[:1]))
    assert fido(db, "results", "import", str(f))[0] == 0  # game 1
    f.write_text(json.dumps(results))
    code, out = fido(db, "results", "import", str(f))
    assert code == 1 and "result 2" in out and "colour" in out
    code, out = fido(db, "results", "dispute", "1", "--player", "2", "--note", "5 pips")
    assert code == 0 and "disputed" in out
    code, out = fido(db, "results", "confirm", "1", "--player", "3")
    assert code == 1 and "did not play" in out
    code, out = fido(db, "results", "settle", "1", "--accept")
    assert code == 0 and "accepted" in out
    code, out = fido(db, "results", "list", "--player", "2")
    assert code == 0 and "accepted" in out


def test_results_add_asks_for_a_score_sheet(db: str) -> None:
    sheet = "2026-10-30\nBasel\n12\n\n3\n2\n40\n0\n3\n10\n5\n4\n5\n30\ny\n"
    code, out = fido(db, "results", "add", "--by", "2", input=sheet)
    assert code == 0 and "stored as game 1" in out, out
    assert "│      2 │ Bert " in out and "│      3 │ Cora " in out  # names beside numbers
    code, out = fido(db, "results", "list")
    assert "2 Bert: 40, 3 Cora: 5, 4 Dana: -25" in out
    unknown = sheet.replace("\n3\n10\n", "\n7\n10\n")
    code, out = fido(db, "results", "add", input=unknown)
    assert code == 1 and "no registered player has number 7" in out
    code, out = fido(db, "results", "add", "--by", "2", input=sheet)
    assert code == 0 and "already stored as game 1" in out
    wrong = "2026-10-30\nBasel\n12\n\n2\n2\n40\n0\n2\n10\n5\ny\n"
    code, out = fido(db, "results", "add", input=wrong)
    assert code == 1 and "player 2 is already line 1 of this sheet; type another" in out
    assert "stored as" not in out  # the sheet ran out while player 2 was asked again
    declined = "2026-10-29\nBasel\n12\n\n2\n1\n1\n0\n2\n1\n0\nn\n"
    code, out = fido(db, "results", "add", input=declined)
    assert code == 0 and "nothing stored" in out
    code, out = fido(db, "results", "list")
    assert out.count("Basel") == 1


def test_bad_month_and_unpublished(db: str) -> None:
    code, out = fido(db, "ranking", "show", "--month", "2026-13")
    assert code == 1 and "YYYY-MM" in out
    code, out = fido(db, "ranking", "export", "--month", "2026-09", "--csv", "x.csv")
    assert code == 1 and "not been published" in out
    code, out = fido(db, "ranking", "compute", "--month", "2999-01")
    assert code == 1 and "has not ended" in out


def test_an_administrators_command_makes_no_database_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No --db, no $FIDO_DB (an env file that lost it), no ./fido.db: refused, nothing
    made; an existing ./fido.db is the default as before."""
    from typer.testing import CliRunner  # noqa: PLC0415

    from fido.cli import app  # noqa: PLC0415

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("FIDO_DB", raising=False)
    out = CliRunner().invoke(app, ["players", "add", "Anna"], env={"COLUMNS": "200"})
    assert out.exit_code == 2, out.output
    assert "no database given: --db URL, or $FIDO_DB" in out.output
    assert not (tmp_path / "fido.db").exists()
    code, said = fido(f"sqlite:///{tmp_path / 'fido.db'}", "players", "add", "Anna")
    assert code == 0, said
    out = CliRunner().invoke(app, ["players", "add", "Bert"], env={"COLUMNS": "200"})
    assert out.exit_code == 0 and "Bert" in out.output, out.output
