"""The rules page: docs/rules.md for players, its worked examples drawn like the table."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from fido.web.rulebook import pictures
from server_live import live_server
from web_browser import chromium

RULES = Path(__file__).parent.parent / "docs" / "rules.md"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with live_server(f"sqlite:///{tmp_path_factory.mktemp('db') / 'fido.db'}") as url:
        yield url


def test_every_picture_states_the_sum_the_engine_gives() -> None:
    found = pictures(RULES.read_text(encoding="utf-8"))
    assert len(found) >= 10
    assert {p.table.ends_sum for p in found} >= {36, 48, 55, 52, 44, 54, 34, 12}
    assert [p.points for p in found if p.table.ends_sum in (55, 44)] == [5, 4]


def test_a_picture_with_a_wrong_sum_is_refused() -> None:
    with pytest.raises(ValueError, match="S = 50"):
        pictures("<!-- picture: fido set=18 | cross 18-18 18-12@0n | S = 50 | wrong -->\n")


def test_the_rules_page_is_the_rule_book(base: str) -> None:
    page = httpx.get(f"{base}/rules").text
    for heading in re.findall(r"^## (.+)$", RULES.read_text(encoding="utf-8"), re.MULTILINE):
        title = heading.replace("&", "&amp;")
        assert title in page, heading
    assert "<!--" not in page and "FIDOPICTURE" not in page  # notes for editors stay out
    assert page.count('class="rule-picture"') == len(pictures(RULES.read_text("utf-8")))
    assert "Content-Security-Policy" in httpx.get(f"{base}/rules").headers


def test_the_pictures_are_drawn_by_the_board_code(base: str) -> None:
    """In a real browser: every figure holds as many drawn tiles as its table has."""
    expected = [len(p.table.placements) for p in pictures(RULES.read_text("utf-8"))]
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(f"{base}/rules")
        page.wait_for_function("document.querySelectorAll('svg.rule-board .placed').length > 0")
        drawn = page.eval_on_selector_all(
            "svg.rule-board", "boards => boards.map(b => b.querySelectorAll('.placed').length)")
        names = page.eval_on_selector_all("svg.rule-board .slot text",
                                          "ts => ts.map(t => t.textContent)")
    assert drawn == expected
    assert names and all(re.fullmatch(r"\d+[nesw]", n) for n in names)  # slots by name
    assert errors == []
