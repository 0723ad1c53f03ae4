"""Publications nobody can break: one snapshot per month, receipts never inside a
published month, a digest over the metadata, no empty month by mistake, safe CSV.

Runs on SQLite and, with ``FIDO_TEST_POSTGRES_URL``, PostgreSQL.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, func, select, text, update
from sqlalchemy.exc import IntegrityError
from typer.testing import CliRunner

from fido.cli import app
from fido.ranking import ResultError, register_player, submit, submit_many
from fido.ranking.importer import parse_csv, parse_json
from fido.ranking.reviews import dispute
from fido.ranking.snapshot import (
    compute_month,
    month_key,
    publish,
    published,
    verify,
)
from fido.store import GameRow, Player, SnapshotRow, Store, open_store
from fido.store import migrate as migrate_to

NOV = dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC)
OCT = dt.datetime(2026, 10, 20, 12, tzinfo=dt.UTC)
runner = CliRunner()


def fido(db: str, *args: str) -> tuple[int, str]:
    out = runner.invoke(app, [*args, "--db", db], env={"COLUMNS": "200"})
    return out.exit_code, out.output


def sheet(day: str = "2026-10-14", a: int = 31, **changes: Any) -> dict[str, Any]:
    r: dict[str, Any] = {
        "date": day,
        "event": "Rostock round",
        "lines": [
            {"player": 1, "points": a, "pips": 4},
            {"player": 2, "points": 12, "pips": 0},
            {"player": 3, "points": 20, "pips": 17},
        ],
    }
    r.update(changes)
    return r


@pytest.fixture
def league(store: Store) -> Store:
    """Four players and three October games received in October."""
    with store.session() as s:
        for name in ("Anna", "Bert", "Cora", "Dana"):
            register_player(s, name, now=OCT - dt.timedelta(days=30))
        for a in (31, 40, 25):
            submit(s, sheet(a=a), now=OCT)
    return store


def snapshots(store: Store) -> list[str]:
    with store.session() as s:
        return list(s.scalars(select(SnapshotRow.month).order_by(SnapshotRow.id)))


# ------------------------------------------------------------ one key per month


@pytest.mark.parametrize("spelling", ["2026-10 ", "\t2026-10", " 2026-10\n"])
def test_a_month_spelt_with_spaces_is_the_same_month(league: Store, spelling: str) -> None:
    with league.session() as s:
        publish(s, "2026-10", now=NOV)
    with pytest.raises(ResultError, match="2026-10 is already published"), league.session() as s:
        publish(s, spelling, now=NOV)
    assert snapshots(league) == ["2026-10"]
    with league.session() as s:  # and it is found under that spelling
        r = published(s, spelling)
        assert r is not None and r.month == "2026-10"


@pytest.mark.parametrize("spelling", ["２０２６-１０", "2026-1", "2026/10", "2026-10-01", "0000-12",
                                      "9999-01", "2026-00"])
def test_other_spellings_are_refused_and_store_nothing(league: Store, spelling: str) -> None:
    with pytest.raises(ResultError, match="month"), league.session() as s:
        publish(s, spelling, now=NOV)
    assert snapshots(league) == []
    assert month_key(" 2026-10\t") == "2026-10"


@pytest.mark.parametrize("bad", ["2026-10 ", "２０２６-１０", "2026-1x", "0000-01", "2026-13"])
def test_the_database_itself_refuses_a_second_spelling(store: Store, bad: str) -> None:
    """Not a check in Python: a raw INSERT past fido is refused too."""
    row = "(:m, '2026-11-01', '2026-11-02', '{}', 0, 'x')"
    sql = (
        "INSERT INTO ranking_snapshots (month, cutoff, computed_at, params, games, digest) "
        f"VALUES {row}"
    )
    with store.engine.begin() as conn:
        conn.execute(text(sql), {"m": "2026-10"})
    with pytest.raises(IntegrityError), store.engine.begin() as conn:
        conn.execute(text(sql), {"m": bad})


def test_months_at_the_ends_of_the_calendar_compute(league: Store) -> None:
    with league.session() as s:
        for month in ("0001-01", "9998-12"):
            r, _, _ = compute_month(s, month)
            assert r.games == 0 and r.month == month
        first = publish(s, "0001-01", now=NOV)
        assert first.month == "0001-01" and verify(s, "0001-01").digest == first.digest


def test_migration_keeps_the_first_of_duplicate_snapshots(store_url: str) -> None:
    """A database from before 0002 with a month stored under three spellings."""
    engine = create_engine(store_url)
    migrate_to(engine, "0001")
    empty = hashlib.sha256().hexdigest()  # version 1: the digest of no entries
    with engine.begin() as conn:
        # at most seven characters: PostgreSQL cuts the spaces of a longer one itself
        for month, games in (("２０２６-１０", 0), ("2026-10", 9), ("2026-9 ", 0), ("2026-09", 5)):
            conn.execute(
                text(
                    "INSERT INTO ranking_snapshots (month, cutoff, computed_at, params, games, "
                    "digest) VALUES (:m, :c, :c, :p, :g, :d)"
                ),
                {"m": month, "c": dt.datetime(2026, 11, 1), "p": "{}", "g": games, "d": empty},
            )
    engine.dispose()
    store = open_store(store_url)
    with store.session() as s:
        rows = s.execute(
            select(SnapshotRow.month, SnapshotRow.games, SnapshotRow.digest_version)
            .order_by(SnapshotRow.id)
        ).all()
    assert [tuple(r) for r in rows] == [("2026-10", 0, 1), ("2026-09", 0, 1)]
    store.close()


# ------------------------------------------------------------ receipts


def test_a_receipt_inside_a_published_month_is_refused(league: Store) -> None:
    with league.session() as s:
        publish(s, "2026-10", now=NOV)
    closed = "2026-10 is published and closed"
    with pytest.raises(ResultError, match=closed) as e, league.session() as s:
        submit(s, sheet("2026-10-02", a=50), now=dt.datetime(2026, 10, 6, 12, tzinfo=dt.UTC))
    assert "2026-11-01 00:00 UTC" in str(e.value)
    with league.session() as s:
        assert s.scalar(select(func.count()).select_from(GameRow)) == 3
        verify(s, "2026-10")  # still verifies
        submit(s, sheet(a=50), now=NOV)  # received after the cutoff: fine


def test_cli_backdated_import_names_the_closed_month(store_url: str, tmp_path: Path) -> None:
    for name in ("Anna", "Bert", "Cora"):
        assert fido(store_url, "players", "add", name)[0] == 0
    f = tmp_path / "oct.json"
    f.write_text(json.dumps([sheet()]))
    assert fido(store_url, "results", "import", str(f), "--received", "2026-10-31")[0] == 0
    assert fido(store_url, "ranking", "compute", "--month", "2026-10")[0] == 0
    f.write_text(json.dumps([sheet("2026-10-02", a=40)]))
    code, out = fido(store_url, "results", "import", str(f), "--received", "2026-10-06")
    assert code == 1 and "2026-10 is published and closed" in out
    assert out.startswith("error: nothing imported")
    code, out = fido(store_url, "ranking", "verify", "--month", "2026-10")
    assert code == 0, out
    code, out = fido(store_url, "ranking", "report", "--month", "2026-10", "--player", "1")
    assert code == 0 and "position" in out


def test_an_archive_carries_a_receipt_per_result(league: Store) -> None:
    with league.session() as s:
        publish(s, "2026-10", now=NOV)
    header = "game,date,event,set,divisor,player,points,pips,received\n"
    rows = "".join(
        f"{g},2026-11-0{d},Kiel,12,,{p},{10 + p},0,2026-11-0{d + 1}\n"
        for g, d in (("a", 2), ("b", 4)) for p in (1, 2)
    )
    results, labels = parse_csv(header + rows)
    with league.session() as s:
        submit_many(s, results, labels=labels, now=NOV)
        got = sorted(
            g.received_at.day for g in s.scalars(select(GameRow).where(GameRow.event == "Kiel"))
        )
    assert got == [3, 5]
    late = header + "".join(f"c,2026-10-02,Kiel,12,,{p},5,0,2026-10-03\n" for p in (1, 2))
    results, labels = parse_csv(late)
    closed = "rows 2-3: received 2026-10-03: 2026-10 is published"
    with pytest.raises(ResultError, match=closed), league.session() as s:
        submit_many(s, results, labels=labels, now=NOV)
    bad = [{**sheet(), "received": "2026-13-01"}]
    with pytest.raises(ResultError, match="result 1: received is a date"):
        parse_json(json.dumps(bad))


def test_sheets_imported_again_with_their_real_receipt_count_in_their_month(
    league: Store,
) -> None:
    """The new organiser's mistake, and how it is put right before publication."""
    sep = dt.datetime(2026, 9, 30, 12, tzinfo=dt.UTC)
    with league.session() as s:
        submit(s, sheet("2026-09-12", a=33), now=dt.datetime(2026, 10, 2, tzinfo=dt.UTC))
        game, new = submit(s, sheet("2026-09-12", a=33), now=sep)
        assert not new and game.received_at.replace(tzinfo=dt.UTC) == sep
        # a later receipt does not move it back
        game, _ = submit(s, sheet("2026-09-12", a=33), now=NOV)
        assert game.received_at.replace(tzinfo=dt.UTC) == sep
        assert publish(s, "2026-09", now=NOV).games == 1


