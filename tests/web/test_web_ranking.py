"""The world ranking pages in the real browser (chromium via Playwright), on a real server.

Results of nine players over September and October 2026 go in through
``fido.ranking.submit`` and both months are published (:mod:`ranking_league`);
then the pages must show what the store holds: the order and FLADUB of the
published snapshot, the changes between the months, the provisional player
marked, a player's SVG history with one point per month at the height of her
number, her counted games adding up to what ``player_report`` says, downloads
equal to the snapshot, 404 pages for what does not exist, a merged player sent
to her survivor, and a name with markup shown as text.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page

from fido.ranking.players import merge_players, rename_player
from fido.ranking.report import player_report
from fido.ranking.snapshot import Ranking, published
from fido.store import Store, open_store
from support.postgres import BACKENDS, POSTGRES, empty_postgres
from support.ranking_league import MONTHS, NAMES, ROOKIE, small_league
from support.server_live import live_server
from support.web_browser import Person

MARKUP = NAMES[-1]  # '<b>Hanna</b> & "Co"'


@pytest.fixture(scope="module", params=BACKENDS)
def league(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Store, dict[str, int]]]:
    """The league on SQLite and, with ``FIDO_TEST_POSTGRES_URL``, on PostgreSQL."""
    if request.param == "postgresql":
        assert POSTGRES
        empty_postgres(POSTGRES)
        url = POSTGRES
    else:
        url = f"sqlite:///{tmp_path_factory.mktemp('ranking') / 'ranking.db'}"
    store = open_store(url)
    numbers = small_league(store)
    yield url, store, numbers
    store.close()


@pytest.fixture(scope="module")
def base(league: tuple[str, Store, dict[str, int]]) -> Iterator[str]:
    with live_server(league[0]) as url:
        yield url


@pytest.fixture
def page(browser: Browser, base: str) -> Iterator[Page]:
    person = Person(browser, base)
    yield person.page
    assert not person.errors, person.errors
    person.close()


def snapshot(store: Store, month: str) -> Ranking:
    with store.session(write=False) as s:
        r = published(s, month)
    assert r is not None
    return r


def table_rows(page: Page) -> list[dict[str, str]]:
    """The ranking table as the browser renders it (visible text of each cell)."""
    rows: list[dict[str, str]] = page.locator("table.ranking-table tbody tr").evaluate_all(
        """rows => rows.map(r => ({
            player: r.dataset.player,
            position: r.querySelector('td.pos').innerText.trim(),
            moved: r.querySelector('td.moved').innerText.trim(),
            name: r.querySelector('td.name a').innerText.trim(),
            fladub: r.querySelector('td.fladub .value').innerText.trim(),
            change: r.querySelector('td.change').innerText.trim(),
            games: r.querySelector('td.games-count').innerText.trim(),
            provisional: r.querySelector('td.name abbr.prov') ? 'yes' : 'no',
            link: r.querySelector('td.name a').getAttribute('href'),
        }))"""
    )
    return rows


def test_the_ranking_page_shows_the_published_snapshot(
        page: Page, base: str, league: tuple[str, Store, dict[str, int]]) -> None:
    _, store, numbers = league
    sept, octo = (snapshot(store, m) for m in MONTHS)
    page.goto(base + "/ranking")  # the latest month
    assert "2026-10" in page.locator("h1").inner_text()
    rows = table_rows(page)
    assert [int(r["player"]) for r in rows] == [e.number for e in octo.entries]
    assert len(rows) == len(octo.entries) == 9
    before = {e.number: e for e in sept.entries}
    moves = 0
    for row, e in zip(rows, octo.entries, strict=True):
        assert int(row["position"]) == e.position
        assert row["fladub"] == f"{e.fladub:.2f}"
        assert int(row["games"]) == e.games
        assert row["name"] == e.name
        assert row["link"] == f"/ranking/players/{e.number}?month=2026-10"
        old = before.get(e.number)
        if old is None:  # the rookie: not ranked in September
            assert row["moved"] == "new" and row["change"] == "new"
            continue
        # the change since September, by the September snapshot's numbers
        assert e.previous_position == old.position
        moved = old.position - e.position
        moves += moved != 0
        # the arrow and sign are seen, the words are read out (not colour alone)
        seen = row["moved"].split("\n")[0].strip()
        if moved > 0:
            assert seen == f"▲ +{moved}" and "places up" in row["moved"], row
        elif moved < 0:
            assert seen == f"▼ −{-moved}" and "places down" in row["moved"], row
        else:
            assert seen.startswith("=") and "same place" in row["moved"], row
        change = f"{e.fladub - old.fladub:+.2f}".replace("-", "−")
        assert row["change"] in (change, "±0.00"), (row, change)
    assert moves >= 2, "the league should move some players between the months"
    # the rookie (3 games) is provisional, and the only one; the legend says what it means
    marked = [r["name"] for r in rows if r["provisional"] == "yes"]
    assert marked == [ROOKIE]
    assert [e.name for e in octo.entries if e.provisional] == [ROOKIE]
    legend = page.locator(".legend").inner_text()
    assert "provisional" in legend and "fewer than 10 counted games" in legend
    # the name with markup is text, not markup
    assert page.locator("td.name b").count() == 0
    assert MARKUP in [r["name"] for r in rows]
    # September's own page: its changes are all "new" (the first month)
    page.goto(base + "/ranking/2026-09")
    rows = table_rows(page)
    assert [int(r["player"]) for r in rows] == [e.number for e in sept.entries]
    assert all(r["moved"] == "new" for r in rows)
    assert numbers[ROOKIE] not in [int(r["player"]) for r in rows]


def test_search_and_paging(page: Page, base: str) -> None:
    page.goto(base + "/ranking/2026-10")
    page.fill("#q", "berg")
    page.click("form.search button[type=submit]")
    page.wait_for_url(re.compile(r".*q=berg"))
    assert [r["name"] for r in table_rows(page)] == ["Anna Berg"]
    page.fill("#q", "<b>")
    page.click("form.search button[type=submit]")
    page.wait_for_load_state()
    assert [r["name"] for r in table_rows(page)] == [MARKUP]
    page.goto(base + "/ranking/2026-10?q=nobody-like-this")
    assert page.locator("table.ranking-table").count() == 0
    assert "No player of this month matches" in page.locator("main").inner_text()
    page.goto(base + "/ranking/2026-10?page=banana")  # a bad page number is page 1
    assert len(table_rows(page)) == 9


def _svg_points(page: Page) -> tuple[list[tuple[str, float]], list[tuple[float, float]]]:
    """(month, cy) of every point of the chart, and (value, y) of the y axis's grid lines."""
    points = page.locator("svg.history circle.point").evaluate_all(
        "cs => cs.map(c => [c.dataset.month, parseFloat(c.getAttribute('cy'))])")
    grid = page.locator("svg.history line.grid").evaluate_all(
        "ls => ls.map(l => [parseFloat(l.dataset.value), parseFloat(l.getAttribute('y1'))])")
    return [(m, y) for m, y in points], [(v, y) for v, y in grid]


