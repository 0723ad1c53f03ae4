"""Events (championships and cups), their registered players and their rounds' tables.

New tables only (``championships``, ``championship_entries``,
``championship_tables``).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "championships",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("starts_on", sa.Date, nullable=False),
        sa.Column("ends_on", sa.Date, nullable=False),
        sa.Column("set", sa.Integer, nullable=False),
        sa.Column("divisor", sa.Integer, nullable=False),
        sa.Column("table_size", sa.Integer, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("mode", sa.String(10), nullable=False),
        sa.Column("invitation", sa.Boolean, nullable=False),
        sa.Column("duplicate", sa.Boolean, nullable=False),
        sa.Column("seeded", sa.Boolean, nullable=False),
        sa.Column("clock", sa.Integer, nullable=True),
        sa.Column("grace", sa.Integer, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column(
            "organiser_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("created_at", TZ, nullable=False),
        sa.CheckConstraint("mode IN ('online', 'tables')", name="ck_champ_mode"),
        sa.CheckConstraint("status IN ('registration', 'running', 'finished')",
                           name="ck_champ_status"),
        sa.CheckConstraint("table_size BETWEEN 3 AND 9", name="ck_champ_table_size"),
        sa.CheckConstraint("rounds BETWEEN 1 AND 30", name="ck_champ_rounds"),
    )
    op.create_table(
        "championship_entries",
        sa.Column(
            "championship_id", sa.Integer,
            sa.ForeignKey("championships.id", ondelete="CASCADE"), primary_key=True,
        ),
        sa.Column(
            "account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("registered_at", TZ, nullable=False),
        sa.UniqueConstraint("championship_id", "number", name="uq_entry_number"),
    )
    op.create_table(
        "championship_tables",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "championship_id", sa.Integer,
            sa.ForeignKey("championships.id", ondelete="CASCADE"), nullable=False, index=True,
        ),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column(
            "table_id", sa.String(16), sa.ForeignKey("game_tables.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column(
            "game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="SET NULL"), nullable=True
        ),
        sa.UniqueConstraint("championship_id", "round", "number", name="uq_champ_table"),
    )


def downgrade() -> None:
    op.drop_table("championship_tables")
    op.drop_table("championship_entries")
    op.drop_table("championships")
