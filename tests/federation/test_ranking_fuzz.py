"""The ranking API against arbitrary input on a real SQLite store: ResultError or success.

Player numbers and game ids of any size (2**63 overflowed SQLite's INTEGER,
2**31 PostgreSQL's), names and notes with markup and control characters,
result dicts of any shape: nothing but a :class:`ResultError` may come out,
and nothing is stored by a refused call.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from fido.ranking import (
    ResultError,
    confirm,
    dispute,
    find_player,
    register_player,
    settle,
    submit,
)
from fido.ranking.importer import parse_csv
from fido.ranking.submission import find_game
from fido.store import INT_MAX, GameRow, Player, Store, open_store

NOW = dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC)
TRICKY = "0123456789²２٣+- ,.[]/\x00\x1b\x07\x85\u2028\u202e\t\n"
texts = st.text(alphabet=st.sampled_from(TRICKY + "abcKö"), max_size=30) | st.text(max_size=30)
numbers = st.integers() | st.sampled_from([0, -1, INT_MAX, INT_MAX + 1, 2**63, 2**64, -(2**63)])
HOSTILE = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture(scope="module")
def store() -> Iterator[Store]:
    st_ = open_store("sqlite:///:memory:")
    with st_.session() as s:
        for name in ("Anna", "Bert", "Cora"):
            register_player(s, name, now=NOW)
        submit(
            s,
            {"date": "2026-11-01", "event": "Kiel", "set": 6, "submitted_by": 1,
             "lines": [{"player": 1, "points": 3, "pips": 1},
                       {"player": 2, "points": 5, "pips": 0},
                       {"player": 3, "points": 0, "pips": 4}]},
            now=NOW,
        )
    yield st_
    st_.close()


def _counts(s: Session) -> tuple[int | None, int | None]:
    return s.scalar(select(func.count(Player.id))), s.scalar(select(func.count(GameRow.id)))


def _refused_or_done(store: Store, call: Any) -> None:
    """Run ``call(session)``; a ResultError must leave the store as it was."""
    s = store.sessions()
    try:
        before = _counts(s)
        try:
            call(s)
        except ResultError as e:
            assert "\n" not in str(e)
            assert _counts(s) == before  # refused before anything was added
    finally:
        s.rollback()
        s.close()


@HOSTILE
@given(number=numbers)
def test_find_player_with_any_number(store: Store, number: int) -> None:
    _refused_or_done(store, lambda s: find_player(s, number))


@HOSTILE
@given(game=numbers, player=numbers, note=texts, verdict=st.sampled_from("cds"))
@example(game=2**63, player=1, note="", verdict="c")
@example(game=1, player=2**63, note="", verdict="d")
@example(game=1, player=2, note="\x1b[2J", verdict="d")
def test_reviews_with_any_ids_and_notes(
    store: Store, game: int, player: int, note: str, verdict: str
) -> None:
    def review(s: Session) -> None:
        if verdict == "c":
            confirm(s, game, player, note=note, now=NOW)
        elif verdict == "d":
            dispute(s, game, player, note=note, now=NOW)
        else:
            settle(s, game, player % 2 == 0, note=note, now=NOW)

    _refused_or_done(store, review)


@HOSTILE
@given(name=texts, number=st.none() | numbers, country=st.none() | texts)
@example(name="[/x]", number=None, country="[/]")
@example(name="Eve\x1b[2J", number=None, country=None)
@example(name="Eve", number=2**63, country=None)
def test_register_any_player(
    store: Store, name: str, number: int | None, country: str | None
) -> None:
    def register(s: Session) -> None:
        p = register_player(s, name, number, country, now=NOW)
        assert 1 <= p.number <= INT_MAX
        assert not any(ord(c) < 32 or 0x7F <= ord(c) <= 0x9F for c in p.name)
        assert p.country is None or p.country.isalpha()

    _refused_or_done(store, register)


results = st.fixed_dictionaries(
    {},
    optional={
        "date": texts | st.dates().map(str) | numbers,
        "event": texts,
        "set": numbers | texts,
        "divisor": st.none() | numbers,
        "lines": st.lists(
            st.fixed_dictionaries(
                {"player": numbers, "points": numbers, "pips": numbers},
                optional={"final": numbers},
            ),
            max_size=4,
        ),
        "submitted_by": st.none() | numbers,
        "key": texts,
        "record": st.none() | st.dictionaries(texts, texts | numbers, max_size=3),
        "source": texts | st.sampled_from(["api", "sheet"]),
    },
)


@HOSTILE
@given(result=results)
@example(result={"date": "2026-11-02", "event": "Kiel", "set": 12, "divisor": 2**63,
                 "lines": [{"player": 1, "points": 0, "pips": 0},
                           {"player": 2, "points": 0, "pips": 0}]})
@example(result={"date": "2026-11-02", "event": "Kiel\x1b[2J", "set": 6,
                 "lines": [{"player": 1, "points": 0, "pips": 0},
                           {"player": 2, "points": 0, "pips": 0}]})
def test_submit_any_result(store: Store, result: dict[str, Any]) -> None:
    _refused_or_done(store, lambda s: submit(s, result, now=NOW))


@HOSTILE
@given(cells=st.lists(texts | numbers.map(str), min_size=8, max_size=8))
def test_submit_any_csv_row(store: Store, cells: list[str]) -> None:
    text = "game,date,event,set,divisor,player,points,pips\n" + ",".join(
        '"' + c.replace('"', '""') + '"' for c in cells
    )

    def submit_rows(s: Session) -> None:
        rows, _ = parse_csv(text)
        for r in rows:
            submit(s, r, now=NOW)

    _refused_or_done(store, submit_rows)


def test_find_game_beyond_the_integer_columns(store: Store) -> None:
    with store.session() as s, pytest.raises(ResultError, match="game number must be from 1"):
        find_game(s, 2**63)
