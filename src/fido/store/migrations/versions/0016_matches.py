"""Matches at the server (issue 25): a ``matches`` row, and each hand's table linked
to it (``game_tables.match_id``, ``game_tables.hand``).

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "matches",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("ruleset", sa.String(200), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("goal", sa.Integer, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("totals", sa.Text, nullable=False),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column(
            "created_by", sa.Integer, sa.ForeignKey("accounts.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("finished_at", TZ, nullable=True),
        sa.CheckConstraint("kind IN ('points', 'hands')", name="ck_match_kind"),
        sa.CheckConstraint("status IN ('playing', 'finished')", name="ck_match_status"),
    )
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("match_id", sa.String(16), nullable=True))
        batch.add_column(sa.Column("hand", sa.Integer, nullable=True))
        batch.create_index("ix_game_tables_match_id", ["match_id"])
        batch.create_foreign_key("fk_game_tables_match_id", "matches", ["match_id"], ["id"],
                                 ondelete="SET NULL")


def downgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_constraint("fk_game_tables_match_id", type_="foreignkey")
        batch.drop_index("ix_game_tables_match_id")
        batch.drop_column("hand")
        batch.drop_column("match_id")
    op.drop_table("matches")
