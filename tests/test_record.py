"""Game records: JSON round trip, replay, and refusal of wrong records."""

from __future__ import annotations

import datetime as dt
import json
import random
from typing import Any

import pytest

from fido import Game, RecordError
from fido.record import GameRecord


def played(rules: str = "fido set=12", players: int = 4, seed: int = 5) -> Game:
    rng = random.Random(seed)
    g = Game.new(rules, players, rng=rng)
    while not g.is_over:
        g.push(rng.choice(g.legal_moves()))
    return g


@pytest.mark.parametrize(
    ("rules", "players"),
    [
        ("fido set=12", 4),
        ("fido set=18 mother_theresa", 6),
        ("fido set=6", 3),
        ("block", 4),
        ("draw", 2),
        ("muggins", 3),
        ("fives_and_threes", 4),
        ("sebastopol", 4),
    ],
)
def test_round_trip_and_replay(rules: str, players: int) -> None:
    g = played(rules, players)
    names = [f"P{i}" for i in range(players)]
    rec = GameRecord.from_game(g, names, date=dt.date(2026, 11, 1), event="Club night")
    text = rec.to_json()
    again = GameRecord.from_json(text)
    assert again == rec
    assert again.to_json() == text
    final = again.replay()
    assert final.outcome == g.outcome
    assert final.table == g.table
    assert [t.move for t in final.history()] == [t.move for t in g.history()]


def _tamper(g: Game, change: Any) -> str:
    data = GameRecord.from_game(g).to_dict()
    change(data)
    return json.dumps(data)


def test_illegal_move_is_refused_naming_it() -> None:
    g = played()

    def change(d: dict[str, Any]) -> None:
        d["moves"][4]["move"] = "0-0@0n"

    with pytest.raises(RecordError, match=r"move 5 \(0-0@0n\)") as info:
        GameRecord.from_json(_tamper(g, change)).replay()
    assert info.value.move_number == 5


def test_wrong_points_claim_is_refused_naming_the_move() -> None:
    g = played()
    scoring = next(i for i, t in enumerate(g.history()) if t.points)

    def change(d: dict[str, Any]) -> None:
        d["moves"][scoring]["points"] += 1

    with pytest.raises(RecordError, match=f"move {scoring + 1} .*claims .* points"):
        GameRecord.from_json(_tamper(g, change)).replay()


def test_wrong_sum_claim_is_refused() -> None:
    g = played()

    def change(d: dict[str, Any]) -> None:
        d["moves"][2]["sum"] = 999

    with pytest.raises(RecordError, match=r"move 3 .*claims a sum of 999"):
        GameRecord.from_json(_tamper(g, change)).replay()


def test_wrong_results_are_refused() -> None:
    g = played()

    def change(d: dict[str, Any]) -> None:
        d["results"]["seats"][1]["final"] += 3

    with pytest.raises(RecordError, match=r"results do not match.*seats\[1\]"):
        GameRecord.from_json(_tamper(g, change)).replay()


def test_moves_after_the_end_and_missing_moves() -> None:
    g = played()
    with pytest.raises(RecordError, match="already over"):
        GameRecord.from_json(_tamper(g, lambda d: d["moves"].append("pass"))).replay()
    with pytest.raises(RecordError, match="not over"):
        GameRecord.from_json(_tamper(g, lambda d: d["moves"].pop())).replay()


def test_bare_move_strings_are_accepted() -> None:
    g = played()
    data = GameRecord.from_game(g).to_dict()
    data["moves"] = [m["move"] for m in data["moves"]]
    assert GameRecord.from_json(json.dumps(data)).replay().outcome == g.outcome


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(version=2), "version 2 is not supported"),
        (lambda d: d.pop("deal"), "deal: Field required"),
        (lambda d: d.update(ruleset="chess"), "unknown ruleset"),
        (lambda d: d["deal"]["hands"][0].__setitem__(0, "x-y"), "not a tile"),
        (lambda d: d["deal"]["stock"].pop(), "the deal cannot be played: the deal misses"),
        (lambda d: d.update(players=["solo"]), "1 players but 4 hands"),
        (lambda d: d.update(colour="red"), "colour: Extra inputs are not permitted"),
        (lambda d: d["moves"].__setitem__(0, {"move": "12-12", "seat": 3}), "claims seat 3"),
    ],
)
def test_malformed_records(mutate: Any, message: str) -> None:
    g = played()
    with pytest.raises(RecordError, match=message):
        GameRecord.from_json(_tamper(g, mutate)).replay()


def test_not_json() -> None:
    with pytest.raises(RecordError, match="not JSON"):
        GameRecord.from_json("{nope")


def test_unfinished_game_records_without_results() -> None:
    rng = random.Random(1)
    g = Game.new("fido set=9", 5, rng=rng)
    for _ in range(10):
        g.push(rng.choice(g.legal_moves()))
    rec = GameRecord.from_game(g)
    assert rec.results is None
    assert GameRecord.from_json(rec.to_json()).replay().table == g.table
