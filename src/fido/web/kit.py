"""The pages' kit: what every page module shares, defined once.

The Jinja2 environment (autoescaped, translated in the request's language), the
page render with its security headers, who is asking (for the nav), the checked
form (its CSRF token first), a redirect on this site, and the error page. Page
modules import it; it imports no page module (so no page module imports another
to reach these).
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar
from urllib.parse import parse_qs

from fastapi import Depends, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse
from jinja2 import Environment, PackageLoader, select_autoescape
from markdown_it import MarkdownIt
from markupsafe import Markup
from pydantic import BaseModel, ValidationError

import fido
from fido import i18n
from fido.errors import Refused
from fido.i18n import N_, _
from fido.server import deps
from fido.server.account_views import guest_name, person_json
from fido.server.errors import ApiError
from fido.server.field_errors import field_errors
from fido.web.forms import bot_name, clock_label, game_label

if TYPE_CHECKING:  # a session of the caller's: named in annotations only
    from sqlalchemy.orm import Session

__all__ = [
    "CSP",
    "STATIC",
    "Body",
    "Form",
    "RefusedPage",
    "checked",
    "env",
    "error_page",
    "guest_name",
    "local_path",
    "markdown",
    "person_json",
    "person_name",
    "person_of",
    "refused",
    "refused_page",
    "render",
    "see_other",
    "viewer",
    "wants_json",
    "wants_page",
    "with_cookies",
]

STATIC = Path(__file__).parent / "static"
_MAX_FORM = 16_384  # bytes: the largest form (create a table) is far smaller
# pages load scripts, styles and images from this site only; the table's
# socket is this site's too
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)

env = Environment(
    loader=PackageLoader("fido.web", "templates"),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
    extensions=["jinja2.ext.i18n"],
)
# the request's language at each call (a context variable), so one environment serves all
env.install_gettext_callables(  # type: ignore[attr-defined]
    i18n.gettext, i18n.ngettext, newstyle=True, pgettext=i18n.pgettext)
env.filters["game"] = game_label
env.filters["clock"] = clock_label  # a move clock as said: "30 s", "1 day"
env.filters["bot"] = bot_name  # a bot's level in the reader's language: "bot (expert)"
_GUEST = re.compile(r"guest (\d+)")  # how the API names a guest (no account may be named so)


def person_name(name: str | None) -> str | None:
    """A name from the API as the reader reads it: a guest ("guest 12") in her language."""
    guest = _GUEST.fullmatch(name or "")
    return i18n.gettext("guest {id}").format(id=guest[1]) if guest else name


env.filters["person"] = person_name
env.filters["number"] = i18n.format_number
env.filters["decimal"] = i18n.format_decimal
env.filters["date"] = i18n.format_date
env.filters["month"] = i18n.format_month  # 2026-10 inside a sentence: "October 2026"
env.filters["datetime"] = i18n.format_datetime


def viewer(request: Request) -> dict[str, Any] | None:
    """Who this browser is (None: anonymous), for a page's nav: id, name, guest..."""
    with deps.server(request).store.session(write=False) as s:
        return person_of(request, s)


def person_of(request: Request, s: Session) -> dict[str, Any] | None:
    """:func:`viewer` in a session of the caller's."""
    account = deps.me(request, s)
    return person_json(account) if account is not None else None


def markdown(text: str) -> Markup:
    """Markdown as a page shows it: CommonMark and tables, the source's own HTML
    escaped (a text from the rule book or the operator is trusted with no markup)."""
    return Markup(MarkdownIt("commonmark", {"html": False}).enable("table").render(text))


def render(
    request: Request, template: str, status: int = 200, **context: Any
) -> HTMLResponse:
    """A page: the template with who she is, her CSRF token and the version."""
    context.setdefault("me", None)
    html = env.get_template(template).render(
        request=request, csrf_token=request.state.csrf_token, version=fido.__version__,
        lang=i18n.current(), languages=i18n.LANGUAGES, here=_here(request), **context,
    )
    return HTMLResponse(html, status_code=status, headers={
        "Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin", "Cache-Control": "no-store",
    })


def _here(request: Request) -> str:
    """This page's address on this site, without a ``?lang=`` (the switch's way back)."""
    url = request.url.remove_query_params("lang")
    return url.path + ("?" + url.query if url.query else "")


