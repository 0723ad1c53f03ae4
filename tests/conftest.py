"""The fixtures every area shares, defined once: ``store`` (an empty, migrated store on
SQLite and, when ``FIDO_TEST_POSTGRES_URL`` is set (``make test`` sets it when
PostgreSQL's ``initdb`` is installed), on PostgreSQL too), ``browser`` (chromium
driven by Playwright, one a module) and ``down`` (a port that refuses). An area's own
fixtures are in its folder's conftest.py; what the tests share besides fixtures is the
``support`` package."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from fido.store import Store, open_store
from support.postgres import BACKENDS, POSTGRES, empty_postgres
from support.server_live import refused_port

if TYPE_CHECKING:
    from playwright.sync_api import Browser



@pytest.fixture(params=BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    if request.param == "postgresql":
        assert POSTGRES
        empty_postgres(POSTGRES)
        return POSTGRES
    return f"sqlite:///{tmp_path_factory.mktemp('db') / 'fido.db'}"


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    st = open_store(store_url)
    yield st
    st.close()


@pytest.fixture(scope="module")
def browser(request: pytest.FixtureRequest) -> Iterator[Browser]:
    """Chromium for the module's tests (its version printed once a module)."""
    from support.web_browser import browser_session  # noqa: PLC0415 (only where a page is)

    yield from browser_session(request)


@pytest.fixture
def down() -> Iterator[int]:
    """The port of a process that is down: it refuses, and no server another test starts
    meanwhile can take it (a port from free_port() chosen early can be a stranger's by
    the time it is used: the likely cause, not proven, of the doctor's socket through
    nginx once waiting 10 s in CI)."""
    with refused_port() as port:
        yield port
