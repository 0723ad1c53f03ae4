"""The interface's languages: gettext catalogs (Babel), the current language, formatting.

Every sentence a person reads goes through :func:`gettext` (``_``) or :func:`ngettext`;
which language they answer in is a context variable (:func:`use`), set once per request
or table socket by the server and once per run by the terminal game, so code that raises
a refusal deep in a call needs no language argument. A sentence stored in a constant is
marked with :func:`N_` and translated where it is shown.

The catalogs are ``fido/locale/<lang>/LC_MESSAGES/fido.po`` (Python and the templates)
and ``fido_js.po`` (the page scripts), compiled to ``.mo`` by the build (``make``);
a catalog not compiled yet is read from its ``.po``. English is the source language and
has no catalog. A third language is its catalogs and one line in :data:`LANGUAGES`.
"""

from __future__ import annotations

import functools
import io
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import date, datetime
from pathlib import Path
from typing import Any

from babel import Locale, dates, numbers
from babel.messages.mofile import write_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "N_",
    "_",
    "current",
    "format_date",
    "format_datetime",
    "format_decimal",
    "format_month",
    "format_number",
    "from_accept_language",
    "from_environment",
    "gettext",
    "js_catalog",
    "language_or_none",
    "ngettext",
    "pgettext",
    "use",
]

# the languages the interface speaks, by code, each named in itself (the switch shows these)
LANGUAGES: dict[str, str] = {"en": "English", "de": "Deutsch"}
DEFAULT = "en"
LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN, JS_DOMAIN = "fido", "fido_js"

_current: ContextVar[str] = ContextVar("fido_language", default=DEFAULT)


@functools.cache
def translations(lang: str, domain: str = DOMAIN) -> NullTranslations:
    """The catalog of ``lang`` (English: none, the source text is English)."""
    if lang == DEFAULT or lang not in LANGUAGES:
        return NullTranslations()
    base = LOCALE_DIR / lang / "LC_MESSAGES" / domain
    mo, po = base.with_suffix(".mo"), base.with_suffix(".po")
    if mo.exists() and (not po.exists() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as f:
            return Translations(f, domain)
    if not po.exists():
        return NullTranslations()
    with po.open("rb") as f:  # not compiled yet (a checkout without `make`): compile here
        catalog = read_po(f, locale=lang)
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return Translations(buf, domain)


def current() -> str:
    """The language of the request, socket or run in progress."""
    return _current.get()


@contextmanager
def use(lang: str | None) -> Iterator[str]:
    """Speak ``lang`` (a code of :data:`LANGUAGES`; anything else: English) inside."""
    token = _current.set(lang if lang in LANGUAGES else DEFAULT)
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def set_language(lang: str | None) -> None:
    """Speak ``lang`` from here on in this context (a task's or a whole run's)."""
    _current.set(lang if lang in LANGUAGES else DEFAULT)


def gettext(message: str) -> str:
    """``message`` in the current language."""
    return translations(_current.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for ``n`` ("1 tile", "2 tiles") in the current language."""
    return translations(_current.get()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, in the sense ``context`` names: one English
    word with two meanings gets a context each ("side" of a double, "side" of a match;
    docs/translating.md)."""
    return str(translations(_current.get()).pgettext(context, message))


_ = gettext


def N_(message: str) -> str:
    """Mark ``message`` for the catalogs without translating it (a constant's text)."""
    return message


def language_or_none(code: str | None) -> str | None:
    """``code`` if the interface speaks it (``de``, ``de-CH`` and ``de_DE`` are ``de``)."""
    if not code:
        return None
    base = re.split(r"[-_.@]", code.strip().lower(), maxsplit=1)[0]
    return base if base in LANGUAGES else None


_RANGE = re.compile(  # a language range and its weight: "de-CH;q=0.9"
    r"^\s*([A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*|\*)\s*(?:;\s*q\s*=\s*([0-9.]+))?\s*$")


def from_accept_language(header: str | None) -> str | None:
    """The best language of an ``Accept-Language`` header that the interface speaks."""
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((header or "").split(",")[:32]):
        m = _RANGE.match(part)
        if m is None:
            continue
        try:
            q = float(m.group(2)) if m.group(2) else 1.0
        except ValueError:
            continue
        lang = language_or_none(m.group(1))
        if lang is not None and q > 0:
            ranked.append((-q, i, lang))
    return min(ranked)[2] if ranked else None


def from_environment(environ: dict[str, str]) -> str | None:
    """The language of a terminal's environment, as gettext reads it (``LANGUAGE``,
    ``LC_ALL``, ``LC_MESSAGES``, ``LANG``; the first one set decides)."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            if value in ("C", "POSIX") or value.startswith("C."):
                return None
            for code in value.split(":"):
                lang = language_or_none(code)
                if lang is not None:
                    return lang
            return None
    return None


def _locale() -> Locale:
    return Locale.parse(_current.get())


def format_number(n: int) -> str:
    """A whole number the current language's way (1,234 / 1.234)."""
    return numbers.format_decimal(n, locale=_locale())


def format_decimal(x: float, digits: int = 1) -> str:
    """A decimal with ``digits`` places (0.5 / 0,5)."""
    fmt = "#,##0." + "0" * digits if digits > 0 else "#,##0"
    return numbers.format_decimal(x, format=fmt, locale=_locale())


def format_date(d: date, form: str = "medium") -> str:
    """A date (Nov 26, 2026 / 26.11.2026)."""
    return dates.format_date(d, format=form, locale=_locale())


def format_month(month: str) -> str:
    """A ranking's month ``YYYY-MM`` as a sentence names it (October 2026 / Oktober 2026);
    anything else as it is."""
    try:
        year, number = (int(part) for part in month.split("-"))
        return dates.format_date(date(year, number, 1), format="LLLL y", locale=_locale())
    except ValueError:
        return month


def format_datetime(t: datetime, form: str = "medium") -> str:
    """A date and time, in the time zone ``t`` carries."""
    return dates.format_datetime(t, format=form, tzinfo=t.tzinfo, locale=_locale())


def js_catalog(lang: str) -> dict[str, Any]:
    """The page scripts' catalog of ``lang`` as JSON: its messages, its plural forms
    and the rule choosing among them (a JavaScript expression in ``n``)."""
    trans = translations(lang, JS_DOMAIN)
    messages: dict[str, str] = {}
    forms: dict[str, dict[int, str]] = {}
    raw: dict[Any, str] = getattr(trans, "_catalog", {})
    for key, text in raw.items():
        if isinstance(key, tuple):
            forms.setdefault(key[0], {})[key[1]] = text
        elif key and text:
            messages[key] = text
    plurals = {k: [v[i] for i in sorted(v)] for k, v in forms.items()}
    # the scripts choose a form with Intl.PluralRules: "one" is the first, the rest the second
    return {"lang": lang, "messages": messages, "plurals": plurals,
            "nplurals": get_plural(lang).num_plurals}
