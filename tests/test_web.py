"""The web app in a real browser: Debian's chromium driven by Playwright, against a real
server (uvicorn in a thread, bots moving at once), end to end.

Two people sign up in two browser contexts; one opens a FIDO double-9 table
with two bots, the other joins; both play the whole game by clicking; the
result shown is the one the engine's replay of the stored record gives. A
reload keeps the seat and the hand, a dropped socket reconnects with its
last sequence number, and a spectator never receives a tile of any hand.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, WebSocket

from fido.record import GameRecord
from fido.sorting import ratzek_rows
from fido.tiles import Tile
from server_live import live_server
from web_browser import Person, browser_session, play_until, tiles_in


@pytest.fixture(scope="module")
def browser(request: pytest.FixtureRequest) -> Iterator[Browser]:
    yield from browser_session(request)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("web") / "web.db"
    with live_server(f"sqlite:///{db}") as base:
        yield base


def test_the_hand_is_sorted_as_fido_sorting_sorts_it(browser: Browser, server: str) -> None:
    """static/js/ratzek.js is a port of fido.sorting.ratzek_rows: same rows, same order."""
    rng = random.Random(14)
    cases: list[dict[str, Any]] = []
    for _ in range(300):
        n = rng.choice([6, 9, 12, 15, 18, 21])
        d = rng.randint(2, 13)
        tiles = [Tile(a, b) for a in range(n + 1) for b in range(a + 1)]
        hand = rng.sample(tiles, rng.randint(0, 25))
        cases.append({"hand": [t.text() for t in hand], "d": d})
    person = Person(browser, server)
    person.goto("/")
    got = person.page.evaluate("""async (cases) => {
        const m = await import("/static/js/ratzek.js");
        return cases.map(c => m.ratzekRows(c.hand, c.d).map(r => ({
            classes: r.classes, tiles: r.tiles.map(t => [t.left, t.right]) })));
    }""", cases)
    person.close()
    for case, rows in zip(cases, got, strict=True):
        want = ratzek_rows([Tile.from_text(t) for t in case["hand"]], case["d"])
        assert [r["classes"] for r in rows] == [list(r.classes) for r in want], case
        assert [[tuple(t) for t in r["tiles"]] for r in rows] == [
            list(r.left + r.right) for r in want], case


def _frames(person: Person) -> list[str]:
    frames: list[str] = []

    def on_socket(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: frames.append(
            payload if isinstance(payload, str) else payload.decode()))

    person.page.on("websocket", on_socket)
    return frames


def _socket_urls(person: Person) -> list[str]:
    urls: list[str] = []
    person.page.on("websocket", lambda ws: urls.append(ws.url))
    return urls


def _spectator_sees_no_hand(spectator: Person, players: list[Person]) -> None:
    """The spectator's page shows tiles on the table only: none of any hand."""
    text = spectator.page.locator("body").inner_text()
    placed = set(spectator.state()["table"])
    placed_tiles = tiles_in(" ".join(placed))
    shown = tiles_in(text)
    assert shown <= placed_tiles, f"the spectator's page shows {shown - placed_tiles}"
    for p in players:
        hand = set(p.hand())
        assert not (hand & shown), f"the spectator's page shows {hand & shown} of a hand"
    assert spectator.page.locator("#hand .tile").count() == 0


def _check_spectator_frames(frames: list[str]) -> int:
    """Every frame the spectator received holds no tile but those on the table."""
    seen_views = 0
    for raw in frames:
        msg = json.loads(raw)
        view = msg.get("view")
        placed: set[str] = set()
        if view is not None:
            seen_views += 1
            assert view["hand"] == [] and view["legal"] == [], "a spectator got a hand"
            placed = tiles_in(" ".join(view["table"]))
        assert "drawn" not in raw, "a spectator saw a drawn tile"
        extra = tiles_in(raw) - placed
        assert not extra, f"a {msg.get('type')} frame shows {extra}, not on the table"
    return seen_views


