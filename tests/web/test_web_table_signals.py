"""The table page's signals and marks (issue 25), in a real browser: her turn in the tab's
title and icon and, while the tab is hidden, a notification; a move the stand-in made
for her marked in the log, and her seat counting down to it; bots told apart by name;
what the bar says each ruleset scores; a phone with a big hand keeping the board, her
turn line and the picked tile's places in view, the targets hiding no tile; the key h
keeping the keyboard's place; an anonymous spectator offered to play as a guest to chat.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser
from sqlalchemy.exc import OperationalError

from fido.server.tables.room import Room
from support.server_procs import ServerProcess
from support.web_browser import Person

# A hidden tab, as the browser makes it when she switches to another one: the page's
# visibility is forced (headless chromium never hides a page) and announced.
HIDE = """() => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
    Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
    document.dispatchEvent(new Event("visibilitychange"));
}"""
# Every notification the page creates, recorded (the browser's own is kept working).
RECORD_NOTES = """(() => {
    const Real = window.Notification;
    window.__notes = [];
    if (!Real) return;
    class Recorded extends Real {
        constructor(title, options) {
            super(title, options);
            window.__notes.push({ title, body: options && options.body });
        }
    }
    window.Notification = Recorded;
})();"""


def _turn(person: Person) -> int | None:
    """Whose turn it is on her page, once her page has the game (None: it is over)."""
    person.page.wait_for_function("() => window.fidoTable && window.fidoTable.view "
                                  "&& !window.fidoTable.pending")
    st = person.state()
    return None if st["over"] else st["turn"]


def _create(person: Person, body: dict[str, Any]) -> str:
    """A table opened through the API from her lobby page (the form has no grace)."""
    person.goto("/")
    table_id: str = person.page.evaluate("""async (body) => {
        const token = document.querySelector("input[name=csrf_token]").value;
        const r = await fetch("/api/tables", { method: "POST", body: JSON.stringify(body),
            headers: { "Content-Type": "application/json", "X-CSRF-Token": token } });
        if (r.status !== 201) throw new Error(await r.text());
        return (await r.json()).id;
    }""", body)
    person.goto(f"/tables/{table_id}")
    return table_id


def _at_her_turn(person: Person, name: str) -> None:
    """Signed up as ``name``, at a table of two greedy bots, and it is her turn."""
    person.sign_up(name)
    _create(person, {"ruleset": "fido set=6", "players": 3, "seats": [
        {"kind": "me"}, {"kind": "bot", "level": "greedy"},
        {"kind": "bot", "level": "greedy"}]})
    # the bots' moves come when they come: a wait for her turn (or the end), not a count
    # of pauses
    person.page.wait_for_function("() => { const s = window.fidoTable; return s && s.view "
                                  "&& !s.pending && (s.view.outcome || s.view.turn === s.seat); }")
    assert _turn(person) == person.state()["seat"]


def _noted(text: str) -> str:
    """A wait for a note in the table's log that says ``text``."""
    return ("() => [...document.querySelectorAll('#log li')]"
            f".some(li => li.textContent === {text!r})")


def _join_as_guest(person: Person, table_id: str) -> None:
    person.goto(f"/tables/{table_id}")
    person.page.locator("#join").click()
    person.page.wait_for_url(re.compile(rf".*/tables/{table_id}$"))


