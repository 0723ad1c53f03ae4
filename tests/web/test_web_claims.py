"""An account asks to be a ranking player on her results page, and the federation
answers on its page, in the real browser (SQLite and, with PostgreSQL, both).

With ``FIDO_SHEET_SHOTS=DIR`` the two pages are photographed into DIR.
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import Browser, Page, expect
from sqlalchemy import func, select

from fido.accounts.roles import FEDERATION, find_account, grant
from fido.ranking import register_player
from fido.store import Account, PlayerClaim, open_store
from support.server_live import live_server
from support.web_browser import Person

SHOTS = os.environ.get("FIDO_SHEET_SHOTS")


def _shoot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/claim-{name}.png", full_page=True)


def _state(url: str) -> tuple[int, int | None]:
    """(requests stored, Anna's linked player id)."""
    store = open_store(url)
    with store.session(write=False) as s:
        n = s.scalar(select(func.count()).select_from(PlayerClaim)) or 0
        anna = s.scalar(select(Account).where(Account.name == "anna"))
        player = anna.player_id if anna else None
    store.close()
    return n, player


def test_a_player_asks_and_the_federation_approves(browser: Browser, store_url: str) -> None:
    store = open_store(store_url)
    with store.session() as s:
        number = register_player(s, "Anna <b>Berg</b>").number
        register_player(s, "Bert Lund")
    store.close()
    with live_server(store_url) as base:
        anna = Person(browser, base, seed=1, width=390, height=844)
        fiona = Person(browser, base, seed=2)
        anna.sign_up("anna")
        fiona.sign_up("fiona")
        store = open_store(store_url)
        with store.session() as s:
            grant(s, find_account(s, "fiona"), FEDERATION)
        store.close()

        page = anna.page
        anna.goto("/sheets")
        expect(page.locator(".notice").first).to_contain_text("not linked")
        form = page.locator("#claim-form")
        # a number nobody has, and one out of range: refused on the page, nothing stored
        for bad, why in ((str(number + 500), "no registered player"),
                         ("9999999999", "whole number")):
            form.locator("[name=number]").fill(bad)
            form.locator("button").click()
            expect(page.locator("[role=alert]")).to_contain_text(why)
            expect(form.locator("[name=number]")).to_have_value(bad)  # kept to correct
            assert _state(store_url) == (0, None)
        form.locator("[name=number]").fill(str(number))
        form.locator("button").click()
        expect(page.locator("#claim")).to_contain_text(f"You asked to be player {number}")
        expect(page.locator("#claim")).to_contain_text("Anna <b>Berg</b>")  # escaped, as typed
        assert _state(store_url) == (1, None)  # asked, not linked
        _shoot(page, "asked")

        # the federation sees one request waiting, in the nav and on its page
        fed = fiona.page
        fiona.goto("/")
        expect(fed.locator("nav a[href='/admin/roles'] .badge")).to_have_text("1")
        fiona.goto("/admin/roles")
        row = fed.locator("#claims tbody tr")
        expect(row).to_have_count(1)
        expect(row).to_contain_text("anna")
        expect(row).to_contain_text(f"player {number}, Anna <b>Berg</b>")
        _shoot(fed, "federation")
        row.locator("button[value=approve]").click()
        expect(fed.locator("[role=status]")).to_contain_text(f"anna is player {number}")
        expect(fed.locator("#claims")).to_have_count(0)
        expect(fed.locator("nav a[href='/admin/roles'] .badge")).to_have_count(0)
        assert _state(store_url)[1] is not None

        # her inbox says so; her results page, which shows the answer, reads it
        anna.goto("/inbox")
        expect(page.locator(".inbox-link .badge")).to_have_text("1")
        note = page.locator("#inbox li").first
        expect(note).to_contain_text(f"Player {number}")
        expect(note).to_contain_text("answered your request")
        expect(note.locator(".status")).to_have_text("approved")
        _shoot(page, "inbox")
        note.locator("a").click()
        expect(page.locator(".hint").first).to_contain_text(f"Player {number}, Anna <b>Berg</b>")
        expect(page.locator("#claim-form")).to_have_count(0)
        expect(page.locator(".inbox-link .badge")).to_have_count(0)
        anna.close()
        fiona.close()


def test_only_the_federation_answers(browser: Browser, store_url: str) -> None:
    store = open_store(store_url)
    with store.session() as s:
        number = register_player(s, "Cleo").number
    store.close()
    with live_server(store_url) as base:
        cleo = Person(browser, base, seed=3)
        cleo.sign_up("cleo")
        Person(browser, base, seed=4).sign_up("fed")
        store = open_store(store_url)
        with store.session() as s:
            grant(s, find_account(s, "fed"), FEDERATION)
        store.close()
        cleo.goto("/sheets")
        cleo.page.locator("#claim-form [name=number]").fill(str(number))
        cleo.page.locator("#claim-form button").click()
        expect(cleo.page.locator("#claim")).to_contain_text("has not answered")
        # her own request, approved by herself through the federation's form: refused
        cleo.goto("/admin/roles")
        expect(cleo.page.locator("h1")).to_contain_text("The federation only")
        r = cleo.page.request.post(f"{base}/admin/roles", form={
            "csrf_token": next(c["value"] for c in cleo.context.cookies()
                               if c["name"] == "fido_csrf"),
            "action": "approve", "claim": "1"})
        assert r.status == 403
        store = open_store(store_url)
        with store.session(write=False) as s:
            assert find_account(s, "cleo").player_id is None
        store.close()
        cleo.close()


def test_at_home_she_becomes_a_player_with_one_click(browser: Browser, store_url: str) -> None:
    """No federation account on the server (as `make run` starts): her results page links
    at once, or makes her a new player of the server's ranking."""
    with live_server(store_url) as base:
        hana = Person(browser, base, seed=5, width=390, height=844)
        hana.sign_up("hana")
        hana.goto("/sheets")
        page = hana.page
        expect(page.locator(".notice").first).to_contain_text("no federation account")
        page.get_by_role("button", name="Make me a new player").click()
        expect(page.locator(".hint").first).to_contain_text("Player 1, hana")
        expect(page.locator("#new-player-form")).to_have_count(0)
        _shoot(page, "home")
        hana.close()
