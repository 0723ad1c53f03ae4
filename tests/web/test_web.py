"""The web app in a real browser: Debian's chromium driven by Playwright, against a real
server (uvicorn in a thread, bots moving at once), end to end.

Two people sign up in two browser contexts; one opens a FIDO double-9 table
with two bots, the other joins; both play the whole game by clicking; the
result shown is the one the engine's replay of the stored record gives. A
reload keeps the seat and the hand, a dropped socket reconnects with its
last sequence number, and a spectator never receives a tile of any hand.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, WebSocket
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from fido.delta import patch
from fido.engine.sorting import difference_class, ratzek_rows
from fido.engine.tiles import Tile
from fido.record import GameRecord
from fido.server.wire import hand_rows_json
from support.web_browser import Person, play_until, tiles_in


def test_the_hand_rows_are_fido_sortings(browser: Browser, server: str) -> None:
    """The pages draw the hand in the rows the server sends (view["hand_rows"], the
    replay's steps' too): fido.engine.sorting.ratzek_rows, oriented, each tile with its class;
    the page repeats no sorting rule (static/js/ratzek.js is gone)."""
    rng = random.Random(14)
    for _ in range(300):
        n = rng.choice([6, 9, 12, 15, 18, 21])
        d = rng.randint(2, 13)
        tiles = [Tile(a, b) for a in range(n + 1) for b in range(a + 1)]
        hand = rng.sample(tiles, rng.randint(0, 25))
        rows = hand_rows_json(hand, d)
        want = ratzek_rows(hand, d)
        assert [r["classes"] for r in rows] == [list(r.classes) for r in want]
        assert [[(t["left"], t["right"]) for t in r["tiles"]] for r in rows] == [
            list(r.left + r.right) for r in want]
        for r in rows:
            for t in r["tiles"]:
                tile = Tile.from_text(t["text"])
                assert {t["left"], t["right"]} == {tile.high, tile.low}
                assert t["cls"] == difference_class(tile, d)
                assert r["joker"] == (t["cls"] == d)
    person = Person(browser, server)
    assert person.page.request.get(f"{server}/static/js/ratzek.js").status == 404
    person.close()


def _frames(person: Person) -> list[str]:
    frames: list[str] = []

    def on_socket(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: frames.append(
            payload if isinstance(payload, str) else payload.decode()))

    person.page.on("websocket", on_socket)
    return frames


def _socket_urls(person: Person) -> list[str]:
    urls: list[str] = []
    person.page.on("websocket", lambda ws: urls.append(ws.url))
    return urls


def _spectator_sees_no_hand(spectator: Person, players: list[Person]) -> None:
    """The spectator's page shows tiles on the table only: none of any hand."""
    text = spectator.page.locator("body").inner_text()
    placed = set(spectator.state()["table"])
    placed_tiles = tiles_in(" ".join(placed))
    shown = tiles_in(text)
    assert shown <= placed_tiles, f"the spectator's page shows {shown - placed_tiles}"
    for p in players:
        hand = set(p.hand())
        assert not (hand & shown), f"the spectator's page shows {hand & shown} of a hand"
    assert spectator.page.locator("#hand .tile").count() == 0


def _check_spectator_frames(frames: list[str], table_id: str) -> int:
    """Every frame the spectator received holds no tile but those on the table (the
    view as the page holds it: version 2's deltas applied, fido.delta.patch). A table's
    id is random text that may hold a tile's notation (``aB7-7x…``): ids are not read."""
    seen_views = 0
    view: dict[str, Any] | None = None
    ids = {table_id}
    for raw in frames:
        msg = json.loads(raw)
        info = msg.get("table") if isinstance(msg.get("table"), dict) else {}
        ids |= {v for k in ("id", "match", "next") if isinstance(v := info.get(k), str)}
        for i in ids:
            raw = raw.replace(i, "")
        if msg.get("delta") is not None:
            assert view is not None, "a delta before any view"
            view = patch(view, msg["delta"])
        elif msg.get("view") is not None or msg.get("type") == "welcome":
            view = msg.get("view")
        placed: set[str] = set()
        if view is not None and msg.get("type") in ("welcome", "update"):
            seen_views += 1
            assert view["hand"] == [] and view["legal"] == [], "a spectator got a hand"
            placed = tiles_in(" ".join(view["table"]))
        assert "drawn" not in raw, "a spectator saw a drawn tile"
        extra = tiles_in(raw) - placed
        assert not extra, f"a {msg.get('type')} frame shows {extra}, not on the table"
    return seen_views


