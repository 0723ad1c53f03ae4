"""The server tests' fixtures: ``base``, a live server with ``fido serve``'s settings on
a fresh SQLite database (``live_db``), one a module, and ``live_store``, that database
opened by the test to compare with the server's truth. A module that needs other
settings defines its own ``base`` and says why (the others follow it)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from fido.store import Store, open_store
from support.server_live import live_server, module_db


@pytest.fixture(scope="module")
def live_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """The module's database, named after it (its files tell which test left them)."""
    return module_db(request, tmp_path_factory)


@pytest.fixture(scope="module")
def base(live_db: str) -> Iterator[str]:
    with live_server(live_db) as url:
        yield url


@pytest.fixture(scope="module")
def live_store(base: str, live_db: str) -> Iterator[Store]:
    opened = open_store(live_db)  # after the server: it has migrated the database
    yield opened
    opened.close()
