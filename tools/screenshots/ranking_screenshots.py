"""Screenshots of the world ranking pages for docs/screenshots/:
``python tools/screenshots/ranking_screenshots.py [DIR]`` (``make screenshots`` runs it too).

A real server on a throwaway database holding the small league of
:mod:`ranking_league` (two published months), and Debian's chromium: the
ranking of the latest month and a player's page (her chart and counted
games), each at phone (390x844) and desktop (1440x900) size.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from web_screenshots import SIZES

from fido.store import open_store
from support.ranking_league import small_league
from support.server_live import live_server
from support.web_browser import chromium


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/ranking.db"
        store = open_store(url)
        numbers = small_league(store)
        store.close()
        pages = {
            "ranking": "/ranking",
            "ranking-player": f"/ranking/players/{numbers['Frida Holm']}",
        }
        with live_server(url) as base, chromium() as browser:
            for name, path in pages.items():
                for size, (width, height) in SIZES.items():
                    ctx = browser.new_context(viewport={"width": width, "height": height},
                                              device_scale_factor=1)
                    page = ctx.new_page()
                    page.goto(base + path)
                    page.screenshot(path=str(out / f"{name}-{size}.png"))
                    ctx.close()
    print(f"screenshots in {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots"))
