"""Play with people in a real browser (chromium): two people who press "Play with people"
for FIDO double-9 in separate browsers are seated at one table, each in her own seat; a
third, alone, is seated with bots after her wait; leaving the queue brings the form back.

``FIDO_SHOTS=DIR`` also saves the waiting lobby at phone and desktop size there.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import httpx
from playwright.sync_api import Browser, expect
from playwright.sync_api import Error as PlaywrightError

from support.web_browser import Person

TABLE = re.compile(r".*/tables/([A-Za-z0-9_-]+)$")
SHOTS = os.environ.get("FIDO_SHOTS")  # screenshots of the queue into this folder


def queue_up(person: Person, game: str = "fido:9", players: str = "2",
             bots_after: str = "never", *, open_lobby: bool = True, clock: str = "live") -> None:
    """She opens the lobby and presses "Play with people" (an anonymous visitor: a guest)."""
    if open_lobby:
        person.goto("/")
    form = person.page.locator("#queue-form")
    form.locator("select[name=qgame]").select_option(game)
    form.locator("select[name=qplayers]").select_option(players)
    form.locator("select[name=bots_after]").select_option(bots_after)
    form.locator("select[name=qclock]").select_option(clock)
    form.locator("button[type=submit]").click()


def to_a_table(person: Person, url: str | re.Pattern[str] = TABLE) -> None:
    """She is sent to a table within 20 s; if not, what her page and the queue say (a
    fresh-clone run once found Bert not sent, and the reason was not on record)."""
    try:
        person.page.wait_for_url(url, timeout=20_000)
    except PlaywrightError as e:
        state = person.context.request.get(f"{person.base}/api/queue")
        raise AssertionError(
            f"not at a table: {person.page.url}; page: "
            f"{person.page.locator('main').inner_text()[:600]!r}; "
            f"GET /api/queue {state.status}: {state.text()[:600]}; "
            f"browser errors: {person.errors}") from e


def seat_of(person: Person) -> int:
    person.page.wait_for_function("() => window.fidoTable && window.fidoTable.view")
    seat: int = person.page.evaluate("() => window.fidoTable.seat")
    return seat


def test_two_people_are_seated_at_one_table_and_a_third_with_bots(
        browser: Browser, server: str) -> None:
    anna, bert, cleo = (Person(browser, server, seed=i) for i in range(3))
    try:
        queue_up(anna)
        page = anna.page
        page.wait_for_url(server + "/#play-people")
        waiting = page.locator(".queue-waiting")
        waiting.wait_for()
        assert "FIDO double-9" in waiting.inner_text()
        assert "a table of 2" in waiting.inner_text()
        # her page polls: the counts come from the server (she is the one waiting)
        page.wait_for_function(
            "() => document.querySelector('#queue-games').textContent.includes('1 waiting')")
        if SHOTS:
            shots(anna, Path(SHOTS))

        queue_up(bert)  # his request forms the table: he goes there at once
        to_a_table(bert)
        table = TABLE.fullmatch(bert.page.url)
        assert table is not None
        # her waiting page finds her seated and goes to the same table
        to_a_table(anna, server + f"/tables/{table[1]}")
        assert {seat_of(anna), seat_of(bert)} == {0, 1}
        info = httpx.get(f"{server}/api/tables/{table[1]}").json()
        assert info["status"] == "running" and info["ruleset"] == "fido set=9"
        assert [s["kind"] for s in info["seats"]] == ["person", "person"]
        assert len({s["account"] for s in info["seats"]}) == 2

        # Cleo waits alone for any size, bots after her wait: the form offers 30, 60 and
        # 120 s; the test asks the API's shortest, 1 s, through the same form
        cleo.goto("/")
        cleo.page.locator("#bots-after").evaluate("s => s.add(new Option('1 s', '1'))")
        queue_up(cleo, players="any", bots_after="1", open_lobby=False)
        to_a_table(cleo)
        her = TABLE.fullmatch(cleo.page.url)
        assert her is not None and her[1] != table[1]
        assert seat_of(cleo) == 0
        info = httpx.get(f"{server}/api/tables/{her[1]}").json()
        assert [s["kind"] for s in info["seats"]] == ["person", "bot", "bot", "bot"]
        assert info["ruleset"] == "fido set=9"
        for person in (anna, bert, cleo):
            assert not person.errors, person.errors
    finally:
        for person in (anna, bert, cleo):
            person.close()


def test_leaving_the_queue_brings_the_form_back(browser: Browser, server: str) -> None:
    dora = Person(browser, server)
    try:
        # a newcomer alone is not left waiting without end: bots fill after a minute
        # unless she chooses otherwise
        dora.page.goto(f"{server}/")
        assert dora.page.locator("#bots-after").input_value() == "60"
        queue_up(dora, game="muggins", players="any")
        dora.page.locator(".queue-waiting").wait_for()
        assert "Muggins" in dora.page.locator(".queue-waiting").inner_text()
        assert "Keep this page open" in dora.page.locator(".queue-waiting").inner_text()
        # alone for her game: no estimate yet, and a friendly bot game offered meanwhile
        expect(dora.page.locator("#queue-estimate")).to_have_text(
            "Nobody near your strength waits for this game yet.")
        expect(dora.page.locator("form.while-waiting button")).to_be_visible()
        dora.page.get_by_role("button", name="Leave the queue").click()
        dora.page.locator("#queue-form").wait_for()
        if SHOTS:
            shots(dora, Path(SHOTS), "form")
        # a turn-based game: she may close the page; the counts name the time per move
        queue_up(dora, game="muggins", players="any", clock="86400", open_lobby=False)
        waiting = dora.page.locator(".queue-waiting")
        waiting.wait_for()
        assert "A turn-based game: you may close this page." in waiting.inner_text()
        assert dora.context.request.get(f"{server}/api/queue").json()["entry"]["clock"] == 86400
        expect(dora.page.locator("#queue-games")).to_contain_text(
            "Muggins (All Fives), 1 day a move: 1 waiting")
        dora.page.get_by_role("button", name="Leave the queue").click()
        dora.page.locator("#queue-form").wait_for()
        state = dora.context.request.get(f"{server}/api/queue").json()
        assert state["entry"] is None
        assert not any(g["ruleset"] == "muggins" for g in state["games"])
        assert not dora.errors, dora.errors
    finally:
        dora.close()


def shots(person: Person, folder: Path, what: str = "waiting") -> None:
    """The lobby's queue (waiting, or its form) at phone and desktop size."""
    folder.mkdir(parents=True, exist_ok=True)
    page = person.page
    for name, (w, h) in {"phone": (390, 844), "desktop": (1440, 900)}.items():
        page.set_viewport_size({"width": w, "height": h})
        page.locator("#play-people").scroll_into_view_if_needed()
        page.screenshot(path=str(folder / f"queue-{what}-{name}.png"))
    page.set_viewport_size({"width": 1280, "height": 900})
