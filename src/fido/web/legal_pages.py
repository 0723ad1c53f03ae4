"""The pages the law asks of a public site and a person's own account: /impressum (the
operator's), /privacy (the operator's part, then what fido stores and why, and its
cookies), /account (download my data, delete my account: GDPR Art. 15, 17, 20).

The operator writes her texts with ``fido legal set`` (:mod:`fido.accounts.legal`);
what fido stores is written here once, in the reader's language, and the export
(:mod:`fido.accounts.privacy`) holds each section it lists.
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse
from markupsafe import Markup

from fido.accounts import legal
from fido.errors import Refused
from fido.i18n import _, current
from fido.server import account_service, deps
from fido.server.errors import status_of
from fido.server.schemas import AccountDeletion
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


@router.get("/account", response_class=HTMLResponse)
async def account_page(request: Request) -> Response:
    """Her account: her data to download, the account to delete."""
    me = await asyncio.to_thread(viewer, request)
    if me is None:
        return see_other("/signin?next=/account")
    return render(request, "account.html", me=me)


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