def test_her_turn_shows_in_the_title_and_icon_and_a_hidden_tab_is_notified(
        browser: Browser, server: str) -> None:
    anna = Person(browser, server, seed=1)
    bea = Person(browser, server, seed=2, permissions=["notifications"])
    bea.context.add_init_script(RECORD_NOTES)
    try:
        anna.sign_up("Annegret")
        table_id = anna.create_table("fido", 6, ("me", "open"))
        plain = anna.page.title()
        _join_as_guest(bea, table_id)
        bea.page.locator("#notify").check()  # her choice: off by default
        bea.page.wait_for_function("() => localStorage.getItem('fido.notify') === 'on'")
        assert bea.page.locator("#notify").is_checked()
        bea_seat = bea.state()["seat"]
        # whoever starts: Bea plays until it is Anna's turn, visibly (no notification)
        while _turn(bea) == bea_seat:
            bea.play_one()
        assert bea.page.evaluate("() => window.__notes.length") == 0
        bea.page.evaluate(HIDE)  # she switched to another tab
        # Anna's turn: her title and icon say so, and go back after her move
        anna.page.wait_for_function("() => document.title.startsWith('\u25cf Your turn')")
        assert plain in anna.page.title()
        icon = anna.page.locator("link[rel~=icon]").get_attribute("href")
        assert icon == "/static/favicon-turn.svg"
        while _turn(anna) == anna.state()["seat"]:
            anna.play_one()
        anna.page.wait_for_function(f"() => document.title === {plain!r}")
        assert anna.page.locator("link[rel~=icon]").get_attribute("href") == "/static/favicon.svg"
        # Bea's hidden tab is told
        if _turn(bea) is not None:
            bea.page.wait_for_function("() => window.__notes.length === 1")
            note = bea.page.evaluate("() => window.__notes[0]")
            assert note["title"] == "Your turn"
            assert bea.page.title().startswith("\u25cf Your turn")
        # Anna never turned notifications on: none for her
        assert anna.page.evaluate("() => window.fidoTable.signals.every(s => !s.notified)")
        for p in (anna, bea):
            assert not [e for e in p.errors if "favicon" not in e], p.errors
    finally:
        anna.close()
        bea.close()


def test_the_stand_ins_move_is_marked_and_her_seat_counts_down_to_it(
        browser: Browser, server: str) -> None:
    anna = Person(browser, server, seed=3)
    bea = Person(browser, server, seed=4)
    try:
        anna.sign_up("Adelheid")
        table_id = _create(anna, {"ruleset": "fido set=6", "players": 2, "grace": 5,
                                  "seats": [{"kind": "me"}, {"kind": "open"}]})
        _join_as_guest(bea, table_id)
        bea_seat = bea.state()["seat"]
        # her name reaches Anna's page by its socket: waited for, not read at once
        guest = anna.page.wait_for_function(
            "(seat) => window.fidoTable.table && window.fidoTable.table.seats[seat].name",
            arg=bea_seat).json_value()
        assert re.fullmatch(r"guest \d+", guest), guest
        _turn(anna)
        bea.page.close()  # she went away: after the grace, the stand-in plays for her
        anna.page.wait_for_function(_noted(f"{guest} is away"))
        marked = False
        counted = False
        for _moves in range(12):
            turn = _turn(anna)
            if turn is None:
                break
            if turn == anna.state()["seat"]:
                anna.play_one()
                continue
            # her seat counts down to the stand-in's move
            clock = anna.page.locator(f"#seats li:nth-child({bea_seat + 1}) .clock.stand-in")
            clock.wait_for(timeout=5000)
            assert re.fullmatch(r"stand-in in 0:0[0-5]", clock.inner_text()), clock.inner_text()
            counted = True
            before = anna.state()["log"]
            anna.page.wait_for_function(f"() => window.fidoTable.log.length > {before}",
                                        timeout=15_000)
            last = anna.page.locator("#moves li").nth(before)
            last.locator(".by").wait_for()
            assert last.locator(".by").inner_text() == f" · played for {guest} by the stand-in"
            marked = True
            break
        assert counted and marked
        # she comes back: named by her name on Anna's page, "You are back" on hers
        back = bea.context.new_page()
        back.goto(f"{server}/tables/{table_id}")
        back.wait_for_function(_noted("You are back"))
        anna.page.wait_for_function(_noted(f"{guest} is back"))
        notes = anna.page.locator("#log li").all_inner_texts()
        assert not [n for n in notes if n.startswith("You is") or n.startswith("You are")], notes
    finally:
        anna.close()
        bea.close()


