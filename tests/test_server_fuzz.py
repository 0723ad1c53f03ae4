"""The HTTP API fuzzed from its own OpenAPI schema (schemathesis): never a 5xx.

The live server's ``/openapi.json`` drives the generated requests, for every
operation; each is sent with a valid CSRF token and a signed-in session's
cookie, so the handlers behind the CSRF check are reached, not only its 403.
(schemathesis's pytest plugin, ``from_fixture``, does not run under this
pytest; the operations' Hypothesis strategies are driven directly instead.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error

from fido.server.app import Limits
from server_live import browser, live_server


def test_the_api_never_answers_5xx(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'fido.db'}"
    with live_server(db, limits=Limits(per_account=10_000, per_address=10_000)) as base:
        client = browser(base)
        client.post("/api/accounts", json={"name": "Fuzz", "password": "correct horse"})
        cookies, token = dict(client.cookies), client.headers["X-CSRF-Token"]
        schema = schemathesis.openapi.from_url(f"{base}/openapi.json")
        operations = [result.ok() for result in schema.get_all_operations()]  # type: ignore[union-attr]
        assert len(operations) == 13  # health, session x3, accounts, guest, player, tables x6
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
