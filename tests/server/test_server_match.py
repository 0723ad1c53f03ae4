"""Matches, "Play again" and team results over the API and the table's WebSocket.

A match is hands at tables of their own, linked to the match: each hand's record is its
own and replays, the match's totals are the sums of the hands' ``match_points``, the
next hand is dealt by itself with the same seats, and a rated match gives the ranking
one result per hand. "Play again" is for the table's players only; when everyone still
there has said yes, everyone is sent to a new table with the same seats.
"""

from __future__ import annotations

import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest
from openskill.models import PlackettLuce
from sqlalchemy import select

from fido.engine.match import Match
from fido.engine.rules import Ruleset
from fido.ranking import register_player
from fido.ratings import BOT_RATINGS, history
from fido.record import GameRecord
from fido.store import GameRow, MatchRow, TableRow, open_store
from support.server_client import Person, TableSocket, connect_anonymous, play_to_end
from support.server_live import FAST, browser, link, live_server

# the next hand 1 s after a hand's end, not fido serve's 4 s (a match's tests waited for it
# at every hand); _play_match reads the ``next`` event after the end's, as before
NEXT_SOON = replace(FAST, next_hand_delay=1.0)


def _next_of(sock: TableSocket, timeout: float = 30) -> str:
    """The table the ``next`` event sends this connection on to."""
    frame = sock.until(lambda f: any(e["kind"] == "next" for e in f.get("events") or ()),
                       timeout=timeout)
    return str(next(e for e in frame["events"] if e["kind"] == "next")["table"])


def _play_match(people: list[Person], first: str, timeout: float = 240) -> list[str]:
    """Every hand of the match that starts at ``first``, played by ``people`` through
    their sockets; returns the hands' tables in order."""
    tables = [first]
    deadline = time.monotonic() + timeout
    while True:
        assert time.monotonic() < deadline, "the match did not end"
        socks = [p.connect(tables[-1]) for p in people]
        try:
            play_to_end(socks)
            info = people[0].table(tables[-1])
            assert info["match"]["hand"] == len(tables)
            if info["match"]["over"]:
                return tables
            nxt = {_next_of(s) for s in socks}
            assert len(nxt) == 1
            tables.append(nxt.pop())
        finally:
            for s in socks:
                s.close()


def _records(client: httpx.Client, tables: list[str]) -> list[dict[str, Any]]:
    out = []
    for t in tables:
        r = client.get(f"/api/tables/{t}/record")
        assert r.status_code == 200, r.text
        out.append(r.json())
    return out


def test_a_match_to_31_adds_up_its_hands(tmp_path: Path) -> None:
    """Fives and Threes to its own target (31): hand after hand at new tables with the
    same seats, each record its own and replaying, the totals the records' sums."""
    db = f"sqlite:///{tmp_path / 'fido.db'}"
    with live_server(db, play=NEXT_SOON) as base:
        anna = Person.sign_up(base, "Anna")
        table = anna.open_table("fives_and_threes", 2,
                                [{"kind": "me"}, {"kind": "bot", "level": "greedy"}],
                                match={"kind": "points"})
        assert table["match"]["goal"] == 31 and table["match"]["hand"] == 1
        assert table["match"]["totals"] == [0, 0]
        tables = _play_match([anna], table["id"])
        match_id = table["match"]["id"]
        detail = anna.http.get(f"/api/matches/{match_id}").json()
        records = _records(anna.http, tables)
        for t in tables:
            assert anna.table(t)["seats"][0]["account"] == anna.id
            assert anna.table(t)["seats"][1]["bot"] == "greedy"
    assert len(set(tables)) == len(tables)
    assert [h["table"] for h in detail["tables"]] == tables
    assert [h["hand"] for h in detail["tables"]] == list(range(1, len(tables) + 1))
    sums = [0, 0]
    events = set()
    for rec, hand in zip(records, detail["tables"], strict=True):
        game = GameRecord.from_json(json.dumps(rec)).replay()  # refuses a wrong record
        assert game.outcome is not None
        assert list(game.outcome.match_points) == hand["match_points"]
        sums = [a + b for a, b in zip(sums, game.outcome.match_points, strict=True)]
        events.add(rec["event"])
    assert len(events) == len(tables)  # each hand is its own game
    assert detail["totals"] == sums and detail["status"] == "finished"
    m = Match("fives_and_threes", 2)
    m.totals = sums
    assert m.is_over and detail["winner"] == sums.index(max(sums))
    store = open_store(db)
    with store.session(write=False) as s:
        row = s.get(MatchRow, match_id)
        assert row is not None and row.hands == len(tables)
        assert [r.hand for r in s.scalars(select(TableRow).where(
            TableRow.match_id == match_id).order_by(TableRow.hand))] == list(
                range(1, len(tables) + 1))
        # her game rating moved once, at the match's end, by its totals (not each hand)
        changes = history(s, anna.id, "fives_and_threes")
    store.close()
    assert len(changes) == 1 and changes[0].match_id == match_id
    model = PlackettLuce()
    first = 1 if sums[0] > sums[1] else 2 if sums[0] < sums[1] else 1
    want = model.rate([[model.rating(mu=25, sigma=25 / 3)],
                       [model.rating(mu=BOT_RATINGS["greedy"], sigma=1.0)]],
                      ranks=[first, 3 - first if sums[0] != sums[1] else 1])
    assert changes[0].after.mu == pytest.approx(want[0][0].mu)
    assert changes[0].after.sigma == pytest.approx(want[0][0].sigma)


