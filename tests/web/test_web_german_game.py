"""A whole FIDO game in German, in a real browser whose language is German
(``Accept-Language: de-DE``, as a German chromium asks): she opens a double-9 table
with three bots as a guest, plays it to the end, reads the result, signs up, reads the
replay, the rules and the world ranking, and opens the score sheet form; no page shows
a phrase of the English interface (the visible text is checked against the English of
both catalogs), and the seats' tile counts say "1 Stein" and "2 Steine"."""

from __future__ import annotations

import re

from babel.messages.pofile import read_po
from playwright.sync_api import Browser

from fido import i18n
from support.web_browser import GERMAN, Person, play_until

_PLACEHOLDER = re.compile(r"\{\w*\}|%\(\w+\)[sd]|%[sd]|\n")
_WORD = re.compile(r"[A-Za-zÄÖÜäöüß]+")


def english_phrases() -> list[str]:
    """The English interface's phrases a German page must not show: each message's
    pieces between placeholders, of two words or more or one word of four letters or
    more, that its German translation and the German catalog's words do not hold."""
    pairs: list[tuple[str, str]] = []
    for domain in (i18n.DOMAIN, i18n.JS_DOMAIN):
        with (i18n.LOCALE_DIR / "de" / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
            for m in read_po(f):
                if not m.id:
                    continue
                ids = [m.id] if isinstance(m.id, str) else list(m.id)
                strings = [m.string] if isinstance(m.string, str) else list(m.string or ())
                pairs += [(e, " ".join(strings)) for e in ids]
    german_words = {w for _, de in pairs for w in _WORD.findall(de)}
    phrases = set()
    for english, german in pairs:
        for piece in _PLACEHOLDER.split(english):
            piece = piece.strip(" .,:;!?()[]\"'…–-·/")
            words = _WORD.findall(piece)
            if not words or piece in german:
                continue
            if len(words) >= 2 or (len(words[0]) >= 4 and words[0] not in german_words):
                phrases.add(piece)
    return sorted(phrases, key=len, reverse=True)


def english_on(text: str, phrases: list[str]) -> list[str]:
    return [p for p in phrases
            if re.search(r"(?<![\wÄÖÜäöüß])" + re.escape(p) + r"(?![\wÄÖÜäöüß])", text)]


def _visible(person: Person) -> str:
    """The page's text as a person sees it, less the notation and code the rule book
    quotes (``direction=counterclockwise`` is a ruleset's text, the same in German)."""
    text: str = person.page.evaluate("""() => {
        const code = [...document.querySelectorAll("code, pre, kbd")];
        const was = code.map(e => e.style.display);
        code.forEach(e => { e.style.display = "none"; });
        const text = document.body.innerText;
        code.forEach((e, i) => { e.style.display = was[i]; });
        return text;
    }""")
    return text


def _plurals_right(text: str) -> list[str]:
    """Tile counts whose noun is in the wrong number ("1 Steine", "2 Stein")."""
    wrong = []
    for n, noun in re.findall(r"(?<![\d.,])(\d+)\s+(Steine?)(?![\wäöü])", text):
        if (n == "1") != (noun == "Stein"):
            wrong.append(f"{n} {noun}")
    return wrong


def test_a_whole_game_in_german(browser: Browser, server: str) -> None:
    phrases = english_phrases()
    assert len(phrases) > 100  # the catalogs are there, and checked against
    greta = Person(browser, server, seed=24, **GERMAN)
    seen: dict[str, str] = {}
    try:
        greta.goto("/")
        seen["lobby"] = _visible(greta)
        assert greta.page.locator("html").get_attribute("lang") == "de"
        # she plays at once, as a guest: the table names her "Gast N", not "guest N"
        table = greta.create_table("fido", 9, ("me", "bot:expert", "bot:greedy", "bot:expert"))
        greta.page.wait_for_function("() => window.fidoTable && window.fidoTable.view")
        assert re.search(r"\bGast \d+", greta.page.inner_text("#seats"))
        texts: list[str] = [_visible(greta)]
        lobby = greta.new_tab()  # her game in the lobby's list: a guest and three bots
        lobby.goto("/")
        seen["lobby, her game running"] = _visible(lobby)
        assert re.search(r"\bGast \d+", seen["lobby, her game running"])
        assert re.search(r"\b[A-Z][a-z]+ \(Profi\)", seen["lobby, her game running"])
        lobby.page.close()

        def look(person: Person, _move: str) -> None:
            texts.append(_visible(person))

        play_until([greta], lambda: greta.state()["over"], timeout=300, on_move=look)
        greta.page.wait_for_selector("#result:not([hidden])")
        seen["result"] = _visible(greta)
        for i, text in enumerate(texts):
            seen[f"table {i}"] = text
        greta.goto("/signup")
        seen["signup"] = _visible(greta)
        greta.sign_up("Greta")  # her game stays hers
        seen["lobby, signed up"] = _visible(greta)
        greta.goto(f"/tables/{table}/replay")
        greta.page.wait_for_function("() => window.fidoReplay && window.fidoReplay.data")
        seen["replay"] = _visible(greta)
        for path in ("/games", "/rules", "/ranking", "/sheets/new", "/events"):
            greta.goto(path)
            seen[path] = _visible(greta)
        assert not [e for e in greta.errors if "favicon" not in e], greta.errors
    finally:
        greta.close()
    english: dict[str, list[str]] = {}  # phrase: the pages showing it
    for page, text in seen.items():
        for phrase in english_on(text, phrases):
            english.setdefault(phrase, []).append(page)
    assert not english, "\n".join(f"{p!r} on {', '.join(pages[:3])}"
                                   for p, pages in english.items())
    wrong = {page: w for page, text in seen.items() if (w := _plurals_right(text))}
    assert not wrong, wrong
    counts = {n for text in seen.values() for n in re.findall(r"(\d+)\s+Steine?\b", text)}
    assert counts, "no seat showed its tile count in German"
