"""Players, games with their score-sheet lines and reviews, ranking snapshots.

Revision ID: 0001
Revises:
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)
DOUBLE = sa.Float(precision=53)


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("number", sa.Integer, nullable=False, unique=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("country", sa.String(3), nullable=True),
        sa.Column("registered_at", TZ, nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("key", sa.String(64), nullable=False, unique=True),
        sa.Column("played_on", sa.Date, nullable=False, index=True),
        sa.Column("event", sa.String(200), nullable=False),
        sa.Column("set", sa.Integer, nullable=False),
        sa.Column("divisor", sa.Integer, nullable=False),
        sa.Column("source", sa.String(20), nullable=False),
        sa.Column("received_at", TZ, nullable=False, index=True),
        sa.Column("submitted_by", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
        sa.Column("record", sa.Text, nullable=True),
    )
    op.create_table(
        "game_lines",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False, index=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False, index=True),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("pips", sa.Integer, nullable=False),
        sa.Column("final", sa.Integer, nullable=False),
        sa.UniqueConstraint("game_id", "player_id"),
        sa.UniqueConstraint("game_id", "seat"),
    )
    op.create_table(
        "game_reviews",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False, index=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
        sa.Column("verdict", sa.String(10), nullable=False),
        sa.Column("at", TZ, nullable=False),
        sa.Column("note", sa.Text, nullable=False),
    )
    op.create_table(
        "ranking_snapshots",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("month", sa.String(7), nullable=False, unique=True),
        sa.Column("cutoff", TZ, nullable=False),
        sa.Column("computed_at", TZ, nullable=False),
        sa.Column("params", sa.Text, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("digest", sa.String(64), nullable=False),
    )
    op.create_table(
        "ranking_entries",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "snapshot_id", sa.Integer, sa.ForeignKey("ranking_snapshots.id"), nullable=False
        ),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("fladub", DOUBLE, nullable=False),
        sa.Column("strength", DOUBLE, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("provisional", sa.Integer, nullable=False),
        sa.Column("previous_position", sa.Integer, nullable=True),
        sa.Column("previous_fladub", DOUBLE, nullable=True),
        sa.UniqueConstraint("snapshot_id", "player_id"),
        sa.Index("ix_ranking_entries_player", "player_id"),
    )


def downgrade() -> None:
    for table in (
        "ranking_entries",
        "ranking_snapshots",
        "game_reviews",
        "game_lines",
        "games",
        "players",
    ):
        op.drop_table(table)
