"""The monthly close publishes every ended month once, by itself or by ``fido ranking close``.

* Two ``fido serve`` processes on one PostgreSQL, started together with a
  short interval and a clock (``FIDO_NOW``) just after November 2026 ends:
  exactly one snapshot of 2026-11; one log says it published it, the other
  that it was already published.
* One process on SQLite: nothing before the month's end, the month once after.
* :func:`close_due` in process (SQLite and PostgreSQL): months caught up in
  order, a refused month stops the months after it, a snapshot that another
  process stores meanwhile is "already published", never an exception; the
  server's task survives an error.
* ``fido ranking close``: publishes, then says there is nothing to do (exit 0).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import html
import logging
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, event, func, select
from typer.testing import CliRunner

from fido.accounts.roles import grant
from fido.accounts.signup import sign_up
from fido.cli import app
from fido.ranking import register_player, submit
from fido.ranking.snapshot import publish, verify
from fido.server import monthly
from fido.server.monthly import MonthlyClose, MonthlySettings, close_due, next_due
from fido.store import Account, Notification, SnapshotRow, Store, open_store
from support.postgres import POSTGRES, empty_postgres
from support.server_live import browser, live_server
from support.server_procs import ServerProcess, servers, wait_until

UTC = dt.UTC
AFTER_NOVEMBER = "2026-12-01T00:00:30+00:00"
BEFORE_THE_END = "2026-11-30T23:59:30+00:00"
INTERVAL = "0.3"  # seconds between the job's looks


def league(store: Store, months: tuple[str, ...] = ("2026-11",)) -> None:
    """Four players and a few games received in each of ``months`` (of 2026)."""
    with store.session() as s:
        for name in ("Anna", "Bert", "Cora", "Dana"):
            register_player(s, name)
    for month in months:
        m = int(month[5:])
        with store.session() as s:
            for day, a in ((3, 31), (9, 20), (15, 44)):
                sheet = {"date": f"2026-{m:02d}-{day:02d}", "event": "Club", "set": 9,
                         "lines": [{"player": 1, "points": a, "pips": 3},
                                   {"player": 2, "points": 25, "pips": 0},
                                   {"player": 3, "points": 12, "pips": 9},
                                   {"player": 4, "points": 30, "pips": 1}]}
                submit(s, sheet, now=dt.datetime(2026, m, 20, tzinfo=UTC))


def snapshots(url: str) -> dict[str, int]:
    """Month -> number of snapshot rows, read directly from the database."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(select(SnapshotRow.month, func.count())
                                .group_by(SnapshotRow.month)).all()
    finally:
        engine.dispose()
    return {m: int(n) for m, n in rows}


def close_lines(proc: ServerProcess) -> list[str]:
    return [ln for ln in proc.output().splitlines() if "monthly close" in ln]


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Set the server processes' (and this process's) ranking clock and the job's interval."""
    monkeypatch.setenv("FIDO_CLOSE_EVERY", INTERVAL)

    def set_now(when: str) -> None:
        monkeypatch.setenv("FIDO_NOW", when)

    return set_now


# ---------------------------------------------------------------- real server processes


@pytest.mark.skipif(not POSTGRES, reason="two servers share one PostgreSQL: "
                    "FIDO_TEST_POSTGRES_URL is not set (tests/with_postgres.py sets it)")
