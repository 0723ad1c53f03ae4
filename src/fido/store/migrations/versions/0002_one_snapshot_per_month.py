"""One snapshot per month under one spelling; the digest covers the metadata.

Before this revision ``publish`` stored the month as typed, so ``"2026-10 "``
or in fullwidth digits published 2026-10 again. This revision

* rewrites every snapshot's month to its canonical ``YYYY-MM`` (NFKC, spaces
  dropped); when a month was published more than once, the first publication
  (lowest id) is the month's and the later ones are deleted with their
  entries: they were never the month's ranking, only a bug's copies;
* lets the database refuse any other spelling (a CHECK constraint; the
  unique constraint on ``month`` then means one snapshot per month);
* adds ``digest_version``: the snapshots already stored keep version 1 (a
  digest of the entries), new ones get version 2 (entries, month, cutoff,
  parameters and game count).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import re
import unicodedata

import sqlalchemy as sa
from alembic import op

# as in fido.store.models, copied: a migration keeps the text it shipped with
_NO_DIGITS = "month"
for _d in "0123456789":
    _NO_DIGITS = f"replace({_NO_DIGITS}, '{_d}', '')"
MONTH_CHECK = (
    f"length(month) = 7 AND substr(month, 5, 1) = '-' AND {_NO_DIGITS} = '-'"
    " AND substr(month, 1, 4) NOT IN ('0000', '9999')"
    " AND substr(month, 6, 2) BETWEEN '01' AND '12'"
)

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def canonical(month: str) -> str | None:
    """``month`` as YYYY-MM, or None if it cannot be read as a month at all."""
    m = re.fullmatch(r"([0-9]{4})-([0-9]{1,2})", unicodedata.normalize("NFKC", month).strip())
    if not m or not 1 <= int(m.group(2)) <= 12 or not 1 <= int(m.group(1)) <= 9998:
        return None
    return f"{m.group(1)}-{int(m.group(2)):02d}"


def upgrade() -> None:
    conn = op.get_bind()
    snaps = sa.table("ranking_snapshots", sa.column("id", sa.Integer), sa.column("month"))
    entries = sa.table("ranking_entries", sa.column("snapshot_id", sa.Integer))
    kept: dict[str, int] = {}
    drop: list[int] = []
    rename: list[tuple[int, str]] = []
    for sid, month in conn.execute(sa.select(snaps.c.id, snaps.c.month).order_by(snaps.c.id)):
        key = canonical(month)
        if key is None or key in kept:
            drop.append(sid)
            continue
        kept[key] = sid
        if key != month:
            rename.append((sid, key))
    for sid in drop:
        conn.execute(sa.delete(entries).where(entries.c.snapshot_id == sid))
        conn.execute(sa.delete(snaps).where(snaps.c.id == sid))
    for sid, key in rename:
        conn.execute(sa.update(snaps).where(snaps.c.id == sid).values(month=key))
    with op.batch_alter_table("ranking_snapshots") as batch:
        batch.add_column(
            sa.Column("digest_version", sa.Integer, nullable=False, server_default="1")
        )
        batch.create_check_constraint("ck_ranking_snapshots_month", MONTH_CHECK)


def downgrade() -> None:
    with op.batch_alter_table("ranking_snapshots") as batch:
        batch.drop_constraint("ck_ranking_snapshots_month", type_="check")
        batch.drop_column("digest_version")