# ------------------------------------------------------------ empty months


def test_an_empty_month_with_late_sheets_needs_allow_empty(store_url: str, tmp_path: Path) -> None:
    for name in ("Anna", "Bert", "Cora"):
        assert fido(store_url, "players", "add", name)[0] == 0
    f = tmp_path / "oct.json"
    f.write_text(json.dumps([sheet(), sheet(a=40)]))
    assert fido(store_url, "results", "import", str(f))[0] == 0  # received now: after October
    code, out = fido(store_url, "ranking", "compute", "--month", "2026-10", "--dry-run")
    assert code == 1 and "no result was received in 2026-10" in out
    assert "2 game(s) played in it" in out and "--allow-empty" in out and "--received" in out
    code, out = fido(store_url, "ranking", "compute", "--month", "2026-10")
    assert code == 1 and "--allow-empty" in out
    code, out = fido(store_url, "ranking", "compute", "--month", "2026-10", "--dry-run",
                     "--allow-empty")
    assert code == 0 and "dry run: nothing published" in out and "(0 games)" in out
    store = open_store(store_url)
    assert snapshots(store) == []
    store.close()
    # put right: the sheets arrived on 31 October
    code, out = fido(store_url, "results", "import", str(f), "--received", "2026-10-31")
    assert code == 0 and "2 already stored" in out
    code, out = fido(store_url, "ranking", "compute", "--month", "2026-10", "--dry-run")
    assert code == 0 and "(2 games)" in out and "Anna" in out
    code, out = fido(store_url, "ranking", "compute", "--month", "2026-10")
    assert code == 0 and "published 2026-10: 3 players" in out


