"""Tables and queue entries say where they were opened from (a keyed hash of the address).

``game_tables.opened_from``: the tables with bots one address plays are bounded (guests
of one address would multiply a person's bound), and the bots' workers serve the
tables' openers in a fair order. ``play_queue.joined_from``: what a queue table with
bots counts against. Older tables have none (they count against nobody).

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("opened_from", sa.String(32), nullable=True))
        batch.create_index("ix_game_tables_opened_from", ["opened_from"])
    with op.batch_alter_table("play_queue") as batch:
        batch.add_column(sa.Column("joined_from", sa.String(32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("play_queue") as batch:
        batch.drop_column("joined_from")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_index("ix_game_tables_opened_from")
        batch.drop_column("opened_from")
