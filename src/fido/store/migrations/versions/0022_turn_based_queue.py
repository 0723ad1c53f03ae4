"""The queue's turn-based choice: the time per move a person waits for (None: a
real-time table); such an entry waits days without her page open.

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("play_queue", sa.Column("clock", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("play_queue", "clock")
