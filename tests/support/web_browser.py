"""A real browser for the web tests and the screenshots: Debian's chromium, headless,
driven by Playwright for Python, and what a person does on the pages.

``make test`` installs chromium when it is missing (``apt-get``, as for
PostgreSQL); ``FIDO_CHROMIUM`` names another binary.
"""

from __future__ import annotations

import copy
import os
import random
import re
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.metadata import version
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, sync_playwright

CHROMIUM = os.environ.get("FIDO_CHROMIUM", "/usr/bin/chromium")
# a German browser: its locale and the Accept-Language it sends (issue 24's tests, shots)
GERMAN: dict[str, Any] = {"locale": "de-DE", "extra_http_headers": {"Accept-Language": "de-DE"}}
TILE = re.compile(r"(?<![\d-])(\d{1,2})-(\d{1,2})(?![\d-])")  # a tile's notation in any text


def chromium_path() -> str | None:
    """The browser to drive, if installed."""
    if os.path.exists(CHROMIUM):
        return CHROMIUM
    return shutil.which("chromium")


@contextmanager
def chromium() -> Iterator[Browser]:
    """Headless chromium for the duration of the block."""
    path = chromium_path()
    if path is None:
        raise RuntimeError(
            f"no chromium at {CHROMIUM}: `make test` installs Debian's package "
            "(apt-get install chromium), or set FIDO_CHROMIUM to a Chromium binary"
        )
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, headless=True)
        try:
            yield browser
        finally:
            browser.close()


def browser_session(request: pytest.FixtureRequest) -> Iterator[Browser]:
    """The body of the web tests' ``browser`` fixture: chromium, its version printed once
    per module in the test output (not captured)."""
    if chromium_path() is None:
        pytest.fail("chromium is not installed: `make test` installs it (apt-get install "
                    "chromium), or set FIDO_CHROMIUM")
    with chromium() as b:
        line = f"web tests: chromium {b.version} (headless), Playwright {version('playwright')}"
        capture = request.config.pluginmanager.get_plugin("capturemanager")
        if capture is not None:
            with capture.global_and_fixture_disabled():
                print(f"\n{line}", flush=True)
        else:
            print(line)
        yield b


def tiles_in(text: str) -> set[str]:
    """Every tile written in ``text`` (``9-4``, also inside ``9-4@3e``), higher half first."""
    out = set()
    for a, b in TILE.findall(text):
        hi, lo = max(int(a), int(b)), min(int(a), int(b))
        out.add(f"{hi}-{lo}")
    return out


