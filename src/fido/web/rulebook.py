"""The rules for players: docs/rules.md rendered, its worked examples drawn.

The page speaks the reader's language: ``rules.<lang>.md`` (docs/rules.de.md, a
translation with the same picture lines) where the package has one, else the English.

The rule book's examples carry picture lines (``<!-- picture: RULESET |
TABLE | S = N | caption -->``, invisible on GitHub); each becomes a figure:
the table's layout from :mod:`fido.layout`, drawn in the browser by the
table page's own ``board.js``, with the sum the engine computes. A picture
whose stated sum the engine does not give is refused when the page is built
(and by the tests), so the pictures cannot drift from the rules.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from markupsafe import Markup

from fido.engine.rules import Ruleset
from fido.engine.table import Table
from fido.i18n import _, current, ngettext
from fido.layout import Layouter
from fido.server.wire import layout_json
from fido.web.kit import markdown, render, viewer

__all__ = ["Picture", "pictures", "router", "rules_html"]

_PICTURE = re.compile(r"^<!-- picture: (.+?) \| (.+?) \| S = (\d+) \| (.+?) -->$", re.MULTILINE)
_COMMENT = re.compile(r"^<!--.*?-->\n?", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Picture:
    rules: Ruleset
    table: Table
    stated: int  # the sum the rule book states
    caption: str

    @property
    def points(self) -> int:
        return self.rules.points(self.table.ends_sum)

    def html(self) -> Markup:
        layout = Layouter.from_table(self.table, self.rules.max_pips)
        data = json.dumps(layout_json(layout), separators=(",", ":"))
        text, ends = self.table.text(), self.table.ends_sum
        if self.points:
            scored = ": " + ngettext("{n} point", "{n} points", self.points).format(
                n=self.points)
            label = ngettext("{caption}. The table {table}; sum of the ends {sum}: {n} point.",
                             "{caption}. The table {table}; sum of the ends {sum}: {n} points.",
                             self.points).format(caption=self.caption, table=text, sum=ends,
                                                 n=self.points)
        else:
            scored = ""
            label = _("{caption}. The table {table}; sum of the ends {sum}.").format(
                caption=self.caption, table=text, sum=ends)
        return Markup(
            '<figure class="rule-picture">'
            '<svg class="board rule-board" role="img" aria-label="{label}" data-layout="{data}" '
            'data-max="{max}" data-last="{last}"></svg>'
            "<figcaption><b>S = {s}</b>{scored} · {caption} <code>{text}</code></figcaption>"
            "</figure>"
        ).format(label=label, data=data, max=self.rules.max_pips,
                 last=len(self.table.placements) - 1, s=ends, scored=scored,
                 caption=self.caption, text=text)


def _source(lang: str) -> str:
    """The rule book in ``lang`` where there is one (``rules.<lang>.md``), else the English."""
    package = resources.files("fido.web")
    translated = package.joinpath(f"rules.{lang}.md")
    book = translated if translated.is_file() else package.joinpath("rules.md")
    return book.read_text(encoding="utf-8")


def pictures(text: str) -> list[Picture]:
    """The rule book's pictures, each checked against the engine (ValueError if wrong)."""
    out = []
    for m in _PICTURE.finditer(text):
        picture = Picture(Ruleset.from_text(m[1]), Table.from_text(m[2]), int(m[3]), m[4])
        if picture.table.ends_sum != picture.stated:
            raise ValueError(f"the rule book says S = {picture.stated} for {m[2]}, the "
                             f"engine gives {picture.table.ends_sum}")
        out.append(picture)
    return out


def rules_html() -> Markup:
    """The rule book in the current language as HTML, the pictures in their places."""
    return _rules_html(current())


@cache
def _rules_html(lang: str) -> Markup:
    """One language's rule book as HTML (its own markup escaped), built once.

    ``lang`` is the current language (the cache's key): the pictures' words are
    translated with it while the page is built.
    """
    text = _source(lang)
    figures = pictures(text)
    count = iter(range(len(figures)))
    marked = _PICTURE.sub(lambda _m: f"\n\nFIDOPICTURE{next(count)}\n\n", text)
    marked = _COMMENT.sub("", marked)  # the other comments are notes for editors
    html = str(markdown(marked))
    for i, picture in enumerate(figures):
        html = html.replace(f"<p>FIDOPICTURE{i}</p>", str(picture.html()))
    return Markup(html)  # markdown-it escaped the source's own markup (html=False)


router = APIRouter(include_in_schema=False)


@router.get("/rules", response_class=HTMLResponse)
async def rules_page(request: Request) -> HTMLResponse:
    """The rule book, for players: what fido plays, with pictures of the examples."""
    who = await asyncio.to_thread(viewer, request)
    return render(request, "rules.html", me=who, body=rules_html())