def test_two_people_and_two_bots_play_a_whole_game(browser: Browser, server: str) -> None:
    anna = Person(browser, server, seed=1)
    bea = Person(browser, server, width=390, height=844, seed=2)  # on a phone
    watcher = Person(browser, server, seed=3)
    try:
        anna.sign_up("Anna")
        bea.sign_up("<i>Bea</i>")  # markup in a name is text
        table = anna.create_table("fido", 9, ("me", "open", "bot:expert", "bot:greedy"))
        anna.page.wait_for_function("() => window.fidoTable && window.fidoTable.table")
        assert "Waiting for 1 more player." in anna.page.locator("#waiting").inner_text()

        watch_frames = _frames(watcher)
        watcher.goto(f"/tables/{table}")
        watcher.page.wait_for_function("() => window.fidoTable && window.fidoTable.table")

        bea.goto("/")
        item = bea.page.locator(".table-item", has=bea.page.locator(f"a[href='/tables/{table}']"))
        item.locator("button", has_text="Join").click()
        bea.page.wait_for_url(f"{server}/tables/{table}")
        bea_urls = _socket_urls(bea)
        for p in (anna, bea, watcher):
            p.page.wait_for_function("() => window.fidoTable.view", timeout=15_000)
        assert anna.state()["seat"] == 0 and bea.state()["seat"] == 1
        assert bea.page.locator(".seat.mine").inner_text().startswith("2")
        # the name with markup shows as text, everywhere
        assert "<i>Bea</i>" in anna.page.locator("#seats").inner_text()
        assert anna.page.locator("#seats i").count() == 0

        # chat: inserted as text, never HTML
        anna.page.fill("#chat-text", "<img src=x onerror=alert(1)> hello")
        anna.page.click("#chat-form button")
        bea.page.wait_for_function(
            "() => document.querySelector('#chat-lines').textContent.includes('hello')")
        assert bea.page.locator("#chat-lines img").count() == 0
        assert "<img src=x onerror=alert(1)> hello" in bea.page.locator("#chat-lines").inner_text()

        moves = {"anna": 0, "bea": 0}
        checks = {"reload": False, "drop": False}

        def on_move(person: Person, _move: str) -> None:
            who = "anna" if person is anna else "bea"
            moves[who] += 1
            if who == "anna" and moves["anna"] == 3 and not checks["reload"]:
                checks["reload"] = True
                seat, hand = anna.state()["seat"], anna.hand()
                anna.page.reload()
                anna.page.wait_for_function("() => window.fidoTable && window.fidoTable.view")
                assert anna.state()["seat"] == seat
                assert anna.hand() == hand, "a reload changed the hand"
                assert anna.page.locator(".seat.mine .seatno").inner_text() == "1"
            if who == "bea" and moves["bea"] == 3 and not checks["drop"]:
                checks["drop"] = True
                seq = bea.page.evaluate(
                    "() => { const s = window.fidoTable; s.socket.close(); return s.seq; }")
                bea.page.wait_for_function(
                    "() => window.fidoTable.socket && window.fidoTable.socket.readyState === 1")
                again = re.search(r"\?seq=(\d+)$", bea_urls[-1])
                assert len(bea_urls) >= 2 and again, bea_urls
                assert int(again.group(1)) >= seq > 0  # the last number seen (a bot may move)
            if (moves["anna"] + moves["bea"]) % 5 == 0:
                _spectator_sees_no_hand(watcher, [anna, bea])

        play_until([anna, bea], lambda: anna.state()["over"] and bea.state()["over"],
                   on_move=on_move)
        assert checks == {"reload": True, "drop": True}
        assert moves["anna"] > 3 and moves["bea"] > 3

        # the result, as the engine's replay of the stored record gives it
        record = anna.context.request.get(f"{server}/api/tables/{table}/record")
        assert record.ok
        replayed = GameRecord.from_json(record.text()).replay()
        assert replayed.outcome is not None
        finals = {r.seat: r.final for r in replayed.outcome.seats}
        places = {r.seat: r.place for r in replayed.outcome.seats}
        for person in (anna, bea, watcher):
            page = person.page
            page.wait_for_selector("#result:not([hidden])")
            rows = page.locator("#result-rows tr")
            shown = {int(r.get_attribute("data-seat") or -1): int(r.get_attribute("data-final")
                     or 0) for r in rows.all()}
            assert shown == finals
            first = rows.first.locator("td").first.inner_text()
            assert int(first) == min(places.values())
        link = anna.page.locator("#record-link a[download]")
        anna.page.wait_for_selector("#record-link:not([hidden])")
        assert link.get_attribute("href") == f"/api/tables/{table}/record"

        # the spectator: no hand on her page, none in any frame she received
        _spectator_sees_no_hand(watcher, [])
        assert _check_spectator_frames(watch_frames) > 10
        for p in (anna, bea, watcher):
            assert not [e for e in p.errors if "favicon" not in e], p.errors

        # the finished game is listed, with her final on her profile
        anna.goto("/games")
        assert anna.page.locator(f"a[href='/tables/{table}']").count() == 1
        bea.goto("/games")
        bea.page.locator("a", has_text="Anna").first.click()
        assert re.search(r"/players/\d+$", bea.page.url)
        row = bea.page.locator("tr", has=bea.page.locator(f"a[href='/tables/{table}']"))
        assert row.locator("td").nth(3).inner_text() == str(finals[0])
    finally:
        for p in (anna, bea, watcher):
            p.close()