def test_two_servers_publish_a_month_exactly_once(
        tmp_path: Path, clock: Callable[[str], None]) -> None:
    assert POSTGRES
    empty_postgres(POSTGRES)
    store = open_store(POSTGRES)
    league(store)
    store.close()
    clock(AFTER_NOVEMBER)
    a = ServerProcess(POSTGRES, tmp_path / "a.log", bot_processes=0)
    b = ServerProcess(POSTGRES, tmp_path / "b.log", bot_processes=0)
    with servers(a, b):
        # started together: both look for an ended month at once
        starts = [threading.Thread(target=p.start) for p in (a, b)]
        for t in starts:
            t.start()
        for t in starts:
            t.join()
        wait_until(lambda: all(any("2026-11" in ln for ln in close_lines(p)) for p in (a, b)),
                   30, lambda: f"A: {close_lines(a)}\nB: {close_lines(b)}")
        time.sleep(10 * float(INTERVAL))  # more looks: nothing more happens
        assert snapshots(POSTGRES) == {"2026-11": 1}
        said = {name: close_lines(p) for name, p in (("A", a), ("B", b))}
        published = [n for n, lines in said.items()
                     if any("published 2026-11:" in ln for ln in lines)]
        assert len(published) == 1, said
        other = "B" if published == ["A"] else "A"
        assert any("2026-11" in ln and "already published" in ln for ln in said[other]), said
        assert not any("already published" in ln for ln in said[published[0]]), said
        assert not any("Traceback" in p.output() or "ERROR" in p.output() for p in (a, b))
        for p in (a, b):
            assert p.proc is not None and p.proc.poll() is None, "a server died"
    check = open_store(POSTGRES)
    with check.session(write=False) as s:
        assert verify(s, "2026-11").month == "2026-11"
    check.close()


def test_one_server_on_sqlite_publishes_when_the_month_has_ended(
        tmp_path: Path, clock: Callable[[str], None]) -> None:
    url = f"sqlite:///{tmp_path / 'fido.db'}"
    store = open_store(url)
    league(store)
    store.close()
    clock(BEFORE_THE_END)  # November has not ended: nothing to publish
    first = ServerProcess(url, tmp_path / "first.log", bot_processes=0)
    with servers(first):
        first.start()
        time.sleep(8 * float(INTERVAL))
        assert snapshots(url) == {}
        # uvicorn ends by the signal it got (-15), after a clean shutdown
        assert first.stop()[0] in (0, -15)
    clock(AFTER_NOVEMBER)
    second = ServerProcess(url, tmp_path / "second.log", bot_processes=0)
    with servers(second):
        second.start()
        wait_until(lambda: snapshots(url) == {"2026-11": 1}, 30,
                   lambda: "\n".join(close_lines(second)))
        time.sleep(8 * float(INTERVAL))
        assert snapshots(url) == {"2026-11": 1}
        lines = close_lines(second)
        assert sum("published 2026-11:" in ln for ln in lines) == 1, lines
        # and the web page shows it
        import httpx  # noqa: PLC0415

        page = httpx.get(second.base + "/ranking", timeout=20)
        assert page.status_code == 200 and "2026-11" in page.text
        assert second.stop()[0] in (0, -15)


# ---------------------------------------------------------------- in process


def test_months_are_caught_up_in_order(store: Store) -> None:
    league(store, ("2026-09", "2026-11"))
    now = dt.datetime(2026, 12, 1, 0, 1, tzinfo=UTC)
    with store.session(write=False) as s:
        assert next_due(s, dt.datetime(2026, 9, 30, 23, 59, tzinfo=UTC)) is None
        assert next_due(s, now) == "2026-09"
        # a delay: the month waits that long after its end
        assert next_due(s, now, dt.timedelta(hours=1)) == "2026-09"  # October ended long ago
    done = close_due(store, now=now)
    assert [(c.month, c.outcome) for c in done] == [
        ("2026-09", "published"), ("2026-10", "published"), ("2026-11", "published")]
    with store.session(write=False) as s:
        for month in ("2026-09", "2026-10", "2026-11"):
            verify(s, month)
        assert next_due(s, now) is None
    assert close_due(store, now=now) == []  # idempotent
    # December ends; with a delay of a day it is not due until the day has passed
    jan = dt.datetime(2027, 1, 1, 12, tzinfo=UTC)
    assert close_due(store, now=jan, delay=dt.timedelta(days=1)) == []
    assert [c.month for c in close_due(store, now=jan, delay=dt.timedelta(hours=6))] == [
        "2026-12"]


def test_nothing_received_nothing_published(store: Store) -> None:
    assert close_due(store, now=dt.datetime(2026, 12, 1, tzinfo=UTC)) == []


