"""The rules page: docs/rules.md for players, its worked examples drawn like the table.

The German rule book (docs/rules.de.md) is the same book in German: the same sections
and the same pictures (only their captions translated), served to German readers.
"""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from fido.web.rulebook import _source, pictures
from support.web_browser import chromium

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
RULES_DE = RULES.with_name("rules.de.md")
PICTURE = re.compile(r"^<!-- picture: (.+?) \| (.+?) \| S = (\d+) \| (.+?) -->$", re.MULTILINE)
HEADING = re.compile(r"^(#+) (.+)$", re.MULTILINE)


def headings(path: Path) -> list[tuple[int, str]]:
    """The book's headings in order, each with its level."""
    return [(len(m[1]), m[2]) for m in HEADING.finditer(path.read_text(encoding="utf-8"))]


def book(page: str) -> str:
    """The rule book's part of a rules page."""
    found = re.search(r'<article class="rulebook">.*</article>', page, re.DOTALL)
    return found[0] if found else ""


def german(url: str) -> httpx.Response:
    return httpx.get(url, headers={"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"})


def test_every_picture_states_the_sum_the_engine_gives() -> None:
    found = pictures(RULES.read_text(encoding="utf-8"))
    assert len(found) >= 10
    assert {p.table.ends_sum for p in found} >= {36, 48, 55, 52, 44, 54, 34, 12}
    assert [p.points for p in found if p.table.ends_sum in (55, 44)] == [5, 4]


def test_a_picture_with_a_wrong_sum_is_refused() -> None:
    with pytest.raises(ValueError, match="S = 50"):
        pictures("<!-- picture: fido set=18 | cross 18-18 18-12@0n | S = 50 | wrong -->\n")


def test_the_rules_page_is_the_rule_book(server: str) -> None:
    page = httpx.get(f"{server}/rules").text
    for heading in re.findall(r"^## (.+)$", RULES.read_text(encoding="utf-8"), re.MULTILINE):
        title = heading.replace("&", "&amp;")
        assert title in page, heading
    assert "<!--" not in page and "FIDOPICTURE" not in page  # notes for editors stay out
    # a reader's rule book, not the developers': it cites no test (issue 42's trial)
    assert "tests/" not in page and "golden test" not in page
    assert "tests/" not in httpx.get(f"{server}/rules", params={"lang": "de"}).text
    assert page.count('class="rule-picture"') == len(pictures(RULES.read_text("utf-8")))
    assert "Content-Security-Policy" in httpx.get(f"{server}/rules").headers


def test_the_pictures_are_drawn_by_the_board_code(server: str) -> None:
    """In a real browser, in both books: every figure holds as many drawn tiles as its table."""
    expected = [len(p.table.placements) for p in pictures(RULES.read_text("utf-8"))]
    errors: list[str] = []
    with chromium() as browser:
        for address in ("/rules", "/rules?lang=de"):
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(f"{server}{address}")
            page.wait_for_function(
                "document.querySelectorAll('svg.rule-board .placed').length > 0")
            drawn = page.eval_on_selector_all(
                "svg.rule-board", "boards => boards.map(b => b.querySelectorAll('.placed').length)")
            names = page.eval_on_selector_all("svg.rule-board .slot text",
                                              "ts => ts.map(t => t.textContent)")
            assert drawn == expected, address
            assert names and all(re.fullmatch(r"\d+[nesw]", n) for n in names)  # slots by name
            page.close()
    assert errors == []


def test_the_german_book_has_the_same_pictures_in_the_same_order() -> None:
    """Same ruleset, table and sum, line for line; only the captions are German."""
    english = PICTURE.findall(RULES.read_text(encoding="utf-8"))
    german_lines = PICTURE.findall(RULES_DE.read_text(encoding="utf-8"))
    assert [m[:3] for m in german_lines] == [m[:3] for m in english]
    assert all(de[3] != en[3] for de, en in zip(german_lines, english, strict=True))


def test_every_picture_of_the_german_book_passes_the_engine_check() -> None:
    found = pictures(RULES_DE.read_text(encoding="utf-8"))
    assert [(p.rules, p.table.text(), p.stated) for p in found] == [
        (p.rules, p.table.text(), p.stated) for p in pictures(RULES.read_text("utf-8"))]
    assert found[0].caption == "der eröffnende Doppelstein"


def test_the_german_book_has_the_english_books_sections() -> None:
    """As many headings of each level, in the same order, and the same section numbers."""
    english, german_headings = headings(RULES), headings(RULES_DE)
    assert [level for level, _ in german_headings] == [level for level, _ in english]
    numbers = re.compile(r"^(\d+)\. ")
    assert [numbers.findall(t) for _, t in german_headings] == [
        numbers.findall(t) for _, t in english]
    same = [de for (_, de), (_, en) in zip(german_headings, english, strict=True) if de == en]
    assert same == ["10. Notation"]  # the one word that is German too


def test_the_book_follows_the_language_and_falls_back_to_english() -> None:
    assert _source("de") == RULES_DE.read_text(encoding="utf-8")
    assert _source("en") == RULES.read_text(encoding="utf-8")
    assert _source("xx") == RULES.read_text(encoding="utf-8")  # no book of its own


def test_the_german_rules_page_is_the_german_rule_book(server: str) -> None:
    page = german(f"{server}/rules").text
    for _, heading in headings(RULES_DE):
        assert heading.replace("&", "&amp;") in page, heading
    assert "<h1>Die Regeln, nach denen fido spielt</h1>" in page
    german_titles = {heading for _, heading in headings(RULES_DE)}
    for _, heading in headings(RULES):  # no English heading left
        if heading not in german_titles:
            assert heading.replace("&", "&amp;") not in page, heading
    assert page.count('class="rule-picture"') == len(pictures(RULES_DE.read_text("utf-8")))
    assert "<b>S = 55</b>: 5 Punkte · von 48 aus: 18-7 an die andere nackte Seite" in page
    assert ('aria-label="der eröffnende Doppelstein. Der Tisch cross 18-18; Summe der Enden '
            '36."') in page
    assert "Summe der Enden 44: 4 Punkte." in page
    assert " points" not in page and "sum of the ends" not in page and "The table" not in page
    assert "<!--" not in page and "FIDOPICTURE" not in page
    chosen = httpx.get(f"{server}/rules?lang=de").text  # chosen in the address: the same book
    assert book(chosen) == book(page) and book(page)


def test_the_english_rules_page_stays_english(server: str) -> None:
    """No Accept-Language, English asked, or a language without a book: the English book."""
    for headers in ({}, {"Accept-Language": "en"}, {"Accept-Language": "fr"}):
        page = httpx.get(f"{server}/rules", headers=headers).text
        assert "<h1>The rules fido implements</h1>" in page
        assert "<b>S = 55</b>: 5 points · from 48, 18-7 on the other free side" in page
        assert ('aria-label="the opening double. The table cross 18-18; sum of the ends '
                '36."') in page
        assert "Die Regeln, nach denen" not in page and "Punkte" not in page


def test_the_shipped_books_are_the_docs_books() -> None:
    """The package carries the rule books the site and `fido rules` show
    (fido/web/rules*.md): each the same text as its docs/ copy, which is edited."""
    shipped = Path(__file__).resolve().parents[2] / "src" / "fido" / "web"
    for book in (RULES, RULES_DE):
        assert (shipped / book.name).read_text("utf-8") == book.read_text("utf-8"), book.name
