"""A finished game's analysis on the server: asked for by a player of the game, run in
the analyses' worker, stored with the game, read by anyone, shown in the replay.

Over real HTTP and a real browser: only after the end, only for her own seat; the
result is the analysis of her decisions (each one her move of the record); a second
ask returns the stored one; a queued analysis left by a stopped server runs when the
server starts again; in the replay the player asks by clicking, and every analysed
move shows what it cost.
"""

from __future__ import annotations

import datetime as dt
import os
import time
from dataclasses import replace
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, expect
from sqlalchemy import select, update

from fido.engine.tiles import Tile
from fido.record import GameRecord
from fido.server.analysis_jobs import AnalysisJobs
from fido.server.errors import ApiError
from fido.store import AnalysisRow, open_store
from support.server_live import QUICK_ANALYSES, live_server
from support.server_live import browser as http_client
from support.tables import finish_game, guest_table
from support.web_browser import Person

SHOTS = os.environ.get("FIDO_SHOTS")  # a folder: the board analysis's screenshots


def _done(client: httpx.Client, table: str, seat: int, timeout: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for a in client.get(f"/api/tables/{table}/analysis").json()["analyses"]:
            if a["seat"] == seat and a["status"] in ("done", "failed"):
                return a  # type: ignore[no-any-return]
        time.sleep(0.2)
    raise AssertionError("the analysis did not end")


def test_a_player_asks_for_the_analysis_of_her_moves(store_url: str) -> None:
    with live_server(store_url, play=QUICK_ANALYSES) as base:  # 8 worlds: ends in seconds
        me, table = guest_table(base)
        # not before the end: the record (every hand) does not exist yet
        r = me.post(f"/api/tables/{table}/analysis", json={})
        assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished"
        finish_game(base, me, table)
        stranger = http_client(base)
        assert stranger.post(f"/api/tables/{table}/analysis", json={}).status_code == 401
        stranger.post("/api/guest")
        r = stranger.post(f"/api/tables/{table}/analysis", json={})
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_seated"
        r = me.post(f"/api/tables/{table}/analysis", json={"seat": 1})  # a bot's seat
        assert r.status_code == 403 and r.json()["error"]["code"] == "not_your_seat"
        r = httpx.post(f"{base}/api/tables/{table}/analysis", json={}, cookies=me.cookies)
        assert r.status_code == 403  # no CSRF token
        assert me.get(f"/api/tables/{table}/analysis").json() == {"analyses": [], "better": {}}

        r = me.post(f"/api/tables/{table}/analysis", json={})
        assert r.status_code in (200, 202), r.text
        assert r.json()["seat"] == 0 and r.json()["status"] in ("queued", "running", "done")
        done = _done(stranger, table, 0)  # anyone reads it, as anyone sees the replay
        assert done["status"] == "done", done
        result = done["result"]
        assert result["format"] == "fido-analysis" and result["seats"] == [0]
        assert result["samples"] == 8  # the server's setting (tests: few)
        record = GameRecord.from_json(me.get(f"/api/tables/{table}/record").text)
        moves = {n: turn for n, turn, _g in record.steps()}
        assert result["decisions"], "a double-6 game has choices to analyse"
        for d in result["decisions"]:
            assert d["seat"] == 0 and moves[d["number"]].seat == 0
            assert moves[d["number"]].move.text() == d["played"]
            assert d["loss"] >= 0 and len(d["moves"]) >= 2
        # asked again: the stored analysis, not a second run
        again = me.post(f"/api/tables/{table}/analysis", json={})
        assert again.status_code == 200 and again.json()["result"] == result
        store = open_store(store_url)
        with store.session(write=False) as s:
            assert len(s.scalars(select(AnalysisRow)).all()) == 1
        store.close()


def test_a_queued_analysis_runs_when_the_server_starts_again(store_url: str) -> None:
    with live_server(store_url) as base:
        me, table = guest_table(base)
        finish_game(base, me, table)
    # the server stopped between the request's commit and the work: the row is queued
    store = open_store(store_url)
    with store.session() as s:
        s.add(AnalysisRow(table_id=table, seat=0, status="queued", samples=8, seed=7,
                          requested_at=dt.datetime.now(dt.UTC)))
    store.close()
    with live_server(store_url) as base:
        done = _done(http_client(base), table, 0)
        assert done["status"] == "done" and done["result"]["seed"] == 7


def test_the_replay_shows_what_each_move_cost(browser: Browser, tmp_path: Any) -> None:
    with live_server(f"sqlite:///{tmp_path / 'fido.db'}", play=QUICK_ANALYSES) as base:
        # double-9: enough decisions that her last-legal-move play makes a mistake (on
        # double-6, about four decisions, it sometimes made none and the test failed)
        me, table = guest_table(base, "fido set=9")
        finish_game(base, me, table)
        player = Person(browser, base)
        player.context.add_cookies([{"name": k, "value": v, "url": base}
                                    for k, v in me.cookies.items()])
        player.goto(f"/tables/{table}/replay")
        page = player.page
        button = page.get_by_role("button", name="Analyse my moves")
        expect(button).to_be_visible()
        watcher = Person(browser, base)  # someone else: no button, but she reads it later
        watcher.goto(f"/tables/{table}/replay")
        expect(watcher.page.locator("#analysis-status")).to_contain_text("No analysis yet")
        expect(watcher.page.get_by_role("button", name="Analyse my moves")).to_be_hidden()
        button.click()
        summary = page.locator("#analysis-summary .analysis-seat")
        expect(summary).to_contain_text("decision", timeout=120_000)
        expect(button).to_be_hidden()
        # hers is "your moves" to her, never her own name in the third person; the
        # others read it under her name
        expect(summary).to_contain_text("Your moves: ")
        her = me.get("/api/session").json()["account"]["name"]
        assert her not in summary.inner_text()
        result = me.get(f"/api/tables/{table}/analysis").json()["analyses"][0]["result"]
        decisions = result["decisions"]
        # every analysed move of the list shows what it cost
        expect(page.locator("#moves .loss")).to_have_count(len(decisions))
        # her expected margin over the game: a dot a decision, each the played move's
        # expected margin, leading to its move
        dots = page.locator("#analysis-summary svg.margin-chart circle")
        expect(dots).to_have_count(len(decisions))
        assert dots.evaluate_all("els => els.map(e => Number(e.dataset.step))") == [
            d["number"] for d in decisions]
        dots.last.click()
        expect(page.locator("#step-label")).to_contain_text(str(decisions[-1]["number"]))
        worst = max(decisions, key=lambda d: d["loss"])
        page.locator(f"#moves li[data-step='{worst['number']}'] button").click()
        move = page.locator("#analysis-move")
        expect(move).to_contain_text(f"played {worst['played']}")
        if worst["loss"] >= 0.05:
            expect(move).to_contain_text(f"best was {worst['best']}")
            # her biggest mistake is the first one named, and it leads to its move
            page.locator("#analysis-summary .mistake").first.click()
            expect(page.locator("#step-label")).to_contain_text(str(worst["number"]))
        # a mistake is shown on the table: the tile she laid (the last, marked) and the
        # better move's tile, drawn where it would have lain
        mistakes = [d for d in decisions if d["loss"] >= 0.05 and "@" in d["best"]]
        assert mistakes, "she played her last legal move each turn: never the best?"
        better = me.get(f"/api/tables/{table}/analysis").json()["better"]
        for d in mistakes[:2]:
            page.locator(f"#moves li[data-step='{d['number']}'] button").click()
            expect(move).to_contain_text(f"best was {d['best']} (green on the table)")
            ghost = page.locator("#board .better")
            expect(ghost).to_have_count(1)
            best = Tile.from_text(d["best"].split("@")[0])
            drawn = better[str(d["number"])]
            assert Tile(drawn["first"], drawn["second"]) == best
            assert Tile.from_text(ghost.get_attribute("data-tile") or "") == best
            # ... inside the board's view, not cut at its edge, on a desktop and a phone
            for width, height in ((1280, 900), (390, 844)):
                page.set_viewport_size({"width": width, "height": height})
                page.locator(f"#moves li[data-step='{d['number']}'] button").click()
                expect(ghost).to_have_count(1)
                assert ghost.evaluate("""g => {
                    const a = g.getBoundingClientRect();
                    const b = g.ownerSVGElement.getBoundingClientRect();
                    return a.left >= b.left - 1 && a.right <= b.right + 1
                        && a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
                }"""), f"the better tile of move {d['number']} is cut at the board's edge"
            page.set_viewport_size({"width": 1280, "height": 900})
            expect(page.locator("#board .placed.last")).to_have_count(1)
        if SHOTS:  # the board analysis at desktop and phone size (make screenshots)
            for size, (width, height) in {"desktop": (1440, 900), "phone": (390, 844)}.items():
                page.set_viewport_size({"width": width, "height": height})
                page.wait_for_timeout(400)
                page.screenshot(path=f"{SHOTS}/replay-analysis-{size}.png", full_page=True)
        # a step that is not her decision says nothing, and shows no other tile
        page.locator("#moves li[data-step='0'] button").click()
        expect(move).to_be_hidden()
        expect(page.locator("#board .better")).to_have_count(0)
        watcher.goto(f"/tables/{table}/replay")
        expect(watcher.page.locator("#analysis-summary")).to_contain_text("decision")
        expect(watcher.page.locator("#analysis-summary")).to_contain_text(f"{her}: ")
        assert not player.errors and not watcher.errors
        player.close()
        watcher.close()


def test_one_player_cannot_fill_the_queue(store_url: str) -> None:
    """Her analyses waiting or running are bounded (here 2): the next request is refused
    with 429 and stores nothing, until one of hers is done."""
    with live_server(store_url, play=replace(QUICK_ANALYSES, analyses_per_account=2)) as base:
        me, table = guest_table(base)
        finish_game(base, me, table)
        mine = me.get("/api/session").json()["account"]["id"]
        other, other_table = guest_table(base)
        finish_game(base, other, other_table)
        store = open_store(store_url)
        with store.session() as s:  # two of hers running elsewhere (fresh: nobody takes them)
            for seat in (1, 2):
                s.add(AnalysisRow(table_id=other_table, seat=seat, status="running",
                                  samples=8, seed=seat, requested_by=mine,
                                  requested_at=dt.datetime.now(dt.UTC),
                                  started_at=dt.datetime.now(dt.UTC)))
        store.close()
        r = me.post(f"/api/tables/{table}/analysis", json={})
        assert r.status_code == 429, r.text
        assert r.json()["error"]["code"] == "analyses_waiting"
        assert me.get(f"/api/tables/{table}/analysis").json() == {"analyses": [], "better": {}}
        # another player's request is not held up by hers
        r = other.post(f"/api/tables/{other_table}/analysis", json={})
        assert r.status_code in (200, 202), r.text
        # one of hers ends: she may ask again
        store = open_store(store_url)
        with store.session() as s:
            s.execute(update(AnalysisRow).where(AnalysisRow.seat == 1,
                                                AnalysisRow.table_id == other_table)
                      .values(status="failed", error="test"))
        store.close()
        r = me.post(f"/api/tables/{table}/analysis", json={})
        assert r.status_code in (200, 202), r.text


def test_one_address_of_many_guests_cannot_fill_the_queue(store_url: str) -> None:
    """A guest is an account: analyses are bounded per address too (here 2 waiting or
    running), whoever asks from there; another address is not held up, and one done
    frees its place."""
    with live_server(store_url, play=QUICK_ANALYSES) as base:
        tables = [guest_table(base) for _ in range(3)]
        ids = [c.get("/api/session").json()["account"]["id"] for c, _t in tables]
    store = open_store(store_url)
    jobs = AnalysisJobs(store, samples=8, processes=0, per_account=3, per_address=2)
    try:
        first = jobs.queue(tables[0][1], 0, ids[0], "203.0.113.7")
        jobs.queue(tables[1][1], 0, ids[1], "203.0.113.7")
        with pytest.raises(ApiError) as refused:
            jobs.queue(tables[2][1], 0, ids[2], "203.0.113.7")
        assert refused.value.status == 429 and refused.value.code == "analyses_waiting_here"
        with store.session() as s:  # nothing stored for the refused one
            assert s.scalar(select(AnalysisRow).where(
                AnalysisRow.table_id == tables[2][1])) is None
        jobs.queue(tables[2][1], 1, ids[2], "198.51.100.1")  # another address: taken
        jobs._done_here(first.id)  # the first is done: its address may ask again
        jobs.queue(tables[2][1], 0, ids[2], "203.0.113.7")
    finally:
        jobs.close()
        store.close()


def test_the_next_persons_analysis_does_not_wait_behind_one_address(store_url: str) -> None:
    """The worker serves the least served first, one decision at a time: of the six
    analyses one address's guests asked for first, those still waiting when she asks end
    after hers (but the one in the worker then, which may end first); in the order asked,
    hers would end after all of them."""
    # each analysis takes a while (600 worlds a decision did before the playouts ran in C)
    play = replace(QUICK_ANALYSES, analysis_samples=2400)
    with live_server(store_url, play=play) as base:
        crowd = []
        for _ in range(2):
            guest, first = guest_table(base)
            games = [first] + [guest.post("/api/tables", json={
                "ruleset": "fido set=6", "players": 3,
                "seats": [{"kind": "me"}, {"kind": "bot", "level": "greedy"},
                          {"kind": "bot", "level": "random"}]}).json()["id"] for _ in range(2)]
            for table in games:
                finish_game(base, guest, table)
            guest.headers["X-Forwarded-For"] = "203.0.113.5"
            crowd += [(guest, table) for table in games]
        her, mine = guest_table(base)
        finish_game(base, her, mine)
        her.headers["X-Forwarded-For"] = "198.51.100.5"
        for guest, table in crowd:
            assert guest.post(f"/api/tables/{table}/analysis", json={}).status_code == 202
        assert her.post(f"/api/tables/{mine}/analysis", json={}).status_code == 202
        for guest, table in [*crowd, (her, mine)]:
            assert _done(guest, table, 0, timeout=300)["status"] == "done"
    store = open_store(store_url)
    try:
        with store.session(write=False) as s:
            rows = {r.table_id: r for r in s.scalars(select(AnalysisRow))}
    finally:
        store.close()
    asked, ended = rows[mine].requested_at, rows[mine].finished_at
    assert ended is not None
    waiting = sorted(t for t in (rows[table].finished_at for _g, table in crowd)
                     if t is not None and t > asked)
    assert len(waiting) >= 2, "the test's premise: theirs were still waiting when she asked"
    assert ended < waiting[1], (ended, waiting)
