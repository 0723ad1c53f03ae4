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


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("email_confirmed_at", sa.DateTime(timezone=True),
                                   nullable=True))
        batch.add_column(sa.Column("notices_since", sa.DateTime(timezone=True),
                                   nullable=True))
        batch.add_column(sa.Column("notices_mailed_at", sa.DateTime(timezone=True),
                                   nullable=True))
    with op.batch_alter_table("notifications") as batch:
        batch.add_column(sa.Column("mailed_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("month", sa.String(7), nullable=True))
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("headers", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("headers")
    with op.batch_alter_table("notifications") as batch:
        batch.drop_column("month")
        batch.drop_column("mailed_at")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("notices_mailed_at")
        batch.drop_column("notices_since")
        batch.drop_column("email_confirmed_at")
