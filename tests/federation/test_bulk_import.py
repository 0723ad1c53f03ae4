"""Import in batches: checked whole before anything is stored, stored batch by
batch, files read as they go; spreadsheet dialects (semicolons, capitals).

Runs on SQLite and, with ``FIDO_TEST_POSTGRES_URL``, PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from sqlalchemy import func, select

import fido.ranking.bulk
import fido.ranking.importer
from fido.ranking import ResultError, register_player
from fido.ranking.bulk import import_results
from fido.ranking.importer import iter_results, parse_csv
from fido.store import GameRow, LineRow, Store

NOW = dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC)
HEADER = "game,date,event,set,divisor,player,points,pips\n"


def rows(games: int, first: int = 0) -> str:
    return "".join(
        f"{g},2026-11-{1 + g % 19:02d},Kiel,12,,{p},{(g * 7 + p) % 60},{p}\n"
        for g in range(first, first + games)
        for p in (1, 2, 3)
    )


def counts(store: Store) -> tuple[int, int]:
    with store.session() as s:
        return (
            s.scalar(select(func.count()).select_from(GameRow)) or 0,
            s.scalar(select(func.count()).select_from(LineRow)) or 0,
        )


@pytest.fixture
def three(store: Store, monkeypatch: pytest.MonkeyPatch) -> Store:
    monkeypatch.setattr(fido.ranking.bulk, "BATCH", 5)  # several batches from a few games
    with store.session() as s:
        for name in ("Anna", "Bert", "Cora"):
            register_player(s, name, now=NOW)
    return store


def test_batches_store_every_game_once(three: Store, tmp_path: Path) -> None:
    f = tmp_path / "s.csv"
    f.write_text(HEADER + rows(23))
    seen: list[tuple[int, int]] = []
    new, old = import_results(three, iter_results(f), now=NOW,
                              progress=lambda d, t: seen.append((d, t)))
    assert (new, old) == (23, 0) and counts(three) == (23, 69)
    assert seen == [(5, 23), (10, 23), (15, 23), (20, 23), (23, 23)]
    f.write_text(HEADER + rows(30))  # 23 known, 7 new
    assert import_results(three, iter_results(f), now=NOW) == (7, 23)
    assert counts(three) == (30, 90)


def test_a_bad_row_in_the_last_batch_stores_nothing(three: Store, tmp_path: Path) -> None:
    f = tmp_path / "s.csv"
    f.write_text(HEADER + rows(22) + "x,2026-11-02,Kiel,12,,1,5,0\nx,2026-11-02,Kiel,12,,9,5,0\n")
    with pytest.raises(ResultError, match="rows 68-69: no registered player has number 9"):
        import_results(three, iter_results(f), now=NOW)
    assert counts(three) == (0, 0)


def test_semicolons_and_capitals_are_read() -> None:
    text = "Game;Date;Event;Set;Divisor;Player;Points;Pips\n" + rows(2).replace(",", ";")
    results, labels = parse_csv(text)
    assert labels == ["rows 2-4", "rows 5-7"] and results[1]["lines"][2]["pips"] == 3


def test_an_unreadable_header_names_the_separator() -> None:
    with pytest.raises(ResultError, match=r"missing column\(s\) .* separated by semicolons"):
        parse_csv("Spiel;Datum;Ort\n1;2;3\n")


def test_a_file_is_read_a_chunk_at_a_time(
    three: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tiny chunk: rows, quoted fields and UTF-8 characters cut across reads."""
    monkeypatch.setattr(fido.ranking.importer, "CHUNK", 7)
    f = tmp_path / "s.csv"
    f.write_text(HEADER + rows(6).replace("Kiel", '"Köln, Mitte"'), encoding="utf-8")
    assert import_results(three, iter_results(f), now=NOW) == (6, 0)
    with three.session() as s:
        assert set(s.scalars(select(GameRow.event))) == {"Köln, Mitte"}
    bad = (HEADER + rows(3)).encode() + b"3,2026-11-02,K\xf6ln,12,,1,5,0\n"
    f.write_bytes(bad)
    offset = len((HEADER + rows(3)).encode()) + len(b"3,2026-11-02,K")
    with pytest.raises(ResultError, match=f"not UTF-8 text \\(byte 0xf6 at offset {offset}\\)"):
        list(iter_results(f))
