"""A match and a rematch in real browsers (chromium): three people and a bot play
Muggins to 61 (two teams of two), hand after hand at new tables that every page goes to
by itself; the running totals on every page are the sums of the hands' records; the
result shows each team once and the match's hands; then "Play again", said by all,
seats everyone at a new match with the same seats.

``FIDO_SHOTS=DIR``: screenshots of the match and of the rematch vote, phone and desktop.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect
from playwright.sync_api import Error as PlaywrightError

from fido.record import GameRecord
from support.server_client import Person as ApiPerson
from support.server_client import play_to_end
from support.server_live import FAST, ONE_ADDRESS, live_server
from support.web_browser import Person

SHOTS = os.environ.get("FIDO_SHOTS")


@pytest.fixture(scope="module")
def server(web_db: str) -> Iterator[str]:
    """The web tests' server, but a hand's result shows 1 s before the next hand is dealt,
    not 4: a match of 8 to 11 hands waited half a minute for it. Each page must still
    show every hand's totals in that second (the test reads them there). Screenshots
    (FIDO_SHOTS) keep the 4 s: a shot taken mid-hand holds the test's loop for longer
    than a second, and the hand may end meanwhile."""
    play = FAST if SHOTS else replace(FAST, next_hand_delay=1.0)
    with live_server(web_db, limits=ONE_ADDRESS, play=play) as base:
        yield base


def _table_of(person: Person) -> str:
    return person.page.url.split("?")[0].rsplit("/", 1)[1]


def _page(person: Person) -> dict[str, Any] | None:
    """What her table page shows of the match now (None: between pages)."""
    try:
        found: dict[str, Any] | None = person.page.evaluate("""() => {
            const s = window.fidoTable;
            if (!s || !s.table || !s.table.match) return null;
            const m = s.table.match;
            const line = document.getElementById("match-line");
            return { table: s.table.id, hand: m.hand, counted: m.hands >= m.hand, over: m.over,
                     ended: Boolean(s.view && s.view.outcome), next: s.table.next,
                     line: line.hidden ? null : line.dataset.totals, text: line.textContent };
        }""")
    except PlaywrightError:
        return None
    return found


def _shot(person: Person, name: str) -> None:
    if not SHOTS:
        return
    Path(SHOTS).mkdir(parents=True, exist_ok=True)
    page = person.page
    for size, (w, h) in {"phone": (390, 844), "desktop": (1440, 900)}.items():
        page.set_viewport_size({"width": w, "height": h})
        time.sleep(0.3)
        page.screenshot(path=f"{SHOTS}/{name}-{size}.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def test_a_muggins_match_to_61_then_play_again(browser: Browser, server: str) -> None:
    people = [Person(browser, server, seed=i) for i in range(3)]
    anna, ben, carla = people
    try:
        for p, name in zip(people, ["Anna", "Ben", "Carla"], strict=True):
            p.sign_up(name)
        # the lobby's form: Muggins, a match to points, the game's own 61 shown
        page = anna.page
        anna.goto("/")
        form = page.locator("#create-form")
        form.locator("select[name=game]").select_option("muggins")
        form.locator("select[name=players]").select_option("4")
        assert form.locator("#target").is_hidden()
        form.locator("select[name=match]").select_option("points")
        assert form.locator("#target").is_visible()
        assert form.locator("#target").get_attribute("placeholder") == "61"
        for i, kind in enumerate(["me", "open", "open", "bot:expert"]):
            form.locator(f"select[name=seat{i}]").select_option(kind)
        form.locator("button[type=submit]").click()
        page.wait_for_url(re.compile(r".*/tables/[A-Za-z0-9_-]+$"))
        first = _table_of(anna)
        for p in (ben, carla):
            p.goto(f"/tables/{first}")
            p.page.click("#join")
            p.page.wait_for_url(f"{server}/tables/{first}")
        for p in people:
            p.page.wait_for_function("() => window.fidoTable && window.fidoTable.view",
                                     timeout=15_000)
        seats = [p.state()["seat"] for p in people]
        assert seats == [0, 1, 2]
        line = anna.page.locator("#match-line")
        assert line.is_visible() and "61" in line.inner_text()

        # every hand played by clicks; the totals each page shows after each hand
        shown: dict[int, set[tuple[str, str]]] = {}  # hand -> (table, totals) seen
        hands: dict[int, str] = {}
        shot_taken = False
        deadline = time.monotonic() + 600
        while True:
            assert time.monotonic() < deadline, "the match did not end"
            states = [_page(p) for p in people]
            for st in states:
                if st is None:
                    continue
                hands[st["hand"]] = st["table"]
                if st["counted"] and st["ended"]:
                    shown.setdefault(st["hand"], set()).add((st["table"], st["line"]))
            if all(st is not None and st["over"] and st["ended"] for st in states):
                break
            moved = False
            for p in people:
                try:
                    if p.my_turn():
                        p.play_one()
                        moved = True
                except (PlaywrightError, AssertionError):
                    continue  # her page went on to the next hand meanwhile
            if (not shot_taken and states[0] is not None and states[0]["hand"] >= 2
                    and not states[0]["ended"] and len(anna.state()["table"]) >= 4):
                _shot(anna, "match-running")
                shot_taken = True
            if not moved:
                time.sleep(0.05)
        last = max(hands)
        assert last >= 2 and sorted(hands) == list(range(1, last + 1))
        # the records' sums, hand by hand, are what every page showed after that hand
        sums = [0, 0]
        for hand in range(1, last + 1):
            answer = anna.context.request.get(f"{server}/api/tables/{hands[hand]}/record")
            assert answer.ok
            outcome = GameRecord.from_json(answer.text()).replay().outcome
            assert outcome is not None and outcome.teams is not None
            sums = [a + b for a, b in zip(sums, outcome.match_points, strict=True)]
            assert shown[hand] == {(hands[hand], f"{sums[0]},{sums[1]}")}, (hand, shown)
        assert max(sums) >= 61 and sums.count(max(sums)) == 1
        winners = sums.index(max(sums))

        # the result: each team once with its total, the match's hands and totals
        for p in people:
            pg = p.page
            pg.wait_for_selector("#match-result:not([hidden]) #match-rows tr")
            assert pg.locator("#result-rows tr.team").count() == 2
            assert pg.locator("#result-rows tr").count() == 6
            assert pg.locator("#team-result").is_visible()
            # her line says the match's result in her words, not the last hand's place
            # (the trial: "your team is 2nd" to the team that won the match); the
            # match's result stands above the last hand's
            side = pg.evaluate("() => window.fidoTable.table.match.sides.findIndex("
                               "s => s.includes(window.fidoTable.seat))")
            said = pg.locator("#turn-note").inner_text()
            assert said == ("The match is over: your team won it." if side == winners
                            else said.startswith("The match is over: ") and said), said
            assert "won it" in said and "your team is" not in said
            above = pg.evaluate("() => document.getElementById('match-result')"
                                ".compareDocumentPosition(document.getElementById("
                                "'result-rows')) & Node.DOCUMENT_POSITION_FOLLOWING")
            assert above, "the match's result is below the last hand's"
            assert pg.locator("#match-rows tr").count() == last
            totals = pg.locator("#match-foot td").evaluate_all(
                "els => els.map(e => Number(e.dataset.total))")
            assert totals == sums
            assert pg.locator("#match-foot td.won").count() == 1
            assert "won the match as a team" in pg.locator("#match-title").inner_text()
            notes = pg.locator("#log").inner_text()
            assert f"After hand {last}:" in notes
            assert pg.locator("#again").is_visible()
            assert not [e for e in p.errors if "favicon" not in e], p.errors
        assert winners in (0, 1)
        _shot(anna, "match-end")

        # play again: Anna says yes, the others see it; when all have, a new match
        final = hands[last]
        anna.page.click("#again")
        for p in (ben, carla):
            p.page.wait_for_function(
                "() => document.getElementById('again-said').textContent.includes('Anna')")
        assert anna.page.locator("#again").is_hidden()
        _shot(ben, "match-rematch-vote")
        ben.page.click("#again")
        carla.page.click("#again")
        for p in people:
            p.page.wait_for_url(re.compile(r".*/tables/[A-Za-z0-9_-]+$"), timeout=15_000)
            p.page.wait_for_function(
                f"() => window.fidoTable && window.fidoTable.table && "
                f"window.fidoTable.table.id !== '{final}' && window.fidoTable.view",
                timeout=15_000)
        new = _table_of(anna)
        assert new != final and {_table_of(p) for p in people} == {new}
        info = anna.context.request.get(f"{server}/api/tables/{new}").json()
        old = anna.context.request.get(f"{server}/api/tables/{final}").json()
        assert [(s["kind"], s["account"], s["bot"]) for s in info["seats"]] == [
            (s["kind"], s["account"], s["bot"]) for s in old["seats"]]
        assert info["ruleset"] == old["ruleset"] and info["status"] == "running"
        assert info["match"]["id"] != old["match"]["id"]
        assert (info["match"]["kind"], info["match"]["goal"], info["match"]["hand"],
                info["match"]["totals"]) == ("points", 61, 1, [0, 0])

        # the finished games list the match's hands with the match's result
        anna.goto("/games")
        row = anna.page.locator("tr", has=anna.page.locator(f"a[href='/tables/{final}']"))
        assert "the match's result" in row.inner_text()
        assert row.locator(".team").count() == 2
        assert row.locator(".match-side").evaluate_all(
            "els => els.map(e => Number(e.dataset.total))") == sums
    finally:
        for p in people:
            p.close()


def test_a_bot_keeps_its_name_everywhere_and_from_hand_to_hand(browser: Browser,
                                                                server: str) -> None:
    """A bot has one name: the table page's ("Random Ada") is the one the games list,
    the lobby and the replay give it, and a match's bots keep theirs from hand to hand
    (the trial: "Expert Kira" at the table, "bot (expert)" elsewhere, new names each hand)."""
    anna = ApiPerson.guest(server)
    first = anna.open_table("fido set=6", 3, [
        {"kind": "me"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "greedy"}],
        match={"kind": "hands", "goal": 2})["id"]
    play_to_end([anna.connect(first)])
    deadline = time.monotonic() + 30
    while not (second := anna.http.get(f"/api/tables/{first}").json().get("next")):
        assert time.monotonic() < deadline, "no next hand"
        time.sleep(0.1)
    page = Person(browser, server)
    page.context.add_cookies([{"name": k, "value": v, "url": server}
                              for k, v in anna.http.cookies.items()])

    def names_at(table: str) -> list[str]:
        page.goto(f"/tables/{table}")
        page.page.wait_for_selector("#seats .seat")
        names: list[str] = page.page.evaluate(
            "() => [...document.querySelectorAll('#seats .seat .who')]"
            ".map(w => w.children[1].textContent)")
        return names

    hand1, hand2 = names_at(first), names_at(second)
    # on a phone the seats' card is below her hand: the match's totals are in the bar
    page.page.set_viewport_size({"width": 390, "height": 844})
    score = page.page.locator("#match-score")
    assert score.is_visible(), "no match score in the bar on a phone"
    line = page.page.locator("#match-line").get_attribute("data-totals")
    shown = score.locator("b").evaluate_all("els => els.map(e => e.dataset.total)")
    assert ",".join(shown) == line, (shown, line)
    bar, hand = score.bounding_box(), page.page.locator("#hand").bounding_box()
    assert bar is not None and hand is not None and bar["y"] < hand["y"]
    page.page.set_viewport_size({"width": 1280, "height": 900})
    assert not score.is_visible()  # beside the seats' card: said once
    assert hand1 == hand2, (hand1, hand2)  # the match's bots keep their names
    random_bot, greedy_bot = hand1[1], hand1[2]
    assert random_bot.startswith("Random ") and greedy_bot.startswith("Greedy "), hand1
    page.goto("/games")
    row = page.page.locator(f"tr:has(a[href='/tables/{first}'])").first.inner_text()
    assert random_bot in row and greedy_bot in row and "bot (" not in row, row
    page.goto(f"/tables/{first}/replay")
    page.page.wait_for_selector("#follow option", state="attached")
    follow = page.page.locator("#follow").inner_text()
    assert f"as seat 2: {random_bot}" in follow and f"as seat 3: {greedy_bot}" in follow
    page.page.wait_for_function("() => window.fidoReplay && window.fidoReplay.data")
    assert random_bot in page.page.locator("#moves").inner_text()
    page.close()


def test_a_finished_table_says_who_left_and_who_declined_the_rematch(
        browser: Browser, server: str) -> None:
    """After the game: one who closed her page is "left" (not "away"), one who said no
    is "declined the rematch" and named under the vote, and the last one's yes makes
    the rematch without them."""
    anna, bea, cleo = ApiPerson.guest(server), ApiPerson.guest(server), ApiPerson.guest(server)
    table = anna.open_table("fido set=6", 3)["id"]
    for p in (bea, cleo):
        assert p.join(table).status_code == 200
    socks = [p.connect(table) for p in (anna, bea, cleo)]
    play_to_end(socks)
    socks[2].close()  # Cleo leaves
    assert anna.http.delete(f"/api/tables/{table}/again").json()["again"]["no"] == [0]
    page = Person(browser, server)
    page.context.add_cookies([{"name": k, "value": v, "url": server}
                              for k, v in bea.http.cookies.items()])
    try:
        page.goto(f"/tables/{table}")
        page.page.wait_for_selector("#again-box:not([hidden])")
        presence = page.page.locator("#seats .seat .presence")
        assert presence.nth(0).inner_text() == "declined the rematch"
        # her socket's close reaches the server when it does: a wait for her "left"
        expect(presence.nth(2)).to_have_text("left")
        assert "Declined: " in page.page.locator("#again-said").inner_text()
        page.page.get_by_role("button", name="Play again").click()
        page.page.wait_for_url(re.compile(r".*/tables/(?!" + table + r")[A-Za-z0-9_-]+$"))
        new = _table_of(page)
        seats = bea.http.get(f"/api/tables/{new}").json()["seats"]
        assert anna.id not in {s.get("account") for s in seats}
        assert not page.errors, page.errors
    finally:
        page.close()
        for s in socks[:2]:
            s.close()
