"""The organiser's day: ``results show``, rename and merge, the sheet checked as
typed, the report at 80 columns, a game record imported (issue 12).

Runs on SQLite and, with ``FIDO_TEST_POSTGRES_URL``, PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fido.cli import app
from fido.ranking.reviews import dispute, settle
from fido.ranking.snapshot import compute_month, publish
from fido.store import open_store

runner = CliRunner()

SEASON = """game,date,event,set,divisor,player,points,pips
a,2026-10-03,Rostock round,12,,1,31,4
a,2026-10-03,Rostock round,12,,2,12,0
a,2026-10-03,Rostock round,12,,3,20,17
b,2026-10-10,Kiel,9,5,4,10,3
b,2026-10-10,Kiel,9,5,1,30,0
c,2026-10-17,Kiel,9,,2,18,0
c,2026-10-17,Kiel,9,,3,22,6
c,2026-10-17,Kiel,9,,4,9,12
"""


def at(day: str, hour: int = 12) -> dt.datetime:
    return dt.datetime.fromisoformat(day).replace(hour=hour, tzinfo=dt.UTC)


def fido(db: str, *args: str, input: str | None = None, columns: int = 200) -> tuple[int, str]:
    out = runner.invoke(app, [*args, "--db", db], input=input, env={"COLUMNS": str(columns)})
    return out.exit_code, out.output


@pytest.fixture
def db(store_url: str, tmp_path: Path) -> str:
    for name in ("Anna", "Bert", "Cora", "Dana"):
        code, out = fido(store_url, "players", "add", name)
        assert code == 0, out
    season = tmp_path / "season.csv"
    season.write_text(SEASON)
    code, out = fido(store_url, "results", "import", str(season), "--received", "2026-10-31")
    assert code == 0 and "imported 3 new game(s)" in out, out
    return store_url


def test_show_a_game_its_reviews_and_a_late_dispute(db: str) -> None:
    store = open_store(db)
    with store.session() as s:
        dispute(s, 2, 4, note="", now=at("2026-10-31", 18))  # before the October cutoff
        publish(s, "2026-10", now=at("2026-11-02"))
        dispute(s, 1, 3, note="[b]20[/b] points, not 17 pips", now=at("2026-11-05"))
    code, out = fido(db, "results", "show", "1")
    assert code == 0, out
    assert "Game 1: 2026-10-03, Rostock round, double-12, divisor 7" in out
    assert "received 2026-10-31 12:00 UTC from an import" in out
    assert "│    1 │      1 │ Anna │     31 │    4 │    27 │" in out  # names beside numbers
    assert "3 Cora" in out and "disputed" in out
    assert "[b]20[/b] points, not 17 pips" in out  # a note shown as typed, not as markup
    assert "status: disputed (does not count now)" in out
    assert (
        "The dispute of 2026-11-05 12:00 UTC came after the cutoff of 2026-10 (2026-11-01 "
        "00:00 UTC). The published ranking of 2026-10 counted this game and still counts it: "
        "published months never change." in out
    )
    assert "From the ranking of 2026-11 on the game does not count" in out
    code, out = fido(db, "results", "show", "2")
    assert "came before the cutoff of 2026-10" in out and "no ranking counted it" in out
    # what the sentences say is what the rankings do
    with store.session() as s:
        settle(s, 1, accept=True, note="the photo agrees", now=at("2026-12-03"))
    with store.session(write=False) as s:
        assert compute_month(s, "2026-11")[0].games == 1  # games 1 and 2 disputed
        assert compute_month(s, "2026-12")[0].games == 2  # game 1 accepted again, 2 not
    code, out = fido(db, "results", "show", "1")
    assert (
        "The federation accepted it on 2026-12-03 12:00 UTC: the rankings of 2026-11 do not "
        "count it, those from 2026-12 on do again." in out
    )
    assert "the federation" in out and "the photo agrees" in out
    code, out = fido(db, "ranking", "verify", "--month", "2026-10")
    assert code == 0 and "bit for bit" in out, out
    store.close()


def test_show_refuses_a_missing_game(db: str) -> None:
    code, out = fido(db, "results", "show", "99")
    assert code == 1 and out.strip() == "error: there is no game 99"
