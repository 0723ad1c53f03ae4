"""A person who forgot her password gets back into her account, in the real browser: the
sign-in page's link, her name, the mail a real SMTP server catches (aiosmtpd), the link's
page, the new password, and signing in with it; in English and in German.

With ``FIDO_SHOTS=DIR`` the pages are photographed into DIR, at phone and desktop size.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from fido.accounts.addresses import unsubscribe_token
from fido.accounts.roles import find_account
from fido.accounts.sessions import server_secret
from fido.store import open_store
from support.server_live import browser as client
from support.server_live import live_server
from support.smtp import Inbox, link_in, mail_server, quick_mail
from support.web_browser import sign_in_page

SHOTS = os.environ.get("FIDO_SHOTS")
DB: list[str] = []  # the module's server's database
OLD, NEW = "an old long password", "a brand new password"


def _shoot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


@pytest.fixture(scope="module")
def mailed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Inbox]]:
    """A server whose mail goes to a real SMTP server (``fido serve --smtp``)."""
    db = f"sqlite:///{tmp_path_factory.mktemp('reset') / 'fido.db'}"
    DB[:] = [db]
    with mail_server() as (smtp, inbox), live_server(
            db, mail=quick_mail(smtp)) as base:
        yield base, inbox


def _sign_up(base: str, inbox: Inbox, name: str, language: str | None = None) -> None:
    """Her account, with an address; its confirmation mail is in before she goes on."""
    body = {"name": name, "password": OLD, "email": f"{name.lower()}@example.org"}
    c = client(base)
    waiting = len(inbox.mails)
    assert c.post("/api/accounts", json=body).status_code == 201
    assert inbox.wait(waiting + 1)[waiting]["Subject"] == "Confirm your address for fido"
    if language:
        assert c.put("/api/language", json={"language": language}).status_code == 200


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_a_forgotten_password_is_set_again_through_a_mail(
    browser: Browser, mailed: tuple[str, Inbox], size: tuple[int, int],
) -> None:
    base, inbox = mailed
    name = f"Luise{size[0]}"
    _sign_up(base, inbox, name)
    before = len(inbox.mails)
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    try:
        page.goto(f"{base}/signin")
        page.get_by_role("link", name="Forgot your password?").click()
        expect(page).to_have_url(f"{base}/forgot")
        _shoot(page, f"forgot-{'phone' if size[0] < 500 else 'desktop'}")
        page.get_by_label("Name").fill(name)
        page.get_by_role("button", name="Send me a link").click()
        expect(page.get_by_role("status")).to_contain_text("a link to choose a new password")
        mail = inbox.wait(before + 1)[before]
        assert mail["To"] == f"{name.lower()}@example.org"
        page.goto(link_in(mail))
        _shoot(page, f"reset-{'phone' if size[0] < 500 else 'desktop'}")
        page.get_by_label("New password", exact=True).fill(NEW)
        page.get_by_label("The new password again").fill(NEW + "!")
        page.get_by_role("button", name="Set the new password").click()
        expect(page.get_by_role("alert")).to_contain_text("the two passwords differ")
        page.get_by_label("New password", exact=True).fill(NEW)
        page.get_by_label("The new password again").fill(NEW)
        page.get_by_role("button", name="Set the new password").click()
        expect(page).to_have_url(f"{base}/signin?reset=1")
        expect(page.get_by_role("status")).to_contain_text("Your new password is set")
        page.get_by_label("Name").fill(name)
        page.get_by_label("Password").fill(NEW)
        page.get_by_role("button", name="Sign in").click()
        expect(page).to_have_url(f"{base}/")
        expect(page.locator("header")).to_contain_text(name)
        # the old password opens nothing any more, the link nothing a second time
        assert client(base).post("/api/session", json={"name": name, "password": OLD}) \
            .status_code == 401
        page.goto(link_in(mail))
        page.get_by_label("New password", exact=True).fill("a third password")
        page.get_by_label("The new password again").fill("a third password")
        page.get_by_role("button", name="Set the new password").click()
        expect(page.get_by_role("alert")).to_contain_text("this link was used already")
    finally:
        context.close()


def test_her_mail_and_the_pages_speak_german(
    browser: Browser, mailed: tuple[str, Inbox],
) -> None:
    base, inbox = mailed
    _sign_up(base, inbox, "Hanna", language="de")
    before = len(inbox.mails)
    context = browser.new_context(locale="de-DE")
    page = context.new_page()
    try:
        page.goto(f"{base}/signin")
        page.get_by_role("link", name="Passwort vergessen?").click()
        page.get_by_label("Name").fill("Hanna")
        page.get_by_role("button", name="Link schicken").click()
        mail = inbox.wait(before + 1)[before]
        assert mail["Subject"] == "Dein fido-Passwort"
        text = mail.get_body(("plain",))
        assert text is not None and "Hallo Hanna" in text.get_content()
        page.goto(link_in(mail))
        expect(page.get_by_role("heading", level=1)).to_have_text("Neues Passwort wählen")
    finally:
        context.close()


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_her_address_confirmed_and_the_news_by_mail_in_the_browser(
    browser: Browser, mailed: tuple[str, Inbox], size: tuple[int, int],
) -> None:
    base, inbox = mailed
    name = f"Marta{size[0]}"
    _sign_up(base, inbox, name)
    link = link_in(inbox.mails[-1])
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    wide = "phone" if size[0] < 500 else "desktop"
    try:
        sign_in_page(page, base, name, OLD)
        page.goto(f"{base}/account")
        expect(page.get_by_text("Not confirmed yet")).to_be_visible()
        expect(page.get_by_role("button", name="Mail me my inbox's news")).to_have_count(0)
        page.goto(link)  # the mail's link: one button, so a mail scanner confirms nothing
        page.get_by_role("button", name="Confirm my address").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Your address is confirmed")
        page.goto(f"{base}/account")
        expect(page.get_by_text("Confirmed: this address is yours.")).to_be_visible()
        page.get_by_role("button", name="Mail me my inbox's news").click()
        expect(page.get_by_text("On: your inbox's news come by mail.")).to_be_visible()
        _shoot(page, f"account-mail-{wide}")
        # the link in a news mail, opened in a browser where nobody is signed in
        c = client(base)
        session = c.post("/api/session", json={"name": name, "password": OLD})
        assert session.status_code == 200
        store = open_store(DB[0])
        try:
            with store.session(write=False) as s:  # as the news mail's link carries it
                token = unsubscribe_token(find_account(s, name), server_secret(store))
        finally:
            store.close()
        other = browser.new_context()
        try:
            stop = other.new_page()
            stop.goto(f"{base}/unsubscribe?token={token}")
            stop.get_by_role("button", name="Stop the news mails").click()
            expect(stop.get_by_role("heading", level=1)).to_have_text("No more news by mail")
        finally:
            other.close()
        assert c.get("/api/account/email").json()["notices"] is False
    finally:
        context.close()
