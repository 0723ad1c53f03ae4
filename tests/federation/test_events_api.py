"""Events over HTTP on a real server: 15 players in groups of five over three rounds.

Nobody connects, so every seat is away from the start and the stand-in bot
plays for her after the event's grace (0 s here): the rounds are played to
the end by the server alone, their results are rated games in the ranking
store, and the standings add up the finals of the finished tables.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

import httpx
from sqlalchemy import select

from fido.accounts.claims import link_player
from fido.accounts.signup import sign_up
from fido.events import Round, TableSeating, repeat_lower_bound, repeat_meetings
from fido.events.championships import create_event, register
from fido.events.rounds import draw_round
from fido.ranking import register_player
from fido.record import GameRecord
from fido.store import GameRow, TableRow, open_store
from support.events import EVENT, event_people, open_event, organiser, signed_up
from support.server_live import FAST, browser, live_server


def _wait_round_over(client: httpx.Client, event_id: int, timeout: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        event: dict[str, Any] = client.get(f"/api/events/{event_id}").json()
        if event["round_over"]:
            return event
        time.sleep(0.2)
    raise AssertionError("the round did not end")


def test_an_online_event_of_fifteen_in_three_rounds(store_url: str) -> None:
    url = store_url
    store = open_store(url)
    with store.session() as s:
        numbers = [register_player(s, f"Player {i}").number for i in range(16)]
    store.close()
    # the stand-ins move a tenth of a second apart: a round lasts seconds, not the
    # milliseconds in which it could end before the test asks to draw the next one
    with live_server(url, play=replace(FAST, bot_delay=0.1)) as base:
        people = [signed_up(base, url, f"p{i}", numbers[i]) for i in range(16)]
        # organising an event takes an organiser's role
        r = people[0].post("/api/events", json=EVENT)
        assert r.status_code == 403 and "organiser" in r.json()["error"]["message"]
        organiser(url, "p0")
        boss = people[0]
        r = boss.post("/api/events", json=EVENT)
        assert r.status_code == 201, r.text
        event = r.json()
        eid = event["id"]
        assert event["mine"] and event["status"] == "registration"
        assert "secret" not in event
        # a round cannot be drawn before three have registered
        assert boss.post(f"/api/events/{eid}/rounds").status_code == 409
        for p in people[1:]:
            assert p.post(f"/api/events/{eid}/entries", json={}).status_code == 201
        # twice is refused, and changes nothing
        r = people[1].post(f"/api/events/{eid}/entries", json={})
        assert r.status_code == 409 and "already" in r.json()["error"]["message"]
        # a player cannot draw a round
        assert people[1].post(f"/api/events/{eid}/rounds").status_code == 403
        # an account without a ranking player cannot register
        stranger = signed_up(base, url, "stranger", None)
        r = stranger.post(f"/api/events/{eid}/entries", json={})
        assert r.status_code == 409 and "ranking player" in r.json()["error"]["message"]
        assert people[5].delete(f"/api/events/{eid}/entries/mine").status_code == 200
        event = boss.get(f"/api/events/{eid}").json()
        assert len(event["players"]) == 14
        assert people[5].post(f"/api/events/{eid}/entries", json={}).status_code == 201
        event = boss.get(f"/api/events/{eid}").json()
        ids = {p["account"] for p in event["players"]}
        assert len(ids) == 15

        drawn: list[Round] = []
        for rnd in range(1, 4):
            r = boss.post(f"/api/events/{eid}/rounds")
            assert r.status_code == 201, r.text
            event = r.json()
            assert event["drawn"] == rnd and event["status"] == "running"
            tables = [t for t in event["tables"] if t["round"] == rnd]
            assert len(tables) == 3
            seated = [s["account"] for t in tables for s in t["seats"]]
            assert sorted(seated) == sorted(ids)  # everyone once
            drawn.append(Round(rnd, tuple(TableSeating(t["number"], tuple(s["account"] for s in
                                                                   t["seats"]))
                                          for t in tables)))
            # the next round waits for this one
            r = boss.post(f"/api/events/{eid}/rounds")
            why = "not over" if rnd < 3 else "all 3 rounds have been drawn"
            assert r.status_code == 409 and why in r.json()["error"]["message"]
            event = _wait_round_over(boss, eid)
        # 15 players in fives cannot avoid meeting again from round 2 on: the draw
        # reaches the least number of repeat meetings there is (docs/events.md)
        assert repeat_meetings(drawn) == repeat_lower_bound(15, 5, 3) == 12
        assert boss.post(f"/api/events/{eid}/rounds").status_code == 409  # all 3 drawn

        # the standings are the sums of the finals of the finished tables
        store = open_store(url)
        with store.session() as s:
            totals: dict[int, int] = {}
            for t in event["tables"]:
                row = s.get(TableRow, t["table"])
                assert row is not None and row.record is not None and row.rated
                outcome = GameRecord.from_json(row.record).replay().outcome
                assert outcome is not None
                for seat, res in zip(t["seats"], outcome.seats, strict=True):
                    assert seat["final"] == res.final
                    totals[seat["account"]] = totals.get(seat["account"], 0) + res.final
            # every table's result is in the ranking store, rated
            games = s.scalars(select(GameRow).where(GameRow.source == "online")).all()
            assert len(games) == 9
            assert sorted(g.event for g in games)[0] == "Cup <b>of</b> Rostock, round 1, table 1"
        store.close()
        standings = event["standings"]
        assert {x["account"]: x["total"] for x in standings} == totals
        assert [x["total"] for x in standings] == sorted(totals.values(), reverse=True)


def test_a_duplicate_round_deals_every_table_the_same_hands(store_url: str) -> None:
    url = store_url
    with live_server(url) as base:
        people, _numbers = event_people(url, base, 7)
        hands = {}
        for duplicate in (True, False):
            eid = open_event(people[0], people[1:], EVENT | {
                "table_size": 3, "rounds": 1, "duplicate": duplicate})
            assert people[0].post(f"/api/events/{eid}/rounds").status_code == 201
            event = _wait_round_over(people[0], eid)
            tables = event["tables"]
            assert [len(t["seats"]) for t in tables] == [3, 3]  # 6 players at tables of 3
            store = open_store(url)
            with store.session() as s:
                games = []
                for t in tables:
                    row = s.get(TableRow, t["table"])
                    assert row is not None and row.record is not None
                    games.append(GameRecord.from_json(row.record).replay())
            store.close()
            hands[duplicate] = [g.initial_hands for g in games]
        assert hands[True][0] == hands[True][1]  # the same deal at both tables
        assert hands[False][0] != hands[False][1]  # the server's random deals


def test_a_player_leaves_mid_event_and_is_brought_back(store_url: str) -> None:
    url = store_url
    with live_server(url) as base:
        people, _numbers = event_people(url, base, 7)
        boss = people[0]
        eid = open_event(boss, people, EVENT | {"table_size": 4, "rounds": 3})  # she plays too
        ids = {p["name"]: p["account"] for p in boss.get(f"/api/events/{eid}").json()["players"]}
        assert boss.post(f"/api/events/{eid}/rounds").status_code == 201  # 7: tables of 4, 3
        # a player cannot take another off; nobody takes off an account not in the event
        r = people[1].delete(f"/api/events/{eid}/entries/{ids['p2']}")
        assert r.status_code == 403
        r = boss.delete(f"/api/events/{eid}/entries/{2**31 - 1}")
        assert r.status_code == 404 and r.json()["error"]["code"] == "no_entry"
        # p6 leaves by herself during round 1, the organiser takes p5 off
        r = people[6].delete(f"/api/events/{eid}/entries/mine")
        assert r.status_code == 200, r.text
        r = boss.delete(f"/api/events/{eid}/entries/{ids['p5']}")
        assert r.status_code == 200, r.text
        left = {p["name"]: p["retired_after"] for p in r.json()["players"]}
        assert left == {"p0": None, "p1": None, "p2": None, "p3": None, "p4": None,
                        "p5": 1, "p6": 1}
        r = people[6].delete(f"/api/events/{eid}/entries/mine")  # twice: refused
        assert r.status_code == 409 and "after round 1" in r.json()["error"]["message"]
        event = _wait_round_over(boss, eid)
        # the five still playing would sit 3 and 2 at tables of 4, and FIDO needs 3 at a
        # table: the draw says so and draws nothing
        r = boss.post(f"/api/events/{eid}/rounds")
        assert r.status_code == 409, r.text
        assert "5 players" in r.json()["error"]["message"]
        assert boss.get(f"/api/events/{eid}").json()["drawn"] == 1
        # the organiser brings p5 back: six play round 2 at two tables of 3
        r = boss.post(f"/api/events/{eid}/entries", json={"name": "p5"})
        assert r.status_code == 201, r.text
        r = boss.post(f"/api/events/{eid}/rounds")
        assert r.status_code == 201, r.text
        round2 = [t for t in r.json()["tables"] if t["round"] == 2]
        seated = {s["account"] for t in round2 for s in t["seats"]}
        assert len(round2) == 2 and ids["p6"] not in seated and ids["p5"] in seated
        assert len(seated) == 6
        # she cannot come back by herself; her round-1 result still counts
        r = people[6].post(f"/api/events/{eid}/entries", json={})
        assert r.status_code == 409 and "closed" in r.json()["error"]["message"]
        event = _wait_round_over(boss, eid)
        p6 = next(x for x in event["standings"] if x["account"] == ids["p6"])
        assert p6["games"] == 1
        assert boss.post(f"/api/events/{eid}/rounds").status_code == 201  # round 3
        # nothing is left to leave once every round is drawn
        r = people[1].delete(f"/api/events/{eid}/entries/mine")
        assert r.status_code == 409 and "every round" in r.json()["error"]["message"]


def test_a_round_drawn_but_not_seated_before_a_stop_is_seated_at_the_start(
        store_url: str) -> None:
    """The process stopped between the draw's commit and the seating: the tables wait with
    reserved seats. The next start seats them, and the round is played to its end."""
    store = open_store(store_url)
    with store.session() as s:
        people = []
        for i in range(6):
            a = sign_up(s, f"late{i}", "a long secret 1", None)
            link_player(s, a, register_player(s, f"Late {i}").number)
            people.append(a)
        event = create_event(s, people[0], EVENT | {"table_size": 3, "rounds": 1})
        for a in people:
            register(s, event, a)
        tables = draw_round(s, event)
        eid, ids = event.id, [t.table_id for t in tables]
    with store.session(write=False) as s:
        rows = [s.get(TableRow, i) for i in ids]
        assert [r.status for r in rows if r is not None] == ["open", "open"]
    store.close()
    with live_server(store_url) as base:
        event_json = _wait_round_over(browser(base), eid)
        assert event_json["status"] == "finished"
        assert all(t["done"] for t in event_json["tables"])


def test_concurrent_registrations_and_draws_take_turns(store_url: str) -> None:
    """Six players register at the same moment and the organiser clicks "draw" twice at
    once: everyone is in with her own draw number, and exactly one round is drawn."""
    url = store_url
    with live_server(url) as base:
        people, _numbers = event_people(url, base, 7)
        boss = people[0]
        eid = boss.post("/api/events", json=EVENT | {
            "table_size": 3, "rounds": 2, "mode": "tables"}).json()["id"]
        with ThreadPoolExecutor(6) as pool:
            codes = list(pool.map(
                lambda p: p.post(f"/api/events/{eid}/entries", json={}).status_code,
                people[1:]))
        assert codes == [201] * 6
        event = boss.get(f"/api/events/{eid}").json()
        assert sorted(p["number"] for p in event["players"]) == [1, 2, 3, 4, 5, 6]
        with ThreadPoolExecutor(2) as pool:
            answers = list(pool.map(lambda _: boss.post(f"/api/events/{eid}/rounds"), range(2)))
        assert sorted(a.status_code for a in answers) == [201, 409], [a.text for a in answers]
        refused = next(a for a in answers if a.status_code == 409)
        assert "not over" in refused.json()["error"]["message"]
        event = boss.get(f"/api/events/{eid}").json()
        assert event["drawn"] == 1 and len(event["tables"]) == 2


def test_the_organiser_cancels_an_event(store_url: str) -> None:
    """Cancelled: no registration, leaving nor draw any more; the round played stands in
    the standings; only the organiser (or the federation) cancels, and once."""
    url = store_url
    with live_server(url) as base:
        people, _numbers = event_people(url, base, 7)
        boss = people[0]
        eid = open_event(boss, people[1:], EVENT | {"table_size": 3, "rounds": 3})
        assert boss.post(f"/api/events/{eid}/rounds").status_code == 201
        _wait_round_over(boss, eid)
        assert people[1].post(f"/api/events/{eid}/cancel").status_code == 403
        r = boss.post(f"/api/events/{eid}/cancel")
        assert r.status_code == 200, r.text
        event = r.json()
        assert event["status"] == "cancelled" and event["cancelled_at"]
        assert all(x["games"] == 1 for x in event["standings"])  # round 1 stands
        for r in (boss.post(f"/api/events/{eid}/rounds"),
                  people[1].delete(f"/api/events/{eid}/entries/mine"),
                  boss.post(f"/api/events/{eid}/entries", json={"name": "p2"}),
                  boss.post(f"/api/events/{eid}/cancel")):
            assert r.status_code == 409 and "cancelled" in r.json()["error"]["message"], r.text
        listed = {e["id"]: e["status"] for e in boss.get("/api/events").json()["events"]}
        assert listed[eid] == "cancelled"
        assert boss.get(f"/api/events/{eid}").json()["drawn"] == 1
