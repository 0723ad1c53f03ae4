"""Screenshots of an event for docs/screenshots/:
``PYTHONPATH=tests python tools/screenshots/event_screenshots.py [DIR]`` (``make screenshots``
runs it too).

A real server on a throwaway database: 15 players with ranking numbers, an
online championship in groups of five over three rounds (nobody connects,
so the stand-in bots play every seat), two rounds played; then the event's
page (standings and rounds) and the first round's table cards, at phone
(390x844) and desktop (1440x900) size.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from web_screenshots import SIZES

from fido.accounts.roles import find_account, grant
from fido.ranking import register_player
from fido.store import open_store
from support.server_live import browser as http_client
from support.server_live import link, live_server
from support.web_browser import chromium

NAMES = ["Anna", "Bodo", "Carla", "Dörte", "Emil", "Frida", "Gesa", "Hinnerk", "Ilse",
         "Jonte", "Kalle", "Lene", "Momme", "Nele", "Ole", "Piet"]


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/events.db"
        store = open_store(url)
        with store.session() as s:
            numbers = [register_player(s, f"{n} Test").number for n in NAMES]
        store.close()
        with live_server(url) as base, chromium() as browser:
            people = []
            for name, number in zip(NAMES, numbers, strict=True):
                c = http_client(base)
                c.post("/api/accounts", json={"name": name, "password": "a long secret 1"})
                link(url, name, number)
                people.append(c)
            store = open_store(url)
            with store.session() as s:
                grant(s, find_account(s, "Piet"), "organiser", "club:Rostock")
            store.close()
            boss = people[-1]
            event = boss.post("/api/events", json={
                "name": "Rostock Cup 2026", "starts_on": "2026-11-28", "ends_on": "2026-11-29",
                "set": 9, "table_size": 5, "rounds": 3, "grace": 0}).json()
            for c in people[:-1]:
                c.post(f"/api/events/{event['id']}/entries", json={})
            for _ in range(2):
                boss.post(f"/api/events/{event['id']}/rounds")
                while not boss.get(f"/api/events/{event['id']}").json()["round_over"]:
                    time.sleep(0.3)
            pages = {"event": f"/events/{event['id']}",
                     "event-cards": f"/events/{event['id']}/rounds/1/cards"}
            for name, path in pages.items():
                for size, (width, height) in SIZES.items():
                    ctx = browser.new_context(viewport={"width": width, "height": height},
                                              device_scale_factor=1)
                    ctx.add_cookies([{"name": k, "value": v, "url": base}
                                     for k, v in boss.cookies.items()])
                    page = ctx.new_page()
                    page.goto(base + path)
                    page.screenshot(path=str(out / f"{name}-{size}.png"), full_page=True)
                    ctx.close()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots"))
