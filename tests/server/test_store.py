"""Store, players and result submission: validation, idempotency, reviews.

Runs on SQLite and, with ``FIDO_TEST_POSTGRES_URL``, on PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
import random
import sqlite3
import threading
import time
from typing import Any

import pytest
from sqlalchemy import func, inspect, select

from fido import Game, ruleset
from fido.ranking import (
    ResultError,
    Status,
    confirm,
    dispute,
    register_player,
    settle,
    submit,
    submit_many,
)
from fido.ranking.players import list_players
from fido.record import GameRecord
from fido.store import Base, GameRow, LineRow, Store, open_store

NOW = dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC)


def two(a: dict[str, int], b: dict[str, int]) -> list[dict[str, int]]:
    return [{"player": 1, **a}, {"player": 2, **b}]


def sheet(**changes: Any) -> dict[str, Any]:
    r: dict[str, Any] = {
        "date": "2026-11-14",
        "event": "Rostock round",
        "set": 12,
        "lines": [
            {"player": 1, "points": 31, "pips": 4},
            {"player": 2, "points": 12, "pips": 0},
            {"player": 3, "points": 20, "pips": 17},
        ],
    }
    r.update(changes)
    return r


@pytest.fixture
def players(store: Store) -> Store:
    with store.session() as s:
        for name in ("Anna", "Bert", "Cora", "Dana"):
            register_player(s, name, now=NOW)
    return store


def count_games(store: Store) -> tuple[int, int]:
    with store.session() as s:
        return (
            s.scalar(select(func.count()).select_from(GameRow)) or 0,
            s.scalar(select(func.count()).select_from(LineRow)) or 0,
        )


def test_migrations_build_the_models_schema_and_rerun(store_url: str) -> None:
    store = open_store(store_url)
    store.close()
    store = open_store(store_url)  # a second open finds the schema current
    insp = inspect(store.engine)
    for table in Base.metadata.sorted_tables:
        assert {c["name"] for c in insp.get_columns(table.name)} == set(table.columns.keys())
    assert "alembic_version" in insp.get_table_names()
    store.close()


def test_players_get_numbers(store: Store) -> None:
    with store.session() as s:
        a = register_player(s, "Anna", now=NOW)
        b = register_player(s, "Bert", 17, "de", now=NOW)
        c = register_player(s, "  Cora ", now=NOW)
        assert (a.number, b.number, c.number) == (1, 17, 18)
        assert (b.country, c.name) == ("DE", "Cora")
    with pytest.raises(ResultError, match="already registered"), store.session() as s:
        register_player(s, "Dora", 17)
    with pytest.raises(ResultError, match="name"), store.session() as s:
        register_player(s, "  ")
    with store.session() as s:
        assert [p.name for p in list_players(s)] == ["Anna", "Bert", "Cora"]


def test_submit_stores_every_line_with_its_final(players: Store) -> None:
    with players.session() as s:
        game, new = submit(s, sheet(submitted_by=2, source="sheet"), now=NOW)
        assert new
        assert [(ln.player.name, ln.final) for ln in game.lines] == [
            ("Anna", 27),
            ("Bert", 12),
            ("Cora", 3),
        ]
        assert (game.set, game.divisor, game.event) == (12, 7, "Rostock round")


def test_the_same_game_twice_is_stored_once(players: Store) -> None:
    with players.session() as s:
        first, _ = submit(s, sheet(), now=NOW)
    with players.session() as s:
        again, new = submit(s, sheet(event=" rostock   ROUND "), now=NOW)
        assert (again.id, new) == (first.id, False)
    with players.session() as s:
        a, _ = submit(s, sheet(key="srv-1", date="2026-11-15"), now=NOW)
        b, new = submit(s, sheet(key="srv-1", date="2026-11-15"), now=NOW)
        assert (a.id, new) == (b.id, False)
    with pytest.raises(ResultError, match="other results"), players.session() as s:
        submit(s, sheet(key="srv-1", date="2026-11-16"), now=NOW)
    assert count_games(players) == (2, 6)


BAD = [
    (sheet(lines=[{"player": 1, "points": 1, "pips": 1}, {"player": 9, "points": 1, "pips": 1}]),
     "no registered player has number 9"),
    (sheet(lines=[{"player": 1, "points": 1, "pips": 1}, {"player": 1, "points": 2, "pips": 1}]),
     "player 1 appears twice"),
    (sheet(lines=[{"player": 1, "points": 1, "pips": 1}]), "at least 2"),
    (sheet(lines=[{"player": i, "points": 0, "pips": 1} for i in range(1, 11)]), "at most 9"),
    (sheet(set=7), "not a FIDO set"),
    (sheet(set=12, divisor=1), "divisor"),
    (sheet(date="2026-11-21"), "in the future"),
    (sheet(date="someday"), "date"),
    (sheet(lines=two({"points": 1, "pips": 600}, {"points": 1, "pips": 500})),
     "set has only 1092"),
    (sheet(lines=[{"player": 1, "points": -3, "pips": 1}, {"player": 2, "points": 1, "pips": 1}]),
     "greater than or equal to 0"),
    (sheet(lines=[{"player": 1, "points": 5, "pips": 1, "final": 5},
                  {"player": 2, "points": 1, "pips": 1}]),
     "final 5 is not points - pips"),
    (sheet(lines=two({"points": 99999, "pips": 1}, {"points": 1, "pips": 1})), "impossible"),
    (sheet(submitted_by=8), "no registered player has number 8"),
    (sheet(colour="red"), "Extra inputs"),
]


@pytest.mark.parametrize(("data", "message"), BAD)
def test_bad_results_are_refused_and_change_nothing(
    players: Store, data: dict[str, Any], message: str
) -> None:
    with pytest.raises(ResultError, match=message), players.session() as s:
        submit(s, data, now=NOW)
    assert count_games(players) == (0, 0)


def test_a_bad_result_in_a_batch_stores_nothing(players: Store) -> None:
    batch = [sheet(), sheet(date="2026-11-13"), sheet(date="2027-01-01")]
    with pytest.raises(ResultError, match=r"^row 4: .*future"), players.session() as s:
        submit_many(s, batch, now=NOW, labels=["row 2", "row 3", "row 4"])
    assert count_games(players) == (0, 0)


def played(seed: int) -> GameRecord:
    rng = random.Random(seed)
    game = Game.new(ruleset("fido", set=9), players=3, seed=seed)
    while not game.is_over:
        game.push(rng.choice(game.legal_moves()))
    return GameRecord.from_game(game, ["Anna", "Bert", "Cora"], date=dt.date(2026, 11, 14))


def test_a_game_record_is_replayed_and_must_agree(players: Store) -> None:
    record = played(4)
    assert record.results is not None
    seats = record.results["seats"]
    lines = [
        {"player": i + 1, "points": r["points"], "pips": r["pips"]} for i, r in enumerate(seats)
    ]
    with players.session() as s:
        game, _ = submit(s, sheet(set=9, lines=lines, record=record.to_dict()), now=NOW)
        assert game.record is not None
    wrong = [dict(ln) for ln in lines]
    wrong[1]["points"] += 1
    with pytest.raises(ResultError, match="seat 1"), players.session() as s:
        submit(s, sheet(set=9, lines=wrong, record=record.to_dict()), now=NOW)
    refused = pytest.raises(ResultError, match="fido set=9, the result for fido set=12")
    with refused, players.session() as s:
        submit(s, sheet(lines=lines, record=record.to_dict()), now=NOW)
    tampered = record.to_dict()
    tampered["moves"] = tampered["moves"][:-1]
    with pytest.raises(ResultError, match="game record"), players.session() as s:
        submit(s, sheet(set=9, lines=lines, record=tampered, date="2026-11-13"), now=NOW)
    assert count_games(players) == (1, 3)


def test_confirm_dispute_settle(players: Store) -> None:
    later = NOW + dt.timedelta(hours=1)
    with players.session() as s:
        game, _ = submit(s, sheet(submitted_by=1), now=NOW)
        gid = game.id
        assert confirm(s, gid, 2, now=later) is Status.SUBMITTED
        assert confirm(s, gid, 3, now=later) is Status.CONFIRMED
    with players.session() as s:
        with pytest.raises(ResultError, match="did not play"):
            confirm(s, gid, 4)
        with pytest.raises(ResultError, match="submitted game"):
            dispute(s, gid, 1)
        with pytest.raises(ResultError, match="not disputed"):
            settle(s, gid, accept=True)
        with pytest.raises(ResultError, match="no game 99"):
            confirm(s, 99, 2)
    with players.session() as s:
        assert dispute(s, gid, 3, note="Cora had 13 pips", now=later) is Status.DISPUTED
        assert not Status.DISPUTED.counts
        assert settle(s, gid, accept=False, now=later) is Status.REJECTED
        with pytest.raises(ResultError, match="rejected"):
            confirm(s, gid, 2)


def test_a_write_now_never_waits_for_another_writer(tmp_path: Any) -> None:
    """The server's event loop writes a move on its own thread only when nothing makes it
    wait: another thread of the process writing, or another process holding the file's
    write lock, gets None at once (the move then goes to a worker thread); otherwise the
    block's writes are committed, and an error rolls them back."""
    url = f"sqlite:///{tmp_path / 'now.db'}"
    store = open_store(url)
    create = "CREATE TABLE IF NOT EXISTS t (x INTEGER)"
    with store.write_now() as cur:
        assert cur is not None
        cur.execute(create)
        cur.execute("INSERT INTO t VALUES (1)")
    with pytest.raises(ZeroDivisionError), store.write_now() as cur:
        assert cur is not None
        cur.execute("INSERT INTO t VALUES (2)")
        raise ZeroDivisionError
    # another process's writer (a plain connection to the file) holds the lock
    other = sqlite3.connect(tmp_path / "now.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    started = time.monotonic()
    with store.write_now() as cur:
        assert cur is None
    assert time.monotonic() - started < 0.5  # the busy handler did not wait
    other.execute("ROLLBACK")
    # this process's own turn is taken by another thread
    assert store.writing is not None
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        assert store.writing is not None
        with store.writing:
            held.set()
            release.wait(5)

    worker = threading.Thread(target=hold)
    worker.start()
    held.wait(5)
    with store.write_now() as cur:
        assert cur is None
    release.set()
    worker.join()
    with store.write_now() as cur:
        assert cur is not None
        assert cur.execute("SELECT x FROM t").fetchall() == [(1,)]
    other.close()
    store.close()


def test_a_database_error_never_repeats_the_values_it_was_given(store: Store) -> None:
    """A failed statement's error reaches the server's log: the values bound into it (a
    session id, a password's hash, a record's hands) must not be in its text."""
    from sqlalchemy import text  # noqa: PLC0415
    from sqlalchemy.exc import SQLAlchemyError  # noqa: PLC0415

    secret = "session-9f3a1c77e0b24d5e"
    with pytest.raises(SQLAlchemyError) as caught, store.session(write=True) as s:
        s.execute(text("INSERT INTO no_such_table (x) VALUES (:x)"), {"x": secret})
    assert "no_such_table" in str(caught.value)  # the error still says what failed
    assert secret not in str(caught.value)
