"""Players can be merged: a typo that registered one person twice is undone.

Adds ``merged_into`` (the surviving player's id) and ``merged_at`` to
``players``. Nothing else changes: games keep the line's player as entered, so
every published month still recomputes bit for bit; rankings computed after a
merge read the merged player's lines as the survivor's (docs/ranking.md).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ADD COLUMN, no table rebuild (other tables refer to players); SQLite
    # takes the reference inline only (a column added so may refer, if NULL by default)
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE players ADD COLUMN merged_into INTEGER REFERENCES players (id)")
    else:
        op.add_column(
            "players",
            sa.Column(
                "merged_into",
                sa.Integer,
                sa.ForeignKey("players.id", name="fk_players_merged_into"),
                nullable=True,
            ),
        )
    op.add_column("players", sa.Column("merged_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("merged_at")
        if op.get_bind().dialect.name != "sqlite":
            batch.drop_constraint("fk_players_merged_into", type_="foreignkey")
        batch.drop_column("merged_into")