def test_two_people_and_two_bots_play_a_whole_game(browser: Browser, server: str) -> None:
    anna = Person(browser, server, seed=1)
    bea = Person(browser, server, width=390, height=844, seed=2)  # on a phone
    watcher = Person(browser, server, seed=3)
    try:
        anna.sign_up("Anna")
        bea.sign_up("<i>Bea</i>")  # markup in a name is text
        table = anna.create_table("fido", 9, ("me", "open", "bot:expert", "bot:greedy"))
        anna.page.wait_for_function("() => window.fidoTable && window.fidoTable.table")
        assert "Waiting for 1 more player." in anna.page.locator("#waiting").inner_text()

        watch_frames = _frames(watcher)
        watcher.goto(f"/tables/{table}")
        watcher.page.wait_for_function("() => window.fidoTable && window.fidoTable.table")

        bea.goto("/")
        # the lobby fits her phone: no sideways scrolling (a select's longest option and the
        # seats' fieldset once widened it to 416 px)
        assert bea.page.evaluate("() => document.documentElement.scrollWidth") <= 390
        item = bea.page.locator(".table-item", has=bea.page.locator(f"a[href='/tables/{table}']"))
        item.locator("button", has_text="Join").click()
        bea.page.wait_for_url(f"{server}/tables/{table}")
        bea_urls = _socket_urls(bea)
        for p in (anna, bea, watcher):
            p.page.wait_for_function("() => window.fidoTable.view", timeout=15_000)
        assert anna.state()["seat"] == 0 and bea.state()["seat"] == 1
        assert bea.page.locator(".seat.mine").inner_text().startswith("2")
        # the name with markup shows as text, everywhere
        assert "<i>Bea</i>" in anna.page.locator("#seats").inner_text()
        assert anna.page.locator("#seats i").count() == 0

        # chat: inserted as text, never HTML
        anna.page.fill("#chat-text", "<img src=x onerror=alert(1)> hello")
        anna.page.click("#chat-form button")
        bea.page.wait_for_function(
            "() => document.querySelector('#chat-lines').textContent.includes('hello')")
        assert bea.page.locator("#chat-lines img").count() == 0
        assert "<img src=x onerror=alert(1)> hello" in bea.page.locator("#chat-lines").inner_text()

        moves = {"anna": 0, "bea": 0}
        checks = {"reload": False, "drop": False}

        def on_move(person: Person, _move: str) -> None:
            who = "anna" if person is anna else "bea"
            moves[who] += 1
            if who == "anna" and moves["anna"] == 3 and not checks["reload"]:
                checks["reload"] = True
                seat, hand = anna.state()["seat"], anna.hand()
                anna.page.reload()
                anna.page.wait_for_function("() => window.fidoTable && window.fidoTable.view")
                assert anna.state()["seat"] == seat
                assert anna.hand() == hand, "a reload changed the hand"
                assert anna.page.locator(".seat.mine .seatno").inner_text() == "1"
            if who == "bea" and moves["bea"] == 3 and not checks["drop"]:
                checks["drop"] = True
                seq = bea.page.evaluate(
                    "() => { const s = window.fidoTable; s.socket.close(); return s.seq; }")
                bea.page.wait_for_function(
                    "() => window.fidoTable.socket && window.fidoTable.socket.readyState === 1")
                again = re.search(r"\?seq=(\d+)&v=2$", bea_urls[-1])  # version 2: deltas
                assert len(bea_urls) >= 2 and again, bea_urls
                assert int(again.group(1)) >= seq > 0  # the last number seen (a bot may move)
            if (moves["anna"] + moves["bea"]) % 5 == 0:
                _spectator_sees_no_hand(watcher, [anna, bea])

        play_until([anna, bea], lambda: anna.state()["over"] and bea.state()["over"],
                   on_move=on_move)
        assert checks == {"reload": True, "drop": True}
        assert moves["anna"] > 3 and moves["bea"] > 3

        # the result, as the engine's replay of the stored record gives it
        record = anna.context.request.get(f"{server}/api/tables/{table}/record")
        assert record.ok
        replayed = GameRecord.from_json(record.text()).replay()
        assert replayed.outcome is not None
        finals = {r.seat: r.final for r in replayed.outcome.seats}
        places = {r.seat: r.place for r in replayed.outcome.seats}
        for person in (anna, bea, watcher):
            page = person.page
            page.wait_for_selector("#result:not([hidden])")
            rows = page.locator("#result-rows tr")
            shown = {int(r.get_attribute("data-seat") or -1): int(r.get_attribute("data-final")
                     or 0) for r in rows.all()}
            assert shown == finals
            first = rows.first.locator("td").first.inner_text()
            assert int(first) == min(places.values())
        link = anna.page.locator("#record-link a[download]")
        anna.page.wait_for_selector("#record-link:not([hidden])")
        assert link.get_attribute("href") == f"/api/tables/{table}/record"

        # the spectator: no hand on her page, none in any frame she received
        _spectator_sees_no_hand(watcher, [])
        assert _check_spectator_frames(watch_frames, table) > 10
        for p in (anna, bea, watcher):
            assert not [e for e in p.errors if "favicon" not in e], p.errors

        # the finished game is listed, with her final on her profile
        anna.goto("/games")
        assert anna.page.locator(f"a[href='/tables/{table}']").count() == 1
        bea.goto("/games")
        bea.page.locator("a", has_text="Anna").first.click()
        assert re.search(r"/players/\d+$", bea.page.url)
        row = bea.page.locator("tr", has=bea.page.locator(f"a[href='/tables/{table}']"))
        assert row.locator("td").nth(3).inner_text() == str(finals[0])
    finally:
        for p in (anna, bea, watcher):
            p.close()


