"""Play with people (issue 25): the queue of people waiting to be seated together
(``play_queue``), and when each browser session was last seen (``web_sessions.seen_at``:
who is online).

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "play_queue",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"),
                  nullable=False, unique=True),
        sa.Column("ruleset", sa.String(200), nullable=False, index=True),
        sa.Column("players", sa.Integer, nullable=True),
        sa.Column("bots_after", sa.Integer, nullable=True),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("joined_at", TZ, nullable=False, index=True),
        sa.Column("seen_at", TZ, nullable=False, index=True),
        sa.Column("table_id", sa.String(16),
                  sa.ForeignKey("game_tables.id", ondelete="CASCADE"), nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.CheckConstraint("status IN ('waiting', 'seated')", name="ck_queue_status"),
    )
    with op.batch_alter_table("web_sessions") as batch:
        batch.add_column(sa.Column("seen_at", TZ, nullable=True))
        batch.create_index("ix_web_sessions_seen_at", ["seen_at"])


def downgrade() -> None:
    with op.batch_alter_table("web_sessions") as batch:
        batch.drop_index("ix_web_sessions_seen_at")
        batch.drop_column("seen_at")
    op.drop_table("play_queue")
