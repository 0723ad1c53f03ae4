"""Puzzles over the API (docs/puzzles.md): a puzzle is served without its answer; her
first answer is judged and moves her puzzle rating by the documented rule, stored with
it; a second answer to the same puzzle moves nothing; a visitor without an account is
told the answer, unrated; bad requests change nothing."""

from __future__ import annotations

import datetime as dt

import httpx
from sqlalchemy import select

from fido import puzzles
from fido.store import PuzzleAnswer, PuzzleRating, Store
from support.server_client import Person
from support.server_live import browser


def test_a_puzzle_is_served_without_its_answer(base: str) -> None:
    r = httpx.get(f"{base}/api/puzzles/daily")
    assert r.status_code == 200, r.text
    got = r.json()
    p = puzzles.daily(dt.datetime.now(dt.UTC).date())
    assert got["id"] == p.id and got["view"] == p.view and got["day"]
    assert "best" not in got and "second" not in got and "gain" not in got
    assert {m["move"] for m in got["moves"]} >= {p.best[0], p.second}
    assert got["rows"] and got["layout"]["tiles"]
    assert httpx.get(f"{base}/api/puzzles/{p.id}").json()["id"] == p.id


def test_her_first_answer_moves_her_rating_and_a_second_does_not(
        base: str, live_store: Store) -> None:
    ana = Person.sign_up(base, "PuzzleAna")
    easy, hard = puzzles.load()[0], puzzles.load()[-1]
    r = ana.http.post(f"/api/puzzles/{easy.id}/answer", json={"move": easy.best[0]})
    assert r.status_code == 200, r.text
    got = r.json()
    first = puzzles.rated(puzzles.START, 0, easy.rating, solved=True)
    assert got["solved"] and got["rated"] and got["best"] == list(easy.best)
    assert got["rating_before"] == 1500 and got["rating"] == round(first)
    assert easy.second in got["explanation"]
    # a wrong answer to a hard puzzle: the rule again, from where she stands
    r = ana.http.post(f"/api/puzzles/{hard.id}/answer", json={"move": hard.second})
    second = puzzles.rated(first, 1, hard.rating, solved=False)
    assert not r.json()["solved"] and r.json()["rating"] == round(second)
    # the same puzzle again, right this time: judged, not rated
    r = ana.http.post(f"/api/puzzles/{hard.id}/answer", json={"move": hard.best[0]})
    assert r.json()["solved"] and not r.json()["rated"] and r.json()["rating"] == round(second)
    mine = ana.http.get("/api/puzzles/rating").json()
    assert mine == {"rating": round(second), "answers": 2, "solved": 1}
    with live_store.session(write=False) as s:
        row = s.get(PuzzleRating, ana.id)
        assert row is not None and abs(row.rating - second) < 1e-9 and row.answers == 2
        stored = s.scalars(select(PuzzleAnswer).where(PuzzleAnswer.account_id == ana.id)
                           .order_by(PuzzleAnswer.id)).all()
        assert [(a.puzzle_id, a.solved) for a in stored] == [(easy.id, True), (hard.id, False)]
    # the next puzzle for her is one she has not answered, near her rating
    nxt = ana.http.get("/api/puzzles/next").json()
    assert nxt["id"] not in {easy.id, hard.id}
    assert abs(nxt["rating"] - second) <= min(abs(p.rating - second) for p in puzzles.load()
                                               if p.id not in {easy.id, hard.id})


def test_a_guest_is_rated_and_a_visitor_is_told_unrated(base: str) -> None:
    p = puzzles.load()[5]
    guest = Person.guest(base)
    r = guest.http.post(f"/api/puzzles/{p.id}/answer", json={"move": p.best[0]})
    assert r.status_code == 200 and r.json()["rated"]
    visitor = browser(base)
    visitor.get("/")  # a CSRF cookie, no account
    r = visitor.post(f"/api/puzzles/{p.id}/answer", json={"move": p.second})
    assert r.status_code == 200, r.text
    assert not r.json()["solved"] and not r.json()["rated"] and r.json()["rating"] is None
    assert visitor.get("/api/puzzles/rating").status_code == 401


def test_bad_answers_change_nothing(base: str, live_store: Store) -> None:
    bo = Person.sign_up(base, "PuzzleBo")
    p = puzzles.load()[3]
    for move, status in (("0-0@99e", 422), ("not a move", 422), ("x" * 40, 422)):
        r = bo.http.post(f"/api/puzzles/{p.id}/answer", json={"move": move})
        assert r.status_code == status, (move, r.text)
    r = bo.http.post(f"/api/puzzles/{p.id}/answer", json={"move": "1-1@0e\x07"})
    assert r.json()["error"]["message"] == (  # a control character is shown, not sent on
        "1-1@0e\\x07 is not a move you may make in this puzzle")
    assert bo.http.post("/api/puzzles/abcdef123456/answer",
                        json={"move": p.best[0]}).status_code == 404
    assert bo.http.get("/api/puzzles/not-hex").status_code == 422
    with live_store.session(write=False) as s:
        assert s.get(PuzzleRating, bo.id) is None
