"""Accounts ask the federation to be linked to a ranking player.

New table only (``player_claims``).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "player_claims",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False, index=True,
        ),
        sa.Column(
            "player_id", sa.Integer, sa.ForeignKey("players.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("asked_at", TZ, nullable=False),
        sa.Column("decided_at", TZ, nullable=True, index=True),
        sa.Column(
            "decided_by", sa.Integer, sa.ForeignKey("accounts.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("approved", sa.Boolean, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("player_claims")
