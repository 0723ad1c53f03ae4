"""The table assistant end to end: a real server, Debian's chromium at phone size (390x844).

A "physical" game (an engine game from a seed, the truth) is entered on the
assistant's pages by tapping, as players at a real table would: the opener,
every tile and where it goes, draws without their tiles. In the middle: a
wrong move taken back with Undo, a reload of the page, and the network cut
for a few moves (entered offline, a wrong one among them, judged when the
connection is back). At the end the pips are entered; the sheet's finals must
be the engine's result, and the sheet sent to the ranking must be stored with
the engine's points and pips.

``FIDO_ASSISTANT_SHOTS=DIR`` also saves the screenshots of docs/screenshots.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page

from fido import Game
from fido.engine.moves import Placement
from fido.ranking import games_of, register_player
from fido.store import open_store
from support.postgres import BACKENDS, POSTGRES, empty_postgres
from support.server_live import browser as live_browser
from support.server_live import link, live_server
from support.web_browser import Person

RULES, PLAYERS, SEED = "fido set=6", 4, 4
NAMES = ["Ann", "Bob", "Cem", "Dora"]
NUMBERS = [101, 102, 103, 104]
SHOTS = os.environ.get("FIDO_ASSISTANT_SHOTS")


@pytest.fixture(scope="module", params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """SQLite, and PostgreSQL when the tests have one (the sheet goes into the ranking)."""
    if request.param == "postgresql":
        assert POSTGRES
        empty_postgres(POSTGRES)
        return POSTGRES
    return f"sqlite:///{tmp_path_factory.mktemp('assistant') / 'assistant.db'}"


@pytest.fixture(scope="module")
def base(db_url: str) -> Iterator[str]:
    with live_server(db_url) as url:
        store = open_store(db_url)
        with store.session() as s:
            for name, number in zip(NAMES, NUMBERS, strict=True):
                register_player(s, name, number)
        store.close()
        yield url


def truth() -> Game:
    """The physical game: random legal moves from a seed, with draws in it."""
    g = Game.new(RULES, PLAYERS, seed=SEED)
    rng = random.Random(SEED)
    while not g.is_over:
        g.push(rng.choice(g.legal_moves()))
    return g


def offline_window(g: Game, start: int, length: int = 3) -> int:
    """The first index from ``start`` where ``length`` moves can be entered offline: each a
    draw, a pass or a placement on a tile already judged (the phone draws no new slots)."""
    history = g.history()
    for i in range(start, len(history) - length - 2):
        placed = sum(isinstance(t.move, Placement) for t in history[:i])
        window = history[i:i + length]
        if all(not isinstance(t.move, Placement) or t.move.anchor < placed for t in window) and \
                any(isinstance(t.move, Placement) for t in window):
            return i
    raise AssertionError("no stretch of the game to enter offline")


def settled(page: Page, n: int) -> None:
    """Wait until the server has judged the phone's list and accepted ``n`` moves."""
    page.wait_for_function(
        """n => { const s = window.fidoAssistant; return s.answer && !s.busy && s.isCurrent()
               && s.answer.accepted === n && s.game.moves.length === n; }""",
        arg=n, timeout=20_000)


def tap(person: Person, move: str) -> None:
    """Enter one move as a person does: Draw/Pass, or a tile then its target."""
    page = person.page
    if move in ("draw", "pass"):
        button = page.locator("#draw")
        assert button.inner_text().lower() == move
        button.click()
        return
    tile, _, slot = move.partition("@")
    page.locator(f"#picker button[data-tile='{tile}']").click()
    target = page.locator(f"#board .target[data-slot='{slot or 'open'}']")
    if target.count() and person.reachable(target):
        target.click()
    else:
        page.locator(f"#targets button[data-move='{move}']").click()


def shot(page: Page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"assistant-{name}.png"))


