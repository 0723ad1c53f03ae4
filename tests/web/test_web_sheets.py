"""Score sheets in the real browser: entered, refused field by field, confirmed,
disputed and settled; a rated online game in its players' results; and a duplicate
round's sheets closed until the round has ended.

Three accounts linked to ranking players and an organiser of the club, each in
her own chromium context, over a real server. Runs on SQLite and, with
``FIDO_TEST_POSTGRES_URL``, PostgreSQL. With ``FIDO_SHEET_SHOTS=DIR`` the
pages are also photographed at phone and desktop size into DIR.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Dialog, Page, expect
from sqlalchemy import func, select
from typer.testing import CliRunner

from fido.cli import app
from fido.i18n import format_number
from fido.ranking import register_player
from fido.store import GameRow, Store, TableRow, open_store
from support.events import EVENT, event_people, open_event
from support.rated import linked_person, play_to_the_end, table_socket
from support.server_client import TableSocket, play_to_end
from support.server_live import cookie_header, live_server, token_of
from support.web_browser import Person

SCRIPT_NAME = '<script>alert("x")</script> Cora'
SHOTS = os.environ.get("FIDO_SHEET_SHOTS")
SIZES = {"phone": (390, 844), "desktop": (1440, 900)}


def fido(db: str, *args: str) -> None:
    out = CliRunner().invoke(app, [*args, "--db", db])
    assert out.exit_code == 0, out.output


def _games(store_url: str) -> int:
    store = open_store(store_url)
    with store.session(write=False) as s:
        n = s.scalar(select(func.count()).select_from(GameRow)) or 0
    store.close()
    return n


def _shoot(page: Page, name: str) -> None:
    """The page as it is, at phone and desktop size (``FIDO_SHEET_SHOTS`` only)."""
    if not SHOTS:
        return
    Path(SHOTS).mkdir(parents=True, exist_ok=True)
    old = page.viewport_size
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=f"{SHOTS}/sheet-{name}-{size}.png", full_page=True)
    if old:
        page.set_viewport_size(old)


def _send(page: Page, **fields: str) -> None:
    """Fill the sheet form's fields (select for the set) and send it."""
    form = page.locator("#sheet-form")
    for name, value in fields.items():
        if name == "set":
            form.locator("select[name=set]").select_option(value)
        else:
            form.locator(f"[name={name}]").fill(value)
    form.locator("button.primary[value=send]").click()
    page.wait_for_load_state()


def _error(page: Page, field: str) -> str:
    return page.locator(f"#err-{field}").inner_text()


