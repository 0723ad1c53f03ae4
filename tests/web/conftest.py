"""The web pages' fixtures: ``server``, a live server with the tests' settings
(:data:`support.server_live.FAST`: ``fido serve``'s but for bots that move at once
and work in threads; :data:`~support.server_live.ONE_ADDRESS`: no bound on the tables
with bots of the one address every test's people come from) on a fresh SQLite
database (``web_db``, for a test that reads what the server stored), one a module. A
module that needs other settings defines its own ``server`` and says why."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from support.server_live import ONE_ADDRESS, live_server, module_db


@pytest.fixture(scope="module")
def web_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The module's database, named after it (its files tell which test left them)."""
    return module_db(request, tmp_path_factory, "web.db")


@pytest.fixture(scope="module")
def server(web_db: str) -> Iterator[str]:
    with live_server(web_db, limits=ONE_ADDRESS) as base:
        yield base