def test_a_refused_month_stops_the_months_after_it(store: Store) -> None:
    # October's games all arrived in November, and nothing else in October: publishing
    # October as it is would be the mistake publish refuses (docs/ranking.md)
    league(store, ("2026-09",))
    with store.session() as s:
        sheet = {"date": "2026-10-05", "event": "Late", "set": 9,
                 "lines": [{"player": 1, "points": 20, "pips": 0},
                           {"player": 2, "points": 10, "pips": 2}]}
        submit(s, sheet, now=dt.datetime(2026, 11, 3, tzinfo=UTC))
    done = close_due(store, now=dt.datetime(2026, 12, 2, tzinfo=UTC))
    assert [(c.month, c.outcome) for c in done] == [("2026-09", "published"),
                                                    ("2026-10", "refused")]
    assert "no result was received in 2026-10" in done[1].message
    with store.session(write=False) as s:
        months = set(s.scalars(select(SnapshotRow.month)))
    assert months == {"2026-09"}  # not November either: it must wait for October


@pytest.mark.parametrize("when", ["before its check", "between its check and its insert"])
def test_a_snapshot_stored_meanwhile_is_already_published(
        store: Store, monkeypatch: pytest.MonkeyPatch, when: str) -> None:
    """Another process that does not take the lock (an older fido, ``fido ranking
    compute``) publishes the month while this one is at it: the unique month refuses
    the second snapshot, and the close reports "already published" instead of failing.
    """
    if store.engine.dialect.name == "sqlite":
        pytest.skip("SQLite's writers take turns (BEGIN IMMEDIATE): none writes in between")
    league(store)
    now = dt.datetime(2026, 12, 1, 0, 1, tzinfo=UTC)
    real = monthly.publish_month
    other = open_store(store.engine.url.render_as_string(hide_password=False))

    def publish_elsewhere(month: str) -> None:
        with other.session() as o:  # committed at once
            publish(o, month, now=now)

    def racing(s: Any, month: str, **kw: Any) -> Any:
        if when == "before its check":
            publish_elsewhere(month)
        else:  # at the flush that inserts our snapshot: the unique month's turn
            event.listen(s, "before_flush", lambda *_: publish_elsewhere(month), once=True)
        return real(s, month, **kw)

    monkeypatch.setattr(monthly, "publish_month", racing)
    try:
        done = close_due(store, now=now)
    finally:
        other.close()
    assert [(c.month, c.outcome) for c in done] == [("2026-11", "already")], done
    with store.session(write=False) as s:
        assert s.scalar(select(func.count()).select_from(SnapshotRow)) == 1
        verify(s, "2026-11")


def test_the_task_survives_an_error_and_publishes_later(
        store: Store, caplog: pytest.LogCaptureFixture) -> None:
    league(store)
    times: Iterator[Exception | dt.datetime] = iter(
        [RuntimeError("the clock broke"), dt.datetime(2026, 12, 1, 0, 1, tzinfo=UTC)])

    def clock() -> dt.datetime:
        t = next(times, dt.datetime(2026, 12, 1, 0, 2, tzinfo=UTC))
        if isinstance(t, Exception):
            raise t
        return t

    async def run() -> None:
        job = MonthlyClose(store, MonthlySettings(every=0.05), clock)
        await job.start()
        for _ in range(200):
            await asyncio.sleep(0.02)
            if any("published 2026-11" in r.getMessage() for r in caplog.records):
                break
        await asyncio.sleep(0.2)  # a few more looks
        await job.stop()

    with caplog.at_level(logging.INFO, logger="fido.server.monthly"):
        asyncio.run(run())
    messages = [r.getMessage() for r in caplog.records]
    assert any("RuntimeError: the clock broke" in m for m in messages), messages
    assert sum("published 2026-11" in m for m in messages) == 1, messages
    with store.session(write=False) as s:
        assert s.scalar(select(func.count()).select_from(SnapshotRow)) == 1


def test_the_task_can_be_off(store: Store) -> None:
    league(store)

    async def run() -> None:
        job = MonthlyClose(store, MonthlySettings(every=0),
                           lambda: dt.datetime(2027, 1, 1, tzinfo=UTC))
        await job.start()
        await asyncio.sleep(0.1)
        await job.stop()

    asyncio.run(run())
    with store.session(write=False) as s:
        assert s.scalar(select(func.count()).select_from(SnapshotRow)) == 0


