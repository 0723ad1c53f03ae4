"""Two writers at once, on PostgreSQL (where they run together; SQLite writes one
transaction at a time, so these are skipped there): the second must get a clear answer,
never a failed commit, and the data must hold one of the two."""

from __future__ import annotations

import datetime as dt
import json
import threading
from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from fido.accounts.claims import ask, decide, link_player
from fido.accounts.roles import ORGANISER, grant
from fido.accounts.signup import sign_up
from fido.errors import Refused
from fido.events.championships import create_event, register
from fido.events.errors import EventError
from fido.events.rounds import draw_round
from fido.ranking import ResultError, Status, dispute, register_player, settle, status_at
from fido.ranking.submission import ResultIn, find_game, submit
from fido.server.analysis_jobs import AnalysisJobs
from fido.server.sheet_entry import enter_sheet
from fido.store import (
    Account,
    AnalysisRow,
    ChampionshipTable,
    GameRow,
    PlayerClaim,
    RoleRow,
    Store,
    TableRow,
    open_store,
)


@pytest.fixture
def pg(store_url: str) -> Iterator[Store]:
    """The store, on PostgreSQL only."""
    if not store_url.startswith("postgresql"):
        pytest.skip("SQLite runs one writing transaction at a time")
    store = open_store(store_url)
    yield store
    store.close()


