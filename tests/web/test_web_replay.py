"""The replay page in a real browser: a finished game stepped through to the end and back
(buttons, keys, the slider), every hand open or as one seat, the scores as the engine's
replay of the stored record gives them; a running game has none.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Browser

from fido.engine.game import Game
from fido.engine.moves import Placement
from fido.engine.rules import Ruleset
from fido.record import GameRecord
from fido.server.replay import replay_json
from support.tables import finish_game, guest_table
from support.web_browser import Person


@pytest.fixture(scope="module")
def finished(server: str) -> tuple[str, GameRecord, list[Game], int]:
    """A finished FIDO double-6 game: its id, record, the game after every move, the guest."""
    me, table = guest_table(server)
    finish_game(server, me, table)
    record = GameRecord.from_json(me.get(f"/api/tables/{table}/record").text)
    games = [record.new_game()] + [g.copy() for _i, _t, g in record.steps()]  # steps() reuses one
    guest = me.get("/api/session").json()["account"]["id"]
    return table, record, games, guest


def _shown(person: Person) -> dict[str, Any]:
    """What the replay page shows now: its step, the sum, the tiles on the board, the scores."""
    result: dict[str, Any] = person.page.evaluate("""() => ({
        step: window.fidoReplay.step,
        sum: Number(document.querySelector('#sum').textContent),
        stock: Number(document.querySelector('#stock').textContent),
        placed: document.querySelectorAll('#board .placed').length,
        current: Number(document.querySelector('#moves li.current').dataset.step),
        scores: [...document.querySelectorAll('#hands .score')].map(e => Number(e.dataset.score)),
        slider: Number(document.querySelector('#slider').value),
    })""")
    return result


def _agrees(person: Person, games: list[Game], step: int) -> None:
    shown = _shown(person)
    game = games[step]
    assert shown["step"] == shown["current"] == shown["slider"] == step
    assert shown["sum"] == game.table.ends_sum, step
    assert shown["placed"] == len(game.table.placements), step
    assert shown["stock"] == game.stock_count, step
    assert shown["scores"] == list(game.scores), step


def test_a_replay_steps_through_a_finished_game_and_back(
        browser: Browser, server: str, finished: tuple[str, GameRecord, list[Game], int]) -> None:
    table, record, games, guest = finished
    final = games[-1].outcome
    assert final is not None and record.replay().outcome == final
    n = len(record.moves)
    person = Person(browser, server, seed=21)
    try:
        # linked from the finished games, the table's result and the player's page
        person.goto(f"/players/{guest}")
        assert person.page.locator(f"a.replay-link[href='/tables/{table}/replay']").count() == 1
        person.goto(f"/tables/{table}")
        person.page.wait_for_selector("#record-link:not([hidden])")
        assert person.page.locator(f"#record-link a[href='/tables/{table}/replay']").count() == 1
        person.goto("/games")
        person.page.locator(f"a.replay-link[href='/tables/{table}/replay']").click()
        page = person.page
        page.wait_for_url(f"{server}/tables/{table}/replay")
        page.wait_for_function("() => window.fidoReplay && window.fidoReplay.data")
        assert page.locator("#slider").get_attribute("max") == str(n)
        assert page.locator("#download").get_attribute("href") == f"/api/tables/{table}/record"
        _agrees(person, games, 0)
        assert page.locator("#result").is_hidden()
        dealt = sorted(t.text() for h in record.hands for t in h)
        assert sorted(page.locator("#hands .tile").evaluate_all(
            "els => els.map(e => e.dataset.tile)")) == dealt  # every hand open

        # forwards to the end, a key at a time: every step as the engine has it
        page.locator("body").click(position={"x": 5, "y": 5})
        for step in range(1, n + 1):
            page.keyboard.press("ArrowRight")
            _agrees(person, games, step)
        page.keyboard.press("ArrowRight")  # the end stays the end
        _agrees(person, games, n)
        assert page.locator("#next").is_disabled()
        rows = page.locator("#result-rows tr")
        page.wait_for_selector("#result:not([hidden])")
        shown = {int(r.get_attribute("data-seat") or -1): int(r.get_attribute("data-final") or 0)
                 for r in rows.all()}
        assert shown == {r.seat: r.final for r in final.seats}
        assert "Move" in page.locator("#step-label").inner_text()

        # and back: with the button, the slider, Home and End
        for step in range(n - 1, n - 6, -1):
            page.locator("#prev").click()
            _agrees(person, games, step)
        assert page.locator("#result").is_hidden()
        page.locator("#slider").fill(str(n // 2))
        _agrees(person, games, n // 2)
        page.locator("body").click(position={"x": 5, "y": 5})
        page.keyboard.press("Home")
        _agrees(person, games, 0)
        assert page.locator("#prev").is_disabled()
        page.keyboard.press("End")
        _agrees(person, games, n)
        page.locator("#moves li[data-step='3'] button").click()  # a move in the log
        _agrees(person, games, 3)

        # as one seat: her hand open, the others as backs; others' draws stay hidden
        page.locator("#follow").select_option("1")
        cards = page.locator("#hands .hand-card")
        assert cards.nth(1).locator(".tile").count() == len(games[3].hand(1))
        assert cards.nth(0).locator(".tile").count() == 0
        assert cards.nth(0).locator(".back").count() == min(24, len(games[3].hand(0)))
        for i, entry in enumerate(record.moves, start=1):
            if entry.move == "draw" and entry.seat != 1:
                text = page.locator(f"#moves li[data-step='{i}'] .mv").inner_text()
                assert text == "draw", text
        page.locator("#follow").select_option("all")
        assert cards.nth(0).locator(".tile").count() == len(games[3].hand(0))
        assert not [e for e in person.errors if "favicon" not in e], person.errors
    finally:
        person.close()


def test_knock_and_wipe_show_on_their_move_and_stay_still_with_reduced_motion(
        browser: Browser, server: str, finished: tuple[str, GameRecord, list[Game], int]) -> None:
    table, record, games, _guest = finished
    events = {}
    for i, (entry, game) in enumerate(zip(record.moves, games[1:], strict=True), start=1):
        turn = game.last_turn()
        assert turn is not None and turn.move.text() == entry.move
        if isinstance(turn.move, Placement) and turn.move.tile.is_double:
            events[i] = "wipe" if turn.points else "knock"
    if not events:
        pytest.skip("no double was laid in this game")
    step, kind = next(iter(events.items()))
    for motion in ("no-preference", "reduce"):
        context = browser.new_context(reduced_motion=motion)
        page = context.new_page()
        try:
            page.goto(f"{server}/tables/{table}/replay")
            page.wait_for_function("() => window.fidoReplay && window.fidoReplay.data")
            steps = page.evaluate("() => window.fidoReplay.data.steps.map(s => s.event)")
            assert {i: e for i, e in enumerate(steps) if e} == events  # the server says so too
            page.locator("#slider").fill(str(step - 1))
            page.locator("body").click(position={"x": 5, "y": 5})
            page.keyboard.press("ArrowRight")
            page.wait_for_selector(f"#fx.fx-{kind}", state="attached")
            assert f"fx-{kind}" in (page.locator("#board-box").get_attribute("class") or "")
            animation = page.evaluate("() => getComputedStyle(document.querySelector('#fx'))"
                                      ".animationName")
            assert animation == ("none" if motion == "reduce" else f"fx-{kind}")
            assert page.evaluate("() => window.fidoReplay.effects.length") == 1
            page.keyboard.press("ArrowLeft")  # back does not knock again
            assert page.evaluate("() => window.fidoReplay.effects.length") == 1
        finally:
            context.close()


def test_the_sum_note_is_the_servers(
        browser: Browser, server: str, finished: tuple[str, GameRecord, list[Game], int]) -> None:
    """The note beside the sum is the step's sum_note as the server wrote it, or nothing:
    the page computes no quotient of its own. The replay's answer is marked on its way
    (a note the rule would never give), so a page that divides by itself shows
    something else."""
    table = finished[0]
    person = Person(browser, server, seed=23)
    page = person.page

    def marked(route: Any) -> None:
        body = route.fetch().json()
        for i, step in enumerate(body["steps"]):
            step["sum_note"] = f"note {i}" if i % 2 else None
        route.fulfill(json=body)

    try:
        page.route(f"**/api/tables/{table}/replay", marked)
        person.goto(f"/tables/{table}/replay")
        page.wait_for_function("() => window.fidoReplay && window.fidoReplay.data")
        n = page.evaluate("() => window.fidoReplay.data.steps.length")
        for step in range(min(n, 8)):
            page.locator("#slider").fill(str(step))
            assert page.locator("#sum-note").inner_text() == (f"note {step}" if step % 2 else "")
    finally:
        person.close()


@pytest.mark.parametrize("case", [
    ([], None, None), ([5], "Divisor", "5"), ([5, 3], "Divisors", "5 and 3")])
def test_the_replays_bar_shows_what_the_ruleset_scores_by(
        browser: Browser, server: str, finished: tuple[str, GameRecord, list[Game], int],
        case: tuple[list[int], str | None, str | None]) -> None:
    """The bar names the divisors the replay's ruleset scores by, as the table does: none
    in block and draw (no "Divisor 5" there), both in fives and threes. The server's answer
    is given each case on its way (its own game is FIDO's)."""
    divisors, label, shown = case
    person = Person(browser, server, seed=29)
    page = person.page

    def given(route: Any) -> None:
        body = route.fetch().json()
        body["divisors"] = divisors
        route.fulfill(json=body)

    try:
        page.route(f"**/api/tables/{finished[0]}/replay", given)
        person.goto(f"/tables/{finished[0]}/replay")
        page.wait_for_function("() => window.fidoReplay && window.fidoReplay.data")
        if label is None:
            assert page.locator("#divisor-box").is_hidden()
        else:
            assert page.locator("#divisor-label").text_content() == label
            assert page.locator("#divisor").text_content() == shown
    finally:
        person.close()


def test_a_replay_says_its_rulesets_divisors() -> None:
    for text, divisors in (("block", []), ("draw", []), ("fives_and_threes", [5, 3]),
                           ("muggins", [5]), ("fido set=12", [7])):
        game = Game.new(Ruleset.from_text(text), 2, rng=random.Random(3))
        while not game.is_over:
            game.push(game.legal_moves()[0])
        assert replay_json(GameRecord.from_game(game))["divisors"] == divisors, text


def _board_tiles(person: Person) -> list[dict[str, Any]]:
    """The board's tile groups: index, where its transform puts it, whether it is a node
    seen before (marked by _mark_tiles), the last laid, moving in."""
    result: list[dict[str, Any]] = person.page.evaluate(r"""() =>
        [...document.querySelectorAll('#board .placed')].map((g) => {
            const m = /translate\(([-\d.e]+)px, ([-\d.e]+)px\)/.exec(g.style.transform);
            return { index: Number(g.dataset.index), x: m && Number(m[1]), y: m && Number(m[2]),
                     old: Boolean(g.fidoSeen), last: g.classList.contains('last'),
                     moving: g.classList.contains('moving-in') };
        })""")
    return result


def _mark_tiles(person: Person) -> None:
    person.page.evaluate("() => document.querySelectorAll('#board .placed')"
                         ".forEach((g) => { g.fidoSeen = true; })")


def test_a_step_adds_or_removes_one_tile_and_keeps_the_others(
        browser: Browser, server: str, finished: tuple[str, GameRecord, list[Game], int]) -> None:
    """board.js draws incrementally: a step on adds the laid tile's group (it moves in)
    and keeps every other group, the same node; a step back removes that one; every
    tile stands where the step's layout says. A board drawn anew each time has no
    node seen before."""
    table = finished[0]
    person = Person(browser, server, seed=24)
    page = person.page
    try:
        person.goto(f"/tables/{table}/replay")
        page.wait_for_function("() => window.fidoReplay && window.fidoReplay.data")
        steps = page.evaluate("() => window.fidoReplay.data.steps.map((s) => s.layout.tiles)")
        page.locator("body").click(position={"x": 5, "y": 5})
        laid = 0
        for step in range(1, len(steps)):
            _mark_tiles(person)
            page.keyboard.press("ArrowRight")
            tiles = _board_tiles(person)
            want = {t["index"]: (t["x"], t["y"]) for t in steps[step]}
            assert {t["index"]: (t["x"], t["y"]) for t in tiles} == want, step
            new = [t["index"] for t in tiles if not t["old"]]
            assert new == sorted(set(want) - {t["index"] for t in steps[step - 1]}), step
            if new:
                laid += 1
                assert [t["index"] for t in tiles if t["moving"] and not t["old"]] == new
                assert [t["index"] for t in tiles if t["last"]] == new
        assert laid >= 5
        for step in range(len(steps) - 2, len(steps) - 7, -1):  # back: the last laid goes
            _mark_tiles(person)
            page.keyboard.press("ArrowLeft")
            tiles = _board_tiles(person)
            assert all(t["old"] for t in tiles), step
            assert sorted(t["index"] for t in tiles) == sorted(t["index"] for t in steps[step])
        page.keyboard.press("Home")
        assert page.locator("#board .placed").count() == 0
        assert not [e for e in person.errors if "favicon" not in e], person.errors
    finally:
        person.close()


def test_a_running_game_has_no_replay(browser: Browser, server: str) -> None:
    me, table = guest_table(server, "fido set=9")
    answer = me.get(f"/api/tables/{table}/replay")
    assert answer.status_code == 409
    person = Person(browser, server, seed=22)
    try:
        response = person.page.goto(f"{server}/tables/{table}/replay")
        assert response is not None and response.status == 409
        text = person.page.locator("main").inner_text()
        assert "still running" in text and "No replay yet" in text
        assert person.page.locator(f"main a[href='/tables/{table}']").count() == 1
        assert person.page.locator("#board").count() == 0
    finally:
        person.close()
