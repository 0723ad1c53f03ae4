"""Mail a person asked for: her address confirmed, her inbox's news by mail (opt-in), and
the headers a mail carries (an unsubscribe link); the federation told of a month's
ranking published (a notification's month).

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


# plain ALTER TABLE, not a batch: on SQLite a batch copies the table, and dropping the
# old accounts table would cascade to every row that references it (roles, sessions...);
# SQLite adds and drops a plain column in place (3.35 and later)
_COLUMNS = (
    ("accounts", "email_confirmed_at", sa.DateTime(timezone=True)),
    ("accounts", "notices_since", sa.DateTime(timezone=True)),
    ("accounts", "notices_mailed_at", sa.DateTime(timezone=True)),
    ("notifications", "mailed_at", sa.DateTime(timezone=True)),
    ("notifications", "month", sa.String(7)),
    ("outbox", "headers", sa.Text()),
)


def upgrade() -> None:
    for table, column, kind in _COLUMNS:
        op.add_column(table, sa.Column(column, kind, nullable=True))


def downgrade() -> None:
    for table, column, _kind in reversed(_COLUMNS):
        op.drop_column(table, column)
