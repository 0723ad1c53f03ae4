"""Screenshots of the web app for docs/screenshots/:
``PYTHONPATH=tests python tools/screenshots/web_screenshots.py [DIR]`` (or ``make screenshots``).

A real server on a throwaway database and Debian's chromium: the lobby with
tables in it, a double-6 table and a double-18 table late in the game, with a
tile picked so its targets show, and the replay of a finished double-9 game
two thirds through with every hand open, each at phone (390x844) and desktop
(1440x900) size. Look at them after a change to the table or replay page.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page

from support.server_live import live_server
from support.web_browser import Person, chromium, play_until

SIZES = {"phone": (390, 844), "desktop": (1440, 900)}


def _pick_a_tile(person: Person) -> None:
    """Wait for her turn with a tile to place, and pick the one with most targets."""
    page = person.page
    play_until([person], lambda: bool(page.locator("#hand .tile.playable").count())
               or person.state()["over"], timeout=60)
    tiles = page.locator("#hand .tile.playable").evaluate_all(
        "els => els.map(e => e.dataset.tile)")
    if not tiles:
        return
    best = max(tiles, key=lambda t: page.evaluate(
        "t => window.fidoTable.view.legal.filter(m => m.tile === t).length", t))
    page.locator(f"#hand .tile[data-tile='{best}']").click()
    page.wait_for_selector("#targets button")


def _replay_step(page: Page) -> None:
    """The replay two thirds through, on a placement that scored if one is near."""
    page.wait_for_function("() => window.fidoReplay && window.fidoReplay.data")
    step = page.evaluate("""() => {
        const steps = window.fidoReplay.data.steps;
        const from = Math.floor(steps.length * 2 / 3);
        for (let i = from; i < steps.length; i++) if (steps[i].points) return i;
        return from;
    }""")
    page.locator("#slider").fill(str(step))
    page.evaluate("() => document.activeElement.blur()")


def _shoot(person: Person, name: str, out: Path, browser: object,
           prepare: Callable[[Page], None] | None = None) -> None:
    """The same page at both sizes (a second context with her cookies, same seat)."""
    state = person.context.storage_state()
    url = person.page.url
    selected = person.page.evaluate("() => window.fidoTable ? window.fidoTable.selected : null")
    for size, (width, height) in SIZES.items():
        ctx = browser.new_context(  # type: ignore[attr-defined]
            viewport={"width": width, "height": height}, storage_state=state,
            device_scale_factor=1)
        page = ctx.new_page()
        page.goto(url)
        if prepare is not None:
            prepare(page)
        elif "/tables/" in url:
            page.wait_for_function("() => window.fidoTable && window.fidoTable.view")
            if selected:
                page.locator(f"#hand .tile[data-tile='{selected}']").click()
                page.wait_for_selector("#targets button")
                page.evaluate("() => document.activeElement.blur()")
        time.sleep(0.3)
        page.screenshot(path=str(out / f"{name}-{size}.png"))
        ctx.close()


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, live_server(f"sqlite:///{tmp}/shots.db") as base, \
            chromium() as browser:
        anna = Person(browser, base, seed=7)
        anna.sign_up("Anna")
        anna.create_table("fido", 12, ("me", "open", "open", "bot:expert"))
        bea = Person(browser, base, seed=8)
        bea.sign_up("Bea")
        bea.create_table("block", 6, ("me", "bot:greedy"))
        cleo = Person(browser, base, seed=9)
        cleo.sign_up("Cleo")
        _shoot(cleo, "lobby", out, browser)

        cleo.create_table("fido", 6, ("me", "bot:expert", "bot:greedy"))
        cleo.page.wait_for_function("() => window.fidoTable.view")
        moves = 0
        while moves < 2 and not cleo.state()["over"]:
            _pick_a_tile(cleo)
            cleo.page.locator("#targets button").first.click()
            cleo.page.wait_for_function("() => !window.fidoTable.pending")
            moves += 1
        _pick_a_tile(cleo)
        _shoot(cleo, "table-double6", out, browser)

        dora = Person(browser, base, seed=10)
        dora.sign_up("Dora")
        dora.create_table("fido", 18, ("me", "bot:expert", "bot:greedy", "bot:expert",
                                       "bot:greedy"))
        dora.page.wait_for_function("() => window.fidoTable.view")
        play_until([dora], lambda: len(dora.state()["table"]) >= 120
                   or len(dora.state()["hand"]) <= 8 or dora.state()["over"], timeout=300)
        _pick_a_tile(dora)
        _shoot(dora, "table-double18", out, browser)

        erin = Person(browser, base, seed=11)
        erin.sign_up("Erin")
        table = erin.create_table("fido", 9, ("me", "bot:expert", "bot:greedy", "bot:expert"))
        erin.page.wait_for_function("() => window.fidoTable.view")
        play_until([erin], lambda: erin.state()["over"], timeout=300)
        erin.goto(f"/tables/{table}/replay")
        _shoot(erin, "replay", out, browser, _replay_step)
        for p in (anna, bea, cleo, dora, erin):
            p.close()
    print(f"screenshots in {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots"))