_ERROR_TITLES = {  # translated where shown (error_page)
    400: N_("That request is not right"), 403: N_("Not yours to see"),
    404: N_("There is no such page"), 405: N_("That cannot be done here"),
    413: N_("That is too long"), 422: N_("That address is not right"),
    500: N_("Something went wrong"),
}


def wants_page(request: Request) -> bool:
    """A browser asking for a page (not the API, a socket or a file) gets an error as a page."""
    path = request.url.path
    return (not path.startswith(("/api/", "/ws/", "/static/"))
            and "text/html" in request.headers.get("accept", ""))


async def error_page(request: Request, status: int, message: str) -> HTMLResponse:
    """An error as a page with the nav (the JSON body is for the API)."""
    try:
        who = await asyncio.to_thread(viewer, request)
    except Exception:  # the database may be the trouble: the page shows all the same
        who = None
    if not hasattr(request.state, "csrf_token"):  # an error before the middleware ran
        request.state.csrf_token = ""
    return render(request, "message.html", status, me=who,
                  title=_(_ERROR_TITLES.get(status, "That did not work")), message=message)


def local_path(path: str | None) -> str:
    """A redirect target on this site only (no open redirect to another)."""
    if not path or not path.startswith("/") or path.startswith("//") or "\\" in path:
        return "/"
    return path


def see_other(path: str, cookies: Response | None = None) -> Response:
    """A redirect to ``path`` on this site, with the ``cookies`` a service set."""
    return with_cookies(RedirectResponse(local_path(path), status_code=303), cookies)


def with_cookies(response: Response, cookies: Response | None) -> Response:
    """``response`` with the cookies a service set on ``cookies`` (a session started or
    ended, the language chosen): the services answer the API and the pages alike."""
    if cookies is not None:
        for raw in cookies.headers.getlist("set-cookie"):
            response.headers.append("set-cookie", raw)
    return response


Body = TypeVar("Body", bound=BaseModel)


def checked(model: type[Body], data: dict[str, Any]) -> Body:
    """A form's values as the service's input, checked as the API checks its JSON (an
    :class:`ApiError` with the same sentence as the API's 422)."""
    try:
        return model.model_validate(data)
    except ValidationError as e:
        raise ApiError(422, "invalid", field_errors(e.errors())) from None


class RefusedPage(Refused):
    """A request a page answers with a status, a title and a sentence (and changes
    nothing): a :class:`~fido.errors.Refused` with its page's title, raised anywhere in
    a page's handler or its dependencies, shown by :func:`refused_page` in
    :attr:`template` (a subclass may show another)."""

    template = "message.html"

    def __init__(self, status: int, title: str, message: str, code: str | None = None) -> None:
        code = code or {401: "signed_out", 403: "forbidden", 404: "not_found"}.get(
            status, "refused")
        super().__init__(code, message)
        self.status, self.title = status, title


def wants_json(request: Request) -> bool:
    """A client that asks for JSON, not a page (a script posting a form)."""
    accept = request.headers.get("accept", "")
    return "application/json" in accept and "text/html" not in accept


def refused(request: Request, e: RefusedPage, me: dict[str, Any] | None = None) -> Response:
    """The page of a :class:`RefusedPage` (JSON for a client that asks for it)."""
    if wants_json(request):
        return JSONResponse({"error": {"code": e.code, "message": e.message}}, e.status)
    return render(request, e.template, e.status, me=me, title=e.title, message=e.message)


async def refused_page(request: Request, exc: Exception) -> Response:
    """A :class:`RefusedPage` that left a page's handler (the store's session rolled back):
    its page with her nav, or JSON for a client that asks for it (the app's handler)."""
    assert isinstance(exc, RefusedPage)
    return refused(request, exc, await asyncio.to_thread(viewer, request))


async def checked_form(request: Request) -> dict[str, str]:
    """The posted form, after its CSRF token was checked against the cookie, else
    :class:`RefusedPage` saying why (a stale tab, a forged post, a form too long)."""
    try:
        await request.app.state.server.csrf.check(request)
    except ApiError as e:
        raise RefusedPage(e.status, _("Please try again"), _(
            "This form was not sent from this site's page (or the page is too old): reload "
            "it and send it again. ({why})").format(why=e.message), e.code) from None
    body = await request.body()
    if len(body) > _MAX_FORM:
        raise RefusedPage(413, _("Too long"), _("The form is too large."), "too_large")
    fields = parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
    return {k: v[0] for k, v in fields.items() if v}


# a page's posted form, checked: a handler's parameter (`form: Form`)
Form = Annotated[dict[str, str], Depends(checked_form)]
