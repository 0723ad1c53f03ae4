"""A slow phone keeps up: the table page on a phone's screen, a slow 3G network and a
CPU four times slower (Chrome's own throttling, through the DevTools protocol) plays a
whole FIDO double-9 game against three bots moving every 0.2 s, and never falls more
than a few events behind the table.

The bots move every 0.2 s, not the server's default 1 s: five times the pace a person
sees at a real table, so a page that keeps up here keeps up there with room to spare,
and the game (about 80 events) ends in well under a minute; at 0 s the bots' moves
would come in bursts, and the test would measure the bursts, not the pace.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from playwright.sync_api import Browser, WebSocket
from websockets.sync.client import connect

from fido.record import GameRecord
from support.server_live import FAST, live_server
from support.web_browser import Person

PACE = replace(FAST, bot_delay=0.2)  # seconds a bot waits before moving (the module's docstring)
SLOW_3G = {"offline": False, "latency": 150,  # ms each way, bytes a second (Chrome's own numbers)
           "downloadThroughput": 50 * 1024, "uploadThroughput": 25 * 1024}
CPU_SLOWER = 4  # Chrome's CPU throttling: a mid-range phone beside a desktop
BEHIND = 3  # events the page may be behind the table at any moment (the test's docstring)

# In the page from its start: its sequence number every 50 ms (Date.now(), seq), and
# every tile group ever added to the board (a board drawn anew adds them all again).
_RECORDER = """(() => {
  window.fidoSamples = [];
  window.fidoTilesAdded = 0;
  setInterval(() => {
    if (window.fidoTable && window.fidoTable.view) {
      window.fidoSamples.push([Date.now(), window.fidoTable.seq]);
    }
  }, 50);
  document.addEventListener("DOMContentLoaded", () => {
    const board = document.getElementById("board");
    if (!board) return;
    const seen = new WeakSet(); // a node counts once, however many records name it
    new MutationObserver((changes) => {
      for (const c of changes) {
        for (const n of c.addedNodes) {
          if (n.nodeType !== 1) continue;
          const tiles = [...(n.matches(".placed") ? [n] : []), ...n.querySelectorAll(".placed")];
          for (const g of tiles) {
            if (seen.has(g)) continue;
            seen.add(g);
            window.fidoTilesAdded += 1;
          }
        }
      }
    }).observe(board, { childList: true, subtree: true });
  });
})();"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("slow") / "slow.db"
    with live_server(f"sqlite:///{db}", play=PACE) as base:
        yield base


class Watcher:
    """A plain WebSocket client beside the page, unthrottled: a spectator that notes when
    the table reached each sequence number (time.time(), seq), until the game ends."""

    def __init__(self, base: str, table: str) -> None:
        self.url = f"{base.replace('http', 'ws')}/ws/tables/{table}?v=2"
        self.reached: list[tuple[float, int]] = []
        self.over = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        with connect(self.url) as ws:
            while not self.over.is_set():
                msg = json.loads(ws.recv(timeout=60))
                if msg["type"] not in ("welcome", "update"):
                    continue
                self.reached.append((time.time(), msg["seq"]))
                events = msg.get("events") or []
                if any(e["kind"] == "end" for e in events):
                    self.over.set()

    def seq_at(self, t: float) -> int | None:
        """The table's sequence number at time ``t`` (None: before the watcher's welcome)."""
        seq = None
        for at, s in self.reached:
            if at > t:
                break
            seq = s
        return seq


def _throttle(person: Person) -> None:
    """Slow 3G and a four times slower CPU for her page, as Chrome's DevTools sets them."""
    cdp = person.context.new_cdp_session(person.page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW_3G)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWER})


def _sockets(person: Person) -> tuple[list[str], list[str]]:
    """The page's sockets (their URLs) and every frame it sends."""
    urls: list[str] = []
    sent: list[str] = []

    def on_socket(ws: WebSocket) -> None:
        urls.append(ws.url)
        ws.on("framesent", lambda p: sent.append(p if isinstance(p, str) else p.decode()))

    person.page.on("websocket", on_socket)
    return urls, sent