def test_a_sheet_is_refused_then_entered_confirmed_disputed_and_settled(
        browser: Browser, store_url: str) -> None:
    store = open_store(store_url)
    with store.session() as s:
        numbers = [register_player(s, n).number for n in ("Anna Berg", "Bert Lund", SCRIPT_NAME)]
    store.close()
    today = dt.date.today()
    with live_server(store_url) as base:
        people = [Person(browser, base, seed=i) for i in range(4)]
        anna, bert, cora, olga = people
        dialogs: list[str] = []

        def on_dialog(dialog: Dialog) -> None:  # an alert() would mean markup ran
            dialogs.append(dialog.message)
            dialog.dismiss()

        for p, name in zip(people, ("anna", "bert", "cora", "olga"), strict=True):
            p.page.on("dialog", on_dialog)
            p.sign_up(name)
        for name, n in zip(("anna", "bert", "cora"), numbers, strict=True):
            fido(store_url, "accounts", "link", name, str(n))
        fido(store_url, "accounts", "grant", "olga", "organiser", "--scope", "club:Rostock")

        page = anna.page
        anna.goto("/sheets/new")
        expect(page.locator("select[name=set] option[selected]")).to_have_attribute("value", "12")
        # the search by name fills the player field's list (htmx)
        page.locator("[name=player1]").press_sequentially("Lun")
        expect(page.locator("#ranking-players option")).to_have_attribute("value", str(numbers[1]))
        # the final is computed as it is typed
        page.locator("[name=points0]").fill("31")
        page.locator("[name=pips0]").fill("4")
        expect(page.locator("output[name=final0]")).to_have_text("27")

        # 1. a word for points, and a date in the future: the points first (pydantic)
        future = (today + dt.timedelta(days=3)).isoformat()
        _send(page, date=future, event="Rostock club night 7", set="9", player0="anna",
              player1=str(numbers[1]), points1="twelve", pips1="0",
              player2=str(numbers[2]), points2="20", pips2="17")
        assert "valid integer" in _error(page, "points1")
        expect(page.locator("[name=event]")).to_have_value("Rostock club night 7")  # kept
        expect(page.locator("[name=points1]")).to_have_value("twelve")
        expect(page.locator("[name=points1]")).to_have_attribute("aria-invalid", "true")
        expect(page.locator("select[name=set] option[selected]")).to_have_attribute("value", "9")
        _shoot(page, "form-errors")
        # 2. the date
        _send(page, points1="12")
        assert "in the future" in _error(page, "date")
        # 3. a player twice
        yesterday = (today - dt.timedelta(days=1)).isoformat()
        _send(page, date=yesterday, player2="anna")
        assert "appears twice" in _error(page, "player2")
        # 4. more pips in hand than the double-9 set has
        _send(page, player2=str(numbers[2]), pips2="999")
        assert "pips" in page.locator("#err-lines").inner_text()
        # 5. an account without a player, by name
        _send(page, pips2="17", player2="olga")
        assert "not linked to a ranking player" in _error(page, "player2")
        assert _games(store_url) == 0  # nothing was stored by any of them
        # "Add a line" keeps what was typed and sends nothing
        page.locator("#sheet-form button[value=more]").click()
        expect(page.locator("[name=player4]")).to_be_visible()
        expect(page.locator("[name=player2]")).to_have_value("olga")
        # a valid sheet, sent by Enter in a field (the default button sends, not "Add a line")
        page.locator("[name=player2]").fill("cora")
        page.locator("[name=player2]").press("Enter")
        page.wait_for_url(re.compile(r".*/sheets/\d+\?sent=1$"))
        game_id = int(re.findall(r"/sheets/(\d+)", page.url)[0])
        expect(page.locator("#status")).to_have_text("submitted")
        expect(page.locator("#lines")).to_contain_text(SCRIPT_NAME)  # as text
        expect(page.locator("#lines tbody tr").nth(0)).to_contain_text("27")
        assert page.locator("#review-form").count() == 0  # she entered it: the others review

        # the second player is told, opens it from her inbox and confirms
        bert.goto("/")
        expect(bert.page.locator(".inbox-link .badge")).to_have_text("1")
        bert.goto("/inbox")
        bert.page.locator(f"#inbox a[href='/sheets/{game_id}']").click()
        bert.page.locator("#review-form button[value=confirm]").click()
        expect(bert.page.locator("#reviews")).to_contain_text("confirmed by Bert Lund")
        expect(bert.page.locator("#status")).to_have_text("submitted")  # cora has not yet
        expect(bert.page.locator(".inbox-link .badge")).to_have_count(0)  # read
        assert bert.page.locator("#settle-form").count() == 0  # a player cannot settle

        # the third disputes, with a note
        cora.goto(f"/sheets/{game_id}")
        cora.page.locator("#review-form textarea[name=note]").fill("I had 7 pips, not 17 <b>")
        cora.page.locator("#review-form button[value=dispute]").click()
        expect(cora.page.locator("#status")).to_have_text("disputed")
        expect(cora.page.locator("#reviews")).to_contain_text("I had 7 pips, not 17 <b>")
        _shoot(cora.page, "disputed")

        # the submitter hears of it
        anna.goto("/inbox")
        expect(anna.page.locator("#inbox")).to_contain_text("a sheet was disputed")
        _shoot(anna.page, "inbox")

        # the club's organiser settles it
        olga.goto("/reviews")
        olga.page.locator(f"#disputes a[href='/sheets/{game_id}']").click()
        olga.page.locator("#settle-form textarea[name=note]").fill("the sheet says 17: checked")
        olga.page.locator("#settle-form button[value=accept]").click()
        expect(olga.page.locator("#status")).to_have_text("accepted")
        expect(olga.page.locator("#reviews")).to_contain_text("accepted (settled)")
        _shoot(olga.page, "reviews")
        anna.goto("/sheets")
        expect(anna.page.locator("#results")).to_contain_text("accepted")
        _shoot(anna.page, "results")
        for p in people:  # a refused sheet's page comes with 422, which chromium logs
            assert [e for e in p.errors if "status of 422" not in e] == [], p.errors
            p.close()
        assert dialogs == []  # the <script> name never ran

    store = open_store(store_url)
    with store.session(write=False) as s:
        game = s.get(GameRow, game_id)
        assert game is not None
        assert (game.played_on.isoformat(), game.event, game.set, game.divisor, game.source) == (
            yesterday, "Rostock club night 7", 9, 5, "sheet")
        assert [(ln.player.number, ln.points, ln.pips, ln.final) for ln in game.lines] == [
            (numbers[0], 31, 4, 27), (numbers[1], 12, 0, 12), (numbers[2], 20, 17, 3)]
        assert game.submitted_by == game.lines[0].player_id
        assert [(r.verdict, r.note) for r in game.reviews] == [
            ("confirm", ""), ("dispute", "I had 7 pips, not 17 <b>"),
            ("accept", "the sheet says 17: checked")]
    store.close()