def test_keyboard_alone_plays(browser: Browser, server: str) -> None:
    """Tab to a tile, Enter, Enter on a target; draw and pass by keyboard too."""
    solo = Person(browser, server, seed=4)
    try:
        solo.goto("/")
        solo.page.locator("form.quick button").focus()
        solo.page.keyboard.press("Enter")  # play now: a guest with three bots
        solo.page.wait_for_function("() => window.fidoTable && window.fidoTable.view")
        made = 0
        while made < 6 and not solo.state()["over"]:
            solo.page.wait_for_function(
                "() => { const s = window.fidoTable; return s.view && !s.pending && "
                "(s.view.outcome || s.view.turn === s.seat); }", timeout=15_000)
            if solo.state()["over"]:
                break
            before = solo.state()["log"]
            focused = solo.page.evaluate(
                "() => document.activeElement && (document.activeElement.dataset.tile "
                "|| document.activeElement.id)")
            assert focused, "the keyboard focus is not in the hand on her turn"
            solo.page.keyboard.press("Enter")
            if solo.page.locator("#targets button").count():
                label = solo.page.evaluate(
                    "() => document.activeElement.getAttribute('aria-label')")
                assert label and label.startswith("Play "), label
                solo.page.keyboard.press("Enter")
            solo.page.wait_for_function(f"() => window.fidoTable.log.length > {before}")
            made += 1
        assert made >= 1
        announce = solo.page.locator("#announce").inner_text()
        assert re.search(r"Sum \d+, divisor 5", announce), announce
    finally:
        solo.close()


