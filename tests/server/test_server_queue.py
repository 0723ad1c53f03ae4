"""Play with people over the API (docs/server.md): people waiting for the same game are
seated at one table, a person waiting alone gets bots after her wait, a second request
replaces the first, leaving and a closed page take her out, bad requests change nothing,
and the counts (people waiting for each game, people online) are right."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

import httpx
import pytest
from sqlalchemy import update

from fido.server import queue, queue_service
from fido.store import GameRating, QueueEntry, Store
from support.server_live import browser


def guest(base: str) -> httpx.Client:
    client = browser(base)
    r = client.post("/api/guest")
    assert r.status_code == 200, r.text
    return client


def account_of(client: httpx.Client) -> int:
    me: int = client.get("/api/session").json()["account"]["id"]
    return me


def waiting(state: dict[str, Any], ruleset: str) -> int:
    return sum(g["waiting"] for g in state["games"] if g["ruleset"] == ruleset)


def queued(client: httpx.Client, **body: Any) -> dict[str, Any]:
    r = client.post("/api/queue", json=body)
    assert r.status_code == 201, r.text
    state: dict[str, Any] = r.json()
    return state


def test_two_people_waiting_for_the_same_game_sit_at_one_table(base: str) -> None:
    anna, bert = guest(base), guest(base)
    first = queued(anna, game="fido", set=9, players=2)
    assert first["entry"]["status"] == "waiting" and first["entry"]["table"] is None
    assert first["entry"]["ruleset"] == "fido set=9"
    assert waiting(first, "fido set=9") == 1
    second = queued(bert, game="fido", set=9, players=2)  # his request forms the table
    assert second["entry"]["status"] == "seated", second
    table = second["entry"]["table"]
    mine = anna.get("/api/queue").json()["entry"]
    assert mine["status"] == "seated" and mine["table"] == table
    assert {mine["seat"], second["entry"]["seat"]} == {0, 1}
    info = httpx.get(f"{base}/api/tables/{table}").json()
    assert info["status"] == "running" and info["ruleset"] == "fido set=9"
    assert [(s["kind"], s["account"]) for s in info["seats"]] == [
        ("person", account_of(anna)), ("person", account_of(bert))]  # the longest waiting first
    assert waiting(anna.get("/api/queue").json(), "fido set=9") == 0
    for who in (anna, bert):  # done: out of the queue
        assert who.delete("/api/queue").status_code == 200


def test_any_size_sits_with_a_given_size_and_other_games_wait(base: str) -> None:
    anna, bert, cleo = guest(base), guest(base), guest(base)
    queued(anna, game="muggins")  # any size
    queued(bert, game="block", players=2)  # another game: never with her
    state = queued(cleo, game="muggins", players=2)
    assert state["entry"]["status"] == "seated"
    table = httpx.get(f"{base}/api/tables/{state['entry']['table']}").json()
    assert table["players"] == 2 and table["ruleset"] == "muggins"
    assert {s["account"] for s in table["seats"]} == {account_of(anna), account_of(cleo)}
    his = bert.get("/api/queue").json()
    assert his["entry"]["status"] == "waiting" and waiting(his, "block") == 1
    for who in (anna, bert, cleo):
        assert who.delete("/api/queue").status_code == 200


def test_after_her_wait_bots_fill_the_other_seats(base: str) -> None:
    dora = guest(base)
    state = queued(dora, game="draw", bots_after=1)
    assert state["entry"]["status"] == "waiting" and state["entry"]["bots_after"] == 1
    time.sleep(1.2)
    state = dora.get("/api/queue").json()
    assert state["entry"]["status"] == "seated", state
    table = httpx.get(f"{base}/api/tables/{state['entry']['table']}").json()
    # any size: four (the game has it), her and three bots; the game has begun
    assert [s["kind"] for s in table["seats"]] == ["person", "bot", "bot", "bot"]
    assert {s["bot"] for s in table["seats"][1:]} == {queue.BOT_LEVEL}
    assert table["status"] == "running"
    # without bots_after she would still wait
    emil = guest(base)
    queued(emil, game="draw", players=3)
    time.sleep(1.2)
    assert emil.get("/api/queue").json()["entry"]["status"] == "waiting"
    for who in (dora, emil):
        assert who.delete("/api/queue").status_code == 200


def test_queuing_again_replaces_the_first_request(base: str) -> None:
    anna = guest(base)
    queued(anna, game="fido", set=12, players=3)
    state = queued(anna, game="sebastopol")
    assert state["entry"]["ruleset"] == "sebastopol" and state["entry"]["players"] is None
    assert waiting(state, "fido set=12") == 0 and waiting(state, "sebastopol") == 1
    assert anna.delete("/api/queue").status_code == 200


def test_leaving_the_queue(base: str) -> None:
    anna, bert = guest(base), guest(base)
    queued(anna, game="straight", players=2)
    r = anna.delete("/api/queue")
    assert r.status_code == 200 and r.json()["entry"] is None
    assert waiting(r.json(), "straight") == 0
    again = anna.delete("/api/queue")
    assert again.status_code == 409 and again.json()["error"]["code"] == "not_queued"
    # she left: Bert waits for the same game alone
    state = queued(bert, game="straight", players=2)
    assert state["entry"]["status"] == "waiting"
    assert bert.delete("/api/queue").status_code == 200
    nobody = browser(base)
    r = nobody.delete("/api/queue")
    assert r.status_code == 401 and r.json()["error"]["code"] == "signed_out"
    r = nobody.post("/api/queue", json={"game": "fido"})
    assert r.status_code == 401


def test_a_closed_page_is_out_of_the_queue_after_a_while(
        base: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # the live server runs in this process: its heartbeat's limit, shortened for the test
    monkeypatch.setattr(queue, "STALE", 1.0)
    anna, bert = guest(base), guest(base)
    queued(anna, game="fives_and_threes", players=2)
    time.sleep(1.5)  # she polls no more
    state = queued(bert, game="fives_and_threes", players=2)
    assert state["entry"]["status"] == "waiting"  # not seated with a closed page
    assert waiting(state, "fives_and_threes") == 1
    assert anna.get("/api/queue").json()["entry"] is None
    assert bert.delete("/api/queue").status_code == 200


@pytest.mark.parametrize(("body", "field"), [
    ({"game": "chess"}, "game"),
    ({"game": "fido", "players": 1}, "players"),
    ({"game": "fido", "players": 10}, "players"),
    ({"game": "muggins", "players": 5}, "players"),
    ({"game": "muggins", "set": 9}, "set"),
    ({"game": "fido", "set": 7}, "set"),
    ({"game": "fido", "bots_after": 0}, "bots_after"),
    ({"game": "fido", "bots_after": 601}, "bots_after"),
    ({"game": "fido", "extra": 1}, "extra"),
    ({"game": "fido", "clock": 60}, "clock"),  # a turn-based clock is an hour or more
    ({"game": "fido", "clock": 259201}, "clock"),
])
def test_bad_requests_are_refused_and_change_nothing(
        base: str, body: dict[str, Any], field: str) -> None:
    anna = guest(base)
    queued(anna, game="block", players=4)
    r = anna.post("/api/queue", json=body)
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["code"] == "invalid" and error["field"] == field, error
    assert "Traceback" not in r.text
    entry = anna.get("/api/queue").json()["entry"]
    assert entry["ruleset"] == "block" and entry["players"] == 4  # her first request stands
    assert anna.delete("/api/queue").status_code == 200


def test_people_online_are_counted(base: str) -> None:
    watcher = browser(base)
    before = watcher.get("/api/queue").json()["online"]
    fresh = guest(base)  # made a guest: her next request counts her
    state = fresh.get("/api/queue").json()
    assert state["online"] == before + 1 and state["entry"] is None
    assert watcher.get("/api/queue").json()["online"] == before + 1


def test_no_second_queue_table_while_she_plays_one(base: str) -> None:
    """The queue deals her no table while she holds a seat at a running one: one guest
    cannot fill the server with bot tables by joining again and again."""
    gina = guest(base)
    queued(gina, game="draw", bots_after=1)
    time.sleep(1.2)
    state = gina.get("/api/queue").json()
    assert state["entry"]["status"] == "seated", state
    first = state["entry"]["table"]
    r = gina.post("/api/queue", json={"game": "draw", "bots_after": 1})
    assert r.status_code == 409 and r.json()["error"]["code"] == "playing", r.text
    assert first in r.json()["error"]["message"]
    time.sleep(1.2)
    state = gina.get("/api/queue").json()
    assert state["entry"]["status"] == "seated" and state["entry"]["table"] == first
    assert gina.delete("/api/queue").status_code == 200


def test_a_turn_based_wait_outlasts_a_closed_page_and_pairs_the_same_clock_only(
        base: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A turn-based request (a day a move) waits with her page closed (a real-time one is
    dropped then), sits only with people who asked for the same time per move, and its
    table is turn-based; she may ask while she plays a real-time game, and a person holds
    at most TURN_BASED_GAMES turn-based games from the queue."""
    monkeypatch.setattr(queue, "STALE", 1.0)
    anna, bert, cleo, dora = guest(base), guest(base), guest(base), guest(base)
    # dora plays a real-time game: a turn-based request is hers to make all the same
    queued(dora, game="straight", players=2, bots_after=1)
    time.sleep(1.2)
    assert dora.get("/api/queue").json()["entry"]["status"] == "seated"
    first = queued(anna, game="sebastopol", players=4, clock=86400)
    assert first["entry"]["clock"] == 86400
    assert [g for g in first["games"] if g["ruleset"] == "sebastopol"] == [
        {"ruleset": "sebastopol", "clock": 86400, "waiting": 1}]
    queued(bert, game="sebastopol", players=4, clock=3600)  # another clock: not with her
    time.sleep(1.5)  # neither polls: a real-time entry would be gone
    queued(cleo, game="sebastopol", players=4, clock=86400)
    state = queued(dora, game="sebastopol", players=4, clock=86400)
    assert state["entry"]["status"] == "waiting"  # three of the same clock: not four yet
    assert {(g["clock"], g["waiting"]) for g in state["games"]
            if g["ruleset"] == "sebastopol"} == {(86400, 3), (3600, 1)}
    assert anna.get("/api/queue").json()["entry"]["status"] == "waiting"
    erin = guest(base)
    state = queued(erin, game="sebastopol", players=4, clock=86400)
    assert state["entry"]["status"] == "seated", state
    table = httpx.get(f"{base}/api/tables/{state['entry']['table']}").json()
    assert table["clock"] == 86400 and table["turn_based"] and table["status"] == "running"
    assert {s["account"] for s in table["seats"]} == {
        account_of(p) for p in (anna, cleo, dora, erin)}
    assert bert.get("/api/queue").json()["entry"]["status"] == "waiting"
    for who in (anna, bert, cleo, dora, erin):
        assert who.delete("/api/queue").status_code == 200
    # her bound: with TURN_BASED_GAMES of them open or running, no more from the queue
    monkeypatch.setattr(queue_service, "TURN_BASED_GAMES", 1)
    r = anna.post("/api/queue", json={"game": "sebastopol", "clock": 86400})
    assert r.status_code == 409 and r.json()["error"]["code"] == "turn_based_games", r.text
    assert anna.get("/api/queue").json()["entry"] is None


