"""Finding each other over the API (docs/people.md): the people online who chose to be
seen, with their rating; following; a challenge accepted (the table opens with both
seated), declined, withdrawn, expired; a block stops challenges either way; the bounds
and bad requests change nothing."""

from __future__ import annotations

import datetime as dt
from typing import Any

import httpx
import pytest
from sqlalchemy import update

from fido.accounts.roles import find_account, grant
from fido.server import challenges_service
from fido.store import ChallengeRow, Store
from support.server_client import Person


def online(who: Person, game: str = "fido:9") -> dict[str, Any]:
    r = who.http.get("/api/people", params={"game": game})
    assert r.status_code == 200, r.text
    got: dict[str, Any] = r.json()
    return got


def seen(who: Person, visible: bool = True) -> None:
    r = who.http.put("/api/account/online", json={"visible": visible})
    assert r.status_code == 200 and r.json() == {"visible": visible}, r.text


def challenge(who: Person, target: Person, **more: Any) -> httpx.Response:
    body = {"to": target.id, "game": "fido", "set": 9, "players": 3,
            "others": "bot:greedy"} | more
    return who.http.post("/api/challenges", json=body)


def test_people_online_are_those_who_chose_to_be_seen(base: str) -> None:
    ida, jan, kim = (Person.sign_up(base, n) for n in ("OnlineIda", "OnlineJan", "OnlineKim"))
    names = {p["name"] for p in online(ida)["people"]}
    assert not names & {"OnlineIda", "OnlineJan", "OnlineKim"}  # nobody chose yet
    seen(ida)
    seen(jan)
    got = online(kim)
    mine = {p["name"]: p for p in got["people"]}
    assert {"OnlineIda", "OnlineJan"} <= set(mine) and "OnlineKim" not in mine
    assert got["visible"] is False and got["family"] == "fido:9"
    assert mine["OnlineIda"]["rating"] == 1500 and mine["OnlineIda"]["provisional"]
    # she follows Jan: Jan comes first to her (herself: refused, saying so)
    r = kim.http.put(f"/api/people/{kim.id}/follow")
    assert r.status_code == 422 and r.json()["error"]["message"] == "you cannot follow yourself"
    assert kim.http.put(f"/api/people/{jan.id}/follow").status_code == 200
    first = online(kim)["people"][0]
    assert first["name"] == "OnlineJan" and first["followed"]
    seen(jan, False)
    assert "OnlineJan" not in {p["name"] for p in online(kim)["people"]}
    r = kim.http.get("/api/people", params={"game": "chess"})  # a game that is none
    assert r.status_code == 422 and r.json()["error"]["field"] == "game"


def test_a_challenge_accepted_opens_the_table_with_both_seated(base: str) -> None:
    lea, max_ = Person.sign_up(base, "ChallengeLea"), Person.sign_up(base, "ChallengeMax")
    r = challenge(lea, max_, rates=True)
    assert r.status_code == 201, r.text
    c = r.json()
    assert (c["status"], c["ruleset"], c["players"], c["others"]) == (
        "open", "fido set=9", 3, "bot:greedy")
    incoming = max_.http.get("/api/challenges").json()["incoming"]
    assert [x["id"] for x in incoming] == [c["id"]]
    assert incoming[0]["challenger"]["name"] == "ChallengeLea"
    assert lea.http.get("/api/challenges").json()["incoming"] == []
    # only she may accept it; nobody else learns of it
    assert lea.http.post(f"/api/challenges/{c['id']}/accept").status_code == 404
    r = max_.http.post(f"/api/challenges/{c['id']}/accept")
    assert r.status_code == 200, r.text
    table = r.json()["table"]
    assert r.json()["status"] == "accepted" and table
    info = lea.table(table)
    assert info["status"] == "running" and info["rates"] is True
    assert [(s["kind"], s.get("account"), s.get("bot")) for s in info["seats"]] == [
        ("person", lea.id, None), ("person", max_.id, None), ("bot", None, "greedy")]
    again = max_.http.post(f"/api/challenges/{c['id']}/accept")
    assert again.status_code == 409 and again.json()["error"]["code"] == "not_open"


def test_declined_withdrawn_and_expired(base: str, live_store: Store) -> None:
    nia, ole = Person.sign_up(base, "ChallengeNia"), Person.sign_up(base, "ChallengeOle")
    first = challenge(nia, ole).json()
    assert challenge(nia, ole).json()["error"]["code"] == "challenged"  # one at a time
    r = ole.http.post(f"/api/challenges/{first['id']}/decline")
    assert r.status_code == 200 and r.json()["status"] == "declined"
    out = nia.http.get("/api/challenges").json()["outgoing"]
    assert out[0]["id"] == first["id"] and out[0]["status"] == "declined"
    second = challenge(nia, ole, clock=86400).json()
    assert second["turn_based"] and second["status"] == "open"
    assert ole.http.delete(f"/api/challenges/{second['id']}").status_code == 404  # not hers
    r = nia.http.delete(f"/api/challenges/{second['id']}")
    assert r.status_code == 200 and r.json()["status"] == "withdrawn"
    third = challenge(nia, ole).json()
    with live_store.session() as s:  # its ten minutes are over
        s.execute(update(ChallengeRow).where(ChallengeRow.id == third["id"]).values(
            expires_at=dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1)))
    assert ole.http.get("/api/challenges").json()["incoming"] == []
    r = ole.http.post(f"/api/challenges/{third['id']}/accept")
    assert r.status_code == 409 and "expired" in r.json()["error"]["message"]
    assert nia.http.get("/api/challenges").json()["outgoing"][0]["status"] == "expired"


