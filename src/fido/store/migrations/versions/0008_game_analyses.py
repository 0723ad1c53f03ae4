"""Analyses of finished games: one seat's moves, asked for by her player.

New table only (``game_analyses``).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "game_analyses",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "table_id", sa.String(16), sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
            nullable=False, index=True,
        ),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("status", sa.String(10), nullable=False, index=True),
        sa.Column(
            "requested_by", sa.Integer, sa.ForeignKey("accounts.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("requested_at", TZ, nullable=False),
        sa.Column("started_at", TZ, nullable=True),
        sa.Column("finished_at", TZ, nullable=True),
        sa.Column("samples", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("result", sa.Text, nullable=True),
        sa.Column("error", sa.Text, nullable=True),
        sa.UniqueConstraint("table_id", "seat", name="uq_analysis_seat"),
        sa.CheckConstraint("status IN ('queued', 'running', 'done', 'failed')",
                           name="ck_analysis_status"),
    )


def downgrade() -> None:
    op.drop_table("game_analyses")