def test_close_players_sit_together_before_a_far_one_who_waits_until_her_range_reaches(
        base: str, live_store: Store) -> None:
    """Pairing by strength (server/pairing.py): Cleo (2400) waits first, then Anna (1500)
    and Bert (1530): Anna and Bert sit together, Cleo waits on (900 apart is beyond the
    range at once, 150); Anna's estimate said so; once Cleo has waited long enough (her
    join moved back 80 s: the test's clock) the next person sits with her."""
    cleo, anna, bert, dora = guest(base), guest(base), guest(base), guest(base)
    now = dt.datetime.now(dt.UTC)
    with live_store.session() as s:
        for who, mu in ((cleo, 40.0), (bert, 25.5)):
            s.add(GameRating(account_id=account_of(who), family="muggins", mu=mu,
                             sigma=3.0, games=30, updated_at=now))
    assert queued(cleo, game="muggins", players=2)["entry"]["estimate"] is None  # alone
    first = queued(anna, game="muggins", players=2)
    assert first["entry"]["status"] == "waiting"  # not with Cleo, who waited longer
    assert 60 <= first["entry"]["estimate"] <= 76  # (900 - 150) / 10 s, less the wait
    state = queued(bert, game="muggins", players=2)
    assert state["entry"]["status"] == "seated", state
    table = httpx.get(f"{base}/api/tables/{state['entry']['table']}").json()
    assert {s["account"] for s in table["seats"]} == {account_of(anna), account_of(bert)}
    assert cleo.get("/api/queue").json()["entry"]["status"] == "waiting"
    with live_store.session() as s:  # Cleo has waited 80 s: her range is 950 now
        s.execute(update(QueueEntry).where(QueueEntry.account_id == account_of(cleo))
                  .values(joined_at=now - dt.timedelta(seconds=80)))
    state = queued(dora, game="muggins", players=2)
    assert state["entry"]["status"] == "seated", state
    table = httpx.get(f"{base}/api/tables/{state['entry']['table']}").json()
    assert {s["account"] for s in table["seats"]} == {account_of(cleo), account_of(dora)}
    for who in (anna, bert, cleo, dora):
        assert who.delete("/api/queue").status_code == 200