def test_a_rated_online_game_is_in_its_players_results(tmp_path: Path) -> None:
    """No sheet: the server submits a rated game itself; its players find it in their
    results, and one of them can confirm it on its sheet page."""
    db = f"sqlite:///{tmp_path / 'fido.db'}"
    store: Store = open_store(db)
    with store.session() as s:
        numbers = [register_player(s, f"Player {i}").number for i in range(3)]
    store.close()
    with live_server(db) as base:
        people = [linked_person(base, db, f"p{i}", n) for i, n in enumerate(numbers)]
        r = people[0].post("/api/tables", json={"ruleset": "fido set=6", "players": 3,
                                                "rated": True})
        table = r.json()["id"]
        for p in people[1:]:
            assert p.post(f"/api/tables/{table}/seats", json={}).status_code == 200
        sockets = [table_socket(base, p, table) for p in people]
        try:
            play_to_the_end(sockets)
        finally:
            for ws in sockets:
                ws.close()
        page = people[1].get("/sheets", headers={"accept": "text/html"}).text
        rows = re.findall(r'<a href="/sheets/(\d+)">', page)
        assert len(rows) == 1 and "online" in page and "submitted" in page
        sheet = people[1].get(f"/sheets/{rows[0]}").text
        assert "online game" in sheet and "review-form" in sheet  # every player reviews it
        token = people[1].cookies["fido_csrf"]
        r = people[1].post(f"/sheets/{rows[0]}/review",
                           data={"csrf_token": token, "verdict": "confirm"})
        assert r.status_code == 303
        text = re.sub(r"(<[^>]+>|\s)+", " ", people[2].get(f"/sheets/{rows[0]}").text)
        assert "confirmed by Player 1 (2)" in text


def _play_table(base: str, people: list[httpx.Client], table: str) -> None:
    """Her players play the table to its end, each over her own socket."""
    sockets = [TableSocket.open(base, table, cookie=cookie_header(p), label=str(i))
               for i, p in enumerate(people)]
    try:
        play_to_end(sockets)
    finally:
        for sock in sockets:
            sock.ws.close()


def _text(r: httpx.Response) -> str:
    return re.sub(r"(<[^>]+>|\s)+", " ", r.text)


def test_a_duplicate_rounds_sheet_stays_closed_until_the_round_has_ended(
        store_url: str) -> None:
    """Issue 37: an online duplicate round's table submits its result to the ranking as
    it ends; while the round's other table still plays the same deal, no score sheet
    door (the sheet, as a page or JSON, her results, the disputes to settle, a review)
    shows its points and finals, to nobody; when the round is over they all do."""
    with live_server(store_url) as base:
        people, _numbers = event_people(store_url, base, 7)
        boss = people[0]
        fido(store_url, "accounts", "grant", "p0", "federation")  # she settles online games
        eid = open_event(boss, people[1:], EVENT | {
            "table_size": 3, "rounds": 1, "duplicate": True, "grace": 3600})
        first, second = boss.post(f"/api/events/{eid}/rounds").json()["tables"]
        ids = {p.get("/api/session").json()["account"]["id"]: p for p in people[1:]}
        at = {t["table"]: [ids[s["account"]] for s in t["seats"]] for t in (first, second)}
        _play_table(base, at[first["table"]], first["table"])
        store = open_store(store_url)
        with store.session(write=False) as s:
            row = s.get(TableRow, first["table"])
            assert row is not None and row.ranking_game is not None  # in the ranking now
            game = s.get(GameRow, row.ranking_game)
            assert game is not None
            game_id = game.id
            lines = [(ln.player.name, ln.player.number, ln.points, ln.pips, ln.final)
                     for ln in game.lines]
        store.close()
        sheet = f"/sheets/{game_id}"
        # a dispute from the federation's command line, so that it has one to settle
        fido(store_url, "results", "dispute", str(game_id), "--player", str(lines[1][1]),
             "--note", "recount")
        mine = at[first["table"]][0]
        anonymous = httpx.Client(base_url=base, timeout=20)

        def closed(r: httpx.Response) -> None:
            assert r.status_code == 409, (r.status_code, r.text[-2000:])
            shown = _text(r)
            assert "same deal" in shown
            assert not any(name in shown for name, *_rest in lines), shown

        # the sheet, to anyone (a person with no session, one of its players, the
        # federation), as a page and as JSON
        for who in (anonymous, mine, boss):
            closed(who.get(sheet, headers={"accept": "text/html"}))
            r = who.get(sheet, headers={"accept": "application/json"})
            closed(r)
            assert r.json()["error"]["code"] == "round_playing"
        # the lists: her results, the disputes to settle (a session first)
        assert anonymous.get("/sheets").status_code == 401
        assert anonymous.get("/reviews").status_code == 401
        assert sheet not in mine.get("/sheets").text
        r = boss.get("/reviews")
        assert r.status_code == 200 and sheet not in r.text
        # a review (it would show the sheet again) changes nothing
        closed(mine.post(f"{sheet}/review",
                         data={"csrf_token": token_of(mine), "verdict": "confirm"}))
        closed(boss.post(f"{sheet}/review",
                         data={"csrf_token": token_of(boss), "verdict": "accept"}))
        # the round's other table ends: the round is over, the sheet opens to all
        _play_table(base, at[second["table"]], second["table"])
        r = anonymous.get(sheet, headers={"accept": "text/html"})
        assert r.status_code == 200, r.text[-2000:]
        shown = _text(r)
        for name, number, *scores in lines:  # points, pips and final
            assert " ".join([name, str(number), *map(format_number, scores)]) in shown
        assert "disputed by" in shown and "confirmed by" not in shown  # nothing reviewed
        assert sheet in mine.get("/sheets").text
        assert sheet in boss.get("/reviews").text
        r = mine.post(f"{sheet}/review", data={"csrf_token": token_of(mine),
                                               "verdict": "confirm"})
        assert r.status_code == 303