def test_a_slow_phone_keeps_up_with_fast_bots(browser: Browser, server: str) -> None:
    """The page plays the whole game by touch-sized clicks and is never more than BEHIND
    (3) events behind the table: each update is a few hundred bytes (about 15 ms at
    50 KB/s) after 150 ms of latency, and bots move every 200 ms, so a page that applies
    each update as it comes is 1 behind, 2 when her move's update and a bot's follow
    each other. A page that does more a move falls further behind with every bot move:
    one that redraws the whole board on a four times slower CPU, or that asks for a
    whole welcome (a `sync`) instead of applying the delta, which costs two trips of
    150 ms and the whole view at 50 KB/s. So the test also asks that the page opened one
    socket and sent no `sync`, and that the board added each laid tile once (a board
    drawn anew adds every tile again at every move). At the end her page holds the
    server's record: the same moves, the same finals, the table's last sequence number.
    """
    phone = Person(browser, server, width=390, height=844, seed=31, is_mobile=True,
                   has_touch=True, device_scale_factor=2)
    phone.context.add_init_script(_RECORDER)
    urls, sent = _sockets(phone)
    page = phone.page
    try:
        _throttle(phone)
        started = time.monotonic()
        phone.goto("/")
        page.locator("form.quick button").click()  # play now: a guest, three bots, double-9
        page.wait_for_url(f"{server}/tables/*")
        table = page.url.rsplit("/", 1)[1]
        watcher = Watcher(server, table)
        page.wait_for_function("() => window.fidoTable && window.fidoTable.view",
                               timeout=20_000)
        mine = 0
        while not phone.state()["over"]:
            assert time.monotonic() - started < 90, "the game did not get on"
            page.wait_for_function(
                "() => { const s = window.fidoTable; return !s.pending && s.socket"
                " && s.socket.readyState === 1 && (s.view.outcome || s.view.turn === s.seat); }",
                timeout=20_000)
            if phone.my_turn():
                phone.play_one()
                mine += 1
        assert watcher.over.wait(10), "the watcher did not see the end"
        assert mine >= 5

        # at the end: the server's record, move by move, and its finals
        answer = page.request.get(f"{server}/api/tables/{table}/record")
        record = GameRecord.from_json(answer.text())
        seq = page.request.get(f"{server}/api/tables/{table}").json()["seq"]
        shown: dict[str, Any] = page.evaluate("""() => { const s = window.fidoTable;
            return { seq: s.seq, log: s.log.map((m) => [m.seat, m.move]),
                     finals: s.view.outcome.seats.map((r) => [r.seat, r.final]),
                     samples: window.fidoSamples, added: window.fidoTilesAdded,
                     tiles: s.view.layout.tiles.length }; }""")
        assert shown["seq"] == seq == watcher.reached[-1][1]
        assert shown["log"] == [[m.seat, m.move] for m in record.moves]
        game = record.replay()
        outcome = game.outcome
        assert outcome is not None
        assert sorted(shown["finals"]) == sorted([r.seat, r.final] for r in outcome.seats)

        # during the game: never more than BEHIND events behind the table
        lags = []
        for at, page_seq in shown["samples"]:
            table_seq = watcher.seq_at(at / 1000)
            if table_seq is not None and page_seq < seq:
                lags.append(table_seq - page_seq)
        assert len(lags) > 100, "too few samples during the game"
        assert max(lags) <= BEHIND, f"the page fell {max(lags)} events behind: {sorted(lags)[-20:]}"

        # and the way it keeps up: one socket, no sync, each tile added to the board once
        assert len(urls) == 1, urls
        assert not [f for f in sent if json.loads(f)["type"] == "sync"]
        assert shown["added"] == shown["tiles"] == len(game.table.placements)
        assert not [e for e in phone.errors if "favicon" not in e], phone.errors
        print(f"\nslow phone: {len(record.moves)} moves, {mine} hers, "
              f"{time.monotonic() - started:.1f} s, lag (events) max {max(lags)}, "
              f"{sum(1 for x in lags if x >= 2)} of {len(lags)} samples at 2 or more")
    finally:
        phone.close()
