"""The operator's own texts: the Impressum (who runs the site, how to reach her: what
German law asks of a site a federation runs) and her part of the privacy statement
(who is responsible for the data, how to reach her, on what basis, how long her logs
keep what). fido writes the rest of the privacy page itself: what it stores and why
(:mod:`fido.web.legal_pages`).

The texts are Markdown, one a page and language, kept in the database's settings
(``legal.<page>.<lang>``): every process serves the same, a backup keeps them, and
``fido doctor`` sees whether they are written. ``fido legal set`` writes them. They are
the administrator's, but trusted for nothing: Markdown without HTML, printable text,
bounded in size.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from fido.errors import Refused
from fido.i18n import LANGUAGES, _
from fido.store import Setting

__all__ = ["MAX_CHARS", "PAGES", "clear_text", "set_text", "text_of", "written"]

PAGES = ("impressum", "privacy")
MAX_CHARS = 50_000  # a page's text; a legal page is a few screens


def _key(page: str, lang: str) -> str:
    if page not in PAGES:
        raise Refused("legal_page", _("the pages are impressum and privacy, not {page}")
                      .format(page=repr(page)))
    if lang not in LANGUAGES:
        raise Refused("legal_language", _("the languages are {languages}, not {lang}").format(
            languages=", ".join(LANGUAGES), lang=repr(lang)))
    return f"legal.{page}.{lang}"


def set_text(s: Session, page: str, lang: str, text: str) -> None:
    """Write ``page``'s text in ``lang``; refused when it is empty, too long or holds
    control characters (a terminal's escapes, a NUL)."""
    key = _key(page, lang)
    text = text.replace("\r\n", "\n").strip()
    if not text:
        raise Refused("legal_empty", _(
            "the text is empty (to take a page down: fido legal clear)"))
    if len(text) > MAX_CHARS:
        raise Refused("legal_long", _("the text has {n} characters; at most {most}").format(
            n=len(text), most=MAX_CHARS))
    bad = sorted({f"U+{ord(c):04X}" for c in text
                  if (ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) < 0xA0})
    if bad:
        raise Refused("legal_control", _("the text holds control characters: {which}").format(
            which=", ".join(bad)))
    row = s.get(Setting, key)
    if row is None:
        s.add(Setting(key=key, value=text))
    else:
        row.value = text


def clear_text(s: Session, page: str, lang: str) -> bool:
    """Take ``page``'s text in ``lang`` down; whether there was one."""
    row = s.get(Setting, _key(page, lang))
    if row is not None:
        s.delete(row)
    return row is not None


def text_of(s: Session, page: str, lang: str) -> tuple[str, str] | None:
    """``page``'s text for a reader of ``lang``: hers, else the English, else any
    written; with the language it is in. None: not written."""
    found = written(s).get(page, [])
    for choice in (lang, "en", *found):
        if choice in found:
            row = s.get(Setting, _key(page, choice))
            if row is not None:
                return row.value, choice
    return None


def written(s: Session) -> dict[str, list[str]]:
    """The languages each page is written in."""
    out: dict[str, list[str]] = {}
    for key in s.scalars(select(Setting.key).where(Setting.key.like("legal.%"))):
        _, page, lang = key.split(".", 2)
        out.setdefault(page, []).append(lang)
    return {page: sorted(langs) for page, langs in out.items()}