def test_a_rated_match_gives_one_ranking_result_per_hand(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'fido.db'}"
    store = open_store(db)
    with store.session() as s:
        numbers = [register_player(s, f"Player {i}").number for i in range(3)]
    with live_server(db, play=NEXT_SOON) as base:
        people = []
        for i, n in enumerate(numbers):
            p = Person.sign_up(base, f"P{i}")
            link(db, f"P{i}", n)
            people.append(p)
        table = people[0].open_table("fido set=6", 3, rated=True,
                                     match={"kind": "hands", "goal": 2})
        for p in people[1:]:
            assert p.join(table["id"]).status_code == 200
        tables = _play_match(people, table["id"])
    assert len(tables) == 2
    with store.session(write=False) as s:
        games = {g.key: g for g in s.scalars(select(GameRow)).all()}
        assert set(games) == {f"table:{t}" for t in tables}
        for t in tables:
            row = s.get(TableRow, t)
            assert row is not None and row.record is not None
            outcome = GameRecord.from_json(row.record).replay().outcome
            assert outcome is not None
            lines = sorted(games[f"table:{t}"].lines, key=lambda ln: ln.seat)
            assert [(ln.player.number, ln.points, ln.pips) for ln in lines] == [
                (n, r.points, r.pips) for n, r in zip(numbers, outcome.seats, strict=True)]
    store.close()


def test_match_settings_out_of_range_are_refused(tmp_path: Path) -> None:
    with live_server(f"sqlite:///{tmp_path / 'fido.db'}") as base:
        anna = Person.sign_up(base, "Anna")
        for body, words in [
            ({"ruleset": "muggins", "players": 2, "match": {"kind": "points", "goal": 4}},
             "5 to 1000 points"),
            ({"ruleset": "fido set=6", "players": 3, "match": {"kind": "hands", "goal": 21}},
             "2 to 20 hands"),
            ({"ruleset": "block", "players": 2, "match": {"kind": "points"}},
             "no target of its own"),
            ({"ruleset": "muggins", "players": 2, "match": {"kind": "sets"}}, ""),
        ]:
            r = anna.http.post("/api/tables", json=body)
            assert r.status_code == 422, r.text
            assert words in r.json()["error"]["message"]
        r = anna.http.get("/api/tables?status=open")
        assert r.json()["tables"] == []  # nothing was made
        # the form says it in a sentence, and keeps the choices
        r = anna.http.post("/tables", data={
            "csrf_token": anna.http.cookies["fido_csrf"], "game": "muggins", "players": "2",
            "seat0": "me", "seat1": "bot:greedy", "clock": "0", "match": "points",
            "target": "2000"})
        assert r.status_code == 422 and "to 1000 points" in r.text
        r = anna.http.post("/tables", data={
            "csrf_token": anna.http.cookies["fido_csrf"], "game": "fido", "set": "6",
            "players": "3", "seat0": "me", "seat1": "bot:greedy", "seat2": "bot:greedy",
            "clock": "0", "match": "hands", "hands": "x"})
        assert r.status_code == 422 and "whole number" in r.text


