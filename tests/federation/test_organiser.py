"""The organiser's day: ``results show``, rename and merge, the sheet checked as
typed, the report at 80 columns, a game record imported (issue 12).

Runs on SQLite and, with ``FIDO_TEST_POSTGRES_URL``, PostgreSQL.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from fido import Game, ruleset
from fido.ranking.players import (
    find_player,
    list_players,
    merge_players,
    merged_ids,
    month_merges,
    register_player,
)
from fido.ranking.reviews import dispute, settle
from fido.ranking.snapshot import compute_month, publish
from fido.record import GameRecord
from fido.store import migrate as migrate_to
from fido.store import open_store
from support.ranking_cli import SEASON, fido


def at(day: str, hour: int = 12) -> dt.datetime:
    return dt.datetime.fromisoformat(day).replace(hour=hour, tzinfo=dt.UTC)


@pytest.fixture
def db(store_url: str, tmp_path: Path) -> str:
    """The four players of test_cli_ranking and their season imported."""
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


# ------------------------------------------------------------ the sheet as typed


def test_each_player_number_is_checked_as_it_is_typed(db: str) -> None:
    # player 1: 9 (unknown), then 1; player 2: 1 again (on the sheet), then 2
    sheet = "2026-11-09\nKiel\n9\n\n2\n9\n1\n30\n2\n1\n2\n12\n0\ny\n"
    code, out = fido(db, "results", "add", input=sheet)
    assert code == 0 and "stored as game 4" in out, out
    lines = out.splitlines()
    unknown = next(i for i, ln in enumerate(lines) if "no registered player has number 9" in ln)
    # answered at once: the next thing asked is player 1's number again, not her points
    assert "type another number" in lines[unknown]
    assert lines[unknown + 1].startswith("Player 1: player number")
    assert "Player 1 (1 Anna): points" in out  # the name beside the number as it is typed
    assert "player 1 is already line 1 of this sheet; type another number" in out
    assert "Player 2 (2 Bert): pips left" in out
    code, out = fido(db, "results", "show", "4")
    assert "│    2 │      2 │ Bert │     12 │    0 │    12 │" in out
    code, out = fido(db, "results", "add", "--by", "77", input="")
    assert code == 1 and out.strip() == "error: no registered player has number 77"


# ------------------------------------------------------------ rename and merge


def test_rename_corrects_a_name_and_published_months_still_verify(db: str) -> None:
    assert fido(db, "ranking", "compute", "--month", "2026-10")[0] == 0
    code, out = fido(db, "players", "rename", "2", "Bert [i]Brecht[/i]")
    assert code == 0 and out.strip() == "player 2: Bert is now Bert [i]Brecht[/i]"
    code, out = fido(db, "ranking", "show", "--month", "2026-10")
    assert "Bert [i]Brecht[/i]" in out  # the published month under her name as it is now
    code, out = fido(db, "ranking", "verify", "--month", "2026-10")
    assert code == 0 and "bit for bit" in out
    code, out = fido(db, "players", "rename", "2", "  ")
    assert code == 1 and out.startswith("error: player: name")
    code, out = fido(db, "players", "rename", "9", "Nobody")
    assert code == 1 and "no registered player has number 9" in out


def test_merge_a_second_registration(db: str, tmp_path: Path) -> None:
    assert fido(db, "ranking", "compute", "--month", "2026-10")[0] == 0
    assert fido(db, "players", "add", "Anne")[0] == 0  # player 5: a typo of Anna's
    nov = tmp_path / "nov.csv"
    nov.write_text(
        "game,date,event,set,divisor,player,points,pips\n"
        "d,2026-11-07,Kiel,9,,5,25,0\nd,2026-11-07,Kiel,9,,2,10,4\n"
    )
    code, out = fido(db, "results", "import", str(nov), "--received", "2026-11-08")
    assert code == 0, out
    code, out = fido(db, "players", "merge", "5", "2")
    assert code == 1 and "players 5 and 2 both played in game 4: they are two people" in out
    code, out = fido(db, "players", "merge", "5", "1")
    assert code == 0 and "merged player 5 (Anne) into player 1 (Anna): her 1 game(s)" in out
    code, out = fido(db, "players", "merge", "5", "1")
    assert code == 1 and "player 5 (Anne) was merged into player 1 (Anna): use 1" in out
    code, out = fido(db, "players", "list")
    assert "Anne" not in out and "Anna" in out
    code, out = fido(db, "players", "list", "--all")
    assert "│      5 │ Anne " in out and "1 Anna on " in out
    # refused for new results, by sheet and by import, naming the survivor
    sheet = "2026-11-09\nKiel\n9\n\n2\n5\n"
    code, out = fido(db, "results", "add", input=sheet)
    assert code == 1 and "was merged into player 1 (Anna): use 1; type another number" in out
    nov.write_text(nov.read_text().replace("d,2026-11-07", "e,2026-11-08"))
    code, out = fido(db, "results", "import", str(nov))
    assert code == 1 and "was merged into player 1 (Anna): use 1" in out
    # her games are the survivor's to list and to review
    code, out = fido(db, "results", "list", "--player", "1")
    assert "5 Anne: 25" in out and "1 Anna: 27" in out
    code, out = fido(db, "results", "confirm", "4", "--player", "1")
    assert code == 0 and "game 4:" in out
    code, out = fido(db, "ranking", "verify", "--month", "2026-10")
    assert code == 0 and "bit for bit" in out


def test_merges_apply_to_months_published_after_them(db: str) -> None:
    store = open_store(db)
    with store.session() as s:
        anne = register_player(s, "Anne", now=at("2026-10-01"))
        publish(s, "2026-10", now=at("2026-11-02"))
        merge_players(s, anne.number, 1, now=at("2026-11-03"))
        assert month_merges(s, "2026-10") == {}  # published before the merge
        assert month_merges(s, "2026-11") == {anne.id: find_player(s, 1).id}
        anna = find_player(s, 1)
        full = register_player(s, "Anna Schmidt", now=at("2026-10-01"))
        merge_players(s, 1, full.number, now=at("2026-11-04"))  # merges of merges are followed
        assert merged_ids(s) == {anne.id: full.id, anna.id: full.id}
        assert merged_ids(s, before=at("2026-11-04")) == {anne.id: anna.id}
        assert find_player(s, 2).merged_into is None
    store.close()


def test_a_merged_players_games_count_for_the_survivor(db: str, tmp_path: Path) -> None:
    assert fido(db, "players", "add", "Anne")[0] == 0
    nov = tmp_path / "nov.csv"
    nov.write_text(
        "game,date,event,set,divisor,player,points,pips\n"
        "d,2026-11-07,Kiel,9,,5,25,0\nd,2026-11-07,Kiel,9,,2,10,4\n"
    )
    assert fido(db, "results", "import", str(nov), "--received", "2026-11-08")[0] == 0
    assert fido(db, "players", "merge", "5", "1")[0] == 0
    store = open_store(db)
    with store.session(write=False) as s:
        r = compute_month(s, "2026-11")[0]
        assert r.entry(5) is None
        anna = r.entry(1)
        assert anna is not None and anna.games == 3
    store.close()


def test_migration_0003_keeps_the_players(store_url: str) -> None:
    engine = create_engine(store_url)
    migrate_to(engine, "0002")
    with engine.begin() as conn:
        conn.execute(
            text("INSERT INTO players (number, name, registered_at) VALUES (7, 'Anna', :t)"),
            {"t": dt.datetime(2026, 1, 1)},
        )
    engine.dispose()
    store = open_store(store_url)
    with store.session() as s:
        (p,) = list_players(s)
        assert (p.number, p.name, p.merged_into, p.merged_at) == (7, "Anna", None, None)
        register_player(s, "Anne", 8)
        merge_players(s, 8, 7)
        assert [q.number for q in list_players(s)] == [7]
    store.close()


# ------------------------------------------------------------ report, plot, export


def test_report_reads_at_80_columns(db: str, tmp_path: Path) -> None:
    long_name = "Dana Wilhelmine von Hohenzollern-Sigmaringen"
    assert fido(db, "players", "rename", "4", long_name)[0] == 0
    # a child process: the in-process console keeps the width it was first made with
    done = subprocess.run(
        [sys.executable, "-c", "from fido.cli import app; app()", "ranking", "report",
         "--month", "2026-10", "--player", "1", "--db", db],
        capture_output=True, text=True, env={**os.environ, "COLUMNS": "80"}, check=False,
    )
    code, out = done.returncode, done.stdout + done.stderr
    assert code == 0, out
    lines = out.splitlines()
    assert max(len(ln) for ln in lines) <= 80
    header = next(ln for ln in lines if "game" in ln and "contrib." in ln)
    assert header.split() == ["game", "played", "event", "final", "weight", "perf.", "contrib."]
    # a game's row whole on one line: id, full date, event, final, weight, perf., contrib.
    row = next(ln for ln in lines if ln.split()[:2] == ["1", "2026-10-03"])
    assert row.split()[2:4] == ["Rostock", "round"] and row.split()[4] == "27"
    assert "4 Dana Wilhelmine" in out  # the opponent's long name cut, her number kept
    code, wide = fido(db, "ranking", "report", "--month", "2026-10", "--player", "1")
    total = next(ln for ln in wide.splitlines() if ln.startswith("sum of the contributions"))
    assert total in out  # the same numbers, only laid out narrower
    assert "factor = 1.0000" in out and "(12 - 0) / 12 = 1.0000" in " ".join(out.split())


def test_the_plot_shows_two_games_of_one_day(db: str, tmp_path: Path) -> None:
    same_day = tmp_path / "same.csv"  # Anna's second game on 2026-10-10
    same_day.write_text(
        "game,date,event,set,divisor,player,points,pips\n"
        "d,2026-10-10,Kiel,9,,1,12,0\nd,2026-10-10,Kiel,9,,2,3,1\n"
    )
    assert fido(db, "results", "import", str(same_day), "--received", "2026-10-31")[0] == 0
    plot = tmp_path / "anna.svg"
    code, out = fido(db, "ranking", "report", "--month", "2026-10", "--player", "1",
                     "--plot", str(plot))
    assert code == 0, out
    svg = plot.read_text()
    for label in ("10-03 #1", "10-10 #2", "10-10 #4"):  # one bar and label per game
        assert label in svg


def test_exports_round_to_what_the_table_shows(db: str, tmp_path: Path) -> None:
    assert fido(db, "ranking", "compute", "--month", "2026-10")[0] == 0
    code, shown_ = fido(db, "ranking", "show", "--month", "2026-10")
    csv_file, json_file = tmp_path / "r.csv", tmp_path / "r.json"
    code, out = fido(db, "ranking", "export", "--month", "2026-10",
                     "--csv", str(csv_file), "--json", str(json_file))
    assert code == 0, out
    rows = list(csv.DictReader(csv_file.open()))
    data = json.loads(json_file.read_text())
    assert data["decimals"] == 2
    for row, entry in zip(rows, data["entries"], strict=True):
        assert f" {row['fladub']} " in shown_  # the very text of the table's cell
        assert len(row["fladub"].split(".")[1]) <= 2
        assert float(row["fladub"]) == entry["fladub"]
    code, out = fido(db, "ranking", "verify", "--month", "2026-10")
    assert code == 0  # the store keeps every digit


# ------------------------------------------------------------ a game record


def record_file(tmp_path: Path, *, finished: bool = True, rules: str = "fido") -> Path:
    rng = random.Random(4)
    game = Game.new(ruleset(rules, set=9) if rules == "fido" else ruleset(rules), players=3,
                    seed=4)
    while not game.is_over and (finished or len(game.history()) < 5):
        game.push(rng.choice(game.legal_moves()))
    path = tmp_path / "game.json"
    GameRecord.from_game(game, ["Anna", "Bert", "Cora [x]"], date=dt.date(2026, 11, 14)).save(
        path
    )
    return path


def test_a_saved_game_imports_as_one_result(db: str, tmp_path: Path) -> None:
    path = record_file(tmp_path)
    code, out = fido(db, "results", "import", str(path))
    assert code == 1 and "nothing imported" in out
    assert "seat 1 'Anna', seat 2 'Bert', seat 3 'Cora [x]'" in out  # names, shown as typed
    assert "--players N,N,..." in out
    code, out = fido(db, "results", "import", str(path), "--players", "2,3")
    assert code == 1 and "--players gives 2 numbers, the game has 3 seats" in out
    code, out = fido(db, "results", "import", str(path), "--players", "2,3,x")
    assert code == 1 and "--players takes player numbers in seat order" in out
    code, out = fido(db, "results", "import", str(path), "--players", "2,3,1",
                     "--received", "2026-11-15")
    assert code == 0 and "imported 1 new game(s)" in out, out
    outcome = GameRecord.load(path).replay().outcome
    assert outcome is not None
    code, out = fido(db, "results", "show", "4")
    assert "Game 4: 2026-11-14, fido play, double-9, divisor 5" in out
    assert "with its game record" in out
    for seat, (number, name) in enumerate(((2, "Bert"), (3, "Cora"), (1, "Anna"))):
        res = outcome.seats[seat]
        assert (f"│    {seat + 1} │      {number} │ {name} │ {res.points:6d} │ {res.pips:4d} │ "
                f"{res.points - res.pips:5d} │") in out
    code, out = fido(db, "results", "import", str(path), "--players", "2,3,1")
    assert code == 0 and "0 new game(s), 1 already stored" in out
    code, out = fido(db, "results", "import", str(tmp_path / "x.csv"), "--players", "1,2")
    assert code == 1 and "--players is for a game record" in out


def test_only_a_finished_fido_game_imports(db: str, tmp_path: Path) -> None:
    code, out = fido(db, "results", "import", str(record_file(tmp_path, finished=False)),
                     "--players", "1,2,3")
    assert code == 1 and "the game is not over after its 5 moves" in out
    code, out = fido(db, "results", "import", str(record_file(tmp_path, rules="draw")),
                     "--players", "1,2,3")
    assert code == 1 and "only FIDO games count in the ranking" in out, out