def test_table_page_labels_for_screen_readers(browser: Browser, server: str) -> None:
    solo = Person(browser, server, seed=5)
    try:
        solo.sign_up("Cleo")
        solo.create_table("fido", 6, ("me", "bot:greedy", "bot:greedy"))
        page = solo.page
        page.wait_for_function("() => window.fidoTable.view")
        play_until([solo], lambda: bool(page.locator("#hand .tile.playable").count())
                   or solo.state()["over"], timeout=60)
        if solo.state()["over"]:
            pytest.skip("the game ended before she could place a tile")
        tile = page.locator("#hand .tile.playable").first
        assert re.match(r"\d+-\d+.*class \d+, playable", tile.get_attribute("aria-label") or "")
        tile.click()
        target = page.locator("#board .target").first
        assert re.match(r"Play \d+-\d+ (on \d+[nesw]|to open the table): scores",
                        target.get_attribute("aria-label") or "")
        assert target.get_attribute("role") == "button"
        assert page.locator("#announce").get_attribute("aria-live") == "polite"
        assert page.locator("#seats .seat").first.get_attribute("aria-label")
    finally:
        solo.close()


def test_the_partner_tag_follows_the_servers_teams(browser: Browser, server: str) -> None:
    """A team game of four shows "partner" on the seat across (the teams come with the
    view: the page knows no list of team games); FIDO, everyone for herself, shows none."""
    solo = Person(browser, server, seed=6)
    try:
        solo.sign_up("Tess")
        for game, partner in (("fives_and_threes", [2]), ("fido", [])):
            solo.create_table(game, 6, ("me", "bot:greedy", "bot:greedy", "bot:greedy"))
            page = solo.page
            page.wait_for_function("() => window.fidoTable.view")
            cards = page.locator("#seats .seat")
            tagged = [i for i in range(cards.count())
                      if cards.nth(i).locator(".tag", has_text="partner").count()]
            assert tagged == partner, game
    finally:
        solo.close()


def _repo() -> Path:
    return Path(__file__).resolve().parents[2]


def test_no_build_step_and_no_cdn() -> None:
    """Plain ES modules and a vendored, pinned htmx: every script comes from this site."""
    web = _repo() / "src" / "fido" / "web"
    for page in (web / "templates").glob("*.html"):
        text = page.read_text()
        assert not re.search(r"(src|href)=\"(https?:)?//", text), page
    assert (web / "static" / "htmx-2.0.11.min.js").exists()


def test_the_clock_counts_down_on_the_seat_to_move(browser: Browser, server: str) -> None:
    solo = Person(browser, server, seed=6)
    try:
        solo.sign_up("Ida")
        solo.goto("/")
        form = solo.page.locator("#create-form")
        form.locator("select[name=set]").select_option("6")
        form.locator("select[name=players]").select_option("3")
        form.locator("select[name=seat1]").select_option("bot:greedy")
        form.locator("select[name=seat2]").select_option("bot:greedy")
        form.locator("select[name=clock]").select_option("60")
        form.locator("button[type=submit]").click()
        page = solo.page
        page.wait_for_function("() => window.fidoTable && window.fidoTable.view")
        play_until([solo], lambda: solo.my_turn() or solo.state()["over"], timeout=30)
        if solo.state()["over"]:
            pytest.skip("the game ended before her turn")
        clock = page.locator(".seat.mine .clock")
        clock.wait_for()
        page.wait_for_function("() => /^[01]:[0-5][0-9]$/.test("
                               "document.querySelector('.seat.mine .clock').textContent)")
        minutes, seconds = clock.inner_text().split(":")
        assert 45 <= int(minutes) * 60 + int(seconds) <= 60
        assert "60 s a move" in page.locator(".seats-box .title").inner_text()
    finally:
        solo.close()


