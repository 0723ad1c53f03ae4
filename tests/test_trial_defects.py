"""The defects a newcomer's trial found away from the table page (issue 25), each as a
person meets it, over HTTP against a live server (and the WebSocket where a table
shows it):

* a sheet entered from an event's table is dated the event's day of that round, not
  today;
* ``/sheets/new`` links an unlinked account in one click, as ``/sheets`` does, and no
  page shows a shell command;
* a seat reserved for someone is not offered to others ("reserved", no Join); she
  sees "for you" and "Take your seat", and her inbox tells her;
* the events page shows the event form only to who may organise; others ask the
  federation for the organiser's role on its page, which approves or refuses;
* the table form describes each bot level with what it is measured to do;
* a guest who signs up during a game is named by her new name at her table.
"""

from __future__ import annotations

import re

import httpx

from fido.accounts.roles import find_account, grant
from fido.store import open_store
from server_live import live_server, token_of
from test_events_api import event_people, open_event

SHELL = re.compile(r"fido (accounts|ranking|events) ")


def _value(html: str, name: str) -> str:
    """The value of the input named ``name`` in a page."""
    found = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', html)
    assert found is not None, f"no input {name}"
    return found.group(1)


def _federation(url: str, name: str) -> None:
    store = open_store(url)
    with store.session() as s:
        grant(s, find_account(s, name), "federation")
    store.close()


def test_a_sheet_of_an_events_table_is_dated_the_events_day(store_url: str) -> None:
    with live_server(store_url) as base:
        clients, _numbers = event_people(store_url, base, 4, "p")
        event_id = open_event(clients[0], clients[1:], {
            "name": "Spring cup", "starts_on": "2026-03-14", "ends_on": "2026-03-15",
            "set": 6, "table_size": 3, "rounds": 2, "mode": "tables"})
        assert clients[0].post(f"/api/events/{event_id}/rounds").status_code == 201
        table = clients[0].get(f"/api/events/{event_id}").json()["tables"][0]
        page = clients[0].get(f"/sheets/new?table={table['id']}")
        assert page.status_code == 200, page.text
        assert _value(page.text, "date") == "2026-03-14"  # round 1: the event's first day
        assert _value(page.text, "event") == "Spring cup, round 1, table 1"
        for c in clients:
            c.close()


def test_a_new_sheet_links_an_unlinked_account_in_one_click(store_url: str) -> None:
    from fido.ranking import register_player  # noqa: PLC0415

    store = open_store(store_url)
    with store.session() as s:
        number = register_player(s, "Ida Sommer").number
    store.close()
    with live_server(store_url) as base:
        ida = httpx.Client(base_url=base, timeout=20)
        ida.get("/api/session")
        r = ida.post("/api/accounts", json={"name": "ida", "password": "a long secret 1"},
                     headers={"X-CSRF-Token": token_of(ida)})
        assert r.status_code == 201, r.text
        page = ida.get("/sheets/new").text
        assert 'id="claim-form"' in page and "Link my account" in page
        assert not SHELL.search(page), "a shell command shown to a person"
        r = ida.post("/sheets/player", data={"csrf_token": token_of(ida), "number": str(number),
                                             "back": "new"})
        assert r.status_code == 303 and r.headers["location"] == "/sheets/new", r.text
        assert ida.get("/api/session").json()["account"]["player"] == number
        page = ida.get("/sheets/new").text
        assert 'id="claim-form"' not in page  # linked: nothing to ask any more
        # with a federation on the server she asks it, in one click too, from the form
        store = open_store(store_url)
        with store.session() as s:
            other = register_player(s, "Jo Winter").number
        store.close()
        jo = httpx.Client(base_url=base, timeout=20)
        jo.get("/api/session")
        assert jo.post("/api/accounts", json={"name": "jo", "password": "a long secret 1"},
                       headers={"X-CSRF-Token": token_of(jo)}).status_code == 201
        _federation(store_url, "ida")
        page = jo.get("/sheets/new").text
        assert "Ask the federation" in page and not SHELL.search(page)
        r = jo.post("/sheets/player", data={"csrf_token": token_of(jo), "number": str(other),
                                            "back": "new"})
        assert r.status_code == 303 and r.headers["location"] == "/sheets/new"
        assert "has not answered yet" in jo.get("/sheets/new").text
        # the federation's own page names no command either
        assert not SHELL.search(ida.get("/admin/roles").text)
        ida.close()
        jo.close()