def test_a_block_stops_challenges_either_way(base: str) -> None:
    pia, rob = Person.sign_up(base, "BlockPia"), Person.sign_up(base, "BlockRob")
    open_one = challenge(rob, pia).json()
    assert pia.http.put(f"/api/people/{rob.id}/block").status_code == 200
    for a, b in ((rob, pia), (pia, rob)):
        r = challenge(a, b)
        assert r.status_code == 403 and r.json()["error"]["code"] == "blocked", r.text
    r = pia.http.post(f"/api/challenges/{open_one['id']}/accept")  # sent before the block
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_open"
    seen(rob)
    assert "BlockRob" not in {p["name"] for p in online(pia)["people"]}
    assert [p["name"] for p in pia.http.get("/api/blocks").json()["people"]] == ["BlockRob"]
    assert pia.http.put(f"/api/people/{rob.id}/follow").status_code == 403
    # the block ended the challenge it found open (expired: a block is not told)
    assert rob.http.get("/api/challenges").json()["outgoing"][0]["status"] == "expired"
    assert pia.http.delete(f"/api/people/{rob.id}/block").status_code == 200
    assert challenge(rob, pia).status_code == 201


def test_bounds_and_bad_challenges_change_nothing(
        base: str, monkeypatch: pytest.MonkeyPatch) -> None:
    sam = Person.sign_up(base, "BoundSam")
    others = [Person.sign_up(base, f"BoundTo{i}") for i in range(2)]
    monkeypatch.setattr(challenges_service, "OPEN_MAX", 1)
    assert challenge(sam, others[0]).status_code == 201
    r = challenge(sam, others[1])
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_challenges"
    for body, status in (({"to": others[1].id}, 422), ({"players": 1}, 422),
                         ({"game": "chess"}, 422), ({"others": "bot:grandmaster"}, 422),
                         ({"others": "people"}, 422), ({"clock": 300000}, 422),
                         ({"to": 999999}, 404), ({"game": "muggins", "players": 5}, 422)):
        r = challenge(others[1], sam, **body)
        assert r.status_code == status, (body, r.text)
        assert "Traceback" not in r.text
    assert others[1].http.get("/api/challenges").json()["outgoing"] == []
    anonymous = httpx.Client(base_url=base)
    assert anonymous.get("/api/challenges").status_code == 401


def test_the_chat_of_someone_she_blocks_does_not_reach_her(base: str) -> None:
    """At a table, what a blocked person says is sent to everyone but the one who blocks
    her: neither as it happens nor when she catches up."""
    uma, vik = Person.sign_up(base, "ChatUma"), Person.sign_up(base, "ChatVik")
    assert uma.http.put(f"/api/people/{vik.id}/block").status_code == 200
    table = vik.open_table("fido set=6", 3, [{"kind": "me"}, {"kind": "open"},
                                             {"kind": "bot", "level": "greedy"}])["id"]
    assert uma.join(table).status_code == 200
    hers, his = uma.connect(table), vik.connect(table)
    try:
        his.chat("hello, can you hear me")
        hers.chat("anyone there?")
        his.until(lambda f: any(e.get("text") == "anyone there?"
                                for e in f.get("events") or ()))
        hers.until(lambda f: any(e.get("text") == "anyone there?"
                                 for e in f.get("events") or ()))
        said = [e.get("text") for f in hers.frames for e in f.get("events") or ()
                if e.get("kind") == "chat"]
        assert said == ["anyone there?"]
        heard = [e.get("text") for f in his.frames for e in f.get("events") or ()
                 if e.get("kind") == "chat"]
        assert heard == ["hello, can you hear me", "anyone there?"]
        again = uma.connect(table, seq=0)  # she catches up from the start: still not his
        try:
            caught = [e.get("text") for f in again.frames for e in f.get("events") or ()
                      if e.get("kind") == "chat"]
            assert caught == ["anyone there?"], caught
        finally:
            again.close()
    finally:
        hers.close()
        his.close()


def test_a_reported_chat_line_reaches_the_federations_inbox(
        base: str, live_store: Store) -> None:
    """A line she could read, reported once: the federation's accounts find it in their
    inbox with the words as said; her own line, a line that is none or a second report
    of the same line are refused."""
    fed, wes, yan = (Person.sign_up(base, n) for n in ("ReportFed", "ReportWes", "ReportYan"))
    with live_store.session() as s:
        grant(s, find_account(s, "ReportFed"), "federation")
    table = wes.open_table("fido set=6", 3, [{"kind": "me"}, {"kind": "open"},
                                             {"kind": "bot", "level": "greedy"}])["id"]
    assert yan.join(table).status_code == 200
    his, hers = wes.connect(table), yan.connect(table)
    try:
        seq = his.chat("you play like a bot")["seq"]
        mine = hers.chat("that is not kind")["seq"]
    finally:
        his.close()
        hers.close()
    r = yan.http.post(f"/api/tables/{table}/reports", json={"seq": seq})
    assert r.status_code == 201, r.text
    again = yan.http.post(f"/api/tables/{table}/reports", json={"seq": seq})
    assert again.status_code == 409 and again.json()["error"]["code"] == "reported"
    for body in ({"seq": mine}, {"seq": 0}, {"seq": 99999}):
        r = yan.http.post(f"/api/tables/{table}/reports", json=body)
        assert r.status_code == 404 and r.json()["error"]["code"] == "no_line", (body, r.text)
    inbox = fed.http.get("/inbox").text
    assert "Chat report: ReportWes: «you play like a bot»" in inbox, inbox
    assert f'href="/tables/{table}"' in inbox
    assert "you play like a bot" not in wes.http.get("/inbox").text  # the federation's only
