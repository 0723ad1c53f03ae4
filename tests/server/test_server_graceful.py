"""Clean restarts: a ``fido serve`` process told to stop (SIGTERM, as systemd stops it)
stops taking sockets, lets the moves being written be written, closes every table socket
with 1012 ("Service Restart", docs/protocol.md) and exits with 0 within seconds; with two
processes on PostgreSQL its people reconnect to the other one and play on, no move lost
and none twice; and the web page, behind nginx, does so by itself and shows no error.

* A: a socket at a table on A reads 1012 (with its reason, in the socket's language),
  not an abnormal close (1006); A exits 0 within a few seconds, no traceback.
* B: two people at a table with two bots play through A at full speed (moves on their
  way when the signal comes); SIGTERM A mid-game; each, told 1012, reconnects to B with
  her last sequence number, resends a move that got no answer (same id), and the game
  ends there: every acknowledged move is in the log once, the log replays.
* C: chromium through docs/deploy.md's nginx in front of A and B: her page's socket is
  on A; SIGTERM A; the page reconnects through nginx to B by itself, and at no time says
  "reconnecting" nor shows an alert; she plays the game to its end.

PostgreSQL only (two processes meet through it): skipped, with the reason, without
``FIDO_TEST_POSTGRES_URL`` (``tests/with_postgres.py`` sets it); C also needs nginx and
openssl (`make test` installs them).
"""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from support.postgres import POSTGRES, empty_postgres
from support.server_live import cookie_header
from support.server_procs import (
    RESTART,
    Moving,
    ServerProcess,
    as_seen,
    check_log,
    check_record,
    guest,
    open_table,
    read_log,
    servers,
    wait_until,
)

pytestmark = pytest.mark.skipif(
    not POSTGRES, reason="two servers meet through PostgreSQL (LISTEN/NOTIFY): "
    "FIDO_TEST_POSTGRES_URL is not set (tests/with_postgres.py sets it)",
)

EXIT_SECONDS = 8.0  # SIGTERM to the process's end, at most (sockets drained, bots stopped)


def two_processes(tmp_path: Path, bot_delay: float) -> tuple[ServerProcess, ServerProcess]:
    assert POSTGRES
    empty_postgres(POSTGRES)
    a, b = (ServerProcess(POSTGRES, tmp_path / f"{name}.log", bot_delay=bot_delay,
                          bot_processes=1) for name in "ab")
    return a, b


def stop_timed(server: ServerProcess) -> tuple[int, float]:
    """SIGTERM: its exit code and the seconds it took to exit; no worker outlives it."""
    started = time.monotonic()
    code, orphans = server.stop(timeout=30)
    took = time.monotonic() - started
    assert not orphans, f"its bot workers outlived it: {orphans}"
    return code, took


def test_sigterm_closes_sockets_with_1012_and_exits_0(tmp_path: Path) -> None:
    a, _b = two_processes(tmp_path, bot_delay=0.5)
    with servers(a):
        a.start()
        anna, bert = guest(a.base), guest(a.base)
        table = open_table(anna, [], "fido set=6", ["me", "random", "random"])
        cookie = cookie_header(anna)
        url = f"ws://127.0.0.1:{a.port}/ws/tables/{table}?v=2&seq=0"
        bert_cookie = cookie_header(bert)
        with connect(url, additional_headers={"Cookie": cookie}, open_timeout=10) as player, \
                connect(f"{url}&lang=de", additional_headers={"Cookie": bert_cookie},
                        open_timeout=10) as watcher:
            for ws in (player, watcher):
                assert '"welcome"' in str(ws.recv(timeout=10))
            code, took = stop_timed(a)
            assert code == 0, (code, a.output()[-3000:])  # a stop, not a death by the signal
            assert took < EXIT_SECONDS, took

            def close_of(ws: ClientConnection) -> tuple[int | None, str | None]:
                with pytest.raises(ConnectionClosed):
                    while True:  # what was queued before the close, then the close
                        ws.recv(timeout=10)
                return ws.close_code, ws.close_reason

            assert close_of(player) == (RESTART, "the server restarts")
            assert close_of(watcher) == (RESTART, "Der Server startet neu")
        output = a.output()
        assert "Traceback" not in output, output[-3000:]
        assert "table sockets closed with 1012" in output, output[-3000:]
        # it is gone: nothing listens on its port any more
        with pytest.raises(httpx.TransportError):
            httpx.get(f"{a.base}/api/health", timeout=2)


