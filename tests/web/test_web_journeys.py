"""People's journeys through the pages away from the table, each as a person meets it,
over HTTP against a live server (and the WebSocket where a table shows it); each failed
before its fix (a newcomer's trial, issue 25):

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
from support.events import event_people, open_event
from support.server_client import PASSWORD, Person, TableSocket, connect_anonymous, first_legal
from support.server_live import live_server, token_of

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


def _item(page: str, table_id: str) -> str:
    """The lobby's list item of the table ``table_id``."""
    items = [x for x in page.split('<li class="table-item">')[1:] if f"/tables/{table_id}" in x]
    assert len(items) == 1, f"table {table_id} is listed {len(items)} times"
    return items[0].split("</li>\n</ul>")[0]


def test_a_seat_reserved_for_someone_is_hers_alone_and_she_is_told(store_url: str) -> None:
    with live_server(store_url) as base:
        anna, bea, cleo = (Person.sign_up(base, n) for n in ("anna", "bea", "cleo"))
        table = anna.open_table("fido set=6", 2, [{"kind": "me"},
                                                  {"kind": "reserved", "name": "Bea"}])
        tid = table["id"]
        # a third person: the seat is "reserved", no Join (it would refuse her)
        item = _item(cleo.http.get("/").text, tid)
        assert ">reserved<" in item and "Join" not in item and "Take your seat" not in item
        assert "every free seat is reserved" in item
        listed = {t["id"]: t for t in cleo.http.get("/api/tables").json()["tables"]}
        assert listed[tid]["joinable"] is False and listed[tid]["her_seat"] is None
        assert not any(s["for_you"] for s in listed[tid]["seats"])
        assert cleo.join(tid).status_code == 409
        # an anonymous visitor is not offered it either
        item = _item(httpx.get(base + "/").text, tid)
        assert "Join" not in item
        # she: "for you" and "Take your seat"
        item = _item(bea.http.get("/").text, tid)
        assert "reserved for you" in item and "Take your seat" in item
        listed = {t["id"]: t for t in bea.http.get("/api/tables").json()["tables"]}
        assert listed[tid]["joinable"] is True and listed[tid]["her_seat"] == 1
        # her inbox tells her, with the way to the table
        inbox = bea.http.get("/inbox").text
        assert "a seat is reserved for you at a table" in inbox and f'href="/tables/{tid}"' in inbox
        assert "a seat is reserved" not in cleo.http.get("/inbox").text
        assert "a seat is reserved" not in anna.http.get("/inbox").text
        # one click seats her and the game starts; her notice is read
        r = bea.http.post(f"/tables/{tid}/join", data={"csrf_token": token_of(bea.http)})
        assert r.status_code == 303 and r.headers["location"] == f"/tables/{tid}", r.text
        assert bea.table(tid)["status"] == "running"
        assert 'class="note-item unread"' not in bea.http.get("/inbox").text
        for p in (anna, bea, cleo):
            p.http.close()


def test_a_private_table_with_a_seat_for_her_is_listed_to_her(store_url: str) -> None:
    with live_server(store_url) as base:
        anna, bea, cleo = (Person.sign_up(base, n) for n in ("anna", "bea", "cleo"))
        table = anna.open_table("fido set=6", 3, [{"kind": "me"}, {"kind": "open"},
                                                  {"kind": "reserved", "name": "bea"}],
                                private=True)
        assert "Take your seat" in _item(bea.http.get("/").text, table["id"])
        assert f"/tables/{table['id']}" not in cleo.http.get("/").text  # private: not hers
        for p in (anna, bea, cleo):
            p.http.close()


def _form(client: httpx.Client, path: str, **fields: str) -> httpx.Response:
    return client.post(path, data={"csrf_token": token_of(client), **fields})


def test_the_events_form_is_for_organisers_and_others_ask_the_federation(
        store_url: str) -> None:
    with live_server(store_url) as base:
        ulla, fed, olga, pia = (Person.sign_up(base, n).http
                                for n in ("ulla", "fed", "olga", "pia"))
        event = {"name": "Club night", "starts_on": "2026-12-04", "ends_on": "2026-12-04",
                 "set": 6, "table_size": 3, "rounds": 1, "mode": "tables"}
        # no federation on the server: nobody to ask, the role comes at once
        page = ulla.get("/events").text
        assert 'id="organise-form"' in page and 'id="event-form"' not in page
        r = _form(ulla, "/events/organise", kind="club", scope="Warnemünde")
        assert r.status_code == 303, r.text
        assert 'id="event-form"' in ulla.get("/events").text
        assert ulla.post("/api/events", json=event).status_code == 201

        _federation(store_url, "fed")
        # an account without a role: no form, a way to ask; the API refuses in words
        page = olga.get("/events").text
        assert 'id="event-form"' not in page and 'id="organise-form"' in page
        assert not SHELL.search(page)
        r = olga.post("/api/events", json=event)
        assert r.status_code == 403 and r.json()["error"]["code"] == "organiser"
        assert not SHELL.search(r.json()["error"]["message"]), r.text
        assert _form(olga, "/events/organise", kind="club", scope="Rostock").status_code == 303
        assert "has not answered yet" in olga.get("/events").text
        assert olga.post("/api/events", json=event).status_code == 403  # not yet
        assert _form(pia, "/events/organise", kind="event",
                     scope="Baltic Open").status_code == 303
        # a bad scope is refused in words, and nothing is stored
        r = _form(pia, "/events/organise", kind="club", scope="  ")
        assert r.status_code == 422 and 'role="alert"' in r.text

        # the federation sees both on its page and answers
        page = fed.get("/admin/roles").text
        asking = page.split('id="organisers-asking"')[1].split("</table>")[0]
        assert "olga" in asking and "club:Rostock" in asking and "event:Baltic Open" in asking
        ids = re.findall(r'name="request" value="(\d+)"', asking)
        assert len(ids) == 2
        assert _form(olga, "/admin/roles", action="approve_organiser",
                     request=ids[0]).status_code == 403  # only the federation answers
        assert _form(fed, "/admin/roles", action="approve_organiser",
                     request=ids[0]).status_code == 303
        assert _form(fed, "/admin/roles", action="refuse_organiser",
                     request=ids[1]).status_code == 303
        assert _form(fed, "/admin/roles", action="refuse_organiser",
                     request=ids[1]).status_code == 422  # answered already

        # olga: told in her inbox, the form is hers, the API agrees
        assert "the federation answered your request to organise events" in \
            olga.get("/inbox").text
        assert 'id="event-form"' in olga.get("/events").text
        assert olga.post("/api/events", json=event).status_code == 201
        # pia: refused, told so, still no form
        page = pia.get("/events").text
        assert "refused your request to organise events as event:Baltic Open" in page
        assert 'id="event-form"' not in page
        assert pia.post("/api/events", json=event).status_code == 403
        for c in (ulla, fed, olga, pia):
            c.close()


