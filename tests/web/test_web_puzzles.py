"""Puzzles in chromium (issue 44): the puzzle of the day from the lobby, solved (her
puzzle rating moves, shown), the next one missed in German with the answer and why."""

from __future__ import annotations

import datetime as dt
import re

from playwright.sync_api import Page, expect

from fido import puzzles
from fido.engine.moves import Placement
from fido.puzzles import Puzzle
from support.web_browser import chromium


def lay(page: Page, puzzle: Puzzle, move_text: str) -> str:
    """Pick the move's tile, then its place; what the page says."""
    move = next(m for m in puzzle.seat_view().legal_moves
                if isinstance(m, Placement) and m.text() == move_text)
    slot = puzzle.seat_view().table.slot_name(move.slot)
    page.locator(f"#hand button[data-tile='{move.tile.text()}']").click()
    page.locator(f"#board .target[data-slot='{slot}']").click()
    verdict = page.locator("#verdict")
    expect(verdict).to_be_visible()
    return verdict.inner_text()


def test_the_puzzle_of_the_day_then_the_next_in_german(server: str) -> None:
    errors: list[str] = []
    with chromium() as browser:
        context = browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(f"{server}/")
        page.get_by_role("button", name=re.compile("Play now")).click()  # a guest, seated
        expect(page).to_have_url(re.compile(r"/tables/"))
        page.goto(f"{server}/")
        page.locator("a.puzzle-link").click()
        expect(page).to_have_url(re.compile(r"/puzzles$"))
        day = puzzles.daily(dt.datetime.now(dt.UTC).date())
        expect(page.locator("h1")).to_have_text("Puzzle of the day")
        said = lay(page, day, day.best[-1])  # a move the same for the rules counts too
        after = round(puzzles.rated(puzzles.START, 0, day.rating, solved=True))
        assert said.startswith("Right.") and f"Your puzzle rating: 1500 → {after}." in said
        expect(page.locator("#my-rating")).to_have_text(f"Yours: {after}")
        page.locator("#next").click()
        expect(page).to_have_url(re.compile(r"/puzzles/next\?after="))
        shown = page.locator("#puzzle").get_attribute("data-id")
        nxt = puzzles.by_id(shown or "")
        assert nxt is not None and nxt.id != day.id
        page.goto(f"{server}/puzzles/{nxt.id}?lang=de")
        expect(page.locator("h1")).to_have_text("Aufgabe")
        said = lay(page, nxt, nxt.second)
        assert said.startswith(f"Nicht dieser: Der beste Zug ist {nxt.best[0]}."), said
        assert "Deine Lösestärke:" in said and "Verteilungen der Steine" in said
        context.close()
    assert not errors, errors
