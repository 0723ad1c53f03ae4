"""A chat line reported to the federation (``reports``), and the federation's inbox
notification of it (``notifications.report_id``).

Revision ID: 0025
Revises: 0024
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("reporter_id", sa.Integer,
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("reported_id", sa.Integer,
                  sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
        sa.Column("table_id", sa.String(16),
                  sa.ForeignKey("game_tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("text", sa.String(600), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("reporter_id", "table_id", "seq", name="uq_reports_line"),
    )
    op.create_index("ix_reports_reporter_id", "reports", ["reporter_id"])
    with op.batch_alter_table("notifications") as batch:
        batch.add_column(sa.Column("report_id", sa.Integer, nullable=True))
        batch.create_foreign_key("fk_notifications_report", "reports", ["report_id"], ["id"],
                                 ondelete="CASCADE")


def downgrade() -> None:
    op.execute("DELETE FROM notifications WHERE report_id IS NOT NULL")
    with op.batch_alter_table("notifications") as batch:
        batch.drop_constraint("fk_notifications_report", type_="foreignkey")
        batch.drop_column("report_id")
    op.drop_index("ix_reports_reporter_id", "reports")
    op.drop_table("reports")