def race(store: Store, first: Callable[[Session], object],
         second: Callable[[Session], object]) -> tuple[object, object]:
    """``first`` acts in its transaction and holds it open half a second; ``second`` acts
    meanwhile in its own. Each one's result once committed, or the exception it raised."""
    acted = threading.Event()
    out: list[object] = [None, None]

    def run(i: int, act: Callable[[Session], object]) -> None:
        if i:
            acted.wait(10)
        try:
            with store.session() as s:
                out[i] = act(s)
                if not i:
                    acted.set()
                    threading.Event().wait(0.5)  # still uncommitted while the second acts
        except Exception as e:  # the test looks at what the second was told
            out[i] = e
        acted.set()

    threads = [threading.Thread(target=run, args=(i, a)) for i, a in enumerate((first, second))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    return out[0], out[1]


def _account(s: Session, account_id: int) -> Account:
    account = s.get(Account, account_id)
    assert account is not None
    return account


def test_two_links_of_one_player_at_once_leave_one(pg: Store) -> None:
    with pg.session() as s:
        number = register_player(s, "Ida Twice").number
        ids = [sign_up(s, name, "a long secret 1", None).id for name in ("ida1", "ida2")]
    first, second = race(pg, lambda s: link_player(s, _account(s, ids[0]), number),
                         lambda s: link_player(s, _account(s, ids[1]), number))
    assert not isinstance(first, Exception), first
    assert isinstance(second, Refused) and second.code == "player_taken"
    with pg.session(write=False) as s:
        linked = [_account(s, i).player_id for i in ids]
    assert linked[0] is not None and linked[1] is None


def test_two_players_sending_one_tables_sheet_at_once(pg: Store) -> None:
    """Two players of an event's real table send its sheet together: one is stored, the
    other is told the sheet is there; the table has one game."""
    with pg.session() as s:
        people, numbers = [], []
        for i in range(3):
            a = sign_up(s, f"sheet{i}", "a long secret 1", None)
            numbers.append(link_player(s, a, register_player(s, f"Sheet {i}").number).number)
            people.append(a.id)
        event = create_event(s, _account(s, people[0]), {
            "name": "Club night", "starts_on": "2026-11-24", "ends_on": "2026-11-24",
            "set": 6, "table_size": 3, "rounds": 1, "mode": "tables"})
        for account_id in people:
            register(s, event, _account(s, account_id))
        (table,) = draw_round(s, event)
        table_id, seats = table.id, table.seats
    order = [numbers[people.index(a)] for a in json.loads(seats)]
    result = ResultIn.model_validate({
        "date": "2026-11-24", "event": "Club night, round 1, table 1", "set": 6,
        "lines": [{"player": n, "points": 10 * i, "pips": 2} for i, n in enumerate(order)],
        "source": "sheet"})

    def send(who: int) -> Callable[[Session], object]:
        return lambda s: enter_sheet(s, _account(s, who), result, order, event_table=table_id)

    first, second = race(pg, send(people[0]), send(people[1]))
    assert isinstance(first, tuple) and first[1] is True  # new
    assert isinstance(second, EventError) and "entered already" in str(second)
    with pg.session(write=False) as s:
        row = s.get(ChampionshipTable, table_id)
        assert row is not None and row.game_id is not None
        assert len(s.scalars(select(GameRow)).all()) == 1


def test_two_federation_answers_to_one_request_at_once(pg: Store) -> None:
    """Two federation accounts answer the same request together: the first answer stands,
    the second is told it was answered (409), never a second, different answer."""
    with pg.session() as s:
        number = register_player(s, "Jo Asks").number
        jo = sign_up(s, "jo", "a long secret 1", None)
        feds = [sign_up(s, f"fed{i}", "a long secret 1", None).id for i in range(2)]
        claim_id = ask(s, jo, number).id
    first, second = race(pg, lambda s: decide(s, claim_id, _account(s, feds[0]), True),
                         lambda s: decide(s, claim_id, _account(s, feds[1]), False))
    assert isinstance(first, PlayerClaim)
    assert isinstance(second, Refused) and second.code == "decided"
    with pg.session(write=False) as s:
        claim = s.get(PlayerClaim, claim_id)
        assert claim is not None and claim.approved is True and claim.decided_by == feds[0]
        assert _account(s, jo.id).player_id is not None


def test_two_settlements_of_one_dispute_at_once(pg: Store) -> None:
    """Two federation accounts settle one dispute together, one accepting, one rejecting:
    the first stands, the second is told the game is not disputed any more."""
    with pg.session() as s:
        numbers = [register_player(s, f"Rev {i}").number for i in range(3)]
        game, _new = submit(s, ResultIn.model_validate({
            "date": "2026-11-20", "event": "Club night", "set": 9, "submitted_by": numbers[0],
            "lines": [{"player": n, "points": 20 + i, "pips": i} for i, n in enumerate(numbers)]}))
        dispute(s, game.id, numbers[1], note="wrong pips")
        game_id = game.id

    def settle_it(accept: bool) -> Callable[[Session], object]:
        def act(s: Session) -> Status:
            find_game(s, game_id)  # this session has the game before it settles
            return settle(s, game_id, accept)
        return act

    first, second = race(pg, settle_it(True), settle_it(False))
    assert first is Status.ACCEPTED
    assert isinstance(second, ResultError) and "not disputed" in str(second)
    with pg.session(write=False) as s:
        assert status_at(find_game(s, game_id)) is Status.ACCEPTED


def test_the_same_analysis_asked_twice_at_once(pg: Store) -> None:
    """Two requests for one seat's analysis cross: one row, and both get it."""
    with pg.session() as s:
        s.add(TableRow(id="crosstable01", ruleset="fido set=6", players=3, status="finished",
                       grace=0, invite="x", created_at=dt.datetime.now(dt.UTC)))
    jobs = AnalysisJobs(pg, samples=8, processes=0)

    def other_request(s: Session) -> int:  # caught between its insert and its commit
        row = AnalysisRow(table_id="crosstable01", seat=0, status="queued", samples=8,
                          seed=1, requested_at=dt.datetime.now(dt.UTC))
        s.add(row)
        s.flush()
        return row.id

    first, second = race(pg, other_request,
                         lambda _s: jobs.queue("crosstable01", 0, None).id)
    jobs.close()
    assert isinstance(first, int) and first == second
    with pg.session(write=False) as s:
        assert len(s.scalars(select(AnalysisRow)).all()) == 1


def test_the_same_role_granted_twice_at_once(pg: Store) -> None:
    """Two federation clicks grant one organiser role together: one row, no failure."""
    with pg.session() as s:
        olga = sign_up(s, "olga", "a long secret 1", None).id

    def give(s: Session) -> bool:
        return grant(s, _account(s, olga), ORGANISER, "club:Rostock")[1]

    assert race(pg, give, give) == (True, False)  # new, then found
    with pg.session(write=False) as s:
        assert len(s.scalars(select(RoleRow).where(RoleRow.account_id == olga)).all()) == 1
