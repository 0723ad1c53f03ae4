"""An event's organiser scope names the event by its id: ``event:#ID``.

Creating an event used to grant ``event:NAME`` with the name its creator chose,
which could cover other games (issue 22). Each such scope of an account that
organises an event of that name becomes the scope of that event's id; a scope
the federation granted for an event outside the server stays as it is.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-26
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def _key(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split()).casefold()


def upgrade() -> None:
    bind = op.get_bind()
    roles = sa.table("account_roles", sa.column("id", sa.Integer),
                     sa.column("account_id", sa.Integer), sa.column("role", sa.String),
                     sa.column("scope", sa.String))
    events = sa.table("championships", sa.column("id", sa.Integer),
                      sa.column("name", sa.String), sa.column("organiser_id", sa.Integer))
    organised: dict[tuple[int, str], int] = {}
    for event_id, name, organiser in bind.execute(
            sa.select(events.c.id, events.c.name, events.c.organiser_id)
            .order_by(events.c.id)):
        if organiser is not None:
            organised.setdefault((organiser, _key(name)), event_id)
    rows = bind.execute(sa.select(roles.c.id, roles.c.account_id, roles.c.scope).where(
        roles.c.role == "organiser", roles.c.scope.like("event:%"))).all()
    held = {(account, scope) for _id, account, scope in rows}
    for row_id, account, scope in rows:
        event_id = organised.get((account, _key(scope.removeprefix("event:"))))
        if event_id is None:
            continue
        new = f"event:#{event_id}"
        if (account, new) in held:
            bind.execute(sa.delete(roles).where(roles.c.id == row_id))
        else:
            bind.execute(sa.update(roles).where(roles.c.id == row_id).values(scope=new))
            held.add((account, new))


def downgrade() -> None:
    pass  # the names are not needed back: an id scope is narrower than the name it replaced
