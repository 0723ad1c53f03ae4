"""A person's data is hers (GDPR Art. 15, 17, 20): "download my data" holds every section
the privacy page lists and nobody else's, and "delete my account" removes the account at
once, unlinks her from the games the others keep, and keeps the federation's ranking.
On SQLite and PostgreSQL (``store_url``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import func, select

from fido.accounts.privacy import ERASED_NAME, SECTIONS
from fido.store import Account, Notification, SeatRow, WebSession, open_store
from support.server_client import PASSWORD, Person, play_to_end
from support.server_live import browser, live_server

BOTS = [{"kind": "me"}, {"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "random"}]


@pytest.fixture
def base(store_url: str) -> Iterator[str]:
    with live_server(store_url) as url:
        yield url


def finished_game(person: Person) -> str:
    table = person.open_table("fido set=6", 3, seats=BOTS)
    sock = person.connect(table["id"], seq=0)
    try:
        play_to_end([sock])
    finally:
        sock.close()
    return str(table["id"])


def test_my_data_holds_every_section_and_only_mine(base: str, store_url: str) -> None:
    rosa = Person.sign_up(base, "Rosa")
    assert browser(base).post("/api/session", json={"name": "Rosa", "password": PASSWORD}) \
        .status_code == 200  # a second browser of hers
    played = finished_game(rosa)
    bert = Person.sign_up(base, "Bert")
    berts = finished_game(bert)
    r = rosa.http.get("/api/account/data")
    assert r.status_code == 200, r.text
    assert r.headers["content-disposition"] == 'attachment; filename="fido-data-Rosa.json"'
    data = r.json()
    assert list(data) == ["format", "exported_at", *SECTIONS]  # the privacy page's list
    assert data["account"]["name"] == "Rosa" and data["account"]["has_password"]
    assert len(data["sessions"]) == 2  # the two browsers she is signed in on
    (table,) = data["tables"]
    assert table["id"] == played and table["your_seats"] == [0] and table["opened_by_you"]
    assert table["record"]["players"][0] == "Rosa"  # the finished game, as its replay
    assert table["opened_from"]  # the keyed hash of her address, stored with her table
    # no secret of hers, nobody else's
    assert "$argon2" not in r.text and rosa.http.cookies["fido_session"] not in r.text
    assert berts not in r.text and "Bert" not in r.text
    assert browser(base).get("/api/account/data").status_code == 401  # nobody's


def test_deleting_my_account(base: str, store_url: str) -> None:
    rosa = Person.sign_up(base, "Rosa")
    elsewhere = browser(base)  # another browser of hers
    assert elsewhere.post("/api/session", json={"name": "Rosa", "password": PASSWORD}) \
        .status_code == 200
    played = finished_game(rosa)
    # a table not finished: she leaves it first (the others' game is not broken)
    waiting = rosa.open_table("fido set=6", 3)
    r = rosa.http.post("/api/account/deletion", json={"password": PASSWORD})
    assert r.status_code == 409 and r.json()["error"]["code"] == "seated", r.text
    assert rosa.leave(waiting["id"]).status_code in (200, 204)
    r = rosa.http.post("/api/account/deletion", json={"password": "not her password"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "wrong_password"
    assert rosa.http.get("/api/session").json()["kind"] == "account"  # nothing changed
    r = rosa.http.post("/api/account/deletion", json={"password": PASSWORD})
    assert r.status_code == 204, r.text
    # gone: both browsers signed out, the name signs in nowhere
    assert rosa.http.get("/api/session").json()["kind"] == "anonymous"
    assert elsewhere.get("/api/session").json()["kind"] == "anonymous"
    assert browser(base).post("/api/session", json={"name": "Rosa", "password": PASSWORD}) \
        .status_code == 401
    # the game stays for the others, without her name
    record = browser(base).get(f"/api/tables/{played}/record").json()
    assert record["players"][0] == ERASED_NAME
    store = open_store(store_url)
    try:
        with store.session(write=False) as s:
            assert s.scalar(select(Account).where(Account.name == "Rosa")) is None
            assert s.scalar(select(func.count()).select_from(WebSession).where(
                WebSession.account_id == rosa.id)) == 0
            assert s.scalar(select(func.count()).select_from(Notification).where(
                Notification.account_id == rosa.id)) == 0
            seat = s.get(SeatRow, (played, 0))
            assert seat is not None and seat.account_id is None
    finally:
        store.close()
    # the name is free again: a new account, with nothing of the old one (SQLite may
    # even give it the old id: nothing points at that id any more)
    again = Person.sign_up(base, "Rosa").http.get("/api/account/data").json()
    assert again["tables"] == [] and again["sessions"] and len(again["sessions"]) == 1


def test_a_guest_deletes_hers_without_a_password(base: str) -> None:
    guest = Person.guest(base)
    assert guest.http.post("/api/account/deletion", json={}).status_code == 204
    assert guest.http.get("/api/session").json()["kind"] == "anonymous"
