"""The federation's answer to a request to be a player is a notification too.

``notifications.game_id`` may be null; ``notifications.claim_id`` names the
request (one of the two is set).

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("notifications") as batch:
        batch.alter_column("game_id", existing_type=sa.Integer, nullable=True)
        batch.add_column(sa.Column("claim_id", sa.Integer, nullable=True))
        batch.create_foreign_key("fk_notifications_claim", "player_claims", ["claim_id"], ["id"],
                                 ondelete="CASCADE")


def downgrade() -> None:
    op.execute("DELETE FROM notifications WHERE game_id IS NULL")
    with op.batch_alter_table("notifications") as batch:
        batch.drop_constraint("fk_notifications_claim", type_="foreignkey")
        batch.drop_column("claim_id")
        batch.alter_column("game_id", existing_type=sa.Integer, nullable=False)