def test_a_table_of_champions_is_chosen_in_the_lobby_and_plays(
        browser: Browser, server: str) -> None:
    """The new top level (issue 27) is offered by the lobby's form, named at the table, and
    moves: a whole double-6 game of a person and two champions on the server's defaults."""
    solo = Person(browser, server, seed=7)
    try:
        solo.sign_up("Lea")
        solo.create_table(size=6, seats=("me", "bot:champion", "bot:champion"))
        page = solo.page
        page.wait_for_function("() => window.fidoTable && window.fidoTable.view")
        labels = page.locator("#seats .seat").evaluate_all(
            "els => els.map(e => e.getAttribute('aria-label'))")
        assert sum("Champion " in (label or "") for label in labels) == 2, labels
        play_until([solo], lambda: solo.state()["over"], timeout=180)
        movers = set(page.evaluate(
            "() => window.fidoTable.log.filter(e => e.move).map(e => e.seat)"))
        assert {1, 2} <= movers, movers
        assert not [e for e in solo.errors if "favicon" not in e], solo.errors
    finally:
        solo.close()


def test_the_lobby_lists_new_tables_by_itself(browser: Browser, server: str) -> None:
    """htmx refreshes the lists every few seconds: no reload needed to see a new table."""
    looker = Person(browser, server, seed=12)
    host = Person(browser, server, seed=13)
    try:
        looker.goto("/")
        host.sign_up("Jo")
        table = host.create_table("fido", 12, ("me", "open", "open"))
        looker.page.wait_for_selector(f"#table-lists a[href='/tables/{table}']", timeout=12_000)
        assert not [e for e in looker.errors if "favicon" not in e], looker.errors
    finally:
        looker.close()
        host.close()


# ------------------------------------------------------------ a move resent after a drop

# In every page of her context. The test arms what happens to the next move frame:
# "after": it goes out and the socket closes at once, so its ack is never read (a
# closing socket reads no message); "before": the socket closes and the frame never
# goes out. While `fidoOffline` is set, a new socket goes to an address of this site
# that refuses it (the page's CSP allows it), as when the network is down.
_DROP = """(() => {
  const send = WebSocket.prototype.send;
  window.fidoDrop = null;
  window.fidoOffline = false;
  WebSocket.prototype.send = function (data) {
    const mode = window.fidoDrop;
    if (mode && typeof data === "string" && JSON.parse(data).type === "move") {
      window.fidoDrop = null;
      if (mode === "after") send.call(this, data);
      this.close();
      return;
    }
    send.call(this, data);
  };
  const Real = window.WebSocket;
  window.WebSocket = class extends Real {
    constructor(url, protocols) {
      super(window.fidoOffline ? url.replace(/\\/ws\\/tables\\/.*/, "/ws/nowhere") : url,
        protocols);
    }
  };
})();"""

_HER_TURN = """() => { const s = window.fidoTable;
    return Boolean(s && s.view && !s.pending && s.socket && s.socket.readyState === 1
                   && (s.view.outcome || s.view.turn === s.seat)); }"""


Traffic = tuple[list[tuple[int, str]], list[tuple[int, dict[str, Any]]]]


def _seated_at_her_turn(
        browser: Browser, server: str, name: str, seed: int) -> tuple[Person, str, Traffic]:
    """A person at a FIDO double-9 table with three bots, her page armed with _DROP, at
    her first turn; and her page's socket traffic from the start."""
    person = Person(browser, server, seed=seed)
    person.context.add_init_script(_DROP)
    traffic = _traffic(person)
    person.sign_up(name)
    table = person.create_table("fido", 9, ("me", "bot:expert", "bot:expert", "bot:expert"))
    person.page.wait_for_function(_HER_TURN, timeout=15_000)
    if person.state()["over"]:
        person.close()
        pytest.skip("the game ended before her turn")
    return person, table, traffic