def test_a_players_page(page: Page, base: str, league: tuple[str, Store, dict[str, int]]) -> None:
    _, store, numbers = league
    number = numbers["Frida Holm"]
    page.goto(base + f"/ranking/players/{number}")
    octo = snapshot(store, "2026-10").entry(number)
    sept = snapshot(store, "2026-09").entry(number)
    assert octo is not None and sept is not None
    assert page.locator("dd.position").inner_text() == str(octo.position)
    assert page.locator("dd.fladub").inner_text() == f"{octo.fladub:.2f}"
    # the chart: one point per published month, at the height of that month's number
    svg = page.locator("svg.history")
    assert svg.get_attribute("role") == "img"
    assert "Frida Holm" in (page.locator("svg.history title#chart-title").text_content() or "")
    points, grid = _svg_points(page)
    assert [m for m, _ in points] == list(MONTHS)
    (v0, y0), (v1, y1) = grid[0], grid[-1]
    assert v0 != v1
    for (month, cy), want in zip(points, (sept.fladub, octo.fladub), strict=True):
        value = v0 + (cy - y0) * (v1 - v0) / (y1 - y0)  # the axis read backwards
        assert math.isclose(value, want, abs_tol=0.05), (month, value, want)
    # the axes are labelled
    titles = page.locator("svg.history text.axis-title").all_text_contents()
    assert "FLADUB" in titles and any("month" in t for t in titles)
    # the counted games: their contributions add up to what player_report says
    with store.session(write=False) as s:
        report = player_report(s, "2026-10", number)
    rows = page.locator("table.counted tbody tr")
    assert rows.count() == len(report.games) == octo.games
    shown = rows.evaluate_all("rs => rs.map(r => [parseInt(r.dataset.game), "
                              "parseFloat(r.querySelector('td.contribution').dataset.value), "
                              "r.querySelector('td.weight').innerText])")
    assert [g for g, _, _ in shown] == [g.game_id for g in report.games]
    for (_, contribution, weight), g in zip(shown, report.games, strict=True):
        assert math.isclose(contribution, g.contribution, rel_tol=1e-12)
        assert weight == f"{g.weight:.4f}"
    total = float(page.locator("td.total").get_attribute("data-value") or "nan")
    assert math.isclose(math.fsum(c for _, c, _ in shown), report.total, rel_tol=1e-9)
    assert math.isclose(total, octo.fladub, rel_tol=1e-9)
    assert page.locator("td.total").inner_text() == f"{octo.fladub:.2f}"
    # September, asked for
    page.goto(base + f"/ranking/players/{number}?month=2026-09")
    assert page.locator("dd.fladub").inner_text() == f"{sept.fladub:.2f}"
    assert "new in the ranking" in page.locator(".standing").inner_text()


