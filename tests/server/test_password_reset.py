"""A way back into a lost account: the reset link by mail, through a real SMTP server
(aiosmtpd, tests/support/smtp.py) and the server's outbox, over HTTP; and the link an
administrator gives where the server sends no mail (``fido accounts reset``)."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from sqlalchemy import select

from fido.accounts import resets
from fido.accounts.mail import post
from fido.accounts.sessions import server_secret
from fido.accounts.signup import new_guest
from fido.accounts.signup import sign_up as register
from fido.errors import Refused
from fido.server.postman import Postman
from fido.store import Account, OutboxMail, open_store
from support.server_live import browser, free_port, live_server, refused_port
from support.smtp import Inbox, link_in, mail_server, quick_mail

SRC = str(Path(__file__).resolve().parents[2] / "src")
PASSWORD, NEW = "the old long password", "a new long password"


def sign_up(base: str, name: str, email: str | None = None) -> httpx.Client:
    client = browser(base)
    body = {"name": name, "password": PASSWORD} | ({"email": email} if email else {})
    assert client.post("/api/accounts", json=body).status_code == 201
    return client


def sign_in(base: str, name: str, password: str) -> int:
    return browser(base).post("/api/session", json={"name": name, "password": password}) \
        .status_code


def token_of(link: str) -> str:
    return parse_qs(urlsplit(link).query)["token"][0]


@pytest.fixture
def mailed(store_url: str) -> Iterator[tuple[str, str, Inbox]]:
    """A server whose mail goes to a real SMTP server: its URL, the database, the inbox."""
    with mail_server() as (smtp, inbox), live_server(store_url, mail=quick_mail(smtp)) as base:
        yield base, store_url, inbox


def test_a_lost_password_comes_back_by_mail(mailed: tuple[str, str, Inbox]) -> None:
    base, _db, inbox = mailed
    sign_up(base, "Rosa", "rosa@example.org")
    elsewhere = browser(base)  # a browser she (or a thief) is signed in on
    assert elsewhere.post("/api/session", json={"name": "Rosa", "password": PASSWORD}) \
        .status_code == 200
    asker = browser(base)
    # as sign-in compares names; the Host a stranger sends never makes the link's address
    # (a link to her own site would hand her the token)
    r = asker.post("/api/password-reset", json={"name": "rosa"},
                   headers={"Host": "attacker.example"})
    assert r.status_code == 202 and r.json() == {"status": "sent"}
    confirm, sent = inbox.wait(2)  # her address's confirmation (signing up), the reset
    assert confirm["Subject"] == "Confirm your address for fido"
    assert sent["To"] == "rosa@example.org" and sent["From"] == "fido <fido@example.org>"
    assert sent["Subject"] == "Your fido password"
    link = link_in(sent)
    assert link.startswith(f"{base}/reset?token=")
    r = asker.post("/api/password-reset/new", json={"token": token_of(link), "password": NEW})
    assert r.status_code == 204, r.text
    assert sign_in(base, "Rosa", PASSWORD) == 401 and sign_in(base, "Rosa", NEW) == 200
    # every session she had ended: the browser signed in before is nobody now
    assert elsewhere.get("/api/session").json()["kind"] == "anonymous"
    # the link works once
    again = asker.post("/api/password-reset/new", json={"token": token_of(link),
                                                         "password": "yet another password"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "reset_used"
    assert sign_in(base, "Rosa", NEW) == 200


def test_the_answer_tells_nobody_which_names_exist(mailed: tuple[str, str, Inbox]) -> None:
    base, db, inbox = mailed
    sign_up(base, "Nadia")  # no address: no mail
    asker = browser(base)
    answers = [asker.post("/api/password-reset", json={"name": name})
               for name in ("Nadia", "Nobody At All")]
    assert [(r.status_code, r.json()) for r in answers] == [(202, {"status": "sent"})] * 2
    time.sleep(1.0)  # the postman looks every 0.1 s
    assert inbox.mails == []
    store = open_store(db)
    try:
        with store.session(write=False) as s:
            assert s.scalars(select(OutboxMail)).all() == []
    finally:
        store.close()


def test_asking_again_and_again_fills_no_mailbox(mailed: tuple[str, str, Inbox]) -> None:
    base, _db, inbox = mailed
    sign_up(base, "Greta", "greta@example.org")
    asker = browser(base)
    codes = [asker.post("/api/password-reset", json={"name": "Greta"}).status_code
             for _ in range(5)]
    assert codes == [202] * 5  # the same answer: nobody learns the account is there
    inbox.wait(4)
    time.sleep(1.0)
    assert len(inbox.mails) == 1 + 3  # the address's confirmation, Limits.resets_per_account


def test_a_mail_server_that_is_down_delays_the_mail_and_loses_none(store_url: str) -> None:
    # down: its port held by a socket that never listens, let go only as the mail server
    # comes back on it (a port from free_port() is anybody's meanwhile: a server another
    # test starts, or this test's own, could listen there)
    down = ExitStack()
    port = down.enter_context(refused_port())
    smtp = f"smtp://127.0.0.1:{port}"
    with down, live_server(store_url, mail=quick_mail(smtp)) as base:
        sign_up(base, "Ida", "ida@example.org")
        assert browser(base).post("/api/password-reset", json={"name": "Ida"}).status_code \
            == 202
        store = open_store(store_url)
        try:
            deadline = time.monotonic() + 10
            while True:  # the postman tried, and failed
                with store.session(write=False) as s:
                    row = s.scalars(select(OutboxMail).where(
                        OutboxMail.subject == "Your fido password")).one()
                    if row.attempts >= 1:
                        assert row.sent_at is None and row.last_error
                        break
                assert time.monotonic() < deadline, "the postman never tried"
                time.sleep(0.1)
            down.close()  # its port let go, taken again at once
            with mail_server(port) as (_url, inbox):  # the mail server is back
                sent = next(m for m in inbox.wait(2, timeout=20)
                            if m["Subject"] == "Your fido password")
                assert sent["To"] == "ida@example.org"
                link = link_in(sent)
            deadline = time.monotonic() + 10
            while True:  # marked sent once the mail server took it
                with store.session(write=False) as s:
                    row = s.scalars(select(OutboxMail).where(
                        OutboxMail.subject == "Your fido password")).one()
                    if row.sent_at is not None:
                        assert row.last_error is None and row.attempts >= 1
                        break
                assert time.monotonic() < deadline, "the mail was never marked sent"
                time.sleep(0.05)
        finally:
            store.close()
        r = browser(base).post("/api/password-reset/new",
                               json={"token": token_of(link), "password": NEW})
        assert r.status_code == 204 and sign_in(base, "Ida", NEW) == 200


def test_a_server_without_mail_says_whom_to_ask(store_url: str) -> None:
    with live_server(store_url) as base:
        sign_up(base, "Olga", "olga@example.org")
        r = browser(base).post("/api/password-reset", json={"name": "Olga"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "no_mail"
        assert "administrator" in r.json()["error"]["message"]
        page = httpx.get(f"{base}/forgot")
        assert page.status_code == 200 and "This server sends no mail" in page.text
        # the administrator's link, on the command line
        out = subprocess.run(
            [sys.executable, "-m", "fido.cli", "accounts", "reset", "Olga",
             "--url", "https://fido.example.org", "--db", store_url],
            env={**os.environ, "PYTHONPATH": SRC}, capture_output=True, text=True,
            timeout=60, check=False)
        assert out.returncode == 0, out.stderr
        link = out.stdout.split()[0]
        assert link.startswith("https://fido.example.org/reset?token=")
        r = browser(base).post("/api/password-reset/new",
                               json={"token": token_of(link), "password": NEW})
        assert r.status_code == 204 and sign_in(base, "Olga", NEW) == 200
        refused = subprocess.run(
            [sys.executable, "-m", "fido.cli", "accounts", "reset", "Nobody",
             "--url", "https://fido.example.org", "--db", store_url],
            env={**os.environ, "PYTHONPATH": SRC}, capture_output=True, text=True,
            timeout=60, check=False)
        assert refused.returncode == 1 and "no account named" in refused.stderr


def test_a_link_that_is_old_forged_or_of_a_guest_is_refused(store_url: str) -> None:
    store = open_store(store_url)
    try:
        secret = server_secret(store)
        with store.session() as s:
            her = register(s, "Wanda", PASSWORD, "wanda@example.org")
            guest = new_guest(s)
            token = resets.reset_token(her, secret)
            for bad, code in [(token, "reset_expired"), (token[:-2] + "xx", "reset_invalid"),
                              ("not a token", "reset_invalid")]:
                with pytest.raises(Refused) as e:
                    resets.account_of_token(s, bad, secret,
                                            seconds=-1 if code == "reset_expired" else 3600)
                assert e.value.code == code
            with pytest.raises(Refused) as e:  # another server's link
                resets.account_of_token(s, resets.reset_token(her, "another secret"), secret)
            assert e.value.code == "reset_invalid"
            with pytest.raises(Refused) as e:
                resets.reset_token(guest, secret)
            assert e.value.code == "guest"
            assert resets.account_of_token(s, token, secret).id == her.id
            assert isinstance(her, Account)
    finally:
        store.close()


def test_the_outbox_forgets_sent_mail_after_a_day_and_gives_up_after_three(
    store_url: str,
) -> None:
    now = dt.datetime.now(dt.UTC)
    store = open_store(store_url)
    try:
        with store.session() as s:
            for subject, created, sent in [("sent long ago", 2, 2), ("sent today", 0, 0),
                                           ("never sent", 4, None), ("waiting", 0, None)]:
                mail_row = post(s, "x@example.org", subject, "text")
                mail_row.created_at = now - dt.timedelta(days=created)
                mail_row.next_try_at = now + dt.timedelta(hours=1)  # not due: nothing sent
                mail_row.sent_at = None if sent is None else now - dt.timedelta(days=sent)
        Postman(store, replace(quick_mail("smtp://127.0.0.1:9"), site="http://fido.test"),
                "secret").send_due()
        with store.session(write=False) as s:
            left = sorted(m.subject for m in s.scalars(select(OutboxMail)))
        assert left == ["sent today", "waiting"]
    finally:
        store.close()


@pytest.mark.parametrize("name", ["Ro\x00sa", "<b>Rosa</b>", "x" * 40, "\u202eRosa"])
def test_a_strange_name_gets_the_same_answer_and_no_mail(
    mailed: tuple[str, str, Inbox], name: str,
) -> None:
    base, _db, inbox = mailed
    r = browser(base).post("/api/password-reset", json={"name": name})
    assert (r.status_code, r.json()) == (202, {"status": "sent"}), r.text
    time.sleep(0.5)
    assert inbox.mails == []


@pytest.mark.parametrize(("args", "said"), [
    (["--host", "0.0.0.0", "--smtp", "smtp://127.0.0.1:25"], "needs --public-url"),
    (["--smtp", "smtp://127.0.0.1:25", "--public-url", "ftp://fido.example.org"],
     "error: --public-url: the public address is a URL like"),
    (["--public-url", "https://fido.example.org/?next=evil"], "no query"),
])
def test_mail_links_need_a_public_address_the_administrator_gives(
        tmp_path: Path, args: list[str], said: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("FIDO_")}
    env["PYTHONPATH"] = SRC
    out = subprocess.run(
        [sys.executable, "-m", "fido.cli", "serve", "--port", str(free_port()), *args],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert said in out.stderr and "Traceback" not in out.stderr
    assert list(tmp_path.iterdir()) == []  # nothing made, nothing served