def test_a_physical_game_entered_on_a_phone(base: str, browser: Browser, db_url: str) -> None:
    g = truth()
    history = g.history()
    assert any(t.move.text() == "draw" for t in history), "the game should have draws"
    person = Person(browser, base, width=390, height=844)
    page = person.page
    person.sign_up("anna_assist")
    # she enters her own game: her account is linked to her ranking player (Ann)
    link(db_url, "anna_assist", NUMBERS[0])
    replay = Game.new(RULES, PLAYERS, seed=SEED)  # the truth again, move by move, to compare

    # the setup: double-6, four players with their ranking numbers
    person.goto("/assistant")
    page.select_option("#set", "6")
    page.select_option("#count", str(PLAYERS))
    for i, (name, number) in enumerate(zip(NAMES, NUMBERS, strict=True)):
        page.fill(f"#name{i}", name)
        page.fill(f"#number{i}", str(number))
    assert page.locator("#name4").is_hidden()
    shot(page, "setup")
    page.click("#start")
    page.wait_for_url(base + "/assistant/play")
    page.locator(f"#seats [data-opens='{g.opener}']").click()
    settled(page, 0)

    undo_at = 5
    reload_at = 9
    off = offline_window(g, 13)
    n = 0
    while n < len(history):
        turn = history[n]
        move = turn.move.text()
        if n == undo_at and isinstance(turn.move, Placement):
            # a slip: another tile or place entered, then taken back
            others = page.evaluate("() => window.fidoAssistant.answer.targets.map(t => t.move)")
            wrong = next(m for m in others if m != move)
            tap(person, wrong)
            settled(page, n + 1)
            page.click("#undo")
            settled(page, n)
            assert page.locator("#sum").inner_text() == str(replay.ends_sum)
            undo_at = -1
        if n == reload_at:
            page.reload()
            settled(page, n)
            assert page.locator("#sum").inner_text() == str(replay.ends_sum)
        if n == off:
            known = page.evaluate("() => window.fidoAssistant.answer.layout.markers")
            person.context.set_offline(True)
            for k in range(3):  # three moves entered without a connection
                tap(person, history[n + k].move.text())
                replay.push(history[n + k].move)
            page.wait_for_function("() => !window.fidoAssistant.online", timeout=10_000)
            assert "3 waiting" in page.locator("#conn").inner_text()
            # and a slip: a tile on a slot it does not fit (offline, nothing judges it yet)
            used = {t.move.text().partition("@")[2] for t in history[n:n + 3]}
            on = {p.tile for p in replay.table.placements}
            tile = next(t for t in reversed(replay.set.tiles) if t not in on)
            slot = next(name for m in known
                        if (name := f"{m['slot'] >> 2}{'nesw'[m['slot'] & 3]}") not in used
                        and m["value"] not in (tile.high, tile.low))
            bad = f"{tile.text()}@{slot}"
            tap(person, bad)
            assert "4 waiting" in page.locator("#conn").inner_text()
            shot(page, "offline")
            person.context.set_offline(False)
            page.evaluate("() => window.dispatchEvent(new Event('online'))")
            settled(page, n + 3)
            message = page.locator("#message").inner_text()
            assert f"{bad} was refused: values do not match" in message, message
            n += 3
            assert page.locator("#sum").inner_text() == str(replay.ends_sum)
            continue
        tap(person, move)
        replay.push(turn.move)
        n += 1
        settled(page, n)
        assert page.locator("#sum").inner_text() == str(replay.ends_sum)
        if n == len(history) // 2 and SHOTS:
            fits = page.locator("#picker button.fits")
            if fits.count():
                fits.first.click()
            shot(page, "midgame")
            if page.locator("#picker button.selected").count():
                page.locator("#picker button.selected").click()
        scores = page.evaluate("() => window.fidoAssistant.answer.scores")
        assert scores == replay.scores
    assert undo_at == -1

    # the end: the pips left in each hand, then the sheet
    assert page.locator("#pips-box").is_visible()
    assert page.locator("#entry").is_hidden()
    pips = [g.pips(s) for s in range(PLAYERS)]
    for i, p in enumerate(pips):
        page.fill(f"#pips{i}", str(p + 50 if i == 0 else p))
    page.click("#pips-done")
    page.wait_for_function("() => document.getElementById('pips-error').textContent !== ''")
    assert "cannot hold" in page.locator("#pips-error").inner_text()
    page.fill("#pips0", str(pips[0]))
    page.click("#pips-done")
    page.wait_for_selector("#sheet:not([hidden])")
    outcome = g.outcome
    assert outcome is not None
    for r in outcome.seats:
        row = page.locator(f"#sheet-rows tr[data-seat='{r.seat}'] td")
        cells = row.all_inner_texts()
        assert cells[1:] == [str(r.points), str(r.pips), str(r.final)], (r, cells)
    page.fill("#sheet-event", "Club night")
    page.click("#send")
    page.wait_for_function("() => document.getElementById('send-ok').textContent !== ''")
    assert "Sent to the ranking as game" in page.locator("#send-ok").inner_text()
    shot(page, "sheet")
    errors = [e for e in person.errors if "ERR_INTERNET_DISCONNECTED" not in e]  # offline
    assert not errors, errors

    store = open_store(db_url)
    with store.session(write=False) as s:
        (game,) = [x for x in games_of(s) if x.event == "Club night"]
        assert game.source == "sheet" and game.event == "Club night" and game.set == 6
        lines = sorted(game.lines, key=lambda ln: ln.seat)
        assert [(ln.player.number, ln.points, ln.pips, ln.final) for ln in lines] == [
            (NUMBERS[r.seat], r.points, r.pips, r.final) for r in outcome.seats]
    store.close()
    person.close()