def _traffic(person: Person) -> Traffic:
    """The frames her page sends (as sent) and receives, each with its socket's number."""
    sent: list[tuple[int, str]] = []
    received: list[tuple[int, dict[str, Any]]] = []
    numbers = itertools.count(1)

    def on_socket(ws: WebSocket) -> None:
        n = next(numbers)
        ws.on("framesent", lambda p: sent.append((n, p if isinstance(p, str) else p.decode())))
        ws.on("framereceived", lambda p: received.append(
            (n, json.loads(p if isinstance(p, str) else p.decode()))))

    person.page.on("websocket", on_socket)
    return sent, received


def _server_moves(person: Person, table: str) -> list[dict[str, Any]]:
    """The table's move events as the server holds them: a fresh socket's welcome from 0."""
    moves: list[dict[str, Any]] = person.page.evaluate("""(id) => new Promise((ok, fail) => {
        const ws = new WebSocket(`ws://${location.host}/ws/tables/${id}?seq=0`);
        ws.onmessage = (e) => {
          const m = JSON.parse(e.data);
          if (m.type !== "welcome") return;
          ws.close();
          ok(m.events.filter((x) => x.kind === "move"));
        };
        ws.onclose = () => fail(new Error("closed before its welcome"));
    })""", table)
    return moves


def _agrees_with_the_server(person: Person, table: str, server: str) -> list[dict[str, Any]]:
    """At her turn (nothing moves then): her page's move log is the server's, and its
    sequence number the table's (GET /api/tables/{id}). Returns the server's moves."""
    page = person.page
    page.wait_for_function(_HER_TURN, timeout=15_000)
    moves = _server_moves(person, table)
    log = page.evaluate("() => window.fidoTable.log.map((m) => [m.seat, m.move])")
    assert log == [[e["seat"], e["move"]] for e in moves]
    info = person.context.request.get(f"{server}/api/tables/{table}").json()
    page.wait_for_function(f"() => window.fidoTable.seq === {info['seq']}", timeout=5_000)
    assert page.locator("#turn-note").inner_text() != "Sending your move…"
    return moves


def _mine_after(moves: list[dict[str, Any]], seat: int, seq: int) -> list[str]:
    return [e["move"] for e in moves if e["seat"] == seat and e["seq"] > seq]


def _moves_sent(sent: list[tuple[int, str]]) -> list[tuple[int, str]]:
    return [(n, frame) for n, frame in sent if json.loads(frame)["type"] == "move"]


def _played_once_and_on(person: Person, table: str, server: str, *, seat: int, seq: int,
                        move: str) -> list[dict[str, Any]]:
    """Her move is on the table once (the page as the server has it), no alert stands,
    the next turn is played as usual and the page logged no error; the table's moves."""
    moves = _agrees_with_the_server(person, table, server)
    assert _mine_after(moves, seat, seq) == [move], "the move is not on the table once"
    assert person.page.locator("#alert").is_hidden()
    if not person.state()["over"]:  # the next turn is played as usual
        person.play_one(prefer="first")
        assert len(_mine_after(_agrees_with_the_server(person, table, server), seat, seq)) == 2
    assert not [e for e in person.errors if "favicon" not in e], person.errors
    return moves


def test_a_move_whose_ack_was_lost_is_sent_again_and_played_once(
        browser: Browser, server: str) -> None:
    """The move reaches the table, but the socket closes before its ack is read: the
    next socket sends the very same frame; the server answers with its first outcome
    (an ack marked duplicate) and the move is on the table once."""
    lena, table, (sent, received) = _seated_at_her_turn(browser, server, "Lena", 21)
    try:
        seat, seq = lena.state()["seat"], lena.state()["seq"]
        lena.page.evaluate("() => { window.fidoDrop = 'after'; }")
        move = lena.play_one(prefer="first")
        lena.page.wait_for_function("() => !window.fidoTable.pending", timeout=10_000)

        frames = _moves_sent(sent)
        assert len(frames) == 2, f"the move was not sent again after the drop: {frames}"
        (first, frame), (again, resent) = frames
        assert again > first and resent == frame, "not the very same message, on the next socket"
        msg_id = json.loads(frame)["id"]
        answers = [m for n, m in received if n == again and m.get("id") == msg_id]
        assert len(answers) == 1 and answers[0]["type"] == "ack", answers
        assert answers[0].get("duplicate") is True, answers

        moves = _played_once_and_on(lena, table, server, seat=seat, seq=seq, move=move)
        assert [e["seq"] for e in moves if e["seat"] == seat and e["seq"] > seq] == [
            answers[0]["seq"]]
    finally:
        lena.close()


