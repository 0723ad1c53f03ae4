"""The table page's helpers in a real browser: hints on request (the button and the key
h), dragging a tile onto its place (pointer events, Playwright's drag), and the Rostock
knock and Basel wipe as they happen, with the sound switch kept in localStorage.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from fido.announcements import Knocked, Wiped, events_of
from fido.record import GameRecord
from support.tables import finish_game, guest_table
from support.web_browser import Person, play_until


def _wait_my_turn(person: Person) -> bool:
    """Wait for her turn (False: the game ended first)."""
    person.page.wait_for_function(
        "() => { const s = window.fidoTable; return s.view && !s.pending && s.socket "
        "&& s.socket.readyState === 1 && (s.view.outcome || s.view.turn === s.seat); }",
        timeout=15_000)
    return not person.state()["over"]


def _scoring(person: Person) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = person.page.evaluate(
        "() => window.fidoTable.view.legal.filter(m => m.tile && m.points > 0)")
    return sorted(moves, key=lambda m: (-m["points"], m["move"]))


def test_a_hint_shows_the_moves_that_score_now_best_first(browser: Browser, server: str) -> None:
    solo = Person(browser, server, seed=31)
    try:
        seen = {"some": 0, "none": 0}
        for _game in range(4):
            if seen["some"]:
                break
            solo.goto("/")
            solo.page.click("form.quick button")  # a guest and three bots, FIDO double-9
            page = solo.page
            page.wait_for_function("() => window.fidoTable && window.fidoTable.view")
            turns = 0  # the deal is the server's secret: a game may offer her no scoring move
            while _wait_my_turn(solo) and turns < 40 and not (seen["some"] and seen["none"]):
                turns += 1
                want = _scoring(solo)
                if turns % 2:
                    page.locator("#hint").click()
                else:
                    page.locator("body").click(position={"x": 3, "y": 3})
                    page.keyboard.press("h")
                page.wait_for_selector("#hint-box:not([hidden])")
                text = page.locator("#hint-text").inner_text()
                listed = page.locator("#hint-list button").evaluate_all(
                    "els => els.map(e => e.dataset.move)")
                assert listed == [m["move"] for m in want]
                if want:
                    seen["some"] += 1
                    pattern = r"(One move scores|\d+ moves score) now, best first"
                    assert re.match(pattern, text), text
                    best = page.locator("#hint-list li").first.inner_text()
                    assert f"+{want[0]['points']}" in best, best
                    hinted = set(page.locator("#hand .tile.hinted").evaluate_all(
                        "els => els.map(e => e.dataset.tile)"))
                    assert hinted == {m["tile"] for m in want}
                    # on the board: the best scoring move of each place it names
                    slots = set(page.locator("#board .target").evaluate_all(
                        "els => els.map(e => e.dataset.slot)"))
                    assert slots == {m["slot"] or "open" for m in want}
                    # a hint picks its tile: the tile's targets show, the hinted one focused
                    page.locator("#hint-list button").first.click()
                    assert solo.state()["pending"] is False
                    focused = page.evaluate("() => document.activeElement.dataset.move")
                    assert focused == want[0]["move"]
                    page.keyboard.press("Enter")  # and plays it
                    page.wait_for_function("() => !window.fidoTable.pending")
                else:
                    seen["none"] += 1
                    assert text == "No move scores now."
                    solo.play_one()
                # the hint holds until the next move, then goes
                page.wait_for_function("() => !window.fidoTable.view || "
                                       "window.fidoTable.log.length !== window.fidoTable.hintAt")
                assert page.locator("#hint-box").is_hidden()
        assert seen["some"], "no move ever scored in four games"
        assert not [e for e in solo.errors if "favicon" not in e], solo.errors
    finally:
        solo.close()


def test_a_tile_is_dragged_onto_its_place(browser: Browser, server: str) -> None:
    solo = Person(browser, server, seed=32)
    try:
        solo.sign_up("Dragana")
        solo.create_table("fido", 6, ("me", "bot:greedy", "bot:greedy"))
        page = solo.page
        page.wait_for_function("() => window.fidoTable.view")
        dragged = 0
        while dragged < 2 and _wait_my_turn(solo):
            state = solo.state()
            legal = page.evaluate("() => window.fidoTable.view.legal.filter(m => m.slot)")
            if not state["table"] or not legal:
                solo.play_one()
                continue
            # a place she can see and reach (not under the board's buttons)
            places = {m["slot"]: page.locator(f"#board .slot[data-slot='{m['slot']}']")
                      for m in legal}
            legal = [m for m in legal if solo.reachable(places[m["slot"]])]
            if not legal:
                solo.play_one()
                continue
            move = legal[solo.rng.randrange(len(legal))]
            before = state["log"]
            tile = page.locator(f"#hand .tile[data-tile='{move['tile']}']")
            place = places[move["slot"]]
            tile.drag_to(place)
            page.wait_for_function(f"() => window.fidoTable.log.length > {before} "
                                   "&& !window.fidoTable.pending", timeout=15_000)
            mine = page.evaluate(f"() => window.fidoTable.log[{before}]")
            assert mine["move"] == move["move"] and mine["seat"] == state["seat"]
            assert page.locator(".drag-ghost").count() == 0
            dragged += 1
        if dragged == 0:
            pytest.skip("the game ended before she could drag a tile")
        # with a finger, on a phone: the same pointer events, from touches
        phone = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                    is_mobile=True, storage_state=solo.context.storage_state())
        try:
            touch = phone.new_page()
            touch.goto(page.url)
            touch.wait_for_function("() => window.fidoTable && window.fidoTable.view")
            if _touch_drag_one(touch):
                dragged += 1
            # her first page has the phone's move too before it looks for her turn (else
            # its "her turn" can be the one she just played, and the log grows under the drop)
            seq = touch.evaluate("() => window.fidoTable.seq")
            page.wait_for_function(f"() => window.fidoTable.seq >= {seq}")
        finally:
            phone.close()
        # dropped beside every place: nothing is played, the tile stays picked
        if _wait_my_turn(solo) and page.locator("#hand .tile.playable").count():
            before = solo.state()["log"]
            tile = page.locator("#hand .tile.playable").first
            name = tile.get_attribute("data-tile")
            tile.drag_to(page.locator(".seats-box .title"))
            assert solo.state()["log"] == before and not solo.state()["pending"]
            assert page.evaluate("() => window.fidoTable.selected") == name
            assert page.locator("#targets button").count() > 0
        assert not [e for e in solo.errors if "favicon" not in e], solo.errors
    finally:
        solo.close()


def _touch_drag_one(page: Page) -> bool:
    """Drag a tile onto its place with touches (the DevTools protocol's touch events, as
    a finger sends them); False when the game ended first."""
    page.wait_for_function(
        "() => { const s = window.fidoTable; return s.view && !s.pending && s.socket "
        "&& s.socket.readyState === 1 && (s.view.outcome || s.view.turn === s.seat); }",
        timeout=15_000)
    legal = page.evaluate("() => window.fidoTable.view.outcome ? null : "
                          "window.fidoTable.view.legal.filter(m => m.slot)")
    if not legal:
        return False
    move = legal[0]
    before = page.evaluate("() => window.fidoTable.log.length")
    tile = page.locator(f"#hand .tile[data-tile='{move['tile']}']")
    place = page.locator(f"#board .slot[data-slot='{move['slot']}']")
    # to the bottom of the screen: on a phone the board stays at the top (sticky) and a
    # tile scrolled just into view could lie under it, where her finger finds the board
    tile.evaluate("e => e.scrollIntoView({ block: 'end' })")
    assert tile.evaluate("""e => { const r = e.getBoundingClientRect();
        return e.contains(document.elementFromPoint(r.left + r.width / 2,
                                                    r.top + r.height / 2)); }""")
    a, b = tile.bounding_box(), place.bounding_box()
    assert a is not None and b is not None
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    assert 0 < y1 < 844 and 0 < y0 < 844, "the tile and its place are not both on the screen"
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent",
             {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for i in range(1, 9):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
            {"x": x0 + (x1 - x0) * i / 8, "y": y0 + (y1 - y0) * i / 8}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_function(f"() => window.fidoTable.log.length > {before} "
                           "&& !window.fidoTable.pending", timeout=15_000)
    assert page.evaluate(f"() => window.fidoTable.log[{before}].move") == move["move"]
    return True


def test_knock_and_wipe_play_on_their_moves_and_the_sound_switch_is_kept(
        browser: Browser, server: str) -> None:
    solo = Person(browser, server, seed=33)
    try:
        solo.sign_up("Rike")
        table = solo.create_table("fido", 6, ("me", "bot:random", "bot:greedy"))
        page = solo.page
        page.wait_for_function("() => window.fidoTable.view")
        # the sound is off by default; the switch is remembered
        assert not page.locator("#sound").is_checked()
        assert page.evaluate("() => localStorage.getItem('fido.sound')") is None
        page.locator("#sound").check()
        assert page.evaluate("() => localStorage.getItem('fido.sound')") == "on"
        page.reload()
        page.wait_for_function("() => window.fidoTable && window.fidoTable.view")
        assert page.locator("#sound").is_checked()
        known = page.evaluate("() => window.fidoTable.welcomed")  # came with the welcome
        page.evaluate("""() => {
            window.fxSeen = [];
            new MutationObserver(() => {
                const c = document.querySelector('#fx').className;
                const m = /fx-(knock|wipe)/.exec(c);
                if (m) window.fxSeen.push(m[1]);
            }).observe(document.querySelector('#fx'), { attributes: true });
        }""")
        play_until([solo], lambda: solo.state()["over"], timeout=60)
        record = GameRecord.from_json(
            solo.context.request.get(f"{server}/api/tables/{table}/record").text())
        want = []
        for i, (_n, turn, _game) in enumerate(record.steps()):
            kinds = [e for e in events_of(turn, record.ruleset) if isinstance(e, Knocked | Wiped)]
            if i >= known and kinds:
                want.append(("wipe" if isinstance(kinds[0], Wiped) else "knock", turn.move.text()))
        assert want, "no double was laid in this game"
        page.wait_for_function(f"() => window.fidoTable.effects.length >= {len(want)}",
                               timeout=len(want) * 1000 + 5000)
        got = page.evaluate("() => window.fidoTable.effects")
        assert [(e["kind"], e["move"]) for e in got] == want
        assert all(e["sound"] for e in got)
        # the badge took each event's class, in order (the animation itself is CSS)
        assert page.evaluate("() => window.fxSeen") == [k for k, _m in want]
        # switched off again, and kept off
        page.locator("#sound").uncheck()
        page.reload()
        page.wait_for_function("() => window.fidoTable && window.fidoTable.view")
        assert not page.locator("#sound").is_checked()
        assert not [e for e in solo.errors if "favicon" not in e], solo.errors
    finally:
        solo.close()


def test_signing_out_in_another_tab_turns_the_table_page_to_a_spectators(
        browser: Browser, server: str) -> None:
    """Her table tab's socket is closed when she signs out in another tab (4401): the
    page reloads as she is now, signed out, watching, with no hand to play."""
    anna = Person(browser, server, seed=7)
    anna.sign_up("tabs_anna")
    tid = anna.create_table(seats=("me", "bot:greedy", "bot:greedy"))
    anna.page.wait_for_function("() => window.fidoTable && window.fidoTable.seat === 0")
    other = anna.context.new_page()
    other.goto(server + "/")
    other.locator("form[action='/signout'] button").click()
    other.wait_for_load_state()
    anna.page.wait_for_function(
        "() => window.fidoTable && window.fidoTable.seat === null"
        " && window.fidoTable.socket && window.fidoTable.socket.readyState === 1")
    assert anna.page.url.endswith(f"/tables/{tid}")
    assert anna.page.locator("form[action='/signout']").count() == 0  # the nav: signed out
    anna.close()


def _boxes(page: Page, selector: str) -> list[dict[str, float]]:
    boxes: list[dict[str, float]] = page.locator(selector).evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); "
        "return {l: r.left, t: r.top, r: r.right, b: r.bottom}; })")
    return boxes


def _inside(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["l"] >= b["l"] - 0.5 and a["r"] <= b["r"] + 0.5 and a["t"] >= b["t"] - 0.5 \
        and a["b"] <= b["b"] + 0.5


def _meet(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["l"] < b["r"] and b["l"] < a["r"] and a["t"] < b["b"] and b["t"] < a["b"]


def test_the_final_double18_table_is_shown_whole_and_clear_of_the_buttons(
        browser: Browser, server: str) -> None:
    """The trial's phone: the final board was cut at its edge (a double's places missing)
    and a tile lay under "fit". At the game's end the whole table is fitted, on a phone
    and on a desktop, every tile and open place inside the board and none under the zoom
    buttons; two-digit numbers are set smaller than one-digit ones."""
    me, table = guest_table(server, "fido set=18", players=5)
    finish_game(server, me, table)
    for width, height in ((390, 844), (1440, 900)):
        person = Person(browser, server, width=width, height=height)
        person.context.add_cookies([{"name": k, "value": v, "url": server}
                                    for k, v in me.cookies.items()])
        try:
            person.goto(f"/tables/{table}")
            page = person.page
            page.wait_for_function("() => window.fidoTable && window.fidoTable.view"
                                   " && window.fidoTable.view.outcome")
            page.wait_for_timeout(400)  # the tiles' move-in
            board = _boxes(page, "#board")[0]
            tools = _boxes(page, ".board-box .board-tools button")
            things = _boxes(page, "#board .placed rect") + _boxes(page, "#board .slot circle")
            assert len(things) > 40
            outside = [b for b in things if not _inside(b, board)]
            assert not outside, f"{len(outside)} of {len(things)} cut at {width}px"
            under = [b for b in things if any(_meet(b, t) for t in tools)]
            assert not under, f"{len(under)} under the zoom buttons at {width}px"
            sizes = page.locator("#board .placed text").evaluate_all(
                "els => els.map(e => [e.textContent.length, "
                "parseFloat(getComputedStyle(e).fontSize)])")
            one = {s for n, s in sizes if n == 1}
            two = {s for n, s in sizes if n == 2}
            assert one and two and max(two) < min(one)
        finally:
            person.close()