def test_people_of_a_stopping_process_play_on_through_the_other(tmp_path: Path) -> None:
    assert POSTGRES
    a, b = two_processes(tmp_path, bot_delay=0.01)
    with servers(a, b):
        a.start()
        b.start()
        anna, bert = guest(a.base), guest(a.base)
        table = open_table(anna, [bert], "fido set=9", ["me", "open", "random", "random"],
                           grace=30)
        p = Moving("anna", anna, table, elsewhere=b.base, seed=5)
        q = Moving("bert", bert, table, elsewhere=b.base, seed=6)
        players = [p, q]
        for x in players:
            x.start()
        wait_until(lambda: p.move_events() >= 10, 60, "the game does not go on")
        assert not any(x.done.is_set() for x in players), "the game ended too soon"
        acked = {x.who: dict(x.acks) for x in players}
        code, took = stop_timed(a)  # mid-game, the people and bots at full speed
        assert code == 0, (code, a.output()[-3000:])
        assert took < EXIT_SECONDS, took
        wait_until(lambda: all(x.done.is_set() for x in players), 120,
                   lambda: f"the game did not end: {[x.move_events() for x in players]}, "
                   f"{[x.codes for x in players]}, {[x.errors for x in players]}")

        row, log = read_log(POSTGRES, table)
        check_log(log)  # every sequence number once, every message id once
        assert row.status == "finished" and row.record is not None
        for x in players:
            assert not x.errors, x.errors
            assert not x.refusals, x.refusals
            # told to go, not cut off: 1012 first, then her own close at the end (1000)
            assert x.codes[0] == RESTART, x.codes
            assert x.base == b.base and len(x.back_after) == 1, (x.codes, x.back_after)
            # B served her from her last sequence number, not the whole history
            assert all(w["events"] is not None for w in x.welcomes)
            for seq, event in x.seen.items():
                assert event == as_seen(log[seq - 1], x.seat), (x.who, seq)
            for msg_id, seq in x.acks.items():  # every acknowledged move is in the log
                assert (log[seq - 1].msg_id, log[seq - 1].seat) == (msg_id, x.seat)
            assert all(x.acks[m] == s for m, s in acked[x.who].items())
            assert x.pending is None
        record = httpx.get(f"{b.base}/api/tables/{table}/record", timeout=10)
        assert record.status_code == 200
        check_record(record.text, row, log)  # the log replays: no move lost nor twice
        for server in (a, b):
            assert "Traceback" not in server.output(), server.output()[-3000:]


# ---------------------------------------------------------------- C: the page, behind nginx

# every state the page's connection line takes and every alert it shows, from its load on
WATCH = """() => {
  window.seenStates = [];
  window.seenAlerts = [];
  const conn = document.getElementById("conn"), alert = document.getElementById("alert");
  new MutationObserver(() => window.seenStates.push(conn.dataset.state))
    .observe(conn, { attributes: true, childList: true, characterData: true, subtree: true });
  new MutationObserver(() => { if (!alert.hidden) window.seenAlerts.push(alert.textContent); })
    .observe(alert, { attributes: true, childList: true, characterData: true, subtree: true });
}"""


def test_the_page_carries_on_through_nginx_when_its_process_stops(
        browser: Browser, tmp_path: Path) -> None:
    from support import nginx as deploy  # noqa: PLC0415
    from support.web_browser import Person  # noqa: PLC0415

    if deploy.NGINX is None or deploy.OPENSSL is None:
        pytest.skip("nginx or openssl is not installed (`make test` installs them)")
    assert POSTGRES
    a, b = two_processes(tmp_path, bot_delay=deploy.BOT_DELAY)
    proxy = deploy.Nginx((a.port, b.port))
    try:
        with servers(a, b):
            a.start()
            proxy.start()
            anna = Person(browser, proxy.base, seed=4, ignore_https_errors=True)
            try:
                table = anna.create_table("fido", 6, ("me", "bot:greedy", "bot:greedy"))
                anna.page.wait_for_function("() => window.fidoTable && window.fidoTable.view"
                                            " && window.fidoTable.socket"
                                            " && window.fidoTable.socket.readyState === 1")
                deploy.play_some(anna, 4)
                b.start()  # her socket stays on A
                assert not anna.state()["over"], "the game ended before A stopped"
                anna.page.evaluate(WATCH)
                anna.page.evaluate("() => { window.socketOnA = window.fidoTable.socket; }")
                code, took = stop_timed(a)
                assert code == 0 and took < EXIT_SECONDS, (code, took)
                anna.page.wait_for_function(
                    "() => { const s = window.fidoTable.socket;"
                    " return s && s !== window.socketOnA && s.readyState === 1; }",
                    timeout=15_000)
                deploy.play_some(anna, 1000, timeout=240)  # to the end, through B
                assert anna.state()["over"]
                states = anna.page.evaluate("() => window.seenStates")
                alerts = anna.page.evaluate("() => window.seenAlerts")
                assert "connected" in states, states  # the line was watched, and came back
                assert set(states) <= {"connecting", "connected"}, states
                assert not alerts, alerts
                assert not anna.errors, anna.errors
            finally:
                anna.close()
            assert deploy.sockets_on(proxy, a.port) >= 1, proxy.access()
            failed = [line for line in proxy.access() if line[0] >= "500"]
            assert not failed, failed
            row, log = read_log(POSTGRES, table)
            check_log(log)
            assert row.status == "finished"
            for process in (a, b):
                assert "Traceback" not in process.output(), process.output()[-3000:]
    finally:
        proxy.stop()
