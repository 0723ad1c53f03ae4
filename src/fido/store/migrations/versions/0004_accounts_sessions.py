"""The game server's accounts, server-side sessions and settings.

New tables only (``accounts``, ``web_sessions``, ``settings``); ``accounts``
refers to ``players`` (an account linked to a ranking player) but nothing
existing changes.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("name_key", sa.String(160), nullable=True, unique=True),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("guest", sa.Boolean, nullable=False),
        sa.Column(
            "player_id",
            sa.Integer,
            sa.ForeignKey("players.id", name="fk_accounts_player"),
            nullable=True,
            unique=True,
        ),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("claimed_at", TZ, nullable=True),
    )
    op.create_table(
        "web_sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column(
            "account_id",
            sa.Integer,
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("expires", sa.BigInteger, nullable=False, index=True),
    )
    op.create_table(
        "settings",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("web_sessions")
    op.drop_table("accounts")
    op.drop_table("settings")
