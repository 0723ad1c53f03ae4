"""Screenshots of turn-based play for docs/screenshots/:
``PYTHONPATH=tests python tools/screenshots/turn_based_screenshots.py [DIR]`` (or
``make screenshots``).

A real server on a throwaway database and Debian's chromium: a turn-based FIDO table
(a day a move) of two people and two bots, at her turn; her list of running games
(``/games``), those waiting for her first with the time left; each at phone (390x844)
and desktop (1440x900) size. Look at them after a change to the table page or the list.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from support.server_live import browser as http_client
from support.server_live import live_server
from support.web_browser import Person, chromium

SIZES = {"phone": (390, 844), "desktop": (1440, 900)}


def _person(base: str, name: str) -> Any:
    client = http_client(base)
    r = client.post("/api/accounts", json={"name": name, "password": "correct horse battery"})
    assert r.status_code in (200, 201), r.text
    return client


def _table(client: Any, ruleset: str, players: int, seats: list[dict[str, Any]],
           clock: int = 86400) -> str:
    r = client.post("/api/tables", json={"ruleset": ruleset, "players": players,
                                         "seats": seats, "clock": clock})
    assert r.status_code == 201, r.text
    table: str = r.json()["id"]
    return table


def _shoot(browser: Any, base: str, client: Any, path: str, *, name: str, out: Path) -> None:
    for size, (width, height) in SIZES.items():
        person = Person(browser, base, width=width, height=height)
        person.context.add_cookies([{"name": k, "value": v, "url": base}
                                    for k, v in client.cookies.items()])
        person.goto(path)
        if "/tables/" in path:
            person.page.wait_for_function("() => window.fidoTable && window.fidoTable.view")
        time.sleep(0.8)
        person.page.screenshot(path=str(out / f"{name}-{size}.png"))
        person.close()


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    bot = {"kind": "bot", "level": "expert"}
    with tempfile.TemporaryDirectory() as tmp, live_server(f"sqlite:///{tmp}/shots.db") as base, \
            chromium() as browser:
        anna, bea = _person(base, "Anna"), _person(base, "Bea")
        # three games waiting for Anna (bots move at once), one for Bea
        tables = [_table(anna, "fido set=9", 4, [{"kind": "me"}, {"kind": "open"}, bot, bot])]
        r = bea.post(f"/api/tables/{tables[0]}/seats", json={})
        assert r.status_code in (200, 201), r.text
        tables.append(_table(anna, "fido set=12", 3, [{"kind": "me"}, bot, bot], 43200))
        tables.append(_table(anna, "muggins", 2, [{"kind": "me"}, bot], 259200))
        theirs = _table(bea, "fido set=6", 3, [{"kind": "me"}, {"kind": "open"}, bot], 3600)
        r = anna.post(f"/api/tables/{theirs}/seats", json={})
        assert r.status_code in (200, 201), r.text
        time.sleep(1.5)  # the bots' first moves
        _shoot(browser, base, anna, f"/tables/{tables[1]}", name="turn-based-table", out=out)
        _shoot(browser, base, anna, "/games", name="games-waiting", out=out)
    print(f"screenshots in {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots"))
