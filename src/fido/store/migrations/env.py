"""Alembic environment: runs on the connection :func:`fido.store.open_store` hands in."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from fido.store.models import Base

connection: Connection | None = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - the store always passes one
    raise RuntimeError("fido's migrations run through fido.store.open_store(url)")
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
