"""Game records: JSON round trip, replay, and refusal of wrong records."""

from __future__ import annotations

import datetime as dt
import json
import random
import time
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from fido import Game, RecordError
from fido.engine.rules import RULESETS, Ruleset
from fido.record import MAX_RECORD_BYTES, GameRecord, max_moves


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


# ------------------------------------------------------------ hostile files


def test_a_file_over_the_cap_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    with path.open("wb") as f:
        f.truncate(MAX_RECORD_BYTES + 1)  # sparse: nothing to parse, only its size
    start = time.perf_counter()
    with pytest.raises(RecordError, match=r"too large for a game record.*at most 4 MiB"):
        GameRecord.load(path)
    assert time.perf_counter() - start < 1


def test_a_record_of_passes_is_refused_at_its_first_impossible_move_quickly() -> None:
    """The 56 MB record of passes took a minute and 4 GB; under the cap it is refused at once."""
    data = GameRecord.from_game(Game.new("fido set=12", 4, seed=1)).to_dict()
    data["moves"] = ["pass"] * 500_000
    text = json.dumps(data)
    assert len(text) < MAX_RECORD_BYTES
    tracemalloc.start()
    start = time.perf_counter()
    try:
        with pytest.raises(RecordError, match=r"move 1 \(pass\)") as info:
            GameRecord.from_json(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert info.value.move_number == 1
    assert time.perf_counter() - start < 5
    assert peak < 200_000_000  # bytes: the moves past any possible hand are never built


def test_no_played_hand_comes_near_the_move_bound() -> None:
    for name in RULESETS:
        rs = Ruleset.from_text(name)
        for players in (rs.min_players, rs.max_players):
            g = played(name, players, seed=players)
            assert len(g.history()) < max_moves(rs, players) / 2


def test_the_move_bound_refuses_even_legal_looking_tails() -> None:
    g = played("block", 2)
    data = GameRecord.from_game(g).to_dict()
    data["results"] = None
    data["moves"] += ["pass"] * max_moves(g.rules, 2)
    with pytest.raises(RecordError, match="already over") as info:
        GameRecord.from_json(json.dumps(data))
    assert info.value.move_number == len(g.history()) + 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("x".encode("utf-16"), "UTF-16 text; fido records are UTF-8"),
        ('{"format": 1}'.encode("utf-16-le"), "NUL characters"),
        (b"\xff\xfe\x00\x00{", "UTF-32"),
        (b'{"format": "fido-record", "players": ["\xe9"]}', r"not UTF-8 text \(byte 0xe9"),
        (b"[" * 100_000, "nested too deeply"),
        (b'{"version": ' + b"9" * 5000 + b"}", "integer string conversion"),
        (b"NaN", "NaN is not a number a record may hold"),
        (b"[]", "a JSON list, not an object"),
        (b"", "not JSON"),
    ],
)
def test_files_that_are_not_records(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(content)
    with pytest.raises(RecordError, match=message):
        GameRecord.load(path)


def test_a_utf8_byte_order_mark_is_fine(tmp_path: Path) -> None:
    rec = GameRecord.from_game(played())
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + rec.to_json().encode())
    assert GameRecord.load(path) == rec


def test_a_directory_is_not_a_record(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        GameRecord.load(tmp_path)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["moves"][0].update(seat="0"), r"moves\.0\..*seat"),
        (lambda d: d["moves"][0].update(seat=True), r"moves\.0\..*seat"),
        (lambda d: d["moves"][0].update(points=1.0), r"moves\.0\..*points"),
        (lambda d: d["moves"].__setitem__(0, 7), r"moves\.0"),
        (lambda d: d.update(players=[1, 2, 3, 4]), r"players\.0"),
        (lambda d: d.update(ruleset=["fido"]), "ruleset"),
        (lambda d: d["deal"]["hands"][0].__setitem__(0, 12), r"deal\.hands\.0\.0"),
        (lambda d: d["deal"].update(stock="3-1"), r"deal\.stock"),
        (lambda d: d.update(results=[1]), "results"),
        (lambda d: d.update(event={"a": 1}), "event"),
        (lambda d: d.update(date="yesterday"), "date"),
        (lambda d: d.update(bots=["expert"]), "1 bot entries for 4 seats"),
        (lambda d: d["deal"]["hands"][0].__setitem__(0, "100-1"), "not a tile: '100-1'"),
        (lambda d: d["moves"][0].update(move="999-9@0e"), r"move 1 \(999-9@0e\)"),
        (lambda d: d["moves"][0].update(seat=10**4000), r"claims seat 10{10}…, but"),
        (lambda d: d["results"].update(seats=[[[[]]]]), "results do not match"),
    ],
)
def test_wrong_types_anywhere_are_a_record_error(mutate: Any, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        GameRecord.from_json(_tamper(played(), mutate)).replay()


def test_who_played_each_seat_round_trips() -> None:
    g = played()
    bots = [None, "expert", "search:time=0.5", "greedy"]
    rec = GameRecord.from_game(g, ["Ann", "e", "s", "g"], bots=bots)
    again = GameRecord.from_json(rec.to_json())
    assert again.bots == tuple(bots) and again == rec
    assert "bots" not in GameRecord.from_game(g).to_dict()  # unknown: left out, as before
