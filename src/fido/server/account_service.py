"""A person's own account, as the API and the account page both ask for it: her data
to take home ("download my data") and the account's deletion. Who may is
:func:`fido.server.policy.own_data`'s; what is exported and erased is
:mod:`fido.accounts.privacy`'s."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from fastapi import Request, Response

from fido import i18n
from fido.accounts import privacy
from fido.accounts import signup as accounts
from fido.server import policy
from fido.server.deps import count_against, me, server, set_session_cookie
from fido.server.errors import ApiError

__all__ = ["delete_account", "my_data", "my_data_file"]

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