class Person:
    """One person in her own browser context (her own cookies)."""

    def __init__(self, browser: Browser, base: str, *, width: int = 1280, height: int = 900,
                 seed: int = 0, **options: Any) -> None:
        """``options`` go to her browser context as they are (a phone: ``is_mobile``,
        ``has_touch``, ``device_scale_factor``)."""
        self.base = base
        self.context: BrowserContext = browser.new_context(
            viewport={"width": width, "height": height}, **options)
        self.page: Page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.rng = random.Random(seed)

    def close(self) -> None:
        self.context.close()

    def new_tab(self) -> Person:
        """Another tab of hers: the same context (her cookies), a page of its own.
        Close her, not the tab: the context is shared."""
        tab = copy.copy(self)
        tab.page = self.context.new_page()
        tab.errors = []
        tab.page.on("pageerror", lambda e: tab.errors.append(str(e)))
        tab.page.on("console", lambda m: tab.errors.append(m.text) if m.type == "error" else None)
        return tab

    def goto(self, path: str) -> None:
        self.page.goto(self.base + path)

    def sign_up(self, name: str, password: str = "correct horse battery") -> None:
        self.goto("/signup")
        self.page.fill("input[name=name]", name)
        self.page.fill("input[name=password]", password)
        self.page.click("form[action='/signup'] button[type=submit]")
        self.page.wait_for_url(self.base + "/")

    def create_table(self, game: str = "fido", size: int = 9, seats: tuple[str, ...] = (
            "me", "open", "bot:expert", "bot:expert")) -> str:
        """Open a table through the lobby's form; returns its id."""
        self.goto("/")
        form = self.page.locator("#create-form")
        form.locator("select[name=game]").select_option(game)
        if game == "fido":
            form.locator("select[name=set]").select_option(str(size))
        form.locator("select[name=players]").select_option(str(len(seats)))
        for i, kind in enumerate(seats):
            form.locator(f"select[name=seat{i}]").select_option(kind)
        form.locator("button[type=submit]").click()
        self.page.wait_for_url(re.compile(r".*/tables/[A-Za-z0-9_-]+$"))
        return self.page.url.rsplit("/", 1)[1]

    # ------------------------------------------------------------ the table page

    def state(self) -> dict[str, Any]:
        """What the table page knows (its ``window.fidoTable``), in short."""
        result: dict[str, Any] = self.page.evaluate("""() => {
            const s = window.fidoTable;
            if (!s) return { ready: false };
            const v = s.view;
            return { ready: true, seq: s.seq, seat: s.seat, pending: Boolean(s.pending),
                     connected: Boolean(s.socket && s.socket.readyState === 1),
                     started: Boolean(v), over: Boolean(v && v.outcome),
                     turn: v ? v.turn : null, log: s.log.length,
                     hand: v ? v.hand : [], table: v ? v.table : [] };
        }""")
        return result

    def my_turn(self, st: dict[str, Any] | None = None) -> bool:
        st = st or self.state()
        return bool(st.get("started") and not st["over"] and not st["pending"]
                    and st["connected"] and st["turn"] == st["seat"])

    def hand(self) -> list[str]:
        return sorted(self.page.locator("#hand .tile").evaluate_all(
            "els => els.map(e => e.dataset.tile)"))

    def _clickable(self, target: Locator) -> bool:
        """Whether a person sees the board's target and can click it (it is in the
        board's view, not under its buttons); else she uses the list."""
        return self.reachable(target)

    def reachable(self, place: Locator) -> bool:
        """Whether the board's target or slot marker is in view and on top at its centre."""
        if not place.count():
            return False
        result: bool = place.evaluate("""el => {
            const r = el.getBoundingClientRect();
            const x = r.left + r.width / 2, y = r.top + r.height / 2;
            const hit = document.elementFromPoint(x, y);
            return Boolean(hit && hit.closest("[data-slot]") === el);
        }""")
        return result

    def play_one(self, *, prefer: str = "random", via: str = "any") -> str:
        """Make one move by clicking, as a person does: a playable tile, then one of
        its targets (on the board or in the list), or draw or pass; wait until it is
        in the log and acknowledged. Returns the move."""
        before = self.state()["log"]
        move = self.click_a_move(prefer=prefer, via=via)
        self.page.wait_for_function(f"() => window.fidoTable.log.length > {before} "
                                    "&& !window.fidoTable.pending", timeout=15_000)
        return move

    def click_a_move(self, *, prefer: str = "random", via: str = "any") -> str:
        """The clicks of :meth:`play_one`, without waiting for the answer. Returns the move."""
        page = self.page
        playable = page.locator("#hand .tile.playable")
        count = playable.count()
        if count:
            tiles = playable.evaluate_all("els => els.map(e => e.dataset.tile)")
            tile = tiles[0] if prefer == "first" else self.rng.choice(tiles)
            page.locator(f"#hand .tile[data-tile='{tile}']").click()
            buttons = page.locator("#targets button")
            buttons.first.wait_for()
            moves = buttons.evaluate_all("els => els.map(e => e.dataset.move)")
            points = buttons.evaluate_all("els => els.map(e => e.classList.contains('scores'))")
            index = self.rng.randrange(len(moves))
            if prefer == "best" and any(points):
                index = points.index(True)
            move = str(moves[index])
            slot = move.split("@")[1] if "@" in move else "open"
            on_board = page.locator(f"#board .target[data-slot='{slot}']")
            use_board = via == "board" or (via == "any" and self.rng.random() < 0.5)
            if use_board and on_board.count() and self._clickable(on_board):
                on_board.click()
            else:
                buttons.nth(index).click()
        else:
            for name in ("draw", "pass"):
                button = page.locator(f"#{name}")
                if button.is_visible():
                    move = name
                    button.click()
                    break
            else:
                raise AssertionError("my turn, but no tile, no draw and no pass to click")
        return move


def play_until(people: list[Person], stop: Any, timeout: float = 240.0,
               on_move: Any = None) -> None:
    """Each person plays whenever it is her turn, until ``stop()`` is true."""
    deadline = time.monotonic() + timeout
    while not stop():
        assert time.monotonic() < deadline, "the game did not get on"
        moved = False
        for person in people:
            if person.my_turn():
                move = person.play_one()
                moved = True
                if on_move is not None:
                    on_move(person, move)
        if not moved:
            time.sleep(0.03)


def sign_in_page(page: Page, base: str, name: str, password: str) -> None:
    """Sign in as a person does: the sign-in page's form, filled and sent."""
    page.goto(f"{base}/signin")
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
