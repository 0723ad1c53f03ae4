"""A person's own account, as the API and the account page both ask for it: her email
address (changed, confirmed by a mailed link), her inbox's news by mail (opt-in, with
an unsubscribe link in each), her data to take home ("download my data") and the
account's deletion. Who may is :func:`fido.server.policy.own_data`'s; what is exported
and erased is :mod:`fido.accounts.privacy`'s, the addresses
:mod:`fido.accounts.addresses`'."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import re
from typing import Any
from urllib.parse import urlsplit

from fastapi import Request, Response
from sqlalchemy.orm import Session

from fido import i18n
from fido.accounts import addresses, privacy, vacation
from fido.accounts import signup as accounts
from fido.accounts.mail import post
from fido.server import policy
from fido.server.deps import Server, count_against, me, server, set_session_cookie
from fido.server.errors import ApiError
from fido.server.schemas import AddressOut, VacationOut
from fido.store import Account

__all__ = [
    "address",
    "change_email",
    "confirm_address",
    "confirmation_mail",
    "delete_account",
    "my_data",
    "my_data_file",
    "resend_confirmation",
    "set_notices",
    "unsubscribe",
]

_, ngettext = i18n.gettext, i18n.ngettext


def _too_many(n: int) -> str:
    return ngettext("too many requests for your data: try again in {n} second",
                    "too many requests for your data: try again in {n} seconds", n)


def my_data(request: Request) -> dict[str, Any]:
    """Everything the server stores about the asker's account (:func:`privacy.export`);
    a few a quarter of an hour (each reads all her games)."""
    srv = server(request)
    with srv.store.session(write=False) as s:
        account = policy.own_data(me(request, s))
        count_against(request, srv.per_account, _too_many, key=f"export:{account.id}")
        return privacy.export(s, account)


def my_data_file(request: Request) -> Response:
    """:func:`my_data` as a file the browser saves, ``fido-data-NAME.json``."""
    data = my_data(request)
    name = re.sub(r"[^A-Za-z0-9_-]+", "-", data["account"]["name"] or "guest").strip("-")
    body = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    return Response(body, media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="fido-data-{name or "account"}.json"',
        "Cache-Control": "no-store"})


async def delete_account(request: Request, response: Response, password: str | None) -> None:
    """Delete the asker's account (:func:`privacy.erase`): a registered account's
    password again first (wrong: 403, a few tries a quarter of an hour), a guest's none.
    Her sessions end, every table socket of theirs closes, this browser is signed out."""
    srv = server(request)

    def work() -> list[str]:
        with srv.store.session() as s:
            account = policy.own_data(me(request, s))
            if not account.guest:
                key = f"erase:{account.id}"
                count_against(request, srv.per_account, lambda n: ngettext(
                    "too many wrong passwords: try again in {n} second",
                    "too many wrong passwords: try again in {n} seconds", n), key=key)
                if password is None or accounts.authenticate(
                        s, account.name or "", password) is None:
                    raise ApiError(403, "wrong_password", _(
                        "that is not your password: your account stays"))
                srv.per_account.reset(key)
            return privacy.erase(s, account)

    ended = await asyncio.to_thread(work)  # committed, then the sockets are told
    for key in ended:
        srv.session_sockets.end(key)
    set_session_cookie(request, response, None)


def _address(srv: Server, account: Account) -> AddressOut:
    return AddressOut(email=account.email, confirmed=account.email_confirmed_at is not None,
                      notices=account.notices_since is not None, mail=srv.mail.smtp is not None)


def _registered(request: Request, s: Session) -> Account:
    account = policy.own_data(me(request, s))
    if account.guest:
        raise ApiError(403, "guest", _("a guest has no email address: sign up first"))
    return account


def set_vacation(request: Request, days: int) -> VacationOut:
    """Her vacation: ``days`` from now, or 0 to end the one running (409 ``vacation``
    when the limits refuse it: fido.accounts.vacation)."""
    srv = server(request)
    now = dt.datetime.now(dt.UTC)
    with srv.store.session() as s:
        account = policy.own_data(me(request, s))
        why = vacation.refusal(account, days, now)
        if why is not None:
            raise ApiError(409, "vacation", why, field="days")
        return VacationOut(until=vacation.set_vacation(account, days, now))


def confirmation_mail(request: Request, s: Session, account: Account) -> bool:
    """Mail ``account``'s address the link that confirms it, if the server sends mail;
    a few an account and an address a quarter of an hour (429). Whether one was sent."""
    srv = server(request)
    if srv.mail.smtp is None or account.email is None:
        return False
    assert srv.mail.site is not None and srv.resets is not None and srv.resets_of is not None
    count_against(request, srv.resets, lambda n: ngettext(
        "too many mails asked for from your address: try again in {n} second",
        "too many mails asked for from your address: try again in {n} seconds", n))
    count_against(request, srv.resets_of, lambda n: ngettext(
        "too many confirmation mails: try again in {n} second",
        "too many confirmation mails: try again in {n} seconds", n),
        key=f"confirm:{account.id}")
    link = f"{srv.mail.site}/confirm?token={addresses.confirm_token(account, srv.secret)}"
    with i18n.use(account.language):
        post(s, account.email, _("Confirm your address for fido"), _(
            "Hello {name},\n\n"
            "this address was given for the account {name} on {site}. Open this link "
            "within a week to confirm it is yours:\n\n"
            "{link}\n\n"
            "If it was not you, ignore this mail: an address that is not confirmed gets "
            "no mail from us but a password reset's link someone asks for.\n").format(
                name=account.name, site=urlsplit(srv.mail.site).netloc, link=link))
    return True


def address(request: Request) -> AddressOut:
    """Her address, confirmed or not, and whether the news go to it."""
    srv = server(request)
    with srv.store.session(write=False) as s:
        return _address(srv, _registered(request, s))


def change_email(request: Request, email: str | None) -> AddressOut:
    """Her new address (None: none): unconfirmed, and a confirmation link goes to it."""
    srv = server(request)
    with srv.store.session() as s:
        account = _registered(request, s)
        if addresses.change_email(s, account, email):
            account.notices_since = None  # the news wait for the new address's confirmation
            confirmation_mail(request, s, account)
        return _address(srv, account)


def resend_confirmation(request: Request) -> AddressOut:
    """The confirmation link again (409 ``no_mail``, ``no_address``, ``confirmed``)."""
    srv = server(request)
    with srv.store.session() as s:
        account = _registered(request, s)
        if srv.mail.smtp is None:
            raise ApiError(409, "no_mail", _("this server sends no mail"))
        if account.email is None:
            raise ApiError(409, "no_address", _("your account has no email address"))
        if account.email_confirmed_at is not None:
            raise ApiError(409, "confirmed", _("your address is confirmed already"))
        confirmation_mail(request, s, account)
        return _address(srv, account)


def confirm_address(request: Request, token: str) -> str:
    """Confirm the address the link names (any browser: she need not be signed in);
    the address confirmed."""
    srv = server(request)
    with srv.store.session() as s:
        account = addresses.account_to_confirm(s, token, srv.secret)
        assert account.email is not None
        return account.email


def set_notices(request: Request, on: bool) -> AddressOut:
    """Her inbox's news by mail, on (a confirmed address: 409 ``not_confirmed``) or off."""
    srv = server(request)
    with srv.store.session() as s:
        account = _registered(request, s)
        if on and srv.mail.smtp is None:
            raise ApiError(409, "no_mail", _("this server sends no mail"))
        addresses.set_notices(account, on)
        return _address(srv, account)


def unsubscribe(request: Request, token: str) -> None:
    """No more news mail to the account the link names (no session needed: the link
    is the key; once more changes nothing)."""
    srv = server(request)
    with srv.store.session() as s:
        addresses.unsubscribe(s, token, srv.secret)
