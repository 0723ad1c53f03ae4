"""German screenshots for docs/screenshots/ (issue 24):
``PYTHONPATH=tests python tools/screenshots/german_screenshots.py [DIR]`` (``make screenshots``
runs it too).

A real server on a throwaway database holding the small league of :mod:`ranking_league`,
and Debian's chromium asking for German (``Accept-Language: de-DE``, as a German
browser does): the lobby, a double-12 table with a tile picked, the replay of a
finished double-9 game and the world ranking, each at phone (390x844) and desktop
(1440x900) size, named ``de-<page>-<size>.png``. Look at them after a change to a page.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page
from web_screenshots import SIZES, _pick_a_tile, _replay_step

from fido.store import open_store
from support.ranking_league import small_league
from support.server_live import live_server
from support.web_browser import GERMAN, Person, chromium, play_until


def _shoot(browser: Browser, url: str, name: str, out: Path, *, state: Any = None,
           prepare: Callable[[Page], None] | None = None) -> None:
    for size, (width, height) in SIZES.items():
        ctx = browser.new_context(viewport={"width": width, "height": height},
                                  storage_state=state, device_scale_factor=1, **GERMAN)
        page = ctx.new_page()
        page.goto(url)
        if prepare is not None:
            prepare(page)
        time.sleep(0.3)
        page.screenshot(path=str(out / f"de-{name}-{size}.png"))
        ctx.close()


def _table_with_a_tile_picked(tile: str | None) -> Callable[[Page], None]:
    def prepare(page: Page) -> None:
        page.wait_for_function("() => window.fidoTable && window.fidoTable.view")
        if tile:
            page.locator(f"#hand .tile[data-tile='{tile}']").click()
            page.wait_for_selector("#targets button")
            page.evaluate("() => document.activeElement.blur()")
    return prepare


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/de.db"
        store = open_store(url)
        small_league(store)
        store.close()
        with live_server(url) as base, chromium() as browser:
            bea = Person(browser, base, seed=8, **GERMAN)
            bea.sign_up("Bea")
            bea.create_table("fido", 9, ("me", "open", "bot:expert", "bot:greedy"))
            cleo = Person(browser, base, seed=9, **GERMAN)
            cleo.sign_up("Cleo")
            _shoot(browser, base + "/", "lobby", out, state=cleo.context.storage_state())

            anna = Person(browser, base, seed=7, **GERMAN)
            anna.sign_up("Anna")
            anna.create_table("fido", 12, ("me", "bot:expert", "bot:greedy", "bot:expert"))
            anna.page.wait_for_function("() => window.fidoTable.view")
            moves = 0
            while moves < 3 and not anna.state()["over"]:
                _pick_a_tile(anna)
                anna.page.locator("#targets button").first.click()
                anna.page.wait_for_function("() => !window.fidoTable.pending")
                moves += 1
            _pick_a_tile(anna)
            selected = anna.page.evaluate("() => window.fidoTable.selected")
            _shoot(browser, anna.page.url, "table-double12", out,
                   state=anna.context.storage_state(), prepare=_table_with_a_tile_picked(selected))

            erin = Person(browser, base, seed=11, **GERMAN)
            erin.sign_up("Erin")
            table = erin.create_table("fido", 9, ("me", "bot:expert", "bot:greedy", "bot:expert"))
            erin.page.wait_for_function("() => window.fidoTable.view")
            play_until([erin], lambda: erin.state()["over"], timeout=300)
            _shoot(browser, f"{base}/tables/{table}/replay", "replay", out,
                   state=erin.context.storage_state(), prepare=_replay_step)
            _shoot(browser, base + "/ranking", "ranking", out)
            for p in (anna, bea, cleo, erin):
                p.close()
    print(f"screenshots in {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots"))
