"""An event in the real browser: an organiser creates a championship of 15 players in
groups of five over three rounds, a player registers by clicking, the organiser draws
the rounds, bots play for the absent players, and the standings on the page are the
sums of the finals the engine gives for the stored games, which are in the ranking.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import subprocess
import sys
from pathlib import Path

import httpx
from playwright.sync_api import Browser, expect
from sqlalchemy import select

from fido.events import Round, TableSeating, repeat_lower_bound, repeat_meetings
from fido.record import GameRecord
from fido.store import GameRow, TableRow, open_store
from support.events import event_people, open_event
from support.server_live import live_server
from support.web_browser import Person

NAME = "<i>Rostock</i> Cup"


def _as(browser: Browser, base: str, client: httpx.Client, **size: int) -> Person:
    """The person whose cookies ``client`` holds, in her own browser context."""
    person = Person(browser, base, **size)
    person.context.add_cookies([{"name": k, "value": v, "url": base}
                                for k, v in client.cookies.items()])
    return person


def test_an_event_from_creation_to_standings(browser: Browser, store_url: str) -> None:
    url = store_url
    with live_server(url) as base:
        clients, _numbers = event_people(url, base, 16, "player")
        org = _as(browser, base, clients[0])
        org.goto("/events")
        form = org.page.locator("#event-form")
        form.locator("input[name=name]").fill(NAME)
        form.locator("input[name=starts_on]").fill("2026-11-24")
        form.locator("input[name=ends_on]").fill("2026-11-23")  # before it starts: refused
        form.locator("select[name=set]").select_option("6")
        form.locator("select[name=table_size]").select_option("5")
        form.locator("input[name=rounds]").fill("3")
        form.locator("input[name=grace]").fill("0")
        form.locator("button[type=submit]").click()
        expect(org.page.locator(".error")).to_contain_text("cannot end before it starts")
        # what she typed is still there; nothing was created
        expect(org.page.locator("input[name=name]")).to_have_value(NAME)
        assert clients[0].get("/api/events").json()["events"] == []
        org.errors.clear()  # the browser logs the refused form's 422
        org.page.locator("input[name=ends_on]").fill("2026-11-30")
        org.page.locator("#event-form button[type=submit]").click()
        org.page.wait_for_url(re.compile(r".*/events/\d+$"))
        event_id = int(org.page.url.rsplit("/", 1)[1])
        expect(org.page.locator("h1")).to_have_text(NAME)  # markup shown as text

        # one player registers by clicking, the others through the API
        anna = _as(browser, base, clients[1], width=390, height=844)
        anna.goto(f"/events/{event_id}")
        anna.page.get_by_role("button", name="Register").click()
        expect(anna.page.get_by_role("button", name="Withdraw")).to_be_visible()
        expect(anna.page.locator(".entries")).to_contain_text("player1")
        for c in clients[2:]:
            assert c.post(f"/api/events/{event_id}/entries", json={}).status_code == 201
        # a player sees no organiser's button
        anna.goto(f"/events/{event_id}")
        expect(anna.page.get_by_role("button", name=re.compile("Draw round"))).to_have_count(0)

        drawn: list[Round] = []
        for rnd in (1, 2, 3):
            org.goto(f"/events/{event_id}")
            button = org.page.get_by_role("button", name=f"Draw round {rnd}")
            expect(button).to_be_enabled()
            button.click()
            org.page.wait_for_url(re.compile(rf".*/events/{event_id}$"))
            tables = org.page.locator(".event-tables").nth(rnd - 1).locator("> li")
            expect(tables).to_have_count(3)
            groups = []
            for i in range(3):
                names = tables.nth(i).locator(".finals li").all_inner_texts()
                groups.append(tuple(int(n.split()[0].removeprefix("player")) for n in names))
                assert len(groups[-1]) == 5
            drawn.append(Round(rnd, tuple(TableSeating(i + 1, g) for i, g in enumerate(groups))))
            # the bots play for everyone (nobody is connected): wait for the round's end
            for _ in range(600):
                if clients[0].get(f"/api/events/{event_id}").json()["round_over"]:
                    break
                org.page.wait_for_timeout(200)
        # everyone once a round; as few repeat meetings as there can be (12, docs/events.md)
        assert all(sorted(r.players()) == list(range(1, 16)) for r in drawn)
        assert repeat_meetings(drawn) == repeat_lower_bound(15, 5, 3)
        org.goto(f"/events/{event_id}")
        expect(org.page.get_by_role("button", name=re.compile("Draw round"))).to_have_count(0)

        # the standings on the page: the sums of the engine's finals of the stored games
        event = clients[0].get(f"/api/events/{event_id}").json()
        store = open_store(url)
        with store.session() as s:
            totals: dict[str, int] = {}
            for t in event["tables"]:
                row = s.get(TableRow, t["table"])
                assert row is not None and row.record is not None
                outcome = GameRecord.from_json(row.record).replay().outcome
                assert outcome is not None
                for seat, res in zip(t["seats"], outcome.seats, strict=True):
                    totals[seat["name"]] = totals.get(seat["name"], 0) + res.final
            ranked = s.scalars(select(GameRow).where(GameRow.source == "online")).all()
            assert len(ranked) == 9
            assert all(g.event.startswith(f"{NAME}, round ") for g in ranked)
        store.close()
        rows = org.page.locator(".standings tbody tr")
        expect(rows).to_have_count(15)
        shown = {}
        for r in rows.all():
            cells = r.locator("td").all_inner_texts()
            shown[cells[1].split()[0]] = int(cells[4].replace("−", "-"))
        assert shown == totals
        assert list(shown.values()) == sorted(totals.values(), reverse=True)
        assert not org.errors and not anna.errors

        # a month later the month closes (as cron would run it) and its ranking page
        # shows the event's players with the games the event gave them
        today = dt.datetime.now(dt.UTC).date()
        later = (today.replace(day=1) + dt.timedelta(days=45)).replace(day=15)
        closed = subprocess.run(
            [str(Path(sys.executable).with_name("fido")), "ranking", "close", "--db", url],
            env=os.environ | {"FIDO_NOW": f"{later.isoformat()}T12:00:00+00:00"},
            capture_output=True, text=True, timeout=120, check=False)
        assert closed.returncode == 0, closed.stderr
        month = today.strftime("%Y-%m")
        assert f"published {month}" in closed.stdout + closed.stderr
        org.goto(f"/ranking/{month}")
        month_rows = org.page.locator("table.ranking-table tbody tr")
        expect(month_rows).to_have_count(15)
        shown_names = " ".join(month_rows.all_inner_texts())
        for i in range(1, 16):
            assert f"Player {i}" in shown_names
        assert "Player 0 " not in shown_names + " "  # the organiser did not play
        org.close()
        anna.close()


def test_an_event_at_real_tables_takes_its_results_from_score_sheets(
        browser: Browser, store_url: str) -> None:
    url = store_url
    with live_server(url) as base:
        clients, numbers = event_people(url, base, 7, "player")
        event_id = open_event(clients[0], clients[1:], {
            "name": "Club night", "starts_on": "2026-11-24", "ends_on": "2026-11-24",
            "set": 6, "table_size": 3, "rounds": 1, "mode": "tables"})
        assert clients[0].post(f"/api/events/{event_id}/rounds").status_code == 201
        event = clients[0].get(f"/api/events/{event_id}").json()
        tables = event["tables"]
        assert [len(t["seats"]) for t in tables] == [3, 3] and not event["round_over"]
        first = tables[0]
        seated = [int(x["name"].removeprefix("player")) for x in first["seats"]]
        stranger = next(i for i in range(1, 7) if i not in seated)

        # someone of another table cannot enter this table's sheet: no link, and the
        # form refuses it
        other = _as(browser, base, clients[stranger])
        other.goto(f"/events/{event_id}")
        rows = other.page.locator(".event-tables > li")
        expect(rows.nth(0).locator(".enter-sheet")).to_have_count(0)
        other.goto(f"/sheets/new?table={first['id']}")
        for i in range(3):
            other.page.fill(f"input[name=points{i}]", "10")
            other.page.fill(f"input[name=pips{i}]", "2")
        other.page.locator("#sheet-form button[type=submit]").last.click()
        expect(other.page.locator(".error")).to_contain_text("entered by one of its players")
        other.close()

        # one of its players enters it: the form comes filled in from the draw
        her = _as(browser, base, clients[seated[0]])
        her.goto(f"/events/{event_id}")
        her.page.locator(".event-tables > li").nth(0).locator(".enter-sheet").click()
        expect(her.page.locator("input[name=event]")).to_have_value("Club night, round 1, table 1")
        for i, who in enumerate(seated):
            expect(her.page.locator(f"input[name=player{i}]")).to_have_value(str(numbers[who]))
        points, pips = [31, 12, 5], [0, 7, 15]
        for i in range(3):
            her.page.fill(f"input[name=points{i}]", str(points[i]))
            her.page.fill(f"input[name=pips{i}]", str(pips[i]))
        her.page.locator("#sheet-form button[type=submit]").last.click()
        her.page.wait_for_url(re.compile(r".*/sheets/\d+\?sent=1$"))
        event = clients[0].get(f"/api/events/{event_id}").json()
        done = event["tables"][0]
        assert done["done"] and [x["final"] for x in done["seats"]] == [31, 5, -10]
        assert not event["round_over"]  # the second table's sheet is still to come
        # a second sheet for the same table is refused
        her.goto(f"/sheets/new?table={first['id']}")
        expect(her.page.locator("[role=alert]")).to_contain_text("entered already")
        her.close()

        # the organiser enters the other table's
        org = _as(browser, base, clients[0])
        org.goto(f"/events/{event_id}")
        org.page.locator(".event-tables > li").nth(1).locator(".enter-sheet").click()
        for i in range(3):
            org.page.fill(f"input[name=points{i}]", str(10 * i))
            org.page.fill(f"input[name=pips{i}]", "3")
        org.page.locator("#sheet-form button[type=submit]").last.click()
        org.page.wait_for_url(re.compile(r".*/sheets/\d+\?sent=1$"))
        event = clients[0].get(f"/api/events/{event_id}").json()
        assert event["round_over"] and event["status"] == "finished"
        org.goto(f"/events/{event_id}")
        totals = {x["name"]: x["total"] for x in event["standings"]}
        assert totals[f"player{seated[0]}"] == 31
        assert sorted(totals.values(), reverse=True) == [x["total"] for x in event["standings"]]
        expect(org.page.locator(".standings tbody tr").first).to_contain_text(
            f"player{seated[0]}")
        org.close()


def test_players_leave_an_event_and_the_organiser_brings_one_back(
        browser: Browser, store_url: str) -> None:
    url = store_url
    with live_server(url) as base:
        clients, _numbers = event_people(url, base, 7, "player")
        event_id = open_event(clients[0], clients[1:], {
            "name": "Two nights", "starts_on": "2026-11-24", "ends_on": "2026-11-25",
            "set": 6, "table_size": 3, "rounds": 2, "mode": "tables"})
        assert clients[0].post(f"/api/events/{event_id}/rounds").status_code == 201

        # a player leaves by herself: her button, then her name marked
        her = _as(browser, base, clients[1])
        her.goto(f"/events/{event_id}")
        her.page.get_by_role("button", name="Leave the event").click()
        entry = her.page.locator(".entries li", has_text="player1")
        expect(entry.locator(".retired")).to_have_text("left after round 1")
        expect(her.page.get_by_role("button", name="Leave the event")).to_have_count(0)
        expect(her.page.get_by_role("button", name="Take off player2")).to_have_count(0)
        her.close()

        # the organiser takes player6 off, then brings player1 back
        org = _as(browser, base, clients[0])
        org.goto(f"/events/{event_id}")
        org.page.get_by_role("button", name="take player6 off the next rounds").click()
        expect(org.page.locator(".entries li", has_text="player6").locator(".retired")
               ).to_have_text("left after round 1")
        org.page.get_by_role("button", name="bring player1 back").click()
        expect(org.page.locator(".entries li", has_text="player1").locator(".retired")
               ).to_have_count(0)
        if shots := os.environ.get("FIDO_EVENT_SHOTS"):
            org.page.screenshot(path=f"{shots}/event-left.png", full_page=True)
        players = clients[0].get(f"/api/events/{event_id}").json()["players"]
        assert {p["name"]: p["retired_after"] for p in players} == {
            f"player{i}": (1 if i == 6 else None) for i in range(1, 7)}
        # the organiser calls the event off: a notice, and nothing more to draw or take off
        org.page.locator(".cancel-event summary").click()
        org.page.get_by_role("button", name="Cancel Two nights").click()
        expect(org.page.locator("#cancelled")).to_contain_text("This event was cancelled")
        expect(org.page.get_by_role("button", name="Draw round 2")).to_have_count(0)
        expect(org.page.locator(".entries button")).to_have_count(0)
        if shots := os.environ.get("FIDO_EVENT_SHOTS"):
            org.page.screenshot(path=f"{shots}/event-cancelled.png", full_page=True)
        org.goto("/events")
        expect(org.page.locator("tr", has_text="Two nights")).to_contain_text("cancelled")
        org.close()
