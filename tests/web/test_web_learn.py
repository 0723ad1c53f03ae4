"""The first lesson in chromium (issue 44): a newcomer who has never played goes through
every step in English and in German, tries a wrong move and is told why, then plays her
first game from the lesson's last card.

The moves are the lesson's own examples, written here from the texts (the federation's
double-18 opening), not read from the page: a page that judged wrongly fails.
"""

from __future__ import annotations

import re

import httpx
from playwright.sync_api import Page, expect

from support.web_browser import Person, chromium, play_until

# each step: (tile, slot) tried first and wrong (or None), then the right move
WALK = [
    (None, ("18-18", "open")),  # the highest double opens
    (("16-12", "1n"), ("18-14", "0e")),  # 12-16 on the 12 raises the sum to 52
    (("18-11", "0e"), ("18-11", "0s")),  # on an end it lowers the sum: on the free side +11
    (None, ("8-8", "2n")),  # double-eight makes plus eight: 47 + 8 = 55
    (("18-7", "0s"), ("12-8", "1n")),  # 18-7 scores 5, but spends a joker
    (None, ("11-6", "3s")),  # +5 to 55 (or -6 to 44)
    (("18-10", "0e"), ("12-5", "1n")),  # the fewest replies for the next player
]
WORDS = {
    "en": {"wrong": "Not this one.", "right": "Right.", "raises": "the sum is 52, no points",
           "joker": "spends your joker", "done": "You know how FIDO scores",
           "play": "Play your first game", "title": "Learn FIDO", "step": "Step 2 of 7"},
    "de": {"wrong": "Nicht dieser.", "right": "Richtig.",
           "raises": "Die Summe ist 52, keine Punkte", "joker": "heiligen Stein",
           "done": "Du weißt, wie FIDO punktet", "play": "Dein erstes Spiel",
           "title": "FIDO lernen", "step": "Schritt 2 von 7"},
}


def lay(page: Page, tile: str, slot: str) -> str:
    """Pick ``tile`` from the hand, then its place on the board; what the page says."""
    page.locator(f"#hand button[data-tile='{tile}']").click()
    page.locator(f"#board .target[data-slot='{slot}']").click()
    verdict = page.locator("#verdict")
    expect(verdict).to_be_visible()
    return verdict.inner_text()


def walk_the_lesson(page: Page, words: dict[str, str]) -> None:
    for i, (wrong, right) in enumerate(WALK):
        if i == 1:
            expect(page.locator("#step-count")).to_have_text(words["step"])
        if wrong is not None:
            said = lay(page, *wrong)
            assert said.startswith(words["wrong"]), said
            expect(page.locator("#next")).to_be_hidden()  # a wrong try does not go on
            if i == 1:
                assert words["raises"] in said, said
            if i == 4:
                assert words["joker"] in said, said
        said = lay(page, *right)
        assert said.startswith(words["right"]), (i, said)
        page.locator("#next").click()
    expect(page.locator("#done")).to_be_visible()
    expect(page.locator("#done h2")).to_have_text(words["done"])


def test_a_newcomer_learns_fido_then_plays_her_first_game(server: str) -> None:
    with chromium() as browser:
        for lang, size in (("en", (390, 844)), ("de", (1280, 900))):
            words = WORDS[lang]
            her = Person(browser, server, width=size[0], height=size[1],
                         locale="de-DE" if lang == "de" else "en-GB", seed=len(lang))
            page = her.page
            page.goto(f"{server}/")
            page.locator("a.learn-link").click()  # from the lobby: "New to FIDO?"
            expect(page).to_have_url(re.compile(r"/learn#step-1$"))
            expect(page.locator("h1")).to_have_text(words["title"])
            walk_the_lesson(page, words)
            page.get_by_role("button", name=words["play"]).click()
            expect(page).to_have_url(re.compile(r"/tables/[\w-]+$"))
            expect(page.locator("#hand .tile")).to_have_count(7)  # double-6 of three: 28 // 4
            # her first game, to its end, against the gentlest bots
            play_until([her], lambda who=her: bool(who.state().get("over")), timeout=120)
            assert not her.errors, her.errors
            her.close()


def test_the_lesson_page_is_whole_without_a_script(server: str) -> None:
    """Every step's texts are in the page (the script shows them; a reader's tools see them)."""
    page = httpx.get(f"{server}/learn").text
    assert 'id="lesson-config"' in page and "Keep a joker" in page
    german = httpx.get(f"{server}/learn", headers={"Accept-Language": "de"}).text
    assert "FIDO lernen" in german and "Keep a joker" not in german