def test_play_again_is_for_the_players_and_starts_when_all_said_yes(tmp_path: Path) -> None:
    with live_server(f"sqlite:///{tmp_path / 'fido.db'}") as base:
        anna, ben = Person.sign_up(base, "Anna"), Person.sign_up(base, "Ben")
        stranger = Person.sign_up(base, "Stranger")
        anonymous = browser(base)
        table = anna.open_table("fido set=6", 3, [
            {"kind": "me"}, {"kind": "open"}, {"kind": "bot", "level": "greedy"}])
        tid = table["id"]
        assert ben.join(tid).status_code == 200
        socks = [anna.connect(tid), ben.connect(tid)]
        watcher = connect_anonymous(base, tid)
        r = anna.http.post(f"/api/tables/{tid}/again", json={})
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished"
        play_to_end(socks, watchers=[watcher])
        r = stranger.http.post(f"/api/tables/{tid}/again", json={})
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_seated"
        r = anonymous.post(f"/api/tables/{tid}/again", json={})
        assert r.status_code in (401, 403)
        assert anna.table(tid)["again"]["yes"] == []  # nothing changed
        r = anna.http.post(f"/api/tables/{tid}/again", json={})
        assert r.status_code == 200, r.text
        assert r.json()["again"]["yes"] == [0] and r.json()["next"] is None
        seen = socks[1].until(lambda f: any(e["kind"] == "again"
                                            for e in f.get("events") or ()))
        assert seen["table"]["again"]["yes"] == [0]  # Ben's page sees who said yes
        r = ben.http.post(f"/api/tables/{tid}/again", json={})
        assert r.status_code == 200, r.text
        new = r.json()["next"]
        assert new and new != tid
        assert {_next_of(s) for s in [*socks, watcher]} == {new}
        info = anna.table(new)
        assert info["status"] == "running" and info["ruleset"] == table["ruleset"]
        assert [(s["kind"], s["account"], s["bot"]) for s in info["seats"]] == [
            ("person", anna.id, None), ("person", ben.id, None), ("bot", None, "greedy")]
        for s in [*socks, watcher]:
            s.close()
        # the new game; Anna (its creator) says yes with bots for who leaves; Ben, still
        # there, has not: nothing yet; he leaves: the rematch starts, a bot in his seat
        socks = [anna.connect(new), ben.connect(new)]
        play_to_end(socks)
        r = anna.http.post(f"/api/tables/{new}/again", json={"bots": True})
        assert r.status_code == 200, r.text
        assert r.json()["next"] is None and r.json()["again"] == {
            "yes": [0], "no": [], "creator": 0, "bots": True}
        socks[1].close()
        third = _next_of(socks[0])
        seats = anna.table(third)["seats"]
        assert [(s["kind"], s["account"]) for s in seats] == [
            ("person", anna.id), ("bot", None), ("bot", None)]
        assert anna.table(new)["next"] == third
        socks[0].close()


def test_a_team_games_result_shows_the_teams(tmp_path: Path) -> None:
    """Four at Fives and Threes play as two teams: the finished games list shows each
    team's total once (not two first places)."""
    with live_server(f"sqlite:///{tmp_path / 'fido.db'}") as base:
        anna = Person.sign_up(base, "Anna")
        table = anna.open_table("fives_and_threes", 4, [
            {"kind": "me"}, *[{"kind": "bot", "level": "greedy"}] * 3])
        sock = anna.connect(table["id"])
        play_to_end([sock])
        outcome = (sock.view or {})["outcome"]
        sock.close()
        page = anna.http.get("/games").text
    teams = outcome["teams"]
    assert len(teams) == 2
    assert page.count('class="team"') == 2
    for team in teams:
        assert f'data-final="{team["final"]}"' in page
    assert page.count("★") == sum(1 for t in teams if t["place"] == 1)
    assert Ruleset.from_text("fives_and_threes").teams(4) == ((0, 2), (1, 3))