def test_keyboard_alone_plays(browser: Browser, server: str) -> None:
    """Tab to a tile, Enter, Enter on a target; draw and pass by keyboard too."""
    solo = Person(browser, server, seed=4)
    try:
        solo.goto("/")
        solo.page.locator("form.quick button").focus()
        solo.page.keyboard.press("Enter")  # play now: a guest with three bots
        solo.page.wait_for_function("() => window.fidoTable && window.fidoTable.view")
        made = 0
        while made < 6 and not solo.state()["over"]:
            solo.page.wait_for_function(
                "() => { const s = window.fidoTable; return s.view && !s.pending && "
                "(s.view.outcome || s.view.turn === s.seat); }", timeout=15_000)
            if solo.state()["over"]:
                break
            before = solo.state()["log"]
            focused = solo.page.evaluate(
                "() => document.activeElement && (document.activeElement.dataset.tile "
                "|| document.activeElement.id)")
            assert focused, "the keyboard focus is not in the hand on her turn"
            solo.page.keyboard.press("Enter")
            if solo.page.locator("#targets button").count():
                label = solo.page.evaluate(
                    "() => document.activeElement.getAttribute('aria-label')")
                assert label and label.startswith("Play "), label
                solo.page.keyboard.press("Enter")
            solo.page.wait_for_function(f"() => window.fidoTable.log.length > {before}")
            made += 1
        assert made >= 1
        announce = solo.page.locator("#announce").inner_text()
        assert re.search(r"Sum \d+, divisor 5", announce), announce
    finally:
        solo.close()


def test_table_page_labels_for_screen_readers(browser: Browser, server: str) -> None:
    solo = Person(browser, server, seed=5)
    try:
        solo.sign_up("Cleo")
        solo.create_table("fido", 6, ("me", "bot:greedy", "bot:greedy"))
        page = solo.page
        page.wait_for_function("() => window.fidoTable.view")
        play_until([solo], lambda: bool(page.locator("#hand .tile.playable").count())
                   or solo.state()["over"], timeout=60)
        if solo.state()["over"]:
            pytest.skip("the game ended before she could place a tile")
        tile = page.locator("#hand .tile.playable").first
        assert re.match(r"\d+-\d+.*class \d+, playable", tile.get_attribute("aria-label") or "")
        tile.click()
        target = page.locator("#board .target").first
        assert re.match(r"Play \d+-\d+ (on \d+[nesw]|to open the table): scores",
                        target.get_attribute("aria-label") or "")
        assert target.get_attribute("role") == "button"
        assert page.locator("#announce").get_attribute("aria-live") == "polite"
        assert page.locator("#seats .seat").first.get_attribute("aria-label")
    finally:
        solo.close()


def _repo() -> Path:
    return Path(__file__).resolve().parent.parent


def test_no_build_step_and_no_cdn() -> None:
    """Plain ES modules and a vendored, pinned htmx: every script comes from this site."""
    web = _repo() / "src" / "fido" / "web"
    for page in (web / "templates").glob("*.html"):
        text = page.read_text()
        assert not re.search(r"(src|href)=\"(https?:)?//", text), page
    assert (web / "static" / "htmx-2.0.11.min.js").exists()


def test_the_clock_counts_down_on_the_seat_to_move(browser: Browser, server: str) -> None:
    solo = Person(browser, server, seed=6)
    try:
        solo.sign_up("Ida")
        solo.goto("/")
        form = solo.page.locator("#create-form")
        form.locator("select[name=set]").select_option("6")
        form.locator("select[name=players]").select_option("3")
        form.locator("select[name=seat1]").select_option("bot:greedy")
        form.locator("select[name=seat2]").select_option("bot:greedy")
        form.locator("select[name=clock]").select_option("60")
        form.locator("button[type=submit]").click()
        page = solo.page
        page.wait_for_function("() => window.fidoTable && window.fidoTable.view")
        play_until([solo], lambda: solo.my_turn() or solo.state()["over"], timeout=30)
        if solo.state()["over"]:
            pytest.skip("the game ended before her turn")
        clock = page.locator(".seat.mine .clock")
        clock.wait_for()
        page.wait_for_function("() => /^[01]:[0-5][0-9]$/.test("
                               "document.querySelector('.seat.mine .clock').textContent)")
        minutes, seconds = clock.inner_text().split(":")
        assert 45 <= int(minutes) * 60 + int(seconds) <= 60
        assert "60 s a move" in page.locator(".seats-box .title").inner_text()
    finally:
        solo.close()


def test_the_lobby_lists_new_tables_by_itself(browser: Browser, server: str) -> None:
    """htmx refreshes the lists every few seconds: no reload needed to see a new table."""
    looker = Person(browser, server, seed=12)
    host = Person(browser, server, seed=13)
    try:
        looker.goto("/")
        host.sign_up("Jo")
        table = host.create_table("fido", 12, ("me", "open", "open"))
        looker.page.wait_for_selector(f"#table-lists a[href='/tables/{table}']", timeout=12_000)
        assert not [e for e in looker.errors if "favicon" not in e], looker.errors
    finally:
        looker.close()
        host.close()
