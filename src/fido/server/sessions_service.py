"""Who this browser is, the one way: sign up, sign in and out, play as a guest, choose
the language.

The routes of :mod:`fido.server.accounts_api` and the web pages (:mod:`fido.web.pages`)
both call these with the request that asks and the response whose cookies start or end
her session; a page that makes a visitor a guest and then opens her table does both in
one request (:func:`fido.server.deps.session_cookie`). Refusals are
:class:`~fido.server.errors.ApiError`.
"""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import urlsplit

from fastapi import Request, Response
from sqlalchemy.orm import Session

from fido import i18n
from fido.accounts import resets, roles
from fido.accounts import signup as accounts
from fido.accounts.devices import DEVICE, DEVICE_SECONDS
from fido.accounts.mail import post
from fido.accounts.roles import RoleError
from fido.server import account_service
from fido.server.account_views import account_out
from fido.server.deps import (
    address,
    count_against,
    https,
    me,
    server,
    session_cookie,
    set_session_cookie,
)
from fido.server.errors import ApiError
from fido.server.language import COOKIE as LANGUAGE
from fido.server.language import cookie_header
from fido.server.schemas import (
    LanguageChoice,
    ResetAsk,
    ResetAsked,
    ResetIn,
    SessionInfo,
    SignIn,
    SignUp,
)
from fido.store import Account

__all__ = [
    "ask_reset",
    "choose_language",
    "reset_password",
    "session_info",
    "sign_in",
    "sign_out",
    "sign_up",
    "start_guest",
]

_, ngettext = i18n.gettext, i18n.ngettext


def session_info(request: Request, s: Session, account: Account | None) -> SessionInfo:
    """Who ``account`` is to this browser (anonymous when None), with its CSRF token."""
    token: str = request.state.csrf_token
    if account is None:
        return SessionInfo(kind="anonymous", account=None, csrf_token=token)
    return SessionInfo(
        kind="guest" if account.guest else "account",
        account=account_out(s, account),
        csrf_token=token,
    )


def _known_device(request: Request, response: Response, name: str) -> None:
    """She signed in (or up) on this browser: its device cookie names her account."""
    srv = server(request)
    device = srv.devices.read(request.cookies.get(DEVICE))
    response.set_cookie(DEVICE, srv.devices.signed_in(device, accounts.name_key(name)),
                        max_age=DEVICE_SECONDS, path="/", httponly=True, samesite="lax",
                        secure=https(request))


async def sign_up(request: Request, response: Response, body: SignUp) -> SessionInfo:
    """Sign up and sign in. A guest signing up becomes the account (same id, her games);
    the guest's session ends, and with it her open table sockets (4401)."""
    srv = server(request)
    old = session_cookie(request)

    def work() -> tuple[str, SessionInfo]:
        with srv.store.session() as s:
            current = srv.sessions.account(s, old)
            if current is not None and not current.guest:
                raise ApiError(409, "signed_in", _("sign out before signing up another "
                                                     "account"))
            if current is None:  # a guest signing up is no new account
                count_against(request, srv.created, lambda n: ngettext(
                    "too many new accounts from your address: try again in {n} second",
                    "too many new accounts from your address: try again in {n} seconds",
                    n))
            account = accounts.sign_up(s, body.name, body.password, body.email, current)
            if account.language is None:  # the language she chose as a visitor stays
                account.language = i18n.language_or_none(request.cookies.get(LANGUAGE))
            if account.email is not None:  # her address's confirmation link (too many
                with contextlib.suppress(ApiError):  # asked: she asks again later)
                    account_service.confirmation_mail(request, s, account)
            srv.sessions.end(s, old)  # a new id after a change of rights (no fixation)
            cookie = srv.sessions.start(s, account)
            if current is not None:  # a guest: her seats take her name (other processes)
                srv.hub.announce_rename(s, account.id)
            return cookie, session_info(request, s, account)

    cookie, info = await asyncio.to_thread(work)  # committed, then the sockets are told
    if info.account is not None:  # her seats in this process's rooms: her new name
        srv.hub.rename(info.account.id, info.account.name)
    srv.session_sockets.end(srv.sessions.key(old))
    if info.account is not None:  # this browser is hers: her device (accounts.devices)
        _known_device(request, response, info.account.name)
    token = set_session_cookie(request, response, cookie)
    return info.model_copy(update={"csrf_token": token})