def test_allow_empty_publishes_the_empty_month(league: Store) -> None:
    with league.session() as s:
        submit(s, sheet("2026-08-14"), now=NOV)
        with pytest.raises(ResultError, match="no result was received in 2026-08"):
            publish(s, "2026-08", now=NOV)
        assert publish(s, "2026-08", now=NOV, allow_empty=True).games == 0


# ------------------------------------------------------------ the digest


def tamper(store: Store, **values: Any) -> None:
    with store.session() as s:
        s.execute(update(SnapshotRow).where(SnapshotRow.month == "2026-10").values(**values))


@pytest.mark.parametrize(
    "change",
    [
        {"games": 103},
        {"cutoff": dt.datetime(2026, 12, 1, tzinfo=dt.UTC)},
        {"params": json.dumps({"window_days": 200})},
        {"digest_version": 1},  # claiming the old, entries-only digest
        {"digest_version": 7},
    ],
)
def test_changed_metadata_fails_verify(league: Store, change: dict[str, Any]) -> None:
    with league.session() as s:
        publish(s, "2026-10", now=NOV)
        verify(s, "2026-10")
    tamper(league, **change)
    with pytest.raises(ResultError, match="2026-10") as e, league.session() as s:
        verify(s, "2026-10")
    assert "tampered" in str(e.value) or "does not give the published ranking back" in str(e.value)


@pytest.mark.parametrize("params", ["{", "[1]", '{"nonsense": 1}', '{"window_days": "x"}'])
def test_corrupt_parameters_are_tampering_not_a_traceback(
    league: Store, store_url: str, params: str
) -> None:
    with league.session() as s:
        publish(s, "2026-10", now=NOV)
    tamper(league, params=params)
    with pytest.raises(ResultError, match="2026-10 has been tampered with"), league.session() as s:
        verify(s, "2026-10")
    code, out = fido(store_url, "ranking", "verify", "--month", "2026-10")
    assert code == 1 and "tampered" in out and "Traceback" not in out


# ------------------------------------------------------------ export


def test_csv_export_neutralises_formulas(league: Store, store_url: str, tmp_path: Path) -> None:
    with league.session() as s:
        for number, name in ((1, "=HYPERLINK(\"http://x\")"), (2, "+1 Bert"), (3, "@Cora")):
            s.execute(update(Player).where(Player.number == number).values(name=name))
        publish(s, "2026-10", now=NOV)
    out = tmp_path / "r.csv"
    assert fido(store_url, "ranking", "export", "--month", "2026-10", "--csv", str(out))[0] == 0
    names = {row["player"]: row["name"] for row in csv.DictReader(out.open())}
    assert names == {"1": "'=HYPERLINK(\"http://x\")", "2": "'+1 Bert", "3": "'@Cora"}
    changes = [row["fladub"] for row in csv.DictReader(out.open())]
    assert all(not c.startswith("'") for c in changes)  # numbers stay numbers


def test_a_review_dated_inside_a_published_month_is_refused(league: Store) -> None:
    """A dispute dated before the cutoff of a published month would change that month
    for good (verify would fail): refused, and the month still verifies."""
    with league.session() as s:
        publish(s, "2026-10", now=NOV)
    with league.session() as s, pytest.raises(ResultError, match="2026-10, which is published"):
        dispute(s, 1, 2, note="wrong sum", now=OCT + dt.timedelta(days=2))
    with league.session() as s:
        assert verify(s, "2026-10")
        dispute(s, 1, 2, note="wrong sum", now=NOV)  # after the cutoff: fine
        assert verify(s, "2026-10")
