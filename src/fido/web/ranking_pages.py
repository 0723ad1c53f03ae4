"""The world ranking on the web: a published month, a player's history, the downloads.

Public pages (no account needed), read from the published snapshots
(:func:`fido.ranking.snapshot.published`, which checks each one's digest) and
from :func:`fido.ranking.report.player_report` for a player's counted games;
the downloads are :mod:`fido.ranking.export`'s CSV and JSON, the same text
``fido ranking export`` writes. Nothing here computes a ranking number itself.

* ``/ranking``: the latest published month; ``/ranking/YYYY-MM``: any
  published month, 100 players a page, with a search by name or number;
  ``/ranking/YYYY-MM.csv`` and ``.json``: the month's downloads.
* ``/ranking/players/{number}?month=YYYY-MM``: her FLADUB by month as an SVG
  chart (:mod:`fido.web.ranking_chart`) and the month's counted games with
  their weight and contribution; a player merged into another is redirected
  to the survivor.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from babel import numbers
from fastapi import APIRouter, Request, Response
from fastapi.responses import HTMLResponse, RedirectResponse

from fido.i18n import _, current
from fido.ranking import export
from fido.ranking.errors import ResultError
from fido.ranking.players import find_player, survivor
from fido.ranking.published import Computations, Snapshots, published_months
from fido.ranking.report import player_report
from fido.ranking.snapshot import Entry, Ranking, month_key
from fido.web.kit import person_of, render
from fido.web.ranking_chart import history_chart

__all__ = ["PAGE_SIZE", "router"]

PAGE_SIZE = 100  # players per page of a month's ranking
_NUMBER = re.compile(r"[0-9]{1,10}")
_MAX_QUERY = 100  # characters of a search


@dataclass(frozen=True)
class Row:
    """One line of the ranking as the page shows it."""

    entry: Entry
    country: str | None

    @property
    def moved(self) -> int | None:
        """Places up (positive) or down since last month; None: not ranked then."""
        e = self.entry
        return None if e.previous_position is None else e.previous_position - e.position


def _month(text: str | None) -> str | None:
    """The canonical month, or None for anything that is not one."""
    if text is None or len(text) > 20:
        return None
    try:
        return month_key(text)
    except ResultError:
        return None


def _page_number(text: str | None) -> int:
    return int(text) if text and _NUMBER.fullmatch(text) else 1


def _matches(entries: tuple[Entry, ...], query: str) -> list[Entry]:
    """Entries whose name holds ``query`` (any case), or whose number it is."""
    q = query.strip().removeprefix("#").strip()
    if not q:
        return list(entries)
    if _NUMBER.fullmatch(q):
        return [e for e in entries if e.number == int(q)]
    folded = q.casefold()
    return [e for e in entries if folded in e.name.casefold()]


def plain(x: float, digits: int = 2) -> str:
    """A ranking number with ``digits`` places and the current language's decimal sign,
    without thousands separators (1768.28 / 1768,28): FLADUB is read as one number, and
    the downloads and the command line write it so."""
    return numbers.format_decimal(x, format="0." + "0" * digits if digits else "0",
                                  locale=current())


def signed(x: float, digits: int = 2) -> str:
    """A change with its sign, in the current language: +1.25, -0.50 (with a real minus sign),
    ±0.00 when it rounds to nothing."""
    r = round(x, digits)
    if r == 0:
        return "±" + plain(0.0, digits)
    return ("+" if r > 0 else "−") + plain(abs(r), digits)


def _missing(request: Request, me: dict[str, Any] | None, months: list[str], title: str,
             message: str) -> HTMLResponse:
    """404: what was asked for is not there; the published months are."""
    return render(request, "ranking_missing.html", 404, me=me, title=title, message=message,
                  months=months)


def _broken(request: Request, me: dict[str, Any] | None, message: str) -> HTMLResponse:
    """A published month that does not check out (its digest): said, never a traceback."""
    return render(request, "message.html", 500, me=me,
                  title=_("This ranking cannot be shown"), message=message)


def _download(body: str, media: str, filename: str) -> Response:
    return Response(body, media_type=media, headers={
        "Content-Disposition": f'attachment; filename="{filename}"',
        "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store",
    })


router = APIRouter(include_in_schema=False)


kept = Snapshots()  # one per app: each app has its own store
computed = Computations()  # the players' pages: published months computed once


def month_page(request: Request, month_text: str | None, query: str | None,
               page_text: str | None) -> HTMLResponse:
    srv = request.app.state.server
    with srv.store.session(write=False) as s:
        me = person_of(request, s)
        months = published_months(s)
        if month_text is None:
            if not months:
                return render(request, "ranking_missing.html", 200, me=me,
                              title=_("World ranking"), months=[],
                              message=_("No monthly ranking has been published yet: the "
                                        "first is published when the first month with "
                                        "results ends."))
            month: str | None = months[0]
        else:
            month = _month(month_text)
            if month is None or month not in months:
                shown = month or month_text[:20]
                return _missing(request, me, months, _("No such ranking"),
                                _("The ranking of {month} has not been published.").format(
                                    month=shown))
        assert month is not None
        try:
            got = kept.get(s, month)
        except ResultError as e:
            return _broken(request, me, str(e))
        if got is None:  # withdrawn between the two reads
            return _missing(request, me, months, _("No such ranking"),
                            _("The ranking of {month} has not been published.").format(
                                month=month))
        ranking, countries = got
    search = (query or "")[:_MAX_QUERY]
    found = _matches(ranking.entries, search)
    pages_ = max(1, math.ceil(len(found) / PAGE_SIZE))
    page = min(_page_number(page_text), pages_)
    shown_entries = found[(page - 1) * PAGE_SIZE: page * PAGE_SIZE]
    rows = [Row(e, countries.get(e.player_id)) for e in shown_entries]
    index = months.index(month)
    older = months[index + 1] if index + 1 < len(months) else None
    newer = months[index - 1] if index > 0 else None

    def link(p: int) -> str:
        args = {"q": search} if search.strip() else {}
        if p > 1:
            args["page"] = str(p)
        return f"/ranking/{month}" + (f"?{urlencode(args)}" if args else "")

    return render(
        request, "ranking.html", me=me, ranking=ranking, rows=rows, months=months,
        older=older, newer=newer, search=search, found=len(found), page=page,
        pages=pages_, link=link, latest=month_text is None,
        provisional_games=ranking.params.min_games, signed=signed, plain=plain,
    )


@router.get("/ranking", response_class=HTMLResponse)
def latest(request: Request, q: str | None = None, page: str | None = None) -> HTMLResponse:
    return month_page(request, None, q, page)


def month_ranking(request: Request, month_text: str) -> tuple[Ranking | None, Response | None]:
    srv = request.app.state.server
    with srv.store.session(write=False) as s:
        month = _month(month_text)
        try:
            got = kept.get(s, month) if month else None
        except ResultError as e:
            return None, _broken(request, person_of(request, s), str(e))
        ranking = got[0] if got else None
        if ranking is None:
            return None, _missing(
                request, person_of(request, s), published_months(s), _("No such ranking"),
                _("The ranking of {month} has not been published.").format(
                    month=month or month_text[:20]))
    return ranking, None


@router.get("/ranking/{month}.csv")
def month_csv(request: Request, month: str) -> Response:
    ranking, refused = month_ranking(request, month)
    if ranking is None:
        assert refused is not None
        return refused
    return _download(export.csv_text(ranking), "text/csv; charset=utf-8",
                     f"fido-ranking-{ranking.month}.csv")


@router.get("/ranking/{month}.json")
def month_json(request: Request, month: str) -> Response:
    ranking, refused = month_ranking(request, month)
    if ranking is None:
        assert refused is not None
        return refused
    return _download(export.json_text(ranking), "application/json",
                     f"fido-ranking-{ranking.month}.json")


@router.get("/ranking/players/{number}", response_class=HTMLResponse)
def player_page(request: Request, number: str, month: str | None = None) -> Response:
    srv = request.app.state.server
    with srv.store.session(write=False) as s:
        me = person_of(request, s)
        months = published_months(s)
        try:
            who = find_player(s, int(number)) if _NUMBER.fullmatch(number) else None
        except ResultError:  # no such number (or one no player can have)
            who = None
        if who is None:
            return _missing(request, me, months, _("No such player"),
                            _("No registered player has the number {number}.").format(
                                number=number[:20]))
        if who.merged_into is not None:
            into = survivor(s, who)
            if into.id != who.id:
                args = f"?{urlencode({'month': month})}" if month else ""
                return RedirectResponse(f"/ranking/players/{into.number}{args}", 301)
        if month is None:
            if not months:
                return _missing(request, me, months, _("No ranking yet"),
                                _("No monthly ranking has been published yet."))
            key: str | None = months[0]
        else:
            key = _month(month)
            if key is None or key not in months:
                return _missing(request, me, months, _("No such ranking"),
                                _("The ranking of {month} has not been published.").format(
                                    month=key or month[:20]))
        assert key is not None
        try:
            got = kept.get(s, key)
            report = player_report(s, key, who.number, computed.get(s, key))
        except ResultError as e:
            return _broken(request, me, str(e))
        assert got is not None
        ranking = got[0]
        country = who.country
    chart = history_chart(report.history)
    late = any(g.late_factor != 1.0 for g in report.games)
    return render(
        request, "ranking_player.html", me=me, report=report, chart=chart,
        country=country, months=months, late=late,
        provisional_games=ranking.params.min_games, signed=signed, plain=plain,
    )


@router.get("/ranking/{month}", response_class=HTMLResponse)
def month_view(request: Request, month: str, q: str | None = None,
               page: str | None = None) -> HTMLResponse:
    return month_page(request, month, q, page)
