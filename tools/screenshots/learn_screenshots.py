"""Screenshots of the first lesson and of a puzzle for docs/screenshots/:
``PYTHONPATH=tests python tools/screenshots/learn_screenshots.py [DIR]`` (or
``make screenshots``).

A real server on a throwaway database and Debian's chromium: the lesson's second step
after a wrong try (its explanation shown), the fifth after the right move, in English and
German, each at phone (390x844) and desktop (1440x900) size; the easiest puzzle answered
wrongly (the answer and why shown). Look at them after a change to the lesson, the
puzzles or their pages.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from fido import puzzles
from fido.engine.moves import Placement
from support.server_live import live_server
from support.web_browser import chromium

SIZES = {"phone": (390, 844), "desktop": (1440, 900)}


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, live_server(f"sqlite:///{tmp}/shots.db") as base, \
            chromium() as browser:
        for lang, locale in (("en", "en-GB"), ("de", "de-DE")):
            for size, (width, height) in SIZES.items():
                context = browser.new_context(viewport={"width": width, "height": height},
                                              locale=locale)
                page = context.new_page()
                page.goto(f"{base}/learn#step-2")
                page.locator("#hand button[data-tile='16-12']").click()
                page.locator("#board .target[data-slot='1n']").click()
                page.locator("#verdict").wait_for()
                page.screenshot(path=str(out / f"learn-wrong-{lang}-{size}.png"), full_page=True)
                page.goto(f"{base}/learn#step-5")
                page.reload()
                page.locator("#hand button[data-tile='12-8']").click()
                page.locator("#board .target[data-slot='1n']").click()
                page.locator("#next").wait_for()
                page.screenshot(path=str(out / f"learn-right-{lang}-{size}.png"), full_page=True)
                p = puzzles.load()[0]
                view = p.seat_view()
                move = next(m for m in view.legal_moves
                            if isinstance(m, Placement) and m.text() == p.second)
                page.goto(f"{base}/puzzles/{p.id}")
                page.locator(f"#hand button[data-tile='{move.tile.text()}']").click()
                slot = view.table.slot_name(move.slot)
                page.locator(f"#board .target[data-slot='{slot}']").click()
                page.locator("#verdict").wait_for()
                page.screenshot(path=str(out / f"puzzle-{lang}-{size}.png"), full_page=True)
                context.close()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots"))