async def sign_in(request: Request, response: Response, body: SignIn) -> SessionInfo:
    """Sign in with name and password; failures are rate-limited (429, Retry-After).
    The browser's session before (a guest's, another account's) ends, and its open
    table sockets are closed (4401)."""
    srv = server(request)
    key = accounts.name_key(body.name)
    device = srv.devices.read(request.cookies.get(DEVICE))
    # her own device is counted alone: a stranger's guesses never lock her out there;
    # elsewhere, per account and address, per address, and per account everywhere
    counters = ([(srv.per_account, f"device:{device.id}:{key}")]
                if device is not None and device.knows(key) else
                [(srv.per_account, f"account:{key}:{address(request)}"),
                 (srv.per_address, f"address:{address(request)}"),
                 (srv.everywhere, f"account:{key}")])
    # each attempt counts as failed before its password is verified (given back if
    # right): sixteen guesses at once cannot all pass a limit of five
    marks = [limiter.reserve(k) for limiter, k in counters]
    if None in marks:
        for (limiter, k), mark in zip(counters, marks, strict=True):
            if mark is not None:
                limiter.release(k, mark)
        wait = max([limiter.retry_after(k) for limiter, k in counters] + [1])
        srv.metrics.signin_refusals.labels("rate_limited").inc()
        everywhere = len(counters) == 3 and marks[2] is None
        raise ApiError(429, "rate_limited", (ngettext(
            "too many failed sign-ins to this account: sign in on a device where you "
            "have signed in before, or try again in {n} second",
            "too many failed sign-ins to this account: sign in on a device where you "
            "have signed in before, or try again in {n} seconds", wait)
            if everywhere else ngettext(
            "too many failed sign-ins: try again in {n} second",
            "too many failed sign-ins: try again in {n} seconds", wait)).format(n=wait),
            headers={"Retry-After": str(wait)})
    old = session_cookie(request)

    def work() -> tuple[str, SessionInfo, str | None] | None:
        with srv.store.session() as s:
            account = accounts.authenticate(s, body.name, body.password)
            if account is None:
                return None
            srv.sessions.end(s, old)
            return (srv.sessions.start(s, account), session_info(request, s, account),
                    account.language)

    done = await asyncio.to_thread(work)
    if done is None:
        srv.metrics.signin_refusals.labels("wrong_password").inc()
        raise ApiError(401, "wrong_password", _("wrong name or password"))
    cookie, info, language = done
    if language is not None:  # her setting, on this browser too
        response.headers.append("set-cookie", cookie_header(language, https(request)))
    srv.session_sockets.end(srv.sessions.key(old))  # committed, then the sockets told
    for (limiter, k), mark in zip(counters, marks, strict=True):
        assert mark is not None
        limiter.release(k, mark)
    srv.per_account.reset(counters[0][1])  # her failures from here are forgiven
    _known_device(request, response, body.name)
    token = set_session_cookie(request, response, cookie)
    return info.model_copy(update={"csrf_token": token})


async def sign_out(request: Request, response: Response) -> SessionInfo:
    """Sign out: the session is deleted server-side, so its cookie opens nothing again,
    and its open table sockets are closed (4401)."""
    srv = server(request)
    cookie = session_cookie(request)

    def end() -> SessionInfo:
        with srv.store.session() as s:
            srv.sessions.end(s, cookie)
            return session_info(request, s, None)

    info = await asyncio.to_thread(end)  # committed, then the sockets are told
    srv.session_sockets.end(srv.sessions.key(cookie))
    token = set_session_cookie(request, response, None)
    return info.model_copy(update={"csrf_token": token})


def start_guest(request: Request, response: Response) -> SessionInfo:
    """Play as a guest, without an account; a browser already signed in stays as it is."""
    srv = server(request)
    with srv.store.session() as s:
        current = me(request, s)
        if current is not None:
            return session_info(request, s, current)
        count_against(request, srv.created, lambda n: ngettext(
            "too many new guests from your address: try again in {n} second",
            "too many new guests from your address: try again in {n} seconds", n))
        guest = accounts.new_guest(s)
        cookie = srv.sessions.start(s, guest)
        info = session_info(request, s, guest)
    token = set_session_cookie(request, response, cookie)
    return info.model_copy(update={"csrf_token": token})


def choose_language(request: Request, response: Response, body: LanguageChoice) -> LanguageChoice:
    """The interface's language for this browser (a cookie) and, signed in or a guest,
    her account (it follows her to other browsers when she signs in there)."""
    srv = server(request)
    with srv.store.session() as s:
        account = me(request, s)
        if account is not None:
            account.language = body.language
    response.headers.append("set-cookie", cookie_header(body.language, https(request)))
    return body


def ask_reset(request: Request, body: ResetAsk) -> ResetAsked:
    """Mail the account named ``body.name`` a link to choose a new password, if she gave
    an address. The answer is the same whether the name is an account's or not; asking
    is bounded per address and per account (each ask may send a mail). A server with no
    mail says so: an administrator gives the link (``fido accounts reset``)."""
    srv = server(request)
    if srv.mail.smtp is None:
        raise ApiError(409, "no_mail", _(
            "this server sends no mail: ask the federation or the server's administrator "
            "for a link to choose a new password"))
    assert srv.resets is not None and srv.resets_of is not None
    count_against(request, srv.resets, lambda n: ngettext(
        "too many password resets asked for from your address: try again in {n} second",
        "too many password resets asked for from your address: try again in {n} seconds",
        n))
    with srv.store.session() as s:
        try:  # as sign-in compares names; a name with control characters is nobody's
            account = roles.find_account(s, body.name)
        except RoleError:
            return ResetAsked()
        if not account.email:
            return ResetAsked()
        mails = srv.resets_of
        if mails.limit > 0 and mails.reserve(f"account:{account.id}") is None:
            return ResetAsked()  # her mailbox is not filled, and the answer tells no one
        site = srv.mail.site
        assert site is not None  # create_app refuses mail without it
        link = f"{site}/reset?token={resets.reset_token(account, srv.secret)}"
        with i18n.use(account.language):  # her language, not the asker's
            post(s, account.email, _("Your fido password"), _(
                "Hello {name},\n\n"
                "someone (you, we hope) asked for a new password for your account on "
                "{site}. Open this link within an hour to choose one:\n\n"
                "{link}\n\n"
                "The link works once. If you did not ask, ignore this mail: your password "
                "stays as it is.\n").format(name=account.name, site=urlsplit(site).netloc,
                                              link=link))
    return ResetAsked()


async def reset_password(request: Request, body: ResetIn) -> None:
    """Set the new password of the reset link's account; every session of hers ends, and
    her open table sockets close (she signs in again, with the new one)."""
    srv = server(request)

    def work() -> list[str]:
        with srv.store.session() as s:
            account = resets.account_of_token(s, body.token, srv.secret)
            return resets.set_password(s, account, body.password)

    ended = await asyncio.to_thread(work)  # committed, then the sockets are told
    for key in ended:
        srv.session_sockets.end(key)

