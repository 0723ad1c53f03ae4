"""The app's notifications: a stored game someone should look at.

Kinds: ``review`` (a sheet of a game you played in, to confirm or
dispute), ``disputed`` (your sheet was disputed; or, for an organiser or the
federation, a dispute to settle), ``settled`` (a dispute of your game was
settled), ``claim`` (the federation answered her request to be a ranking
player: :mod:`fido.accounts.claims`), ``seat`` (a seat of a table is
reserved for her: :func:`notify_seat`), ``organiser`` (the federation
answered her request to organise events: :func:`notify_request`), ``published`` (a
month's ranking was published: for the federation's accounts, :func:`notify_published`),
``turn`` (it is her turn at a turn-based table: :func:`notify_turn`). A
notification is read when its account opens the game's sheet page (a
claim's: her results page; a request's: the events page; a seat's: she
takes it) or marks her inbox read. Only accounts linked to a ranking player
get the players' kinds: the ranking knows players, the app accounts.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, object_session

from fido.store import (
    Account,
    GameRow,
    Notification,
    OrganiserRequest,
    PlayerClaim,
    Report,
    RoleRow,
    SeatRow,
    TableRow,
)

__all__ = [
    "KINDS",
    "accounts_of_players",
    "inbox",
    "mark_read",
    "notify",
    "notify_claim",
    "notify_published",
    "notify_report",
    "notify_request",
    "notify_seat",
    "notify_turn",
    "unread_count",
    "unread_of",
    "waiting_for",
]

KINDS = {
    "review": "played in this game: confirm or dispute its sheet",
    "disputed": "a sheet was disputed",
    "settled": "a dispute was settled",
    "claim": "the federation answered your request to be a ranking player",
    "seat": "a seat is reserved for you at a table",
    "organiser": "the federation answered your request to organise events",
    "published": "a month's ranking was published",
    "turn": "it is your turn at a table",
    "report": "a chat line was reported",
}
TURN_GAP = dt.timedelta(hours=1)  # at most one "your turn" a table in this while


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def accounts_of_players(s: Session, player_ids: Iterable[int]) -> list[int]:
    """The accounts linked to these ranking players (those that have one)."""
    ids = list(player_ids)
    if not ids:
        return []
    return list(s.scalars(select(Account.id).where(Account.player_id.in_(ids))))


def notify(
    s: Session, account_ids: Iterable[int], kind: str, game: GameRow,
    *, now: dt.datetime | None = None,
) -> int:
    """One unread notification of ``kind`` about ``game`` for each account; an account
    that already has one unread of that kind for that game gets no second. Returns how many."""
    assert kind in KINDS, kind
    now = now or _now()
    waiting = set(s.scalars(select(Notification.account_id).where(
        Notification.game_id == game.id, Notification.kind == kind,
        Notification.read_at.is_(None))))
    new = sorted(set(account_ids) - waiting)
    for account_id in new:
        s.add(Notification(account_id=account_id, kind=kind, game_id=game.id, created_at=now))
    s.flush()
    return len(new)


def notify_claim(s: Session, claim: PlayerClaim, *, now: dt.datetime | None = None) -> None:
    """Tell her the federation answered her request (approved or refused)."""
    s.add(Notification(account_id=claim.account_id, kind="claim", claim_id=claim.id,
                       created_at=now or _now()))
    s.flush()


def notify_seat(s: Session, account_ids: Iterable[int], table_id: str,
                *, now: dt.datetime | None = None) -> None:
    """Tell each of them a seat of the table ``table_id`` is reserved for her."""
    for account_id in sorted(set(account_ids)):
        s.add(Notification(account_id=account_id, kind="seat", table_id=table_id,
                           created_at=now or _now()))
    s.flush()


def notify_turn(s: Session, account_id: int, table_id: str,
                *, now: dt.datetime | None = None) -> bool:
    """Tell her it is her turn at the table ``table_id`` (a turn-based one), unless she
    was told so about it within :data:`TURN_GAP`; whether she was told now."""
    now = now or _now()
    recent = s.scalar(select(func.count()).select_from(Notification).where(
        Notification.account_id == account_id, Notification.kind == "turn",
        Notification.table_id == table_id, Notification.created_at > now - TURN_GAP))
    if recent:
        return False
    s.add(Notification(account_id=account_id, kind="turn", table_id=table_id,
                       created_at=now))
    s.flush()
    return True


def notify_report(s: Session, report: Report, account_ids: Iterable[int],
                  *, now: dt.datetime | None = None) -> None:
    """Tell each of them (the federation's accounts) a chat line was reported."""
    for account_id in sorted(set(account_ids)):
        s.add(Notification(account_id=account_id, kind="report", report_id=report.id,
                           created_at=now or _now()))
    s.flush()


def notify_request(s: Session, request: OrganiserRequest,
                   *, now: dt.datetime | None = None) -> None:
    """Tell her the federation answered her request to organise (approved or refused)."""
    s.add(Notification(account_id=request.account_id, kind="organiser",
                       request_id=request.id, created_at=now or _now()))
    s.flush()


def notify_published(s: Session, month: str, *, now: dt.datetime | None = None) -> int:
    """Tell each federation account that ``month``'s ranking is published (the close ran:
    she checks it); how many were told."""
    told = list(s.scalars(select(RoleRow.account_id).where(RoleRow.role == "federation")
                          .distinct()))
    for account_id in sorted(told):
        s.add(Notification(account_id=account_id, kind="published", month=month,
                           created_at=now or _now()))
    s.flush()
    return len(told)


def unread_count(s: Session, account_id: int) -> int:
    return s.scalar(select(func.count()).select_from(Notification).where(
        Notification.account_id == account_id, Notification.read_at.is_(None))) or 0


def unread_of(account: Account) -> int:
    """:func:`unread_count` of an account loaded in an open session (the nav's badge)."""
    s = object_session(account)
    return unread_count(s, account.id) if s is not None and not account.guest else 0


def waiting_for(s: Session, account_id: int) -> int:
    """How many running games wait for her move (the nav's count on "Games")."""
    return s.scalar(select(func.count()).select_from(TableRow).join(
        SeatRow, (SeatRow.table_id == TableRow.id) & (SeatRow.seat == TableRow.turn)).where(
        TableRow.status == "running", SeatRow.account_id == account_id)) or 0


def inbox(s: Session, account_id: int, limit: int = 100) -> list[Notification]:
    """Her newest notifications, unread first."""
    return list(s.scalars(
        select(Notification).where(Notification.account_id == account_id)
        .order_by(Notification.read_at.is_not(None), Notification.created_at.desc(),
                  Notification.id.desc())
        .limit(limit)))


def mark_read(s: Session, account_id: int, game_id: int | None = None, *,
              claims: bool = False, table_id: str | None = None,
              requests: bool = False, kind: str | None = None) -> int:
    """Mark her unread notifications read (only those about ``game_id`` if given, only
    the answers to her requests to be a player with ``claims``, to organise with
    ``requests``, only those about the table ``table_id`` if given, only those of
    ``kind`` if given)."""
    q = update(Notification).where(
        Notification.account_id == account_id, Notification.read_at.is_(None))
    if game_id is not None:
        q = q.where(Notification.game_id == game_id)
    if claims:
        q = q.where(Notification.claim_id.is_not(None))
    if requests:
        q = q.where(Notification.request_id.is_not(None))
    if table_id is not None:
        q = q.where(Notification.table_id == table_id)
    if kind is not None:
        q = q.where(Notification.kind == kind)
    result = s.execute(q.values(read_at=_now()))
    return int(getattr(result, "rowcount", 0) or 0)
