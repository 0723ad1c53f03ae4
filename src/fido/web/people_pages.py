"""The people page (docs/people.md): who is online and chose to be seen, with her
rating in the game she looks at; challenges to her and from her; being seen, following,
blocking. Each form calls the service the API calls (:mod:`fido.server.people_service`,
:mod:`fido.server.challenges_service`) with the page's own request."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse

from fido.bots import LEVELS
from fido.bots.names import level_name
from fido.errors import Refused
from fido.i18n import _
from fido.ratings import family_ruleset
from fido.safe_text import whole_or_none
from fido.server import challenges_service as challenges
from fido.server import people_service as people
from fido.server.challenges_service import ChallengeIn
from fido.server.errors import status_of
from fido.server.people_service import OnlineIn
from fido.server.ratings_service import FAMILIES
from fido.web.forms import FormError, clock_choices, game_label
from fido.web.kit import Form, checked, render, see_other, viewer
from fido.web.queue_form import queue_games

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


def _others() -> list[tuple[str, str]]:
    """The seats beside the two of them, as the challenge's form offers them."""
    return [(f"bot:{lv}", _("bots: {level}").format(level=level_name(lv))) for lv in LEVELS] + [
        ("open", _("open seats (anyone may join)"))]


def challenge_body(form: dict[str, str], to: int) -> dict[str, Any]:
    """The API's challenge from the form's fields (FormError: a choice not offered)."""
    game, _colon, size = form.get("game", "fido:9").partition(":")
    body: dict[str, Any] = {"to": to, "game": game, "others": form.get("others", "bot:expert"),
                            "rates": not form.get("friendly")}
    if size:
        body["set"] = whole_or_none(size)
    players = whole_or_none(form.get("players", "2"))
    if players is None:
        raise FormError(_("A table has 2 to 9 players."))
    body["players"] = players
    clock = whole_or_none(form.get("clock", "0"))
    if clock is None:
        raise FormError(_("Choose one of the clocks offered."))
    if clock:
        body["clock"] = clock
    return body


async def _page(request: Request, status: int = 200, error: str = "",
                form: dict[str, str] | None = None) -> HTMLResponse:
    me = await asyncio.to_thread(viewer, request)
    family = request.query_params.get("game") or people.DEFAULT_FAMILY
    if family not in FAMILIES:
        family = people.DEFAULT_FAMILY
    online = await asyncio.to_thread(people.online, request, family)
    mine = blocked = None
    if me is not None:
        mine = await asyncio.to_thread(challenges.mine, request)
        blocked = await asyncio.to_thread(people.blocks, request)
    families = [(f, game_label(family_ruleset(f))) for f in FAMILIES]
    return render(request, "people.html", status, me=me, online=online, challenges=mine,
                  blocked=blocked, families=families, family=family, error=error,
                  form=form or {}, games=queue_games(), others=_others(),
                  others_labels=dict(_others()),
                  clocks=clock_choices())


@router.get("/people", response_class=HTMLResponse)
async def people_page(request: Request) -> HTMLResponse:
    return await _page(request)


async def _do(request: Request, form: dict[str, str], work: Callable[[], Awaitable[Any]],
              then: str | Callable[[Any], str] = "/people") -> Response:
    """Run one service call for a form, then go on to ``then``; refused: the page again,
    saying why (changing nothing)."""
    try:
        result = await work()
    except FormError as e:
        return await _page(request, 422, str(e), form)
    except Refused as e:
        return await _page(request, status_of(e), e.message, form)
    return see_other(then(result) if callable(then) else then)


@router.post("/people/visible")
async def set_visible(request: Request, form: Form) -> Response:
    body = checked(OnlineIn, {"visible": form.get("visible") == "1"})
    return await _do(request, form, lambda: asyncio.to_thread(people.set_online, request, body))


@router.post("/people/{account_id}/{what}")
async def relation(request: Request, account_id: int, what: str, form: Form) -> Response:
    """Follow, unfollow, block or unblock her."""
    calls = {"follow": (people.follow, True), "unfollow": (people.follow, False),
             "block": (people.block, True), "unblock": (people.block, False)}
    if what not in calls:
        return await _page(request, 404, _("There is no such page."))
    call, on = calls[what]
    return await _do(request, form, lambda: asyncio.to_thread(call, request, account_id, on))


@router.post("/challenges")
async def challenge(request: Request, form: Form) -> Response:
    async def work() -> Any:
        to = whole_or_none(form.get("to", ""))
        if to is None:
            raise FormError(_("Choose whom to challenge."))
        return await challenges.create(request, checked(ChallengeIn, challenge_body(form, to)))

    return await _do(request, form, work)


@router.post("/challenges/{challenge_id}/{what}")
async def answer(request: Request, challenge_id: int, what: str, form: Form) -> Response:
    """Accept (to its table), decline or withdraw a challenge."""
    if what == "accept":
        return await _do(request, form, lambda: challenges.accept(request, challenge_id),
                         then=lambda c: f"/tables/{c.table}")
    calls = {"decline": challenges.decline, "withdraw": challenges.withdraw}
    if what not in calls:
        return await _page(request, 404, _("There is no such page."))
    return await _do(request, form,
                     lambda: asyncio.to_thread(calls[what], request, challenge_id))
