"""PostgreSQL for the tests: the URL ``make test`` gives (``FIDO_TEST_POSTGRES_URL``, set by
tests/with_postgres.py when PostgreSQL's ``initdb`` is installed), the store backends
to run on, and a database emptied for a test."""

from __future__ import annotations

import os

from sqlalchemy import create_engine, text

POSTGRES = os.environ.get("FIDO_TEST_POSTGRES_URL")
BACKENDS = ["sqlite", *(["postgresql"] if POSTGRES else [])]


def empty_postgres(url: str) -> None:
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()
