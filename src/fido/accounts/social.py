"""People finding each other (docs/people.md): whether she is shown among the people
online, whom she follows, whom she blocks. No HTTP; the server's people and challenge
services call these, and its policy asks :func:`blocked_between`."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Sequence

from sqlalchemy import delete, exists, func, or_, select, update
from sqlalchemy.orm import Session

from fido.accounts.notifications import notify_report
from fido.accounts.roles import FEDERATION
from fido.errors import Refused
from fido.i18n import _
from fido.store import Account, Block, ChallengeRow, Follow, Report, RoleRow, WebSession

__all__ = ["ONLINE", "REPORTS_A_DAY", "block", "blocked", "blocked_between",
           "challenges_waiting", "follow", "following", "online_people", "report_line",
           "set_visible", "unblock", "unfollow"]

ONLINE = 300.0  # seconds: a session seen within them is online (the queue's count too)


def set_visible(s: Session, account: Account, visible: bool) -> None:
    """Show her among the people online, or not (she chooses; off until she does)."""
    account.online_visible = visible


def follow(s: Session, me: int, other: int) -> None:
    """She follows ``other`` (again: nothing changes)."""
    if me != other and s.get(Follow, (me, other)) is None:
        s.add(Follow(account_id=me, follows_id=other, created_at=dt.datetime.now(dt.UTC)))


def unfollow(s: Session, me: int, other: int) -> None:
    s.execute(delete(Follow).where(Follow.account_id == me, Follow.follows_id == other))


def block(s: Session, me: int, other: int) -> None:
    """She blocks ``other``: no follow either way stays, and an open challenge between
    them ends (expired, as if its time ran out: a block is not told)."""
    if me == other:
        return
    now = dt.datetime.now(dt.UTC)
    if s.get(Block, (me, other)) is None:
        s.add(Block(account_id=me, blocked_id=other, created_at=now))
    s.execute(delete(Follow).where(or_(
        (Follow.account_id == me) & (Follow.follows_id == other),
        (Follow.account_id == other) & (Follow.follows_id == me))))
    s.execute(update(ChallengeRow).where(
        ChallengeRow.status == "open",
        or_((ChallengeRow.from_id == me) & (ChallengeRow.to_id == other),
            (ChallengeRow.from_id == other) & (ChallengeRow.to_id == me)))
        .values(status="expired", decided_at=now))


def unblock(s: Session, me: int, other: int) -> None:
    s.execute(delete(Block).where(Block.account_id == me, Block.blocked_id == other))


def following(s: Session, me: int) -> set[int]:
    return set(s.scalars(select(Follow.follows_id).where(Follow.account_id == me)))


def blocked(s: Session, me: int) -> set[int]:
    """Whom she blocks."""
    return set(s.scalars(select(Block.blocked_id).where(Block.account_id == me)))


def blocked_between(s: Session, a: int, b: int) -> bool:
    """Whether either blocks the other."""
    return bool(s.scalar(select(exists().where(or_(
        (Block.account_id == a) & (Block.blocked_id == b),
        (Block.account_id == b) & (Block.blocked_id == a))))))


def online_people(s: Session, *, exclude: Sequence[int] = (), limit: int = 200) -> list[Account]:
    """The people online now who chose to be seen, by name: a session of theirs seen in
    the last :data:`ONLINE` seconds and not expired."""
    since = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=ONLINE)
    seen = select(WebSession.account_id).where(
        WebSession.seen_at >= since, WebSession.expires > int(time.time()))
    query = (select(Account).where(Account.online_visible.is_(True), Account.id.in_(seen),
                                   Account.id.not_in(list(exclude)))
             .order_by(Account.name_key, Account.id).limit(limit))
    return list(s.scalars(query))


def challenges_waiting(s: Session, me: int) -> int:
    """The open challenges to her, not expired (the nav's count)."""
    return s.scalar(select(func.count()).select_from(ChallengeRow).where(
        ChallengeRow.to_id == me, ChallengeRow.status == "open",
        ChallengeRow.expires_at > dt.datetime.now(dt.UTC))) or 0


REPORTS_A_DAY = 10  # chat lines one person may report in a day (each reaches the federation)


def report_line(s: Session, reporter: int, table_id: str, seq: int, *, reported: int | None,
                name: str, text: str) -> Report:
    """Report a chat line to the federation: kept as it was said, and each federation
    account told in her inbox. Once a line and person (409), :data:`REPORTS_A_DAY` a day
    (429): refused with :class:`~fido.errors.Refused`."""
    now = dt.datetime.now(dt.UTC)
    if s.scalar(select(exists().where(Report.reporter_id == reporter,
                                      Report.table_id == table_id, Report.seq == seq))):
        raise Refused("reported", _("you have reported this line already"))
    today = s.scalar(select(func.count()).select_from(Report).where(
        Report.reporter_id == reporter, Report.created_at > now - dt.timedelta(days=1))) or 0
    if today >= REPORTS_A_DAY:
        raise Refused("too_many_reports", _("you have reported {n} lines today: the "
                                            "federation reads them; try again tomorrow")
                      .format(n=today))
    report = Report(reporter_id=reporter, reported_id=reported, table_id=table_id, seq=seq,
                    name=name[:80], text=text[:600], created_at=now)
    s.add(report)
    s.flush()
    federation = s.scalars(select(RoleRow.account_id).where(RoleRow.role == FEDERATION))
    notify_report(s, report, federation, now=now)
    return report