@pytest.mark.parametrize(("game", "label", "divisors"), [
    ("block", None, None), ("draw", None, None), ("muggins", "DIVISOR", "5"),
    ("fives_and_threes", "DIVISORS", "5 and 3"),
])
def test_the_bar_shows_what_the_ruleset_scores_and_bots_have_names(
        browser: Browser, server: str, game: str, label: str | None,
        divisors: str | None) -> None:
    solo = Person(browser, server, seed=5)
    try:
        solo.sign_up(f"Bar {game.replace('_', ' ')}")
        solo.create_table(game, seats=("me", "bot:expert", "bot:expert", "bot:greedy"))
        page = solo.page
        page.wait_for_function("() => window.fidoTable.view")
        names = page.locator("#seats .seat .who > :nth-child(2)").all_inner_texts()[1:]
        assert len(set(names)) == 3, names
        assert all(re.fullmatch(r"(Expert|Greedy) [A-Z][a-z]+", n) for n in names), names
        for _turns in range(4):  # the bar as the game goes on
            if _turn(solo) is None:
                break
            if label is None:
                assert page.locator("#divisor-box").is_hidden()
                assert page.locator("#sum-note").inner_text() == ""
            else:
                assert page.locator("#divisor-label").inner_text() == label
                assert page.locator("#divisor").inner_text() == divisors
            if solo.my_turn():
                solo.play_one()
        said = page.locator("#announce").inner_text()
        assert ("divisor" in said) == (label is not None), said
    finally:
        solo.close()


PHONE_CHECK = """async () => {
    // the board glides to its new layout (a CSS transition): measure where it comes to rest
    await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)));
    const box = (e) => e.getBoundingClientRect();
    const vh = window.innerHeight, vw = window.innerWidth;
    const seen = (r) => r.top >= 0 && r.bottom <= vh && r.left >= 0 && r.right <= vw;
    const onTop = (e) => { const r = box(e);
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return seen(r) && Boolean(hit && e.contains(hit)); };
    const board = box(document.getElementById("board"));
    const rings = [...document.querySelectorAll("#board .target circle.ring")].map(box);
    const tiles = [...document.querySelectorAll("#board .placed rect")].map(box);
    // a ring covers a tile where the circle (not its square box) reaches into the tile
    const cover = (a, b) => {
        const r = a.width / 2, cx = a.left + r, cy = a.top + r;
        const dx = Math.max(b.left - cx, 0, cx - b.right);
        const dy = Math.max(b.top - cy, 0, cy - b.bottom);
        return Math.hypot(dx, dy) < r - 0.5;
    };
    return {
        turn: onTop(document.getElementById("turn-note")),
        hint: onTop(document.getElementById("hint")),
        list: [...document.querySelectorAll("#targets button")].every((b) => seen(box(b))),
        board: seen(board),
        onBoard: rings.filter((r) => seen(r) && r.left >= board.left && r.right <= board.right
            && r.top >= board.top && r.bottom <= board.bottom).length,
        covered: rings.filter((r) => tiles.some((t) => cover(r, t))).length,
        zeros: [...document.querySelectorAll("#board .target:not(.scores)")]
            .filter((t) => /\\d/.test(t.textContent)).length,
        listZeros: [...document.querySelectorAll("#targets button:not(.scores)")]
            .filter((b) => / 0$/.test(b.textContent)).length,
    };
}"""


def test_a_phone_with_a_big_hand_keeps_the_board_and_the_places_in_view(
        browser: Browser, server: str) -> None:
    phone = Person(browser, server, seed=6, width=390, height=844, is_mobile=True,
                   has_touch=True, device_scale_factor=2)
    try:
        phone.sign_up("Philippa")
        phone.create_table("fido", 18, ("me", *(["bot:greedy"] * 5)))
        page = phone.page
        picked = 0
        for _turns in range(30):
            if picked >= 4 or _turn(phone) is None:
                break
            if not phone.my_turn():
                continue
            tiles = page.locator("#hand .tile.playable").evaluate_all(
                "els => els.map(e => e.dataset.tile)")
            if not tiles or not phone.state()["table"]:
                phone.play_one()
                continue
            # the last of her tiles, far down her hand: she scrolls to it and taps it
            tile = page.locator(f"#hand .tile[data-tile='{tiles[-1]}']")
            tile.scroll_into_view_if_needed()
            tile.tap()
            page.wait_for_selector("#targets button")
            seen = page.evaluate(PHONE_CHECK)
            assert seen["turn"] and seen["hint"] and seen["list"] and seen["board"], seen
            assert seen["onBoard"] >= 1, seen
            assert seen["covered"] == 0 and seen["zeros"] == 0 and seen["listZeros"] == 0, seen
            picked += 1
            page.locator("#targets button").first.tap()
            page.wait_for_function("() => !window.fidoTable.pending")
        assert picked >= 2
        assert not [e for e in phone.errors if "favicon" not in e], phone.errors
    finally:
        phone.close()


