"""The table and replay pages in German, in a real browser that asks for German
(Accept-Language de-DE): the pages' static text (fido.po) and every sentence their
scripts write (fido_js.po, loaded by static/js/i18n.js before the page's module runs)
are German, the seat cards' "1 Stein" / "2 Steine" follow the plural, and no English
sentence of those pages is left. English, the default, says "1 tile", not "1 tiles".
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from fido.engine.game import Game
from fido.record import GameRecord
from support.tables import finish_game, guest_table
from support.web_browser import GERMAN, Person, play_until

# English words of the two pages that have a German word of their own ("Stock", "Chat",
# "Bonus" and "Divisor" are the same in both): none of them may show in German
ENGLISH = re.compile(
    r"\b(Your|You|turn|tiles?|pts|Sum|Moves|Hint|Send|Seat|seat|to move|played|drew|"
    r"opened|passed|Draw|Pass|Result|Place|Player|Points|Final|Sound|Waiting|Replay|"
    r"Move|deal|followed|hidden|score|scores|Game over|open seat|fit|Analysis|Hands)\b")


@pytest.fixture(scope="module")
def finished(server: str) -> tuple[str, GameRecord, list[Game]]:
    """A finished FIDO double-6 game (a guest and two bots): its id, record, every step."""
    me, table = guest_table(server)
    finish_game(server, me, table)
    record = GameRecord.from_json(me.get(f"/api/tables/{table}/record").text)
    games = [record.new_game()] + [g.copy() for _i, _t, g in record.steps()]
    return table, record, games


def _visible_text(page: Page, selector: str) -> str:
    return page.locator(selector).inner_text()


def _all_text(page: Page, selector: str) -> str:
    """The text of the element and all inside it, hidden parts too, as written (the labels'
    capitals are CSS's)."""
    return str(page.locator(selector).evaluate("e => e.textContent"))


def _english_left(text: str) -> list[str]:
    return sorted({m.group(0) for m in ENGLISH.finditer(text)})


def _plural_check(page: Page) -> dict[str, str]:
    """The seat cards' words for 1 and 2 tiles and points, from the module that writes them."""
    result: dict[str, str] = page.evaluate("""async () => {
        const ui = await import("/static/js/ui.js");
        return { one: ui.tilesText(1), two: ui.tilesText(2), zero: ui.tilesText(0),
                 pt: ui.pointsText(1), pts: ui.pointsText(12), first: ui.ordinal(1) };
    }""")
    return result


def test_the_table_page_speaks_german(browser: Browser, server: str) -> None:
    anna = Person(browser, server, seed=7, **GERMAN)
    try:
        anna.sign_up("Anna")
        assert anna.page.locator("html").get_attribute("lang") == "de"
        # the lobby fits the desktop in German's long words too (its table form's
        # "Freundschaftsspiel" pushed a hint out to 1,346 px)
        anna.goto("/")
        assert anna.page.evaluate("() => document.documentElement.scrollWidth") <= 1280
        # a table waiting for a player: the template's and the script's sentence agree
        anna.create_table("fido", 6, ("me", "open", "bot:greedy"))
        page = anna.page
        page.wait_for_function("() => window.fidoTable && window.fidoTable.table")
        assert _visible_text(page, "#waiting") == "Es fehlt noch 1 SpielerIn."
        assert page.locator("#conn").inner_text() in ("verbunden", "Verbindung wird hergestellt …")
        assert "freier Platz" in _visible_text(page, "#seats")

        anna.create_table("fido", 6, ("me", "bot:greedy", "bot:greedy"))
        page.wait_for_function("() => window.fidoTable && window.fidoTable.view")
        play_until([anna], lambda: anna.my_turn() or anna.state()["over"], timeout=60)
        if anna.state()["over"]:
            pytest.skip("the game ended before her turn")
        note = _visible_text(page, "#turn-note")
        assert note.startswith("Du bist am Zug"), note
        page.locator("body").click(position={"x": 3, "y": 3})
        page.keyboard.press("h")  # the hint, in German
        page.wait_for_selector("#hint-box:not([hidden])")
        hint = _visible_text(page, "#hint-text")
        assert re.match(r"(Ein Zug punktet|\d+ Züge punkten) jetzt|Kein Zug punktet", hint), hint
        anna.play_one()  # her move in the log, the announcement, the notes

        # every seat card names its tiles in the right form for its count
        # (one look at both: the bots play on, and a card read after the counts can be
        # a move newer than they are)
        counts, shown = page.evaluate(
            "() => [window.fidoTable.view.hand_counts,"
            " [...document.querySelectorAll('#seats .seat .count')].map(e => e.innerText)]")
        assert shown == [f"{n} Stein" if n == 1 else f"{n} Steine" for n in counts]
        assert all(re.fullmatch(r"-?\d+ Pkt\.", s)
                   for s in page.locator("#seats .seat .score").all_inner_texts())
        assert _plural_check(page) == {"one": "1 Stein", "two": "2 Steine", "zero": "0 Steine",
                                       "pt": "1 Pkt.", "pts": "12 Pkt.", "first": "1."}

        app = _all_text(page, ".table-app")
        for word in ("Summe", "Divisor", "Stock", "Züge", "Chat", "Tipp", "Ton",
                     "Einen Stein ziehen", "Endstand", "Das Spiel nachspielen"):
            assert word in app, word
        assert page.locator("#chat-text").get_attribute("placeholder") == "Sag etwas"
        assert page.locator("#zoom-in").get_attribute("aria-label") == "Vergrößern"
        assert "Das Spiel beginnt" in _visible_text(page, "#log")
        assert re.search(r"Summe \d+, Divisor \d+\.", _visible_text(page, "#announce"))
        labels = " ".join(page.locator("#seats .seat").evaluate_all(
            "els => els.map(e => e.getAttribute('aria-label'))"))
        assert "Platz 1: Anna (du)" in labels and "Punktestand" in labels, labels
        left = _english_left(app + " " + labels)
        assert not left, f"English on the German table page: {left}"
        assert not [e for e in anna.errors if "favicon" not in e], anna.errors
    finally:
        anna.close()


def test_the_replay_page_speaks_german(
        browser: Browser, server: str, finished: tuple[str, GameRecord, list[Game]]) -> None:
    table, record, games = finished
    n = len(record.moves)
    person = Person(browser, server, seed=8, **GERMAN)
    try:
        person.goto(f"/tables/{table}/replay")
        page = person.page
        page.wait_for_function("() => window.fidoReplay && window.fidoReplay.data")
        # the controls
        aria = {b: page.locator(f"#{b}").get_attribute("aria-label")
                for b in ("first", "prev", "next", "last", "slider")}
        assert aria == {"first": "Zum Austeilen (Pos1)",
                        "prev": "Einen Zug zurück (Pfeil nach links)",
                        "next": "Einen Zug weiter (Pfeil nach rechts)",
                        "last": "Zum Ende (Ende)", "slider": "Zug"}
        assert _visible_text(page, "#step-label") == f"Das Austeilen (0 von {n})"
        assert page.locator("#follow option").first.inner_text() == "alle offen"
        assert page.title().startswith("Nachspielen: ")
        valuetext = page.locator("#slider").get_attribute("aria-valuetext") or ""
        assert valuetext.startswith(f"Das Austeilen (0 von {n}): Das Austeilen: "), valuetext

        # the cards' plural: at the deal (every hand holds several tiles), and at a step
        # where a hand holds 1 tile when the game has one (a blocked game may not: the
        # server's deal is random; tests/web/test_web_german_game.py plays to "1 Stein" too)
        def go(step: int) -> None:
            page.evaluate("""i => { const s = document.getElementById('slider');
                s.value = String(i); s.dispatchEvent(new Event('input')); }""", step)

        def expected(game: Game) -> list[str]:
            return [nt_de(len(game.hand(s))) for s in range(len(record.hands))]

        seats = range(len(record.hands))
        single = next((i for i, g in enumerate(games) if any(len(g.hand(s)) == 1 for s in seats)),
                      0)
        steps = [0, single]
        for step in dict.fromkeys(steps):
            go(step)
            counts = page.locator("#hands .hand-card .count").all_inner_texts()
            assert counts == expected(games[step]), (step, counts)
        assert any(c.endswith(" Steine") for c in expected(games[0]))

        page.locator("body").click(position={"x": 5, "y": 5})
        page.keyboard.press("End")
        assert _visible_text(page, "#step-label") == f"Zug {n} von {n}"
        assert "Spielende: " in _visible_text(page, "#last-move")
        page.wait_for_selector("#result:not([hidden])")
        heads = page.locator("#result thead th").all_inner_texts()
        assert heads == ["Platz", "SpielerIn", "Punkte", "Bonus", "Augen", "Endstand"]
        assert page.locator("#result-rows tr td").first.inner_text() == "1."
        text = _all_text(page, ".replay-app")
        for word in ("Summe", "Züge", "Zuganalyse", "Ansicht", "Spielprotokoll herunterladen"):
            assert word in text, word
        left = _english_left(text)
        assert not left, f"English on the German replay page: {left}"
        assert not [e for e in person.errors if "favicon" not in e], person.errors
    finally:
        person.close()


def test_english_stays_the_default_with_the_plural_fixed(
        browser: Browser, server: str, finished: tuple[str, GameRecord, list[Game]]) -> None:
    table, _record, _games = finished
    person = Person(browser, server, seed=9)
    try:
        person.goto(f"/tables/{table}/replay")
        page = person.page
        page.wait_for_function("() => window.fidoReplay && window.fidoReplay.data")
        assert page.locator("html").get_attribute("lang") == "en"
        assert page.locator("#first").get_attribute("aria-label") == "To the deal (Home)"
        assert _visible_text(page, "#step-label").startswith("The deal (0 of ")
        checks: dict[str, Any] = _plural_check(page)
        assert checks == {"one": "1 tile", "two": "2 tiles", "zero": "0 tiles",
                          "pt": "1 pt", "pts": "12 pts", "first": "1st"}
        assert not [e for e in person.errors if "favicon" not in e], person.errors
    finally:
        person.close()


def nt_de(n: int) -> str:
    """A hand card's count in German: "1 Stein", "n Steine"."""
    return f"{n} Stein" if n == 1 else f"{n} Steine"
