"""Turn-based tables (issue 42): a clock of hours or days a move, over days that pass in
seconds (a real ``fido serve`` with libfaketime, tests/support/faketime.py).

Nobody at the table is connected, as people of a turn-based game mostly are not: being
away replaces no one there (the grace of a real-time table does not apply), only her
clock does; when it runs out the stand-in plays that move for her, and after the table's
limit (3 by default) it plays her seat for the rest of the game without waiting. A move
that is only drawing or passing is played for her at once (the forced-moves option, on
by default at a turn-based table).
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from email.message import EmailMessage
from functools import partial
from pathlib import Path
from time import sleep
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
from sqlalchemy import select

from fido.accounts import vacation
from fido.engine.moves import Move, Placement
from fido.store import Account, Notification, open_store
from support.faketime import FakeTime
from support.server_live import browser
from support.server_procs import (
    ServerProcess,
    check_record,
    guest,
    open_table,
    read_log,
    replay_log,
    wait_until,
)
from support.smtp import Inbox, link_in, mail_server
from support.web_browser import Person as WebPerson
from support.web_browser import chromium

DAY = 86400


PASSWORD = "a long enough password"


def signed_up(base: str, name: str, inbox: Inbox) -> httpx.Client:
    """An account with a confirmed address that asked for her inbox's news by mail."""
    person = browser(base)
    address = f"{name.lower()}@example.org"
    r = person.post("/api/accounts", json={"name": name, "password": PASSWORD,
                                           "email": address})
    assert r.status_code == 201, r.text
    confirm = mail_to(inbox, address, "Confirm your address")
    token = parse_qs(urlsplit(link_in(confirm)).query)["token"][0]
    assert browser(base).post("/api/account/email/confirmation",
                              json={"token": token}).status_code == 204
    assert person.put("/api/account/notices", json={"on": True}).status_code == 200
    return person


def mail_to(inbox: Inbox, address: str, subject: str, after: int = 0,
            timeout: float = 20.0) -> EmailMessage:
    """The first mail to ``address`` whose subject starts with ``subject`` among those
    that arrived after the first ``after``."""
    def found() -> EmailMessage | None:
        return next((m for m in inbox.mails[after:] if m["To"] == address
                     and m["Subject"].startswith(subject)), None)

    wait_until(lambda: found() is not None, timeout,
               lambda: f"no mail {subject!r} to {address}: {[m['Subject'] for m in inbox.mails]}")
    mail = found()
    assert mail is not None
    return mail


def text_of(mail: EmailMessage) -> str:
    body = mail.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


def test_a_turn_based_table_tells_her_waits_for_her_clock_then_replaces_her(
        tmp_path: Path) -> None:
    time = FakeTime(tmp_path)
    db = f"sqlite:///{tmp_path / 'fido.db'}"
    with mail_server() as (smtp, inbox):
        server = ServerProcess(db, tmp_path / "serve.log", env=time.env(),
                               args=("--smtp", smtp, "--mail-from", "fido <fido@example.org>"))
        server.start()
        try:
            played_with_mail(server, db, time, inbox)
        finally:
            server.stop()


