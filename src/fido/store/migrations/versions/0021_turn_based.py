"""Turn-based tables: how often a player's clock may run out before the stand-in takes
her seat for the rest of the game, whether the table draws and passes for her when
that is her only move, and the seat to move (her list of the games waiting for her);
an account's vacation (her turn-based clocks wait for its end).

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


# plain ALTER TABLE, not a batch (see 0020: a batch copies the table, and dropping the
# old one would cascade to its seats and events on SQLite)
def upgrade() -> None:
    op.add_column("game_tables", sa.Column("timeouts", sa.Integer(), nullable=True))
    op.add_column("game_tables", sa.Column("forced", sa.Boolean(), nullable=False,
                                           server_default=sa.false()))
    op.add_column("game_tables", sa.Column("turn", sa.Integer(), nullable=True))
    op.add_column("accounts", sa.Column("vacation_until", sa.DateTime(timezone=True),
                                        nullable=True))


def downgrade() -> None:
    op.drop_column("accounts", "vacation_until")
    op.drop_column("game_tables", "turn")
    op.drop_column("game_tables", "forced")
    op.drop_column("game_tables", "timeouts")
