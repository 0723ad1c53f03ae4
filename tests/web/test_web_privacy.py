"""The law's pages and a person's data, in the real browser: the footer's links on every
page, the operator's Impressum (her Markdown, its HTML shown as text), the privacy
page's list of what is stored and its cookies, and her account's page: the file of her
data downloaded, the account deleted with her password.

With ``FIDO_SHOTS=DIR`` the pages are photographed into DIR, at phone and desktop size.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from fido.accounts import legal
from fido.accounts.privacy import SECTIONS
from fido.store import open_store
from support.server_live import browser as client
from support.web_browser import sign_in_page

SHOTS = os.environ.get("FIDO_SHOTS")
PASSWORD = "a long enough password"


def _shoot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def test_the_impressum_is_the_operators_own(browser: Browser, server: str,
                                            web_db: str) -> None:
    page = browser.new_page()
    try:
        r = page.goto(f"{server}/impressum")
        assert r is not None and r.status == 404  # not written yet: said so
        expect(page.get_by_role("status")).to_contain_text("has not written an Impressum")
        store = open_store(web_db)
        try:
            with store.session() as s:  # as `fido legal set impressum FILE --lang de`
                legal.set_text(s, "impressum", "de", "## Angaben\n\nDomino-Verein Rostock e. V."
                               "\n\n<script>alert(1)</script> [mail](mailto:v@example.org)")
        finally:
            store.close()
        r = page.goto(f"{server}/impressum")
        assert r is not None and r.status == 200
        text = page.locator(".legal-text")
        expect(text.get_by_role("heading", name="Angaben")).to_be_visible()
        expect(text).to_contain_text("Domino-Verein Rostock e. V.")
        expect(text).to_contain_text("<script>alert(1)</script>")  # shown, never run
        assert text.get_attribute("lang") == "de"  # the only language written
        expect(text.get_by_role("link", name="mail")).to_have_attribute(
            "href", "mailto:v@example.org")
    finally:
        page.close()


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_my_data_and_my_account_in_the_browser(browser: Browser, server: str,
                                               size: tuple[int, int]) -> None:
    name = f"Ilse{size[0]}"
    assert client(server).post("/api/accounts", json={
        "name": name, "password": PASSWORD, "email": "ilse@example.org"}).status_code == 201
    context = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                  accept_downloads=True)
    page = context.new_page()
    wide = "phone" if size[0] < 500 else "desktop"
    try:
        sign_in_page(page, server, name, PASSWORD)
        expect(page.locator("header")).to_contain_text(name)
        # every page's footer leads to the law's pages and her account
        footer = page.locator("footer")
        expect(footer.get_by_role("link", name="Impressum")).to_have_attribute(
            "href", "/impressum")
        footer.get_by_role("link", name="Privacy").click()
        expect(page).to_have_url(f"{server}/privacy")
        stored = page.locator("dl.stored dt")
        expect(stored).to_have_count(11)  # puzzles (0026) among them
        for cookie in ("fido_session", "fido_csrf", "fido_lang", "fido_device"):
            expect(page.locator("table.cookies")).to_contain_text(cookie)
        _shoot(page, f"privacy-{wide}")
        page.locator("footer").get_by_role("link", name="Your account").click()
        expect(page).to_have_url(f"{server}/account")
        _shoot(page, f"account-{wide}")
        with page.expect_download() as waiting:
            page.get_by_role("link", name="Download my data").click()
        download = waiting.value
        assert download.suggested_filename == f"fido-data-{name}.json"
        data = json.loads(Path(download.path()).read_text(encoding="utf-8"))
        assert list(data)[2:] == list(SECTIONS)
        assert data["account"]["name"] == name
        assert data["account"]["email"] == "ilse@example.org"
        # deleting takes her password: a wrong one changes nothing
        page.get_by_label("Your password").fill("not my password")
        page.get_by_role("button", name="Delete my account").click()
        expect(page.get_by_role("alert")).to_contain_text("that is not your password")
        page.get_by_label("Your password").fill(PASSWORD)
        page.get_by_role("button", name="Delete my account").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Your account is deleted")
        expect(page.locator("header")).not_to_contain_text(name)  # signed out
        assert client(server).post("/api/session", json={
            "name": name, "password": PASSWORD}).status_code == 401
    finally:
        context.close()


def test_the_privacy_page_speaks_german(browser: Browser, server: str) -> None:
    context = browser.new_context(locale="de-DE")
    page = context.new_page()
    try:
        page.goto(f"{server}/privacy")
        expect(page.get_by_role("heading", level=1)).to_have_text("Datenschutz")
        expect(page.locator("footer").get_by_role("link", name="Impressum")).to_be_visible()
    finally:
        context.close()