# ---------------------------------------------------------------- the JSON API, no browser


def game_body(**more: object) -> dict[str, object]:
    seats = [{"name": n} for n in NAMES]
    return {"set": 6, "seats": seats, "opener": None, "moves": []} | more


def test_the_state_of_a_game_judged_statelessly(base: str) -> None:
    g = truth()
    moves = [t.move.text() for t in g.history()]
    client = httpx.Client(base_url=base, timeout=20)
    r = client.post("/api/assistant/state", json=game_body(opener=g.opener, moves=moves))
    assert r.status_code == 200
    st = r.json()
    assert st["accepted"] == len(moves) and st["refused"] is None and st["over"]
    assert st["scores"] == g.scores and st["sum"] == g.ends_sum
    assert st["targets"] == [] and len(st["layout"]["tiles"]) == len(g.table.placements)
    pips = [g.pips(s) for s in range(PLAYERS)]
    r = client.post("/api/assistant/state", json=game_body(opener=g.opener, moves=moves, pips=pips))
    assert g.outcome is not None and r.json()["result"] == g.outcome.to_dict()
    # a move refused: the state after the ones before it, and the engine's reason
    bad = [*moves[:6], moves[2], *moves[7:]]
    st = client.post("/api/assistant/state", json=game_body(opener=g.opener, moves=bad)).json()
    assert st["accepted"] == 6 and st["refused"]["index"] == 6
    assert st["refused"]["message"] == f"{moves[2].split('@')[0]} is already on the table"
    assert len(st["history"]) == 6


@pytest.mark.parametrize("body", [
    game_body(set=7),
    game_body(set="six"),
    game_body(seats=[{"name": "A"}, {"name": "B"}]),
    game_body(seats=[{"name": f"P{i}"} for i in range(10)]),
    game_body(seats=[{"name": "Ann\x1b[2J"}, {"name": "B"}, {"name": "C"}]),
    game_body(seats=[{"name": " Ann"}, {"name": "B"}, {"name": "C"}]),
    game_body(seats=[{"name": ""}, {"name": "B"}, {"name": "C"}]),
    game_body(seats=[{"name": "A", "number": -3}, {"name": "B"}, {"name": "C"}]),
    game_body(seats=[{"name": "A", "number": 2**40}, {"name": "B"}, {"name": "C"}]),
    game_body(opener=7),
    game_body(opener=-1),
    game_body(moves=["6-6"] * 401),
    game_body(moves=["x" * 100]),
    game_body(extra=1),
    game_body(pips=["a"]),
    {"set": 6},
])
def test_bad_input_is_refused_plainly(base: str, body: dict[str, object]) -> None:
    r = httpx.post(f"{base}/api/assistant/state", json=body, timeout=20)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["message"]