def test_the_table_form_says_what_each_bot_level_is_measured_to_do(store_url: str) -> None:
    with live_server(store_url) as base:
        page = httpx.get(base + "/").text
        levels = page.split('id="bot-levels"')[1].split("</dl>")[0]
        for level in ("random", "greedy", "expert", "search"):
            assert f"<dt>{level}</dt>" in levels
        # the ladder's figures (bench/ladder.py, docs/performance.md)
        assert "71 points a hand better than random" in levels
        assert "33 points a hand better than greedy" in levels
        assert "3 to 8 points a hand better than expert" in levels
        # the champion's: the duels fixed in advance (bench/duel.py, issue 45), the
        # double-12 runs that disagree both told, and double-6's (the +0.48 it told
        # before did not repeat)
        assert "23 and 30 points a hand better than search on double-18 with 6 players " \
            "(two runs of 40 deals fixed in advance)" in levels
        assert "; 7 and 8 on double-12 with 4 (two runs of 100 deals);" in levels
        assert "not yet beyond doubt" not in levels  # 2,000 simulations' runs, before
        # double-6: the run at 24,000 simulations (the +0.11 at 8,000 said "about level")
        assert "on double-6 with 3 a third of a point (one run of 1,500 deals, " \
            "just above zero)" in levels
        assert "about level" not in levels
        assert "half a point" not in levels
        # in German too
        page = httpx.get(base + "/", headers={"Accept-Language": "de"}).text
        levels = page.split('id="bot-levels"')[1].split("</dl>")[0]
        assert "71 Punkte" in levels, levels
        assert "23 und 30 Punkte pro Spiel besser als „vorausschauend“ bei Doppel-18 mit " \
            "6 SpielerInnen (zwei Läufe mit je 40 vorab festgelegten Verteilungen)" \
            in levels, levels
        assert "bei Doppel-6 mit 3 SpielerInnen ein Drittel Punkt (ein Lauf mit 1.500 " \
            "Verteilungen, knapp über null)" in levels, levels
        assert "; 7 und 8 bei Doppel-12 mit 4 SpielerInnen (zwei Läufe mit je 100 " \
            "Verteilungen);" in levels, levels


def test_a_guest_who_signs_up_during_a_game_is_named_so_at_her_table(
        store_url: str) -> None:
    with live_server(store_url) as base:
        guest = Person.guest(base)
        old = guest.name
        table = guest.open_table("fido set=6", 2, [{"kind": "me"},
                                                   {"kind": "bot", "level": "random"}])
        tid = table["id"]
        assert guest.table(tid)["status"] == "running"
        watcher = connect_anonymous(base, tid)
        assert watcher.frames[-1]["table"]["seats"][0]["name"] == old
        r = guest.http.post("/api/accounts", json={"name": "Hanna", "password": PASSWORD})
        assert r.status_code == 201, r.text
        assert r.json()["account"]["id"] == guest.id  # the guest became the account
        # the table as the API shows it, and a new connection's welcome: her new name
        assert guest.table(tid)["seats"][0]["name"] == "Hanna"
        hanna = TableSocket.open(base, tid, cookie=guest.cookie(), label="Hanna")
        assert hanna.seat == 0 and hanna.frames[-1]["table"]["seats"][0]["name"] == "Hanna"
        # the view everyone gets with her next move names her too (the watcher's first
        # update can be the bot's move from before she signed up)
        if not hanna.my_turn():
            hanna.until(lambda f: hanna.my_turn())
        reply = hanna.move(first_legal(hanna.view or {}))
        assert reply["type"] == "ack"
        update = watcher.until(lambda f: f["type"] == "update" and f["seq"] >= reply["seq"])
        assert update["table"]["seats"][0]["name"] == "Hanna", update["table"]
        hanna.close()
        watcher.close()
        guest.http.close()
