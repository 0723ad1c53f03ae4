"""Game ratings (fido.ratings): one per person and game family, and their history; a
table's choice whether its game moves them (a friendly game does not).

Revision ID: 0023
Revises: 0022
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_ratings",
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("family", sa.String(20), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("family", sa.String(20), nullable=False),
        sa.Column("table_id", sa.String(16),
                  sa.ForeignKey("game_tables.id", ondelete="SET NULL"), nullable=True),
        sa.Column("match_id", sa.String(16), nullable=True),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rating_changes_account", "rating_changes",
                    ["account_id", "family", "id"])
    # plain ALTER TABLE, not a batch (see 0020)
    op.add_column("game_tables", sa.Column("rates", sa.Boolean(), nullable=False,
                                           server_default=sa.true()))


def downgrade() -> None:
    op.drop_column("game_tables", "rates")
    op.drop_index("ix_rating_changes_account", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_table("game_ratings")
