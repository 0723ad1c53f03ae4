"""Two writers at once, on PostgreSQL (where they run together; SQLite writes one
transaction at a time, so these are skipped there): the second must get a clear answer,
never a failed commit, and the data must hold one of the two."""

from __future__ import annotations

import datetime as dt
import json
import threading

import pytest
from sqlalchemy import select

from fido.events.championships import create_event, register
from fido.events.errors import EventError
from fido.events.rounds import draw_round
from fido.ranking import ResultError, Status, dispute, register_player, settle, status_at
from fido.ranking.submission import ResultIn, find_game, submit
from fido.server.accounts import sign_up
from fido.server.analysis_jobs import AnalysisJobs
from fido.server.claims import ask, decide, link_player
from fido.server.errors import ApiError
from fido.server.roles import ORGANISER, grant
from fido.server.sheet_entry import enter_sheet
from fido.store import (
    Account,
    AnalysisRow,
    ChampionshipTable,
    GameRow,
    PlayerClaim,
    RoleRow,
    TableRow,
    open_store,
)


def test_two_links_of_one_player_at_once_leave_one(store_url: str) -> None:
    if not store_url.startswith("postgresql"):
        pytest.skip("SQLite runs one writing transaction at a time")
    store = open_store(store_url)
    with store.session() as s:
        number = register_player(s, "Ida Twice").number
        ids = [sign_up(s, name, "a long secret 1", None).id for name in ("ida1", "ida2")]
    first_linked = threading.Event()
    outcome: dict[str, object] = {}

    def first() -> None:
        with store.session() as s:
            link_player(s, s.get(Account, ids[0]), number)  # type: ignore[arg-type]
            first_linked.set()
            threading.Event().wait(0.5)  # still uncommitted while the second links
        outcome["first"] = "linked"

    def second() -> None:
        first_linked.wait(10)
        try:
            with store.session() as s:
                link_player(s, s.get(Account, ids[1]), number)  # type: ignore[arg-type]
            outcome["second"] = "linked"
        except ApiError as e:
            outcome["second"] = e.code

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert outcome == {"first": "linked", "second": "player_taken"}
    with store.session(write=False) as s:
        linked = [s.get(Account, i).player_id for i in ids]  # type: ignore[union-attr]
    assert linked[0] is not None and linked[1] is None
    store.close()


