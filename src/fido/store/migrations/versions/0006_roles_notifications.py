"""Accounts' roles (organiser of a scope, federation) and the app's notifications.

New tables only (``account_roles``, ``notifications``); nothing existing changes.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "account_roles",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False, index=True,
        ),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("scope", sa.String(200), nullable=False),
        sa.Column("granted_at", TZ, nullable=False),
        sa.UniqueConstraint("account_id", "role", "scope", name="uq_account_role"),
        sa.CheckConstraint("role IN ('organiser', 'federation')", name="ck_role_name"),
    )
    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column(
            "game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False, index=True,
        ),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("read_at", TZ, nullable=True),
    )
    op.create_index("ix_notifications_unread", "notifications", ["account_id", "read_at"])


def downgrade() -> None:
    op.drop_table("notifications")
    op.drop_table("account_roles")