def played_with_mail(server: ServerProcess, db: str, time: FakeTime, inbox: Inbox) -> None:
    base = server.base
    names = ("Anna", "Ben", "Cleo", "Dora")
    people = {name: signed_up(base, name, inbox) for name in names}
    anna, ben, cleo, dora = people.values()
    refused = anna.post("/api/tables", json={"ruleset": "fido set=6", "players": 3,
                                             "clock": 4 * DAY})
    assert refused.status_code == 422, refused.text  # at most 3 days a move
    table = open_table(anna, [ben, cleo, dora], "fido set=6", ["me", "open", "open", "open"],
                       clock=DAY)

    def info() -> dict[str, Any]:
        got: dict[str, Any] = anna.get(f"/api/tables/{table}").json()
        return got

    first = info()
    assert first["status"] == "running" and first["turn_based"] is True
    assert first["timeouts"] == 3 and first["forced"] is True
    assert first["grace"] == 60  # the table's, unused here: away is normal

    # the opener hears it is her turn, by mail, with the table's address
    row, _events = read_log(db, table)
    assert row.turn is not None
    opener_seat = row.turn
    opener = names[row.turn]
    told = mail_to(inbox, f"{opener.lower()}@example.org", "fido: 1 new notification")
    assert f"it is your turn at a table: {base}/tables/{table}" in text_of(told)
    # her list of games: this one waits for her, and the nav counts it; the others wait
    mine = people[opener].get("/games").text
    assert 'class="running-game yours" data-table="' + table + '"' in mine, mine
    assert "Your turn" in mine and 'aria-label="1 game waits for your move"' in mine
    inbox_page = people[opener].get("/inbox").text
    assert f'<a href="/tables/{table}"><strong>Your turn</strong>' in inbox_page, inbox_page
    assert "it is your turn at a table" in inbox_page
    other = people[next(n for n in people if n != opener)].get("/games").text
    assert f"{opener} to move · <span class=\"left\">23 h 59 min left" in other, other

    # she plays her turn in her browser: the table page of a turn-based table; her move
    # reads her "your turn"
    with chromium() as chrome:
        page = WebPerson(chrome, base)
        page.context.add_cookies([{"name": k, "value": v, "url": base}
                                  for k, v in people[opener].cookies.items()])
        page.goto(f"/tables/{table}")
        page.page.wait_for_function("() => window.fidoTable && window.fidoTable.view")
        assert "turn-based" in page.page.locator(".seats-box .title").inner_text()
        assert page.my_turn()
        # her time beside her hand too (on a phone the seats' card is below it)
        clock = page.page.locator("#turn-clock")
        clock.locator(".clock").wait_for()
        assert re.fullmatch(r"Turn-based, 1 day a move: 23 h 5\d min left",
                            clock.inner_text().strip()), clock.inner_text()
        page.play_one()
        assert not page.errors, page.errors
        page.close()
    assert people[opener].get("/games").text.count('class="running-game yours"') == 0

    def moves() -> list[tuple[int | None, str, str]]:
        _row, events = read_log(db, table)
        return [(e.seat, e.public["move"], e.public["by"]) for e in events if e.kind == "move"]

    # two hours later, everyone away since the start: nobody has been played for
    # (at a real-time table the stand-in would have after a minute)
    time.advance(2 * 3600)
    httpx.get(f"{base}/api/health")
    sleep(2)
    assert all(by in ("forced", "player") for _s, _m, by in moves()), moves()

    def settled() -> bool:
        """Whether the game goes on, once the table is quiet (what it plays at once,
        a forced move, a replaced seat's, is played)."""
        seen, quiet = len(moves()), 0
        while quiet < 10 and info()["status"] != "finished":
            sleep(0.05)
            now = len(moves())
            quiet = quiet + 1 if now == seen else 0
            seen = now
        return bool(info()["status"] != "finished")

    def ran_out(before: int) -> bool:
        return sum(1 for _s, _m, by in moves() if by == "clock") > before

    days = 0
    while settled():
        clocked = sum(1 for _s, _m, by in moves() if by == "clock")
        time.advance(DAY)
        days += 1
        httpx.get(f"{base}/api/health")  # a look at the clock
        wait_until(partial(ran_out, clocked), 75,
                   lambda: f"a day passed and her clock did not run out: {moves()}")
        assert days < 20, moves()
    played = moves()
    row, events = read_log(db, table)
    assert row.record is not None and row.turn is None
    check_record(row.record, row, events)

    # each seat: run out three times (a day each), then replaced for the game (the
    # opener played her first turn herself)
    assert played[0] == (opener_seat, played[0][1], "player")
    for seat in range(4):
        bys = [by for s, _m, by in played if s == seat and by not in ("forced", "player")]
        if "replaced" in bys:
            assert bys[:3] == ["clock"] * 3 and set(bys[3:]) == {"replaced"}, (seat, bys)
        else:  # the game ended first
            assert set(bys) <= {"clock"} and len(bys) <= 3, (seat, bys)
    assert not {by for _s, _m, by in played} - {"clock", "replaced", "forced", "player"}
    assert days == sum(1 for _s, _m, by in played if by == "clock")  # a day each

    # a forced move was her only one: drawing or passing, nothing to lay
    for e in (e for e in events if e.kind == "move" and e.public["by"] == "forced"):
        game = replay_log(row, events[:events.index(e)])
        legal = game.legal_moves()
        assert len(legal) == 1 and not isinstance(legal[0], Placement), legal
        assert legal[0] == Move.from_text(e.public["move"])

    # each heard of each turn of hers that waited for her, and of nothing after she was
    # replaced (nor of a forced one): three each, a day apart, every one mailed
    store = open_store(db)
    try:
        def mailed() -> bool:
            with store.session(write=False) as s:
                return all(n.mailed_at is not None for n in s.scalars(
                    select(Notification).where(Notification.kind == "turn")))

        wait_until(mailed, 20, "a turn not mailed")
        with store.session(write=False) as s:
            accounts = {a.id: a.name for a in s.scalars(select(Account))}
            turns: dict[str, list[Any]] = {}
            read: list[str] = []
            for n in s.scalars(select(Notification).where(Notification.kind == "turn")
                               .order_by(Notification.id)):
                assert n.table_id == table
                turns.setdefault(accounts[n.account_id] or "", []).append(n.created_at)
                if n.read_at is not None:
                    read.append(accounts[n.account_id] or "")
    finally:
        store.engine.dispose()
    assert sorted(turns) == list(names), turns
    # each turn that waited for her: every one of hers her clock ran out on, and the
    # opener's first, which she played
    waited = {name: sum(1 for s, _m, by in played if s == seat and by in ("clock", "player"))
              for seat, name in enumerate(names)}
    assert {name: len(at) for name, at in turns.items()} == waited, (turns, waited)
    assert read == [opener]  # her own move read the one she was told
    for at in turns.values():
        assert all(b - a >= dt.timedelta(hours=1) for a, b in itertools.pairwise(at))
    lines = sum(text_of(m).count("it is your turn at a table") for m in inbox.mails)
    assert lines == sum(waited.values())