def test_a_number_nobody_has_is_named(base: str) -> None:
    seats = [{"name": n, "number": 900 + i} for i, n in enumerate(NAMES)]
    r = httpx.post(f"{base}/api/assistant/state", json=game_body(seats=seats), timeout=20)
    assert r.status_code == 422 and "seat 1 (Ann): no registered player has number 900" in \
        r.json()["error"]["message"]
    seats = [{"name": n, "number": NUMBERS[0]} for n in NAMES]
    r = httpx.post(f"{base}/api/assistant/state", json=game_body(seats=seats), timeout=20)
    assert r.status_code == 422 and "twice" in r.json()["error"]["message"]
    ok = [{"name": n, "number": NUMBERS[i]} for i, n in enumerate(NAMES)]
    r = httpx.post(f"{base}/api/assistant/state", json=game_body(seats=ok), timeout=20)
    assert r.json()["ranking_names"] == NAMES


def test_the_sheet_needs_csrf_a_sign_in_ranked_players_and_an_end(base: str, db_url: str) -> None:
    g = truth()
    moves = [t.move.text() for t in g.history()]
    pips = [g.pips(s) for s in range(PLAYERS)]
    ranked = [{"name": n, "number": NUMBERS[i]} for i, n in enumerate(NAMES)]
    sheet = game_body(seats=ranked, opener=g.opener, moves=moves, pips=pips,
                      date="2026-01-10", event="Test night")
    r = httpx.post(f"{base}/api/assistant/sheet", json=sheet, timeout=20)
    assert r.status_code == 403  # no CSRF token
    client = live_browser(base)
    r = client.post("/api/assistant/sheet", json=sheet)
    assert r.status_code == 401, r.text  # not signed in
    client.post("/api/accounts", json={"name": "sheet_sender", "password": "a long password"})
    for wrong, code in [
        (sheet | {"moves": moves[:-1]}, "not_over"),
        (sheet | {"pips": None}, "not_over"),
        (sheet | {"seats": [{"name": n} for n in NAMES]}, "unranked"),
        (sheet | {"moves": [*moves[:3], moves[1], *moves[4:]]}, "refused"),
    ]:
        r = client.post("/api/assistant/sheet", json=wrong)
        assert r.status_code == 409 and r.json()["error"]["code"] == code, r.text
    # she did not play in it, and organises nothing: not hers to enter
    r = client.post("/api/assistant/sheet", json=sheet)
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_yours", r.text
    # a player of the game (Bob) enters it; Cy, with an account, is asked to confirm
    client = live_browser(base)
    client.post("/api/accounts", json={"name": "bob_sheet", "password": "a long password"})
    link(db_url, "bob_sheet", NUMBERS[1])
    cy = live_browser(base)
    cy.post("/api/accounts", json={"name": "cy_sheet", "password": "a long password"})
    link(db_url, "cy_sheet", NUMBERS[2])
    r = client.post("/api/assistant/sheet", json=sheet | {"date": "2999-01-01"})
    assert r.status_code == 422 and "future" in r.json()["error"]["message"]
    r = client.post("/api/assistant/sheet", json=sheet)
    assert r.status_code == 201 and r.json()["new"], r.text
    assert "Test night" in cy.get("/inbox").text
    again = client.post("/api/assistant/sheet", json=sheet)
    assert again.json()["game"] == r.json()["game"] and not again.json()["new"]  # stored once
