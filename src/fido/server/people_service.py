"""Finding each other (docs/people.md): the people online who chose to be seen, with
their game rating in the game she looks at; whether she is seen; whom she follows and
blocks. The pages and the API call these; :mod:`fido.accounts.social` keeps the rows."""

from __future__ import annotations

import json
from typing import Annotated

from fastapi import Request
from pydantic import BaseModel, ConfigDict, Field

from fido.accounts import social
from fido.errors import Refused
from fido.i18n import _
from fido.ratings import provisional, ratings_for, shown
from fido.server import deps, policy
from fido.server.account_views import guest_name
from fido.server.errors import ApiError
from fido.server.ratings_service import FAMILIES

__all__ = ["DEFAULT_FAMILY", "Blocked", "OnlineIn", "OnlineOut", "OnlinePerson", "PeopleOut",
           "ReportIn", "ReportOut", "block", "blocks", "follow", "online", "report",
           "set_online"]

DEFAULT_FAMILY = "fido:9"


class OnlinePerson(BaseModel):
    id: int
    name: str
    rating: int  # her game rating in the family asked for
    provisional: bool
    followed: bool  # she (who asks) follows her
    me: bool


class PeopleOut(BaseModel):
    family: str
    visible: bool | None  # whether she (who asks) is shown; None: signed out
    people: list[OnlinePerson]  # followed first, then by name


class OnlineIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    visible: bool


class OnlineOut(BaseModel):
    visible: bool


class Blocked(BaseModel):
    people: list[OnlinePerson]


class ReportIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seq: Annotated[int, Field(ge=0, le=2**31 - 1)]  # the chat line's place in the log


class ReportOut(BaseModel):
    id: int


def _family(family: str | None) -> str:
    family = family or DEFAULT_FAMILY
    if family not in FAMILIES:
        raise ApiError(422, "invalid", _("there is no game named {name}").format(
            name=repr(family[:40])), field="game")
    return family


def online(request: Request, family: str | None = None) -> PeopleOut:
    """Who is online and chose to be seen, with her rating in ``family``."""
    fam = _family(family)
    with deps.server(request).store.session(write=False) as s:
        me = deps.me(request, s)
        hidden = social.blocked(s, me.id) if me is not None else set()
        people = social.online_people(s, exclude=sorted(hidden))
        follows = social.following(s, me.id) if me is not None else set()
        ratings = ratings_for(s, [p.id for p in people], fam)
        out = [OnlinePerson(id=p.id, name=p.name or guest_name(p.id),
                            rating=shown(ratings[p.id]), provisional=provisional(ratings[p.id]),
                            followed=p.id in follows, me=me is not None and p.id == me.id)
               for p in people]
        out.sort(key=lambda p: (not p.followed, p.name.casefold()))
        return PeopleOut(family=fam, visible=None if me is None else me.online_visible,
                         people=out)


def set_online(request: Request, body: OnlineIn) -> OnlineOut:
    """Show her among the people online, or stop."""
    with deps.server(request).store.session() as s:
        me = deps.signed_in(request, s)
        social.set_visible(s, me, body.visible)
        return OnlineOut(visible=body.visible)


def follow(request: Request, account_id: int, on: bool) -> OnlineOut:
    """Follow her (``on``) or stop; ``visible``: whether she follows her now."""
    with deps.server(request).store.session() as s:
        me = deps.signed_in(request, s)
        who = policy.rated_person(s, me, account_id)
        if on:
            if who.id == me.id:
                raise ApiError(422, "yourself", _("you cannot follow yourself"))
            policy.challengeable(s, me, who.id)  # nobody follows whom she blocks
            social.follow(s, me.id, who.id)
        else:
            social.unfollow(s, me.id, who.id)
        return OnlineOut(visible=on)


def block(request: Request, account_id: int, on: bool) -> OnlineOut:
    """Block her (``on``: no challenge either way, no chat of hers reaches her) or
    stop; ``visible``: whether she blocks her now."""
    with deps.server(request).store.session() as s:
        me = deps.signed_in(request, s)
        who = policy.rated_person(s, me, account_id)
        if who.id == me.id:
            raise ApiError(422, "yourself", _("you cannot block yourself"))
        if on:
            social.block(s, me.id, who.id)
        else:
            social.unblock(s, me.id, who.id)
        return OnlineOut(visible=on)


def blocks(request: Request) -> Blocked:
    """Whom she blocks (her page lists them, each with Unblock)."""
    with deps.server(request).store.session(write=False) as s:
        me = deps.signed_in(request, s)
        ids = sorted(social.blocked(s, me.id))
        out = []
        for i in ids:
            who = policy.rated_person(s, me, i)
            out.append(OnlinePerson(id=i, name=who.name or guest_name(i), rating=0,
                                    provisional=True, followed=False, me=False))
        return Blocked(people=out)



def report(request: Request, table_id: str, body: ReportIn) -> ReportOut:
    """Report a chat line of a table to the federation (its accounts read it in their
    inbox): once a line, ten a day."""
    with deps.server(request).store.session() as s:
        me = deps.signed_in(request, s)
        line = policy.reportable_line(s, me, table_id, body.seq)
        said = json.loads(line.public)
        try:
            row = social.report_line(s, me.id, table_id, body.seq, reported=line.account_id,
                                     name=str(said.get("name", "")),
                                     text=str(said.get("text", "")))
        except Refused as e:
            raise ApiError(429 if e.code == "too_many_reports" else 409, e.code,
                           e.message) from None
        return ReportOut(id=row.id)