def test_a_tables_clock_says_whether_it_is_turn_based_and_its_defaults(base: str) -> None:
    """An hour a move or more: turn-based, replaced after 3 run-out clocks, forced moves
    on; a real-time table: neither, unless asked; each of them checked."""
    anna = guest(base)

    def opened(**options: object) -> dict[str, object]:
        r = anna.post("/api/tables", json={"ruleset": "fido set=6", "players": 3,
                                           "seats": [{"kind": "me"}, {"kind": "open"},
                                                     {"kind": "open"}], **options})
        assert r.status_code == 201, r.text
        got: dict[str, object] = r.json()
        assert anna.delete(f"/api/tables/{got['id']}/seats/mine").status_code == 200
        return got

    realtime = opened(clock=60)
    assert (realtime["turn_based"], realtime["timeouts"], realtime["forced"]) == (
        False, None, False)
    hour = opened(clock=3600)
    assert (hour["turn_based"], hour["timeouts"], hour["forced"]) == (True, 3, True)
    asked = opened(clock=3 * DAY, timeouts=1, forced=False)
    assert (asked["turn_based"], asked["timeouts"], asked["forced"]) == (True, 1, False)
    assert opened(clock=30, forced=True)["forced"] is True
    for bad in ({"clock": 3 * DAY + 1}, {"clock": 60, "timeouts": 0},
                {"clock": 60, "timeouts": 21}, {"clock": 4}):
        r = anna.post("/api/tables", json={"ruleset": "fido set=6", "players": 3, **bad})
        assert r.status_code == 422, (bad, r.text)