BAD_SHEETS = [
    ({"set": "7"}, "set", "not a FIDO set"),
    ({"divisor": "1"}, "divisor", "divisor"),
    ({"divisor": "99999999999"}, "divisor", "less than or equal"),
    ({"points0": "99999999999"}, "points0", "less than or equal"),
    ({"points0": "-3"}, "points0", "greater than or equal"),
    ({"points0": "5000"}, "points0", "impossible"),
    ({"date": "2026-02-30"}, "date", "date"),
    ({"event": "Kiel\x00"}, "event", "control characters"),
    ({"event": ""}, "event", "at least 1 character"),
    ({"player1": "b\x07rt"}, "player1", "control characters"),
    ({"player1": "99999999999"}, "player1", "less than or equal"),
    ({"player1": "77"}, "player1", "no registered player has number 77"),
    ({"player1": "", "points1": "", "pips1": ""}, "lines", "at least 2 items"),
]


@pytest.mark.parametrize(("change", "field", "message"), BAD_SHEETS)
def test_bad_sheets_are_refused_on_their_field_and_store_nothing(
        sheet_server: tuple[httpx.Client, str], change: dict[str, str], field: str,
        message: str) -> None:
    client, db = sheet_server
    token = client.cookies["fido_csrf"]
    form = {"csrf_token": token, "date": "2026-01-02", "event": "Kiel", "set": "9",
            "player0": "1", "points0": "10", "pips0": "2", "player1": "2", "points1": "3",
            "pips1": "4"} | change
    r = client.post("/sheets", data=form)
    assert r.status_code == 422, r.text
    shown = re.search(rf'id="err-{field}">([^<]*)<', r.text)
    assert shown is not None and message in shown.group(1), r.text[-3000:]
    assert _games(db) == 0


@pytest.fixture(scope="module")
def sheet_server(
        tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[httpx.Client, str]]:
    """A server and the browser of player 1's account (her sheets are hers)."""
    db = f"sqlite:///{tmp_path_factory.mktemp('sheets') / 'fido.db'}"
    store = open_store(db)
    with store.session() as s:
        for name in ("Ina", "Jon"):
            register_player(s, name)
    store.close()
    with live_server(db) as base:
        yield linked_person(base, db, "ina", 1), db


def test_hostile_addresses_get_a_page_never_a_500(
        sheet_server: tuple[httpx.Client, str]) -> None:
    client, _db = sheet_server
    token = client.cookies["fido_csrf"]
    for path, status in (("/sheets/99999999999", 404), ("/sheets/0", 404),
                         ("/sheets/-1", 404), ("/sheets/abc", 422),
                         ("/sheets/players?q=%00%25_", 200),
                         ("/sheets/players?q=" + "x" * 5000, 200)):
        assert client.get(path).status_code == status, path
    r = client.post("/sheets/99999999999/review",
        data={"csrf_token": token_of(client), "verdict": "confirm"})
    assert r.status_code == 404
    r = client.post("/sheets", content=b"csrf_token=" + token.encode() + b"&x=" + b"y" * 20000,
                    headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 413