def test_two_players_sending_one_tables_sheet_at_once(store_url: str) -> None:
    """Two players of an event's real table send its sheet together: one is stored, the
    other is told the sheet is there; the table has one game."""
    if not store_url.startswith("postgresql"):
        pytest.skip("SQLite runs one writing transaction at a time")
    store = open_store(store_url)
    with store.session() as s:
        people, numbers = [], []
        for i in range(3):
            a = sign_up(s, f"sheet{i}", "a long secret 1", None)
            numbers.append(link_player(s, a, register_player(s, f"Sheet {i}").number).number)
            people.append(a.id)
        event = create_event(s, s.get(Account, people[0]), {  # type: ignore[arg-type]
            "name": "Club night", "starts_on": "2026-11-24", "ends_on": "2026-11-24",
            "set": 6, "table_size": 3, "rounds": 1, "mode": "tables"})
        for account_id in people:
            register(s, event, s.get(Account, account_id))  # type: ignore[arg-type]
        (table,) = draw_round(s, event)
        table_id, seats = table.id, table.seats
    order = [numbers[people.index(a)] for a in json.loads(seats)]
    result = ResultIn.model_validate({
        "date": "2026-11-24", "event": "Club night, round 1, table 1", "set": 6,
        "lines": [{"player": n, "points": 10 * i, "pips": 2} for i, n in enumerate(order)],
        "source": "sheet"})
    first_in = threading.Event()
    outcome: dict[str, object] = {}

    def send(who: int, hold: bool) -> None:
        if not hold:
            first_in.wait(10)
        try:
            with store.session() as s:
                _game, new = enter_sheet(s, s.get(Account, who), result, order,  # type: ignore[arg-type]
                                         event_table=table_id)
                if hold:
                    first_in.set()
                    threading.Event().wait(0.5)  # uncommitted while the other sends
            outcome[f"s{who}"] = "new" if new else "old"
        except EventError as e:
            outcome[f"s{who}"] = "entered already" if "entered already" in str(e) else str(e)

    threads = [threading.Thread(target=send, args=(people[0], True)),
               threading.Thread(target=send, args=(people[1], False))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert outcome == {f"s{people[0]}": "new", f"s{people[1]}": "entered already"}
    with store.session(write=False) as s:
        row = s.get(ChampionshipTable, table_id)
        assert row is not None and row.game_id is not None
        assert len(s.scalars(select(GameRow)).all()) == 1
    store.close()


def test_two_federation_answers_to_one_request_at_once(store_url: str) -> None:
    """Two federation accounts answer the same request together: the first answer stands,
    the second is told it was answered (409), never a second, different answer."""
    if not store_url.startswith("postgresql"):
        pytest.skip("SQLite runs one writing transaction at a time")
    store = open_store(store_url)
    with store.session() as s:
        number = register_player(s, "Jo Asks").number
        jo = sign_up(s, "jo", "a long secret 1", None)
        feds = [sign_up(s, f"fed{i}", "a long secret 1", None).id for i in range(2)]
        claim_id = ask(s, jo, number).id
    first_in = threading.Event()
    outcome: dict[str, object] = {}

    def answer(i: int, approve: bool) -> None:
        if i:
            first_in.wait(10)
        try:
            with store.session() as s:
                decide(s, claim_id, s.get(Account, feds[i]), approve)  # type: ignore[arg-type]
                if not i:
                    first_in.set()
                    threading.Event().wait(0.5)
            outcome[f"fed{i}"] = "answered"
        except ApiError as e:
            outcome[f"fed{i}"] = e.code

    threads = [threading.Thread(target=answer, args=(0, True)),
               threading.Thread(target=answer, args=(1, False))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert outcome == {"fed0": "answered", "fed1": "decided"}
    with store.session(write=False) as s:
        claim = s.get(PlayerClaim, claim_id)
        assert claim is not None and claim.approved is True and claim.decided_by == feds[0]
        assert s.get(Account, jo.id).player_id is not None  # type: ignore[union-attr]
    store.close()


def test_two_settlements_of_one_dispute_at_once(store_url: str) -> None:
    """Two federation accounts settle one dispute together, one accepting, one rejecting:
    the first stands, the second is told the game is not disputed any more."""
    if not store_url.startswith("postgresql"):
        pytest.skip("SQLite runs one writing transaction at a time")
    store = open_store(store_url)
    with store.session() as s:
        numbers = [register_player(s, f"Rev {i}").number for i in range(3)]
        game, _new = submit(s, ResultIn.model_validate({
            "date": "2026-11-20", "event": "Club night", "set": 9, "submitted_by": numbers[0],
            "lines": [{"player": n, "points": 20 + i, "pips": i} for i, n in enumerate(numbers)]}))
        dispute(s, game.id, numbers[1], note="wrong pips")
        game_id = game.id
    first_in = threading.Event()
    outcome: dict[str, object] = {}

    def settle_it(accept: bool) -> None:
        if not accept:
            first_in.wait(10)
        try:
            with store.session() as s:
                find_game(s, game_id)  # this session has the game before it settles
                settle(s, game_id, accept)
                if accept:
                    first_in.set()
                    threading.Event().wait(0.5)
            outcome[str(accept)] = "settled"
        except ResultError as e:
            outcome[str(accept)] = "not disputed" if "not disputed" in str(e) else str(e)

    threads = [threading.Thread(target=settle_it, args=(True,)),
               threading.Thread(target=settle_it, args=(False,))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert outcome == {"True": "settled", "False": "not disputed"}
    with store.session(write=False) as s:
        assert status_at(find_game(s, game_id)) is Status.ACCEPTED
    store.close()


def test_the_same_analysis_asked_twice_at_once(store_url: str) -> None:
    """Two requests for one seat's analysis cross: one row, and both get it."""
    if not store_url.startswith("postgresql"):
        pytest.skip("SQLite runs one writing transaction at a time")
    store = open_store(store_url)
    with store.session() as s:
        s.add(TableRow(id="crosstable01", ruleset="fido set=6", players=3, status="finished",
                       grace=0, invite="x", created_at=dt.datetime.now(dt.UTC)))
    jobs = AnalysisJobs(store, samples=8, processes=0)
    first_in = threading.Event()
    rows: dict[str, int] = {}

    def first() -> None:  # the other request, caught between its insert and its commit
        with store.session() as s:
            row = AnalysisRow(table_id="crosstable01", seat=0, status="queued", samples=8,
                              seed=1, requested_at=dt.datetime.now(dt.UTC))
            s.add(row)
            s.flush()
            first_in.set()
            threading.Event().wait(0.5)
            rows["first"] = row.id

    def second() -> None:
        first_in.wait(10)
        rows["second"] = jobs.queue("crosstable01", 0, None).id

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    jobs.close()
    assert rows["first"] == rows["second"]
    with store.session(write=False) as s:
        assert len(s.scalars(select(AnalysisRow)).all()) == 1
    store.close()


def test_the_same_role_granted_twice_at_once(store_url: str) -> None:
    """Two federation clicks grant one organiser role together: one row, no failure."""
    if not store_url.startswith("postgresql"):
        pytest.skip("SQLite runs one writing transaction at a time")
    store = open_store(store_url)
    with store.session() as s:
        olga = sign_up(s, "olga", "a long secret 1", None).id
    first_in = threading.Event()
    outcome: dict[str, object] = {}

    def give(i: int) -> None:
        if i:
            first_in.wait(10)
        with store.session() as s:
            _row, new = grant(s, s.get(Account, olga), ORGANISER, "club:Rostock")  # type: ignore[arg-type]
            if not i:
                first_in.set()
                threading.Event().wait(0.5)
        outcome[f"g{i}"] = new

    threads = [threading.Thread(target=give, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert outcome == {"g0": True, "g1": False}
    with store.session(write=False) as s:
        assert len(s.scalars(select(RoleRow).where(RoleRow.account_id == olga)).all()) == 1
    store.close()
