"""A person's own data: all that this server stores about her account, as JSON
(GDPR Art. 15 and 20: "download my data"), and the account's erasure (Art. 17:
"delete my account").

What the export holds is what the privacy page lists (:mod:`fido.web.legal_pages`),
section by section; docs/privacy.md says what erasure removes at once and what the
federation keeps for its ranking, and why. Functions take a SQLAlchemy session and
raise :class:`~fido.errors.Refused`; they know nothing of HTTP.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from sqlalchemy import delete, or_, select, update
from sqlalchemy.orm import Session, selectinload

from fido.errors import Refused
from fido.i18n import _
from fido.store import (
    Account,
    AnalysisRow,
    Block,
    ChallengeRow,
    Championship,
    ChampionshipEntry,
    EventRow,
    Follow,
    GameRating,
    GameRow,
    LineRow,
    Notification,
    OrganiserRequest,
    OutboxMail,
    PlayerClaim,
    PuzzleAnswer,
    PuzzleRating,
    QueueEntry,
    RatingChange,
    Report,
    RoleRow,
    SeatRow,
    TableRow,
    WebSession,
)

__all__ = ["ERASED_NAME", "SECTIONS", "erase", "export"]

# the sections of the export, in order: the privacy page lists each
SECTIONS = ("account", "sessions", "roles", "requests", "tables", "queue", "ratings", "puzzles",
            "people", "analyses",
            "events", "sheets", "notifications", "mail")
ERASED_NAME = "deleted player"  # her name in the records of finished games, once erased


def _time(value: dt.datetime | None) -> str | None:
    if value is None:
        return None
    if value.tzinfo is None:  # SQLite gives naive UTC back
        value = value.replace(tzinfo=dt.UTC)
    return value.isoformat()


def export(s: Session, account: Account) -> dict[str, Any]:
    """Everything stored about ``account``, as JSON values, one key a section
    (:data:`SECTIONS`). Never a secret: no password hash, no session id, no table's
    deal of a game still running, no mail's text (a reset link's token)."""
    me = account.id
    player = account.player
    out: dict[str, Any] = {"format": "fido.my-data/1",
                           "exported_at": _time(dt.datetime.now(dt.UTC))}
    out["account"] = {
        "id": me, "name": account.name, "guest": account.guest, "email": account.email,
        "language": account.language, "created_at": _time(account.created_at),
        "email_confirmed_at": _time(account.email_confirmed_at),
        "news_by_mail_since": _time(account.notices_since),
        "news_mailed_at": _time(account.notices_mailed_at),
        "vacation_until": _time(account.vacation_until),
        "online_visible": account.online_visible,
        "has_password": account.password_hash is not None,
        "player": None if player is None else {
            "number": player.number, "name": player.name, "country": player.country,
            "linked_at": _time(account.claimed_at)},
    }
    out["sessions"] = [
        {"created_at": _time(w.created_at), "seen_at": _time(w.seen_at),
         "expires": _time(dt.datetime.fromtimestamp(w.expires, dt.UTC))}
        for w in s.scalars(select(WebSession).where(WebSession.account_id == me)
                           .order_by(WebSession.created_at))]
    out["roles"] = [
        {"role": r.role, "scope": r.scope, "granted_at": _time(r.granted_at)}
        for r in s.scalars(select(RoleRow).where(RoleRow.account_id == me).order_by(RoleRow.id))]
    out["requests"] = [
        {"kind": "player", "player_number": c.player.number, "asked_at": _time(c.asked_at),
         "decided_at": _time(c.decided_at), "approved": c.approved}
        for c in s.scalars(select(PlayerClaim).where(PlayerClaim.account_id == me)
                           .order_by(PlayerClaim.id).options(selectinload(PlayerClaim.player)))
    ] + [
        {"kind": "organiser", "scope": r.scope, "asked_at": _time(r.asked_at),
         "decided_at": _time(r.decided_at), "approved": r.approved}
        for r in s.scalars(select(OrganiserRequest).where(OrganiserRequest.account_id == me)
                           .order_by(OrganiserRequest.id))]
    out["tables"] = [_table(t, me) for t in s.scalars(
        select(TableRow).where(or_(
            TableRow.created_by == me,
            TableRow.id.in_(select(SeatRow.table_id).where(SeatRow.account_id == me))))
        .order_by(TableRow.created_at, TableRow.id).options(selectinload(TableRow.seats)))]
    queue = s.scalars(select(QueueEntry).where(QueueEntry.account_id == me)).first()
    out["queue"] = None if queue is None else {
        "ruleset": queue.ruleset, "players": queue.players, "bots_after": queue.bots_after,
        "clock": queue.clock, "status": queue.status, "joined_at": _time(queue.joined_at),
        "joined_from": queue.joined_from, "table": queue.table_id, "seat": queue.seat}
    out["ratings"] = [
        {"family": r.family, "mu": r.mu, "sigma": r.sigma, "games": r.games,
         "updated_at": _time(r.updated_at),
         "history": [{"table": c.table_id, "match": c.match_id, "mu_before": c.mu_before,
                      "mu": c.mu, "sigma": c.sigma, "games": c.games, "at": _time(c.at)}
                     for c in s.scalars(select(RatingChange).where(
                         RatingChange.account_id == me, RatingChange.family == r.family)
                         .order_by(RatingChange.id))]}
        for r in s.scalars(select(GameRating).where(GameRating.account_id == me)
                           .order_by(GameRating.family))]
    puzzle = s.get(PuzzleRating, me)
    out["puzzles"] = {
        "rating": None if puzzle is None else puzzle.rating,
        "answers": [{"puzzle": a.puzzle_id, "move": a.move, "solved": a.solved,
                     "rating_before": a.rating_before, "rating": a.rating, "at": _time(a.at)}
                    for a in s.scalars(select(PuzzleAnswer).where(PuzzleAnswer.account_id == me)
                                       .order_by(PuzzleAnswer.id))]}
    out["people"] = {
        "follows": [f.follows_id for f in s.scalars(
            select(Follow).where(Follow.account_id == me).order_by(Follow.follows_id))],
        "blocks": [b.blocked_id for b in s.scalars(
            select(Block).where(Block.account_id == me).order_by(Block.blocked_id))],
        "challenges": [
            {"id": c.id, "from": c.from_id, "to": c.to_id, "ruleset": c.ruleset,
             "players": c.players, "others": c.others, "clock": c.clock, "rates": c.rates,
             "status": c.status, "created_at": _time(c.created_at),
             "expires_at": _time(c.expires_at), "decided_at": _time(c.decided_at),
             "table": c.table_id}
            for c in s.scalars(select(ChallengeRow).where(
                or_(ChallengeRow.from_id == me, ChallengeRow.to_id == me))
                .order_by(ChallengeRow.id))],
        "reports": [
            {"table": r.table_id, "seq": r.seq, "name": r.name, "text": r.text,
             "at": _time(r.created_at)}
            for r in s.scalars(select(Report).where(Report.reporter_id == me)
                               .order_by(Report.id))],
    }
    out["analyses"] = [
        {"table": a.table_id, "seat": a.seat, "status": a.status,
         "requested_at": _time(a.requested_at), "finished_at": _time(a.finished_at),
         "result": json.loads(a.result) if a.result else None}
        for a in s.scalars(select(AnalysisRow).where(AnalysisRow.requested_by == me)
                           .order_by(AnalysisRow.id))]
    out["events"] = [
        {"event": e.championship.name, "number": e.number,
         "registered_at": _time(e.registered_at), "retired_after": e.retired_after}
        for e in s.scalars(select(ChampionshipEntry).where(ChampionshipEntry.account_id == me)
                           .join(Championship).order_by(Championship.id))
    ] + [
        {"event": c.name, "organised": True, "created_at": _time(c.created_at)}
        for c in s.scalars(select(Championship).where(Championship.organiser_id == me)
                           .order_by(Championship.id))]
    out["sheets"] = [] if player is None else _sheets(s, player.id)
    out["notifications"] = [
        {"kind": n.kind, "game": n.game_id, "table": n.table_id,
         "created_at": _time(n.created_at), "read_at": _time(n.read_at),
         "mailed_at": _time(n.mailed_at)}
        for n in s.scalars(select(Notification).where(Notification.account_id == me)
                           .order_by(Notification.id))]
    out["mail"] = [] if not account.email else [
        {"to": m.recipient, "subject": m.subject, "created_at": _time(m.created_at),
         "sent_at": _time(m.sent_at)}
        for m in s.scalars(select(OutboxMail).where(OutboxMail.recipient == account.email)
                           .order_by(OutboxMail.id))]
    return out


def _table(t: TableRow, me: int) -> dict[str, Any]:
    seats = [seat.seat for seat in t.seats if seat.account_id == me]
    return {
        "id": t.id, "ruleset": t.ruleset, "players": t.players, "status": t.status,
        "rated": t.rated, "private": t.private, "created_at": _time(t.created_at),
        "finished_at": _time(t.finished_at), "opened_by_you": t.created_by == me,
        "opened_from": t.opened_from if t.created_by == me else None,
        "your_seats": seats,
        # the record of a finished game (everyone's tiles, as its replay shows them);
        # a running game's deal is nobody's yet
        "record": json.loads(t.record) if t.record and t.status == "finished" else None,
    }


def _sheets(s: Session, player_id: int) -> list[dict[str, Any]]:
    games = s.scalars(select(GameRow).where(or_(
        GameRow.submitted_by == player_id,
        GameRow.id.in_(select(LineRow.game_id).where(LineRow.player_id == player_id))))
        .order_by(GameRow.played_on, GameRow.id)
        .options(selectinload(GameRow.lines).selectinload(LineRow.player),
                 selectinload(GameRow.reviews)))
    return [{
        "game": g.id, "played_on": g.played_on.isoformat(), "event": g.event, "set": g.set,
        "divisor": g.divisor, "source": g.source, "received_at": _time(g.received_at),
        "entered_by_you": g.submitted_by == player_id,
        "lines": [{"seat": line.seat, "player": line.player.number,
                   "name": line.player.name, "points": line.points, "pips": line.pips,
                   "final": line.final} for line in g.lines],
        "your_reviews": [{"verdict": r.verdict, "at": _time(r.at), "note": r.note}
                         for r in g.reviews if r.player_id == player_id],
    } for g in games]


def erase(s: Session, account: Account) -> list[str]:
    """Delete ``account`` and what is hers alone; the stored ids of the sessions that
    ended (to close their sockets). Refused while she sits at a game still running
    (she leaves it first: the others' game goes on with a bot).

    Removed at once: the account (name, address, password), its sessions, roles,
    requests, notifications, queue entry, event entries, the mail to her address; her
    name in the records of finished games becomes :data:`ERASED_NAME`. Kept, without a
    link to her: the tables she played (their seats now nobody's), the analyses
    asked for. The ranking's player, her sheets and reviews are the federation's
    (docs/privacy.md)."""
    me = account.id
    running = s.scalars(select(TableRow.id).join(SeatRow).where(
        SeatRow.account_id == me, TableRow.status.in_(("open", "running")))).all()
    if running:
        raise Refused("seated", _(
            "you sit at a table that is not finished ({table}): leave it first").format(
                table=", ".join(running)))
    for t in s.scalars(select(TableRow).join(SeatRow).where(
            SeatRow.account_id == me, TableRow.record.is_not(None))):
        record = json.loads(t.record or "{}")
        names = record.get("players")
        if isinstance(names, list):
            for seat in t.seats:
                if seat.account_id == me and 0 <= seat.seat < len(names):
                    names[seat.seat] = ERASED_NAME
            t.record = json.dumps(record, separators=(",", ":"))
    s.execute(update(EventRow).where(EventRow.account_id == me).values(account_id=None))
    if account.email:
        s.execute(delete(OutboxMail).where(OutboxMail.recipient == account.email))
    ended = list(s.scalars(select(WebSession.id).where(WebSession.account_id == me)))
    s.delete(account)  # the database cascades and unlinks the rest (models.py)
    s.flush()
    return ended