def test_a_vacation_has_limits() -> None:
    """At most 14 days, none while one runs, a new one 7 days after the last ended."""
    now = dt.datetime(2026, 11, 28, 12, tzinfo=dt.UTC)
    rosa = Account(name="Rosa", name_key="rosa", guest=False)
    assert vacation.refusal(rosa, 15, now) is not None
    assert vacation.refusal(rosa, 14, now) is None
    until = vacation.set_vacation(rosa, 3, now)
    assert until == now + dt.timedelta(days=3) and vacation.on_vacation(rosa, now) == until
    assert vacation.refusal(rosa, 2, now + dt.timedelta(days=1)) is not None  # one runs
    assert vacation.set_vacation(rosa, 0, now + dt.timedelta(days=1)) is None  # ended
    later = now + dt.timedelta(days=1)
    assert vacation.on_vacation(rosa, later + dt.timedelta(seconds=1)) is None
    assert vacation.refusal(rosa, 1, later + dt.timedelta(days=6)) is not None  # rest first
    assert vacation.refusal(rosa, 1, later + dt.timedelta(days=7, seconds=1)) is None


def test_her_vacation_holds_her_clock_until_it_ends(tmp_path: Path) -> None:
    """Her clock runs out while she is on vacation: the stand-in does not play; the log
    says she is on vacation and her clock starts again, whole, when it ends; then, if
    she still does not move, the stand-in plays. The limits hold through the API."""
    time = FakeTime(tmp_path)
    db = f"sqlite:///{tmp_path / 'fido.db'}"
    server = ServerProcess(db, tmp_path / "serve.log", env=time.env())
    server.start()
    try:
        base = server.base
        people = [browser(base) for _ in range(2)]
        for person, name in zip(people, ("Vera", "Walt"), strict=True):
            assert person.post("/api/accounts", json={
                "name": name, "password": PASSWORD}).status_code == 201
        table = open_table(people[0], [people[1]], "fido set=6",
                           ["me", "open", "expert"], clock=DAY)

        def settled() -> bool:
            """A person's turn that stays hers: a turn that is only drawing or passing is
            played for her at once (forced), and the clock that runs then is the next one's
            (a CI run failed so: her vacation, the next person's clock)."""
            turn = read_log(db, table)[0].turn
            sleep(1.0)
            return turn in (0, 1) and read_log(db, table)[0].turn == turn

        wait_until(settled, 20, "no person to move")
        row, _events = read_log(db, table)
        seat = row.turn
        assert seat is not None
        her = people[seat]
        assert her.put("/api/account/vacation", json={"days": 15}).status_code == 422
        r = her.put("/api/account/vacation", json={"days": 3})
        assert r.status_code == 200 and r.json()["until"] is not None
        again = her.put("/api/account/vacation", json={"days": 2})
        assert again.status_code == 409 and again.json()["error"]["code"] == "vacation"

        def kinds() -> list[tuple[str, int | None, str | None]]:
            _row, events = read_log(db, table)
            return [(e.kind, e.seat, e.public.get("by")) for e in events
                    if e.kind in ("move", "vacation")]

        before = kinds()
        time.advance(DAY + 60)  # her clock runs out: on vacation, it waits
        httpx.get(f"{base}/api/health")
        wait_until(lambda: ("vacation", seat, None) in kinds(), 20,
                   lambda: f"no vacation in the log: {kinds()}")
        assert kinds() == [*before, ("vacation", seat, None)]
        row, _events = read_log(db, table)
        assert row.deadline is not None
        time.advance(2 * DAY)  # her vacation ends: a whole day again from then
        httpx.get(f"{base}/api/health")
        sleep(3)
        assert kinds() == [*before, ("vacation", seat, None)]
        time.advance(DAY + 60)  # and that day is over: the stand-in plays
        httpx.get(f"{base}/api/health")
        wait_until(lambda: ("move", seat, "clock") in kinds()[len(before):], 75,
                   lambda: f"her clock did not run out after her vacation: {kinds()}")
        assert her.put("/api/account/vacation", json={"days": 0}).status_code == 200
        rest = her.put("/api/account/vacation", json={"days": 1})  # ended a day ago
        assert rest.status_code == 409, rest.text
    finally:
        server.stop()
