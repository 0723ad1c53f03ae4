"""The translations are complete: every message of the code (Python, the page templates,
the page scripts) is in each language's catalog, translated, not fuzzy, with the same
placeholders; and no catalog keeps a message the code no longer has.

The code's messages are extracted as `make i18n` extracts them (`make pot`), so a
sentence added without its translation fails here, not in front of a German player.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from fido import i18n

ROOT = Path(__file__).resolve().parents[2]
DOMAINS = (i18n.DOMAIN, i18n.JS_DOMAIN)
TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != i18n.DEFAULT]
# {name} (Python, scripts) and %(name)s / %s (templates, Jinja's gettext)
_PLACEHOLDER = re.compile(r"\{\w*\}|%\(\w+\)[sd]|%[sd]")


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Catalog]:
    out = tmp_path_factory.mktemp("pot")
    bin_dir = Path(__import__("sys").executable).parent
    subprocess.run(["make", "-s", "pot", f"POT_DIR={out}", f"BIN={bin_dir}"], cwd=ROOT,
                   check=True)
    catalogs = {}
    for domain in DOMAINS:
        with (out / f"{domain}.pot").open("rb") as f:
            catalogs[domain] = read_po(f)
    return catalogs


def _catalog(lang: str, domain: str) -> Catalog:
    path = i18n.LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.po"
    assert path.exists(), f"{path} is missing: run make i18n"
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def _ids(catalog: Catalog) -> set[str]:
    return {m.id if isinstance(m.id, str) else m.id[0] for m in catalog if m.id}


def _placeholders(text: str) -> list[str]:
    return sorted(_PLACEHOLDER.findall(text))


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_is_in_the_catalog(extracted: dict[str, Catalog], lang: str,
                                         domain: str) -> None:
    code, catalog = _ids(extracted[domain]), _ids(_catalog(lang, domain))
    missing, stale = sorted(code - catalog), sorted(catalog - code)
    assert not missing, f"{domain}.po ({lang}) lacks {len(missing)}: {missing[:10]} (make i18n)"
    assert not stale, f"{domain}.po ({lang}) keeps {len(stale)} the code lost: {stale[:10]}"


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_is_translated(lang: str, domain: str) -> None:
    untranslated, fuzzy, wrong = [], [], []
    for m in _catalog(lang, domain):
        if not m.id:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        strings = [m.string] if isinstance(m.string, str) else list(m.string or ())
        if m.fuzzy:
            fuzzy.append(ids[0])
        if not all(strings) or len(strings) < (1 if isinstance(m.id, str) else 2):
            untranslated.append(ids[0])
            continue
        # a translation names what its message names (the plural's {n} may be a word)
        want = _placeholders(ids[-1])
        for s in strings:
            got = _placeholders(s)
            if got != want and not (len(ids) > 1 and set(got) <= set(want)):
                wrong.append((ids[0], s))
    assert not untranslated, f"untranslated ({len(untranslated)}): {untranslated[:10]}"
    assert not fuzzy, f"fuzzy ({len(fuzzy)}): {fuzzy[:10]}"
    assert not wrong, f"placeholders differ: {wrong[:5]}"


def test_a_german_message_is_german() -> None:
    with i18n.use("de"):
        assert i18n.gettext("wrong name or password") == "Falscher Name oder falsches Passwort"
    with i18n.use("fr"):  # not spoken: English
        assert i18n.gettext("wrong name or password") == "wrong name or password"
    assert i18n.gettext("wrong name or password") == "wrong name or password"


@pytest.mark.parametrize(("header", "lang"), [
    ("de-DE,de;q=0.9,en;q=0.8", "de"), ("en-US,de;q=0.5", "en"), ("fr-CH, de;q=0.7", "de"),
    ("de;q=0, en", "en"), ("fr", None), ("", None), ("de-CH", "de"), (";;;,q=,*", None),
    ("en;q=0.5, de;q=0.6", "de"), ("de;q=abc", None),
])
def test_accept_language(header: str, lang: str | None) -> None:
    assert i18n.from_accept_language(header) == lang


@pytest.mark.parametrize(("env", "lang"), [
    ({"LANG": "de_DE.UTF-8"}, "de"), ({"LANG": "C.UTF-8"}, None), ({}, None),
    ({"LC_ALL": "en_US.UTF-8", "LANG": "de_DE.UTF-8"}, "en"),
    ({"LANGUAGE": "fr:de", "LANG": "en_GB"}, "de"), ({"LC_MESSAGES": "de_CH"}, "de"),
])
def test_terminal_language(env: dict[str, str], lang: str | None) -> None:
    assert i18n.from_environment(env) == lang


def test_numbers_and_dates_follow_the_language() -> None:
    import datetime as dt  # noqa: PLC0415

    with i18n.use("de"):
        assert i18n.format_number(1234) == "1.234"
        assert i18n.format_decimal(0.5) == "0,5"
        assert i18n.format_date(dt.date(2026, 11, 26)) == "26.11.2026"
    with i18n.use("en"):
        assert i18n.format_number(1234) == "1,234"
        assert i18n.format_decimal(0.5) == "0.5"


def test_script_catalog_has_plurals() -> None:
    cat = i18n.js_catalog("de")
    assert cat["lang"] == "de" and cat["nplurals"] == 2
    assert all(len(forms) == 2 for forms in cat["plurals"].values())