# ---------------------------------------------------------------- the command


runner = CliRunner()


def fido(db: str, *args: str, now: str) -> tuple[int, str]:
    out = runner.invoke(app, [*args, "--db", db], env={"COLUMNS": "200", "FIDO_NOW": now})
    return out.exit_code, out.output


def test_fido_ranking_close_is_idempotent(store_url: str) -> None:
    store = open_store(store_url)
    league(store, ("2026-10", "2026-11"))
    store.close()
    code, out = fido(store_url, "ranking", "close", now=BEFORE_THE_END)
    assert code == 0 and "published 2026-10:" in out and "2026-11" not in out, out
    code, out = fido(store_url, "ranking", "close", now=AFTER_NOVEMBER)
    assert code == 0 and "published 2026-11:" in out and "2026-10" not in out, out
    code, out = fido(store_url, "ranking", "close", now=AFTER_NOVEMBER)
    assert code == 0 and "Nothing to close" in out and "2026-11" in out, out
    assert snapshots(store_url) == {"2026-10": 1, "2026-11": 1}
    code, out = fido(store_url, "ranking", "close", now="next tuesday")
    assert code == 1 and "FIDO_NOW" in out


def test_fido_ranking_close_on_an_empty_database(store_url: str) -> None:
    code, out = fido(store_url, "ranking", "close", now=AFTER_NOVEMBER)
    assert code == 0 and "Nothing to close: no results yet" in out, out


def test_fido_ranking_close_says_which_month_it_waits_for(store_url: str) -> None:
    """Nothing to close is told in an organiser's words: what is published, which month
    comes next and the day it ends (issue 25), not a bare "every ended month"."""
    store = open_store(store_url)
    league(store, ("2026-10", "2026-11"))
    store.close()
    code, out = fido(store_url, "ranking", "close", now=BEFORE_THE_END)
    assert code == 0 and "published 2026-10:" in out, out
    code, out = fido(store_url, "ranking", "close", now=BEFORE_THE_END)
    assert code == 0, out
    assert " ".join(out.split()) == (
        "Nothing to close: the last month to end, 2026-10, is published already; the next, "
        "2026-11, ends on 30 November 2026."), out
    code, out = fido(store_url, "ranking", "close", "--delay", "6", now=BEFORE_THE_END)
    assert "2026-11, ends on 30 November 2026 and is published 6 hours after " \
           "(1 December 2026, 06:00 UTC)" in " ".join(out.split()), out


def test_fido_ranking_close_before_the_first_month_ends(store_url: str) -> None:
    store = open_store(store_url)
    league(store, ("2026-11",))
    store.close()
    code, out = fido(store_url, "ranking", "close", now=BEFORE_THE_END)
    assert code == 0 and " ".join(out.split()) == (
        "Nothing to close: the first results are from 2026-11, which ends on 30 November "
        "2026; its ranking is published then."), out


def test_the_federation_is_told_of_a_month_published(store_url: str) -> None:
    """The close leaves a notification in each federation account's inbox (and, if she
    asked, a news mail): the month is out, she checks it."""
    store = open_store(store_url)
    try:
        with store.session() as s:
            fed = sign_up(s, "Fenja", "a long enough password", None)
            sign_up(s, "Paul", "a long enough password", None)  # no role: not told
            grant(s, fed, "federation")
        league(store)
        (closed,) = close_due(store, now=dt.datetime(2026, 12, 1, 0, 1, tzinfo=UTC))
        assert closed.outcome == "published"
        with store.session(write=False) as s:
            told = [(a.name, n.kind, n.month) for n, a in s.execute(
                select(Notification, Account).join(Account))]
        assert told == [("Fenja", "published", "2026-11")]
    finally:
        store.close()
    with live_server(store_url) as base:
        web = browser(base)
        assert web.post("/api/session", json={
            "name": "Fenja", "password": "a long enough password"}).status_code == 200
        page = html.unescape(web.get("/inbox").text)
        assert 'href="/ranking/2026-11"' in page and "Ranking 2026-11" in page
        assert "the month's ranking is published: check it" in page, page[page.find("inbox"):]
