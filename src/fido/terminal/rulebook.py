"""``fido rules RULESET``: the rule book in the terminal, with the notation.

The text is the project's rule book (docs/rules.md, shipped as
``fido/web/rules.md``; in another language ``rules.<lang>.md``, docs/rules.de.md,
where there is one, else the English), the sections that concern the ruleset:
a FIDO ruleset leaves out the classic variants, a classic one the FIDO sections.
The book's worked examples are drawn as text with :mod:`fido.terminal.picture`
(the web's geometry), each with the sum the engine computes.
"""

from __future__ import annotations

import re
from importlib import resources
from importlib.resources.abc import Traversable

from rich.console import Group, RenderableType
from rich.markdown import Markdown
from rich.table import Table as RichTable

from fido.engine.rules import Ruleset, Scoring
from fido.engine.table import Table
from fido.i18n import _, current
from fido.terminal.picture import draw

__all__ = ["BOOKS", "book", "rule_book", "rules_text", "summary"]

BOOKS: Traversable = resources.files("fido").joinpath("web")  # rules.md, rules.de.md, ...

_PICTURE = re.compile(r"^<!-- picture: (.+?) \| (.+?) \| S = (\d+) \| (.+?) -->$", re.MULTILINE)
_COMMENT = re.compile(r"<!--.*?-->\n?", re.DOTALL)
_SECTION = re.compile(r"^## (\d+)\. ", re.MULTILINE)
_FIDO_ONLY = {2, 3, 9}
_CLASSIC_ONLY = {4}


def book() -> Traversable:
    """The rule book in the current language, else the English one."""
    translated = BOOKS.joinpath(f"rules.{current()}.md")
    return translated if translated.is_file() else BOOKS.joinpath("rules.md")


def _source() -> str:
    return book().read_text(encoding="utf-8")


def _picture(m: re.Match[str]) -> str:
    rules, table = Ruleset.from_text(m[1]), Table.from_text(m[2])
    lines = draw(table, 1, rules.max_pips).lines
    body = "\n".join(line.rstrip() for line in lines)
    return f"\n{m[4]}: `{m[2]}`, S = {table.ends_sum}\n\n```text\n{body}\n```\n"


def rules_text(rules: Ruleset) -> str:
    """The rule book's Markdown for ``rules``: its sections, the pictures drawn."""
    text = _source()
    parts = _SECTION.split(text)
    skip = _CLASSIC_ONLY if rules.is_fido else _FIDO_ONLY
    out = [parts[0]]
    for number, body in zip(parts[1::2], parts[2::2], strict=True):
        if int(number) not in skip:
            out.append(f"## {number}. {body}")
    text = "".join(out)
    text = _PICTURE.sub(_picture, text)
    return _COMMENT.sub("", text)


def scoring_label(rules: Ruleset) -> str:
    """How a ruleset scores during play, in the reader's words: ``S/7`` (the sum of the
    ends by the divisor), ``S/5 + S/3`` (fives and threes), or none."""
    if rules.is_fido or rules.scoring is Scoring.DIVISOR:
        return f"S/{rules.divisor}"
    if rules.scoring is Scoring.FIVES_AND_THREES:
        return "S/5 + S/3"
    return _("none (points only at the end)")


def summary(rules: Ruleset) -> RichTable:
    """The ruleset in one table: set, players and hand sizes, scoring, match target."""
    t = RichTable(title=f"{rules.text()}", show_header=False)
    t.add_column("what")
    t.add_column("value")
    t.add_row(_("set"), _("double-{pips}").format(pips=rules.max_pips))
    sizes = ", ".join(
        _("{players} players: {tiles}").format(players=p, tiles=rules.hand_size(p))
        for p in range(rules.min_players, rules.max_players + 1)
    )
    t.add_row(_("hand sizes"), sizes)
    t.add_row(_("scoring"), scoring_label(rules))
    target = str(rules.match_target) if rules.match_target else _("no target")
    t.add_row(_("match to"), target)
    return t


def rule_book(rules: Ruleset) -> RenderableType:
    """What ``fido rules RULESET`` prints."""
    return Group(summary(rules), Markdown(rules_text(rules), code_theme="ansi_dark"))
