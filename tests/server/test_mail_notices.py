"""Mail a person asked for, through a real SMTP server (aiosmtpd): her address confirmed by
a mailed link, her inbox's news by mail (opt-in, on a confirmed address only, at most one
mail a quarter of an hour, in her language), and the link in each that stops them, in
one click from a mail program (RFC 8058) without signing in. SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt
import re
import time
from collections.abc import Iterator
from email.message import EmailMessage
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from sqlalchemy import select

from fido.accounts import addresses
from fido.accounts.notices import GAP, mail_news
from fido.accounts.signup import sign_up
from fido.store import Notification, OutboxMail, open_store
from support.server_live import browser, live_server
from support.smtp import Inbox, link_in, mail_server, quick_mail

PASSWORD = "a long enough password"


@pytest.fixture
def mailed(store_url: str) -> Iterator[tuple[str, Inbox]]:
    with mail_server() as (smtp, inbox), live_server(
            store_url, mail=quick_mail(smtp)) as base:
        yield base, inbox


def links(mail: EmailMessage) -> list[str]:
    body = mail.get_body(("plain",))
    assert body is not None
    return re.findall(r"https?://\S+", body.get_content())


def token(link: str) -> str:
    return parse_qs(urlsplit(link).query)["token"][0]


def test_confirm_then_the_news_by_mail_then_stop_them(mailed: tuple[str, Inbox]) -> None:
    base, inbox = mailed
    rosa = browser(base)
    assert rosa.post("/api/accounts", json={"name": "Rosa", "password": PASSWORD,
                                            "email": "rosa@example.org"}).status_code == 201
    (confirm,) = inbox.wait(1)
    assert confirm["To"] == "rosa@example.org"
    assert confirm["Subject"] == "Confirm your address for fido"
    link = link_in(confirm)
    assert link.startswith(f"{base}/confirm?token=")
    assert rosa.get("/api/account/email").json() == {
        "email": "rosa@example.org", "confirmed": False, "notices": False, "mail": True}
    # the news go to a confirmed address only
    r = rosa.put("/api/account/notices", json={"on": True})
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_confirmed"
    anyone = browser(base)  # the link works in any browser: she need not be signed in
    assert anyone.post("/api/account/email/confirmation",
                       json={"token": token(link)}).status_code == 204
    r = rosa.put("/api/account/notices", json={"on": True})
    assert r.status_code == 200 and r.json()["confirmed"] and r.json()["notices"]
    # Bert reserves her a seat: the news come by mail
    bert = browser(base)
    assert bert.post("/api/accounts", json={"name": "Bert", "password": PASSWORD}) \
        .status_code == 201
    seats = [{"kind": "me"}, {"kind": "reserved", "name": "Rosa"}, {"kind": "open"}]
    assert bert.post("/api/tables", json={"ruleset": "fido set=6", "players": 3,
                                          "seats": seats}).status_code == 201
    news = inbox.wait(2)[1]
    assert news["To"] == "rosa@example.org"
    assert news["Subject"] == "fido: 1 new notification"
    body = news.get_body(("plain",))
    assert body is not None and "a seat at a table is reserved for you" in body.get_content()
    inbox_link, stop = links(news)
    assert inbox_link == f"{base}/inbox" and stop.startswith(f"{base}/unsubscribe?token=")
    assert news["List-Unsubscribe"].strip() == f"<{stop}>"  # folded: a long line
    assert news["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # a second seat a moment later waits for the next quarter of an hour: no second mail
    assert bert.post("/api/tables", json={"ruleset": "fido set=6", "players": 3,
                                          "seats": seats}).status_code == 201
    time.sleep(1.0)
    assert len(inbox.mails) == 2
    # her mail program's one click (RFC 8058): no cookie, no CSRF token
    r = httpx.post(stop, content=b"List-Unsubscribe=One-Click",
                   headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 200 and "No more news by mail" in r.text
    assert rosa.get("/api/account/email").json()["notices"] is False
    # a forged link stops nothing
    r = httpx.post(f"{base}/api/unsubscribe", json={"token": token(stop) + "x"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "unsubscribe_invalid"


def test_a_new_address_is_confirmed_again(mailed: tuple[str, Inbox]) -> None:
    base, inbox = mailed
    ida = browser(base)
    assert ida.post("/api/accounts", json={"name": "Ida", "password": PASSWORD,
                                           "email": "ida@example.org"}).status_code == 201
    first = link_in(inbox.wait(1)[0])
    r = ida.put("/api/account/email", json={"email": "ida@example.net"})
    assert r.status_code == 200 and r.json()["confirmed"] is False
    second = inbox.wait(2)[1]
    assert second["To"] == "ida@example.net"
    # the old address's link no longer confirms anything
    r = ida.post("/api/account/email/confirmation", json={"token": token(first)})
    assert r.status_code == 409 and r.json()["error"]["code"] == "confirm_changed"
    assert ida.post("/api/account/email/confirmation",
                    json={"token": token(link_in(second))}).status_code == 204
    assert ida.get("/api/account/email").json()["confirmed"] is True
    # a guest has no address to set
    guest = browser(base)
    guest.post("/api/guest")
    assert guest.put("/api/account/email", json={"email": "g@example.org"}).status_code == 403


def test_what_the_news_mail_holds_and_when(store_url: str) -> None:
    """:func:`mail_news` itself: once a notification, one mail a quarter of an hour, none
    of what she read or what came before she asked, none unconfirmed, her language."""
    store = open_store(store_url)
    now = dt.datetime.now(dt.UTC)
    try:
        with store.session() as s:
            hanna = sign_up(s, "Hanna", PASSWORD, "hanna@example.org")
            hanna.language = "de"
            otto = sign_up(s, "Otto", PASSWORD, "otto@example.org")  # never confirmed
            s.flush()
            old = Notification(account_id=hanna.id, kind="seat", created_at=now)
            s.add(old)  # before she asked: never mailed
            hanna.email_confirmed_at = now
            addresses.set_notices(hanna, True)
            hanna.notices_since = now + dt.timedelta(seconds=1)
            otto.notices_since = now
            for kind in ("review", "settled"):
                s.add(Notification(account_id=hanna.id, kind=kind,
                                   created_at=now + dt.timedelta(seconds=2)))
            s.add(Notification(account_id=hanna.id, kind="claim", created_at=now
                               + dt.timedelta(seconds=3), read_at=now))  # read: not mailed
            s.add(Notification(account_id=otto.id, kind="seat", created_at=now))
        later = now + dt.timedelta(minutes=1)
        with store.session() as s:
            assert mail_news(s, "https://fido.example.org", "secret", now=later) == 1
        with store.session() as s:
            assert mail_news(s, "https://fido.example.org", "secret", now=later) == 0
            s.add(Notification(account_id=hanna.id, kind="disputed",
                               created_at=later + dt.timedelta(seconds=1)))
        with store.session() as s:  # within the quarter of an hour: it waits
            assert mail_news(s, "https://fido.example.org", "secret",
                             now=later + dt.timedelta(minutes=5)) == 0
        with store.session() as s:
            assert mail_news(s, "https://fido.example.org", "secret",
                             now=later + GAP) == 1
        with store.session(write=False) as s:
            mails = s.scalars(select(OutboxMail).order_by(OutboxMail.id)).all()
            assert [m.recipient for m in mails] == ["hanna@example.org"] * 2
            assert mails[0].subject == "fido: 2 neue Benachrichtigungen"
            assert "Hallo Hanna" in mails[0].body and mails[0].body.count("\n- ") == 2
            assert mails[1].subject == "fido: 1 neue Benachrichtigung"
            assert '"List-Unsubscribe-Post": "List-Unsubscribe=One-Click"' in (
                mails[1].headers or "")
    finally:
        store.close()
