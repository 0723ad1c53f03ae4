"""The game server's tables, seats and per-table event logs.

New tables only (``game_tables``, ``table_seats``, ``table_events``).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "game_tables",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("ruleset", sa.String(200), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("status", sa.String(10), nullable=False, index=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("clock", sa.Integer, nullable=True),
        sa.Column("grace", sa.Integer, nullable=False),
        sa.Column("invite", sa.String(32), nullable=False),
        sa.Column(
            "created_by", sa.Integer, sa.ForeignKey("accounts.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("move_seq", sa.Integer, nullable=False),
        sa.Column("deal", sa.Text, nullable=True),
        sa.Column("deadline", sa.Float, nullable=True),
        sa.Column("record", sa.Text, nullable=True),
        sa.Column("finished_at", TZ, nullable=True),
        sa.Column("ranking_game", sa.Integer, nullable=True),
        sa.CheckConstraint(
            "status IN ('open', 'running', 'finished', 'abandoned')", name="ck_table_status"
        ),
        sa.CheckConstraint("players BETWEEN 2 AND 9", name="ck_table_players"),
    )
    op.create_table(
        "table_seats",
        sa.Column(
            "table_id", sa.String(16), sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column(
            "account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="SET NULL"),
            nullable=True, index=True,
        ),
        sa.Column("reserved_for", sa.String(160), nullable=True),
        sa.Column("bot", sa.String(200), nullable=True),
        sa.CheckConstraint("kind IN ('open', 'reserved', 'person', 'bot')", name="ck_seat_kind"),
    )
    op.create_table(
        "table_events",
        sa.Column(
            "table_id", sa.String(16), sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("account_id", sa.Integer, nullable=True),
        sa.Column("msg_id", sa.String(64), nullable=True),
        sa.Column("public", sa.Text, nullable=False),
        sa.Column("private", sa.Text, nullable=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.UniqueConstraint("table_id", "account_id", "msg_id", name="uq_event_message"),
    )


def downgrade() -> None:
    op.drop_table("table_events")
    op.drop_table("table_seats")
    op.drop_table("game_tables")
