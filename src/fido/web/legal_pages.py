"""The pages the law asks of a public site and a person's own account: /impressum (the
operator's), /privacy (the operator's part, then what fido stores and why, and its
cookies), /account (her address and its confirmation, her inbox's news by mail,
download my data, delete my account: GDPR Art. 15, 17, 20), and the pages the links
mailed to her open (/confirm, /unsubscribe).

The operator writes her texts with ``fido legal set`` (:mod:`fido.accounts.legal`);
what fido stores is written here once, in the reader's language, and the export
(:mod:`fido.accounts.privacy`) holds each section it lists.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from urllib.parse import parse_qs

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse
from markupsafe import Markup

from fido.accounts import legal
from fido.errors import Refused
from fido.i18n import _, current
from fido.server import account_service, deps
from fido.server.errors import status_of
from fido.server.schemas import AccountDeletion, AddressOut, EmailIn, VacationIn
from fido.web.kit import (
    Form,
    checked,
    markdown,
    person_of,
    render,
    see_other,
    viewer,
    with_cookies,
)

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


def _page(request: Request, page: str) -> tuple[dict[str, object] | None, Markup | None, str]:
    """Who asks, the operator's text of ``page`` (HTML) and its language."""
    with deps.server(request).store.session(write=False) as s:
        me = person_of(request, s)
        found = legal.text_of(s, page, current())
    if found is None:
        return me, None, current()
    text, lang = found
    return me, markdown(text), lang


@router.get("/impressum", response_class=HTMLResponse)
async def impressum(request: Request) -> HTMLResponse:
    """Who runs this site and how to reach her, as the operator wrote it (404 until she
    has: ``fido legal set impressum``)."""
    me, html, lang = await asyncio.to_thread(_page, request, "impressum")
    return render(request, "impressum.html", 200 if html else 404, me=me, text=html,
                  text_lang=lang)


@router.get("/privacy", response_class=HTMLResponse)
async def privacy(request: Request) -> HTMLResponse:
    """The privacy statement: the operator's part (who is responsible, how to reach her),
    then what this server stores, why, and for how long, and its cookies."""
    me, html, lang = await asyncio.to_thread(_page, request, "privacy")
    return render(request, "privacy.html", me=me, text=html, text_lang=lang)


def _account(request: Request) -> tuple[dict[str, object] | None, AddressOut | None]:
    me = viewer(request)
    if me is None or me["guest"]:
        return me, None
    return me, account_service.address(request)


async def _account_page(request: Request, status: int = 200, **context: object) -> Response:
    me, address = await asyncio.to_thread(_account, request)
    if me is None:
        return see_other("/signin?next=/account")
    return render(request, "account.html", status, me=me, address=address, **context)


@router.get("/account", response_class=HTMLResponse)
async def account_page(request: Request) -> Response:
    """Her account: her address and its news, her data to download, the account to
    delete."""
    return await _account_page(request)


async def _account_action(request: Request, work: Callable[[], object], saved: str) -> Response:
    """A form of her account's page: the service's ``work``, then the page again, saying
    ``saved`` (or, refused, the page with the reason)."""
    try:
        await asyncio.to_thread(work)
    except Refused as e:
        return await _account_page(request, status_of(e), error=e.message)
    return see_other(f"/account?saved={saved}")


@router.post("/account/email")
async def change_email(request: Request, form: Form) -> Response:
    """A new address (empty: none); its confirmation link is mailed."""
    def work() -> object:
        body = checked(EmailIn, {"email": form.get("email", "").strip() or None})
        return account_service.change_email(request, body.email)

    return await _account_action(request, work, "email")


@router.post("/account/email/link")
async def resend_confirmation(request: Request, form: Form) -> Response:
    return await _account_action(
        request, lambda: account_service.resend_confirmation(request), "link")


@router.post("/account/notices")
async def set_notices(request: Request, form: Form) -> Response:
    """Her inbox's news by mail, on or off."""
    return await _account_action(
        request, lambda: account_service.set_notices(request, form.get("on") == "1"),
        "notices")


@router.post("/account/vacation")
async def set_vacation(request: Request, form: Form) -> Response:
    """Her vacation: days from now (her turn-based clocks wait), or 0 to end it."""
    def work() -> object:
        body = checked(VacationIn, {"days": form.get("days", "")})
        return account_service.set_vacation(request, body.days)

    return await _account_action(request, work, "vacation")


@router.get("/confirm", response_class=HTMLResponse)
async def confirm_page(request: Request, token: str = "") -> HTMLResponse:
    """The confirmation link's page: one button (a mail scanner's visit confirms nothing)."""
    me = await asyncio.to_thread(viewer, request)
    return render(request, "confirm.html", me=me, token=token[:600])


@router.post("/confirm")
async def confirm(request: Request, form: Form) -> Response:
    me = await asyncio.to_thread(viewer, request)
    try:
        email = await asyncio.to_thread(account_service.confirm_address, request,
                                        form.get("token", "")[:600])
    except Refused as e:
        return render(request, "confirm.html", status_of(e), me=me, error=e.message)
    return render(request, "message.html", me=me, title=_("Your address is confirmed"),
                  message=_("{email} is confirmed: it gets the mail you ask for.").format(
                      email=email))


@router.get("/unsubscribe", response_class=HTMLResponse)
async def unsubscribe_page(request: Request, token: str = "") -> HTMLResponse:
    """The news mail's link: one button that turns the news off."""
    me = await asyncio.to_thread(viewer, request)
    return render(request, "unsubscribe.html", me=me, token=token[:400])


@router.post("/unsubscribe")
async def unsubscribe(request: Request, token: str = "") -> Response:
    """Turn the news off: the page's button (the token in its form) or a mail program's
    one click (RFC 8058: the token in the address, ``List-Unsubscribe=One-Click`` in the
    body). No CSRF token: the link is the key, and once more changes nothing."""
    fields = parse_qs((await request.body())[:4096].decode("utf-8", "replace"))
    key = fields.get("token", [token])[0][:400]
    try:
        await asyncio.to_thread(account_service.unsubscribe, request, key)
    except Refused as e:
        me = await asyncio.to_thread(viewer, request)
        return render(request, "unsubscribe.html", status_of(e), me=me, error=e.message)
    me = await asyncio.to_thread(viewer, request)
    return render(request, "message.html", me=me, title=_("No more news by mail"),
                  message=_("You get no more news mail. Your inbox keeps everything; "
                            "your account's page turns the mail on again."))


@router.get("/account/data")
async def my_data(request: Request) -> Response:
    """Download my data (the API's file, for the page's link)."""
    return await asyncio.to_thread(account_service.my_data_file, request)


@router.post("/account/delete")
async def delete_account(request: Request, form: Form) -> Response:
    """Delete my account: the password again; then she is signed out, on every device."""
    cookies = Response()
    try:
        body = checked(AccountDeletion, {"password": form.get("password") or None})
        await account_service.delete_account(request, cookies, body.password)
    except Refused as e:
        me = await asyncio.to_thread(viewer, request)
        if me is None:
            return see_other("/signin?next=/account")
        return render(request, "account.html", status_of(e), me=me, error=e.message)
    return with_cookies(render(
        request, "message.html", title=_("Your account is deleted"),
        message=_("Your account and everything that was yours alone are gone. Thank you "
                  "for playing.")), cookies)
