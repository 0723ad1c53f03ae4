"""The ``store`` fixture: an empty, migrated store on SQLite and, when
``FIDO_TEST_POSTGRES_URL`` is set (``make test`` sets it when PostgreSQL's
``initdb`` is installed), on PostgreSQL too."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, text

from fido.store import Store, open_store

POSTGRES = os.environ.get("FIDO_TEST_POSTGRES_URL")
BACKENDS = ["sqlite", *(["postgresql"] if POSTGRES else [])]


def _empty_postgres(url: str) -> None:
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


@pytest.fixture(params=BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    if request.param == "postgresql":
        assert POSTGRES
        _empty_postgres(POSTGRES)
        return POSTGRES
    return f"sqlite:///{tmp_path_factory.mktemp('db') / 'fido.db'}"


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    st = open_store(store_url)
    yield st
    st.close()
