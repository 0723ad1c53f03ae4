"""A player can leave an event after it started: the last round she was drawn in.

Adds ``championship_entries.retired_after`` (null: still playing).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("championship_entries") as batch:
        batch.add_column(sa.Column("retired_after", sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("championship_entries") as batch:
        batch.drop_column("retired_after")