def test_a_provisional_player_and_a_name_with_markup(
        page: Page, base: str, league: tuple[str, Store, dict[str, int]]) -> None:
    _, _, numbers = league
    page.goto(base + f"/ranking/players/{numbers[ROOKIE]}")
    assert "provisional" in page.locator(".standing").inner_text()
    points, _ = _svg_points(page)
    assert [m for m, _ in points] == ["2026-10"]  # not ranked in September
    page.goto(base + f"/ranking/players/{numbers[MARKUP]}")
    assert page.locator("h1").inner_text().startswith(MARKUP)
    assert page.locator("h1 b").count() == 0
    assert MARKUP in (page.locator("svg.history title#chart-title").text_content() or "")
    assert page.title().startswith(MARKUP)


def test_downloads_equal_the_snapshot(
        page: Page, base: str, league: tuple[str, Store, dict[str, int]],
        tmp_path: Path) -> None:
    _, store, _ = league
    octo = snapshot(store, "2026-10")
    page.goto(base + "/ranking/2026-10")
    for kind in ("csv", "json"):
        with page.expect_download() as info:
            page.click(f"a[href='/ranking/2026-10.{kind}']")
        path = tmp_path / f"r.{kind}"
        info.value.save_as(path)
        assert info.value.suggested_filename == f"fido-ranking-2026-10.{kind}"
        text = path.read_text(encoding="utf-8")
        if kind == "csv":
            got = list(csv.DictReader(io.StringIO(text)))
            assert [int(r["player"]) for r in got] == [e.number for e in octo.entries]
            for r, e in zip(got, octo.entries, strict=True):
                assert int(r["position"]) == e.position
                assert float(r["fladub"]) == round(e.fladub, 2)
                assert int(r["games"]) == e.games
                assert r["provisional"] == str(e.provisional)
                assert r["name"] == e.name  # '<b>...' starts with no formula character
        else:
            data = json.loads(text)
            assert data["month"] == "2026-10" and data["digest"] == octo.digest
            assert data["games"] == octo.games
            assert [(x["player"], x["position"], x["fladub"]) for x in data["entries"]] == [
                (e.number, e.position, round(e.fladub, 2) + 0.0) for e in octo.entries]


def test_what_does_not_exist_is_a_404_page(base: str) -> None:
    with httpx.Client(base_url=base) as http:
        for path in ("/ranking/2026-08", "/ranking/2026-13", "/ranking/soon",
                     "/ranking/2026-08.csv", "/ranking/2026-08.json",
                     "/ranking/players/2026-10?month=2026-07"):
            r = http.get(path)
            assert r.status_code == 404, path
            assert "text/html" in r.headers["content-type"]
            # the published months are listed, as links
            assert 'href="/ranking/2026-10"' in r.text and 'href="/ranking/2026-09"' in r.text
        for path in ("/ranking/players/999", "/ranking/players/abc",
                     "/ranking/players/99999999999", "/ranking/players/-1"):
            r = http.get(path)
            assert r.status_code == 404, path
            assert "No such player" in r.text
        r = http.get("/ranking/players/1?month=%3Cscript%3E")
        assert r.status_code == 404 and "<script>" not in r.text


def test_a_merged_player_is_sent_to_the_survivor(
        page: Page, base: str, league: tuple[str, Store, dict[str, int]]) -> None:
    _, store, numbers = league
    with store.session() as s:
        from fido.ranking import register_player  # noqa: PLC0415
        twin = register_player(s, "Anna Berg (again)").number
        merge_players(s, twin, numbers["Anna Berg"])
    with httpx.Client(base_url=base) as http:
        r = http.get(f"/ranking/players/{twin}?month=2026-09")
        assert r.status_code == 301
        assert r.headers["location"] == f"/ranking/players/{numbers['Anna Berg']}?month=2026-09"
    page.goto(base + f"/ranking/players/{twin}")
    assert page.url == base + f"/ranking/players/{numbers['Anna Berg']}"
    assert page.locator("h1").inner_text().startswith("Anna Berg")


def test_a_rename_shows_at_once(base: str, league: tuple[str, Store, dict[str, int]]) -> None:
    """The pages keep a month's snapshot once read; a player's new name still shows."""
    _, store, numbers = league
    with httpx.Client(base_url=base) as http:
        assert "Gustav Ek<" in http.get("/ranking/2026-10").text  # read (and kept)
        with store.session() as s:
            rename_player(s, numbers["Gustav Ek"], "Gustav Eklund")
        try:
            page = http.get("/ranking/2026-10").text
            assert "Gustav Eklund" in page and "Gustav Ek<" not in page
            assert "Gustav Eklund" in http.get("/ranking/2026-10.csv").text
        finally:
            with store.session() as s:
                rename_player(s, numbers["Gustav Ek"], "Gustav Ek")