def test_a_move_that_never_went_out_is_sent_on_the_next_socket(
        browser: Browser, server: str) -> None:
    """The socket closes before the move frame goes out: the next socket sends it, and
    it is played (once) without a second click."""
    nora, table, (sent, received) = _seated_at_her_turn(browser, server, "Nora", 22)
    try:
        seat, seq, log = (nora.state()[k] for k in ("seat", "seq", "log"))
        nora.page.evaluate("() => { window.fidoDrop = 'before'; }")
        move = nora.click_a_move(prefer="first")
        try:
            nora.page.wait_for_function(
                f"() => window.fidoTable.log.length > {log} "
                "&& !window.fidoTable.pending", timeout=10_000)
        except PlaywrightTimeout:
            pytest.fail(f"the move {move} sent on a closed socket was never played")
        frames = _moves_sent(sent)
        assert len(frames) == 1, frames  # only the second socket's frame went out
        msg_id = json.loads(frames[0][1])["id"]
        answers = [m for _n, m in received if m.get("id") == msg_id]
        assert [(a["type"], a.get("duplicate")) for a in answers] == [("ack", None)], answers

        _played_once_and_on(nora, table, server, seat=seat, seq=seq, move=move)
    finally:
        nora.close()


def test_a_resent_move_the_game_went_past_is_refused_with_a_clear_word(
        browser: Browser, server: str) -> None:
    """Her move never went out and her connection stays down while her other tab plays:
    when it is back, the resent move is refused (the table moved on), the page shows
    the game as it is with a message that says so, and she plays on."""
    mia, table, (sent, received) = _seated_at_her_turn(browser, server, "Mia", 23)
    other = mia.new_tab()
    try:
        other.goto(f"/tables/{table}")
        other.page.wait_for_function(_HER_TURN, timeout=15_000)
        seat, seq = mia.state()["seat"], mia.state()["seq"]
        mia.page.evaluate("() => { window.fidoOffline = true; window.fidoDrop = 'before'; }")
        mia.click_a_move(prefer="first")
        played = other.play_one(prefer="first")  # her other tab, still connected
        other.page.wait_for_function(_HER_TURN, timeout=15_000)
        mia.page.evaluate("() => { window.fidoOffline = false; }")
        try:
            mia.page.wait_for_function(
                "() => document.querySelector('#alert:not([hidden])')?.textContent"
                ".includes('was not played: the connection dropped')", timeout=10_000)
        except PlaywrightTimeout:
            pytest.fail("no word that her move was not played: "
                        f"{mia.page.locator('#alert').inner_text()!r}")
        frames = _moves_sent(sent)
        assert len(frames) == 1, frames
        msg_id = json.loads(frames[0][1])["id"]
        answers = [m for _n, m in received if m.get("id") == msg_id]
        assert [a["type"] for a in answers] == ["refused"], answers
        assert answers[0]["code"] in ("stale", "not_your_turn", "game_over"), answers

        moves = _agrees_with_the_server(mia, table, server)
        assert _mine_after(moves, seat, seq) == [played], "only her other tab's move is played"
        if not mia.state()["over"]:
            mia.play_one(prefer="first")
            assert len(_mine_after(_agrees_with_the_server(mia, table, server), seat, seq)) == 2
        refused = [e for e in mia.errors if "favicon" not in e and "/ws/nowhere" not in e]
        assert not refused, refused
    finally:
        mia.close()
