"""Finding each other: whether a person is shown in the list of people online, whom
she follows and whom she blocks, and challenges from one person to another.

Revision ID: 0024
Revises: 0023
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def _pair(name: str, other: str) -> None:
    op.create_table(
        name,
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column(other, sa.Integer,
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index(f"ix_{name}_{other}", name, [other])


def upgrade() -> None:
    # plain ALTER TABLE, not a batch (see 0020)
    op.add_column("accounts", sa.Column("online_visible", sa.Boolean(), nullable=False,
                                        server_default=sa.false()))
    _pair("follows", "follows_id")
    _pair("blocks", "blocked_id")
    op.create_table(
        "challenges",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("from_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("to_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("ruleset", sa.String(200), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("others", sa.String(40), nullable=False),
        sa.Column("clock", sa.Integer, nullable=True),
        sa.Column("rates", sa.Boolean, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("table_id", sa.String(16),
                  sa.ForeignKey("game_tables.id", ondelete="SET NULL"), nullable=True),
        sa.CheckConstraint(
            "status IN ('open', 'accepted', 'declined', 'withdrawn', 'expired')",
            name="ck_challenge_status"),
    )
    op.create_index("ix_challenges_to", "challenges", ["to_id", "status"])
    op.create_index("ix_challenges_from", "challenges", ["from_id", "status"])


def downgrade() -> None:
    op.drop_index("ix_challenges_from", table_name="challenges")
    op.drop_index("ix_challenges_to", table_name="challenges")
    op.drop_table("challenges")
    for name, other in (("blocks", "blocked_id"), ("follows", "follows_id")):
        op.drop_index(f"ix_{name}_{other}", table_name=name)
        op.drop_table(name)
    op.drop_column("accounts", "online_visible")