def test_h_with_nothing_to_score_keeps_the_keyboard_in_her_hand(
        browser: Browser, server: str) -> None:
    solo = Person(browser, server, seed=7)
    try:
        page = solo.page
        done = False
        # the deal is the server's secret: a game may offer her a scoring move every turn
        # (three games: a person's most tables with bots at once, Limits)
        for _game in range(3):
            if done:
                break
            solo.goto("/")
            page.click("form.quick button")  # a guest and three bots, FIDO double-9
            for _turns in range(60):
                if done or _turn(solo) is None:
                    break
                if not solo.my_turn():
                    continue
                scoring = page.evaluate(
                    "() => window.fidoTable.view.legal.some(m => m.tile && m.points > 0)")
                tiles = page.locator("#hand .tile")
                if scoring or tiles.count() < 2:
                    solo.play_one()
                    continue
                tiles.first.focus()
                page.keyboard.press("h")
                page.wait_for_selector("#hint-box:not([hidden])")
                assert page.locator("#hint-text").inner_text() == "No move scores now."
                focused = page.evaluate("() => document.activeElement.dataset.tile || null")
                assert focused is not None  # still on a tile of her hand
                page.keyboard.press("ArrowRight")
                moved = page.evaluate("() => document.activeElement.dataset.tile || null")
                assert moved is not None and moved != focused
                done = True
        assert done, "no turn without a scoring move in three games"
    finally:
        solo.close()


def test_an_anonymous_spectator_is_offered_to_play_as_a_guest_to_chat(
        browser: Browser, server: str) -> None:
    host = Person(browser, server, seed=8)
    looker = Person(browser, server, seed=9)
    try:
        host.sign_up("Hedwig")
        table_id = host.create_table("fido", 6, ("me", "open", "bot:greedy"))
        looker.goto(f"/tables/{table_id}")
        page = looker.page
        page.wait_for_function("() => window.fidoTable && window.fidoTable.table")
        assert page.locator("#chat-text").count() == 0  # no box she could not use
        offer = page.locator("#chat-guest")
        assert "Play as a guest to chat." in offer.inner_text()
        offer.locator("button").click()
        page.wait_for_url(f"{server}/tables/{table_id}")
        page.wait_for_function("() => window.fidoTable && window.fidoTable.socket "
                               "&& window.fidoTable.socket.readyState === 1")
        page.locator("#chat-text").fill("hello table")
        page.locator("#chat-form button").click()
        host.page.wait_for_function("() => [...document.querySelectorAll('#chat-lines li')]"
                                    ".some(li => li.textContent.endsWith(': hello table'))")
        assert page.locator("#chat-guest").count() == 0
    finally:
        host.close()
        looker.close()


