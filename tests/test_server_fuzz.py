"""The HTTP API fuzzed from its own OpenAPI schema (schemathesis): never a 5xx.

The live server's ``/openapi.json`` drives the generated requests, for every
operation; each is sent with a valid CSRF token and a signed-in session's
cookie, so the handlers behind the CSRF check are reached, not only its 403.
It runs on SQLite and, when ``FIDO_TEST_POSTGRES_URL`` is set, on PostgreSQL.
(schemathesis's pytest plugin, ``from_fixture``, does not run under this
pytest; the operations' Hypothesis strategies are driven directly instead.)
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from fido.server.deps import Limits
from server_live import browser, live_server


def test_the_api_never_answers_5xx(store_url: str) -> None:
    with live_server(store_url, limits=Limits(per_account=10_000, per_address=10_000)) as base:
        client = browser(base)
        client.post("/api/accounts", json={"name": "Fuzz", "password": "correct horse"})
        cookies, token = dict(client.cookies), client.headers["X-CSRF-Token"]
        schema = schemathesis.openapi.from_url(f"{base}/openapi.json")
        operations = [result.ok() for result in schema.get_all_operations()]  # type: ignore[union-attr]
        # health, session x3, accounts, guest, player x2, claims x2, tables x7, assistant x2,
        # events x8, analysis x2
        assert len(operations) == 29
        for operation in operations:

            @given(case=operation.as_strategy())
            @settings(max_examples=40, deadline=None, database=None,
                      suppress_health_check=list(HealthCheck))
            def fuzz(case: schemathesis.Case[Any]) -> None:
                case.call_and_validate(
                    base_url=base, cookies=cookies, headers={"X-CSRF-Token": token},
                    checks=[not_a_server_error],
                )

            fuzz()


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
