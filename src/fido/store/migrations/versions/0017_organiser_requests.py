"""People ask the federation for an organiser's role; a notification names a table.

``organiser_requests``: an account asks to organise events (a scope, like a
role's); the federation approves (granting the role) or refuses, as with
player links (``player_claims``). ``notifications.table_id``: a seat of that
table is reserved for her; ``notifications.request_id``: the federation
answered her request to organise.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "organiser_requests",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("scope", sa.String(200), nullable=False),
        sa.Column("asked_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("decided_by", sa.Integer,
                  sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
        sa.Column("approved", sa.Boolean, nullable=True),
    )
    op.create_index("ix_organiser_requests_account_id", "organiser_requests", ["account_id"])
    op.create_index("ix_organiser_requests_decided_at", "organiser_requests", ["decided_at"])
    with op.batch_alter_table("notifications") as batch:
        batch.add_column(sa.Column("table_id", sa.String(16), nullable=True))
        batch.add_column(sa.Column("request_id", sa.Integer, nullable=True))
        batch.create_foreign_key("fk_notifications_table", "game_tables", ["table_id"], ["id"],
                                 ondelete="CASCADE")
        batch.create_foreign_key("fk_notifications_request", "organiser_requests",
                                 ["request_id"], ["id"], ondelete="CASCADE")


def downgrade() -> None:
    op.execute("DELETE FROM notifications WHERE table_id IS NOT NULL OR request_id IS NOT NULL")
    with op.batch_alter_table("notifications") as batch:
        batch.drop_constraint("fk_notifications_request", type_="foreignkey")
        batch.drop_constraint("fk_notifications_table", type_="foreignkey")
        batch.drop_column("request_id")
        batch.drop_column("table_id")
    op.drop_index("ix_organiser_requests_decided_at", "organiser_requests")
    op.drop_index("ix_organiser_requests_account_id", "organiser_requests")
    op.drop_table("organiser_requests")
