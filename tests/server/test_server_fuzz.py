"""The HTTP API fuzzed from its own OpenAPI schema (schemathesis): never a 5xx.

The live server's ``/openapi.json`` drives the generated requests, for every
operation; each is sent with a signed-in session's cookie and its CSRF token (the
``fido_csrf`` cookie's value: the token is bound to the session), so the handlers
behind the CSRF check are reached, not only its 403. Every operation starts signed
in (a generated ``DELETE /api/session`` ends the session: the next operation signs
in again). The database holds a finished game of that account (a table with two
bots played to its end), and an operation with a ``table_id`` in its path gets that
table's id some of the time (schemathesis' fixed path parameters), so the record,
the replay and the analysis answer from a real game, not only their 404: the test
checks that each of them answered the finished id with its 200 (or 202). It runs on
SQLite and, when ``FIDO_TEST_POSTGRES_URL`` is set, on PostgreSQL.
(schemathesis's pytest plugin, ``from_fixture``, does not run under this
pytest; the operations' Hypothesis strategies are driven directly instead.)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
import schemathesis
from argon2 import PasswordHasher
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from fido.accounts import signup
from fido.server.deps import Limits
from support.server_client import PASSWORD, Person, play_to_end
from support.server_live import QUICK_ANALYSES, live_server

# the finished game's paths the fuzz must reach with the finished table's id
GAME_PATHS = {("GET", "/api/tables/{table_id}/record"), ("GET", "/api/tables/{table_id}/replay"),
              ("GET", "/api/tables/{table_id}/analysis"),
              ("POST", "/api/tables/{table_id}/analysis")}


@pytest.fixture(autouse=True, scope="module")
def _cheap_password_hashes() -> Iterator[None]:
    """Passwords hashed and checked with argon2id at its least cost while the fuzz runs:
    fido's hasher (argon2-cffi's defaults, 64 MiB and 3 passes) takes 140 ms a check on
    2 cores, and every generated sign-in, account deletion and password change checks
    one (a third of the test's time). The fuzz asks for 5xx, not the hash's cost; the
    same argon2id hashes and checks still run."""
    with pytest.MonkeyPatch.context() as mp:
        cheap = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
        mp.setattr(signup, "_HASHER", cheap)
        mp.setattr(signup, "_DUMMY", cheap.hash("not a password of anybody"))
        yield


def _finished_game(base: str) -> tuple[Person, str]:
    """The account Fuzz and a game of hers with two bots, played to its end: its id."""
    fuzz = Person.sign_up(base, "Fuzz")
    table = fuzz.open_table("fido set=6", 3, seats=[
        {"kind": "me"}, {"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "random"}])
    sock = fuzz.connect(table["id"], seq=0)
    try:
        play_to_end([sock])
    finally:
        sock.close()
    assert fuzz.http.get(f"/api/tables/{table['id']}/record").status_code == 200
    return fuzz, table["id"]


def test_the_api_never_answers_5xx(store_url: str) -> None:
    # analyses of few worlds: the fuzz asks for the finished game's, which runs in the
    # server's thread (FAST) beside the fuzzer's requests
    with live_server(store_url, limits=Limits(per_account=10_000, per_address=10_000),
                     play=QUICK_ANALYSES) as base:
        fuzz, finished = _finished_game(base)
        client = fuzz.http
        session: dict[str, Any] = {}

        def signed_in() -> None:
            """Fuzz's session, again if a generated request ended it (DELETE /api/session)."""
            if client.get("/api/session").json()["kind"] != "account":
                r = client.post("/api/session", json={"name": "Fuzz", "password": PASSWORD})
                assert r.status_code == 200, r.text
            session["cookies"] = dict(client.cookies)
            session["token"] = client.cookies["fido_csrf"]

        schema = schemathesis.openapi.from_url(f"{base}/openapi.json")
        operations = [result.ok() for result in schema.get_all_operations()]  # type: ignore[union-attr]
        # health, session x3, accounts, guest, password reset x2, language, player x2,
        # claims x2, tables x8, matches, assistant x2, events x8, organiser requests,
        # analysis x2, queue x3, my data, my account's deletion, my address x4, the news
        # by mail, unsubscribe, my vacation, game ratings x3, people online, being seen,
        # follow x2, block x2, my blocks, challenges x5, declining a rematch, a report
        assert len(operations) == 69
        seen: Counter[tuple[str, str, bool, int]] = Counter()  # method, path, finished?, status
        for operation in operations:
            strategy = operation.as_strategy()
            if "{table_id}" in operation.path:
                strategy = st.one_of(
                    strategy, operation.as_strategy(path_parameters={"table_id": finished}))
            signed_in()

            @given(case=strategy)
            @settings(max_examples=40, deadline=None, database=None,
                      suppress_health_check=list(HealthCheck))
            def fuzz_one(case: schemathesis.Case[Any]) -> None:
                response = case.call_and_validate(
                    base_url=base, cookies=session["cookies"],
                    headers={"X-CSRF-Token": session["token"]}, checks=[not_a_server_error],
                )
                hit = (case.path_parameters or {}).get("table_id") == finished
                seen[case.method.upper(), case.path, hit, response.status_code] += 1

            fuzz_one()
        assert not [k for k in seen if k[3] >= 500], seen
        # the finished game's paths were asked with its id, and answered from the game: its
        # record, replay and analyses (hers queued: 202, then 200 once stored)
        missed = GAME_PATHS - {(m, p) for (m, p, hit, status) in seen
                               if hit and status in (200, 202)}
        assert not missed, (missed, seen)


HOSTILE_IDS = ["abc%00", "%00abcdef", "abcdefgh%00", "x" * 17, "%E2%80%AEabcdef", "..%2F..%2Fx",
               "abc'--", "nosuchtable"]


def test_a_table_socket_never_answers_5xx(store_url: str) -> None:
    """Any table id in the socket's path: no such table (close 4404), never a 500;
    on PostgreSQL a NUL must not reach a query (the database refuses it outright)."""
    with live_server(store_url) as base:

        @given(st.lists(st.sampled_from(HOSTILE_IDS), min_size=1, max_size=1)
               | st.lists(st.text(max_size=20).map(lambda t: quote(t, safe="")),
                          min_size=1, max_size=1))
        @settings(max_examples=30, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        def try_id(ids: list[str]) -> None:
            try:
                with connect(f"ws{base[4:]}/ws/tables/{ids[0]}", open_timeout=10) as ws:
                    ws.recv(timeout=10)
            except ConnectionClosed as e:
                assert e.rcvd is not None and e.rcvd.code == 4404, ids
            except InvalidStatus as e:
                assert e.response.status_code < 500, ids

        try_id()