def test_a_move_the_table_could_not_save_is_sent_again_by_the_page(
        browser: Browser, server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A move refused as "unavailable" (the database did not take it: nothing happened,
    as while PostgreSQL restarts) stays hers: the page sends it again, the same message,
    after a pause, and it is played once, with no alert."""
    anna = Person(browser, server, seed=5)
    failures = {"left": 0}
    commit = Room._commit

    async def flaky(self: Room, events: Any, *args: Any, **kwargs: Any) -> None:
        if failures["left"] > 0 and events and events[0].kind == "move":
            failures["left"] -= 1
            raise OperationalError("table write", None, Exception("the database restarts"))
        await commit(self, events, *args, **kwargs)

    monkeypatch.setattr(Room, "_commit", flaky)
    try:
        _at_her_turn(anna, "Rosemarie")
        failures["left"] = 2  # her next move: refused twice, then taken
        played = anna.play_one()
        assert failures["left"] == 0
        logged = anna.page.evaluate("() => window.fidoTable.log.map((m) => m.move)")
        assert logged.count(played) == 1 or played in ("draw", "pass")
        assert anna.page.locator("#alert").is_hidden()  # no "try again" shown to her
        assert not anna.errors, anna.errors
    finally:
        anna.close()


def test_a_dead_connection_is_noticed_and_a_move_made_meanwhile_is_sent_when_back(
        browser: Browser, tmp_path: Any) -> None:
    """The network gone without the socket closing (here: the server process frozen,
    SIGSTOP, so nothing answers): within half a minute the page stops saying
    "connected" (no pong to its ping) and reconnects; a move made meanwhile waits and is
    played once the connection is back, not dropped (the trial: "connected" and "Sending
    your move…" for 110 s, and a move that had to be made again)."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'fido.db'}", tmp_path / "serve.log")
    server.start()
    anna = Person(browser, server.base, seed=7)
    try:
        _at_her_turn(anna, "Rosalind")
        assert anna.page.locator("#conn").get_attribute("data-state") == "connected"
        logged = anna.state()["log"]
        server.freeze()
        try:
            anna.page.wait_for_function(
                "() => document.getElementById('conn').dataset.state !== 'connected'",
                timeout=45_000)
            move = anna.click_a_move()  # no connection: it waits
            anna.page.wait_for_function("() => window.fidoTable.pending", timeout=5_000)
            assert "is sent as soon as it is back" in anna.page.locator("#alert").inner_text()
        finally:
            server.thaw()
        anna.page.wait_for_function(f"() => window.fidoTable.log.length > {logged} "
                                    "&& !window.fidoTable.pending", timeout=30_000)
        assert anna.page.locator("#conn").get_attribute("data-state") == "connected"
        mine = anna.page.evaluate(
            "(seat) => window.fidoTable.log.filter((m) => m.seat === seat).map((m) => m.move)",
            anna.state()["seat"])
        assert mine.count(move) == 1 or move in ("draw", "pass"), (move, mine)
        assert not [e for e in anna.errors if "WebSocket" not in e], anna.errors
    finally:
        anna.close()
        server.stop()


def test_draw_until_a_tile_fits_draws_on_by_itself_and_stops(browser: Browser,
                                                             server: str) -> None:
    """At a classic draw game a stuck player may draw until a tile fits: one click draws
    on, move by move, and stops when a tile fits or the stock is empty."""
    anna = Person(browser, server, seed=11)
    try:
        anna.sign_up("Dorothea")
        for _game in range(4):
            _create(anna, {"ruleset": "draw", "players": 2, "seats": [
                {"kind": "me"}, {"kind": "bot", "level": "random"}]})
            button = anna.page.locator("#draw-on")
            while True:
                turn = _turn(anna)
                if turn is None:
                    break
                if turn != anna.state()["seat"]:
                    anna.page.wait_for_timeout(100)
                    continue
                if not button.is_visible():
                    anna.play_one()
                    continue
                logged = anna.state()["log"]
                button.click()
                anna.page.wait_for_function(
                    """(n) => { const s = window.fidoTable;
                       if (s.pending || s.log.length <= n) return false;
                       const legal = (s.view.legal || []).map((m) => m.move);
                       return s.view.outcome || s.view.turn !== s.seat
                           || !(legal.length === 1 && legal[0] === "draw"); }""",
                    arg=logged, timeout=30_000)
                drawn = anna.page.evaluate(
                    "(n) => window.fidoTable.log.slice(n).map((m) => m.move)", logged)
                assert drawn and all(m == "draw" for m in drawn), drawn
                legal = anna.page.evaluate(
                    "() => (window.fidoTable.view.legal || []).map((m) => m.move)")
                assert legal != ["draw"], legal  # it stopped where it should
                assert not anna.errors, anna.errors
                return
        pytest.fail("no draw in four games")
    finally:
        anna.close()
