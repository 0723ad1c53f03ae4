"""The game ratings in a real browser (docs/ratings.md): each seat's rating beside her
name at the table (a bot's fixed one too), at the game's end what the game moved, as
the server stored it, and hers in the lobby."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, expect

from fido.ratings import BOT_RATINGS
from fido.ratings.model import SCALE
from support.web_browser import Person, play_until


def test_the_table_shows_each_seats_rating_and_what_the_game_moved(
        browser: Browser, server: str) -> None:
    rita = Person(browser, server, seed=41)
    try:
        rita.sign_up("Rita")
        rita.create_table("fido", 6, ("me", "bot:greedy", "bot:expert"))
        page = rita.page
        page.wait_for_function("() => window.fidoTable && window.fidoTable.view")
        mine = page.locator("#seats .seat.mine .rating")
        expect(mine).to_have_text("1500?")  # a newcomer: provisional
        ratings = page.locator("#seats .seat .rating")
        expect(ratings.nth(1)).to_have_text(str(round(BOT_RATINGS["greedy"] * SCALE)))
        expect(ratings.nth(2)).to_have_text(str(round(BOT_RATINGS["expert"] * SCALE)))
        play_until([rita], lambda: rita.state()["over"], timeout=120)
        # the game's end: her new rating and what the game moved, as stored
        expect(mine).to_contain_text("(", timeout=10_000)
        me = page.evaluate("() => window.fidoTable.table.seats[0].account")
        stored = page.request.get(f"{server}/api/players/{me}/ratings/fido:6").json()
        change = stored["history"][-1]["change"]
        text = mine.inner_text()
        assert re.fullmatch(rf"{stored['rating']['rating']}\? \([+−]{abs(change)}\)", text), (
            text, stored)
        assert ("+" in text) == (change > 0)
        # the lobby names it too, beside "Play with people"
        rita.goto("/")
        expect(page.locator("#my-ratings")).to_have_text(
            f"Your game ratings: FIDO double-6 {stored['rating']['rating']}?")
        assert not rita.errors, rita.errors
    finally:
        rita.close()
