"""The store's tables as SQLAlchemy 2 typed models.

* :class:`Player`: a registered player with her federation number.
* :class:`GameRow`: one submitted FIDO game (date, event, set, divisor, when
  it was received, the optional game record) and :class:`LineRow`, one line
  of its score sheet per player (points, pips left, final).
* :class:`ReviewRow`: a fellow player's confirmation or dispute, or the
  federation's settlement of a dispute; the result's status at any moment is
  a function of these rows (see :mod:`fido.ranking.reviews`).
* :class:`SnapshotRow` and :class:`EntryRow`: a published monthly ranking,
  never changed once written.
* :class:`Account`, :class:`WebSession` and :class:`Setting`: the game
  server's accounts (registered or guest), its server-side sessions and its
  settings such as the signing secret (migration 0004, :mod:`fido.server`).
* :class:`TableRow`, :class:`SeatRow` and :class:`EventRow`: the server's
  tables, their seats and each table's event log (migration 0005).
* :class:`RoleRow` and :class:`Notification`: an account's roles (organiser
  of a scope, federation) and the notes the app shows her, such as a score
  sheet to confirm (migration 0006, :mod:`fido.accounts.roles`).
* :class:`Championship`, :class:`ChampionshipEntry` and
  :class:`ChampionshipTable`: events, their players and the tables of their
  rounds (migration 0007, :mod:`fido.events`).
* :class:`AnalysisRow`: a finished game's analysis of one seat's moves
  (migration 0008, :mod:`fido.server.analysis_jobs`).
* :class:`PlayerClaim`: an account asking to be linked to a ranking player,
  and the federation's answer (migration 0009, :mod:`fido.accounts.claims`).
* :class:`QueueEntry`: a person waiting to be seated with other people ("Play with
  people", migration 0015, :mod:`fido.server.queue`).
* :class:`MatchRow`: a match of hands at the server, each hand a table of its own
  (``TableRow.match_id``, ``TableRow.hand``; migration 0016,
  :mod:`fido.server.tables.matches`).

The schema is created and upgraded by the Alembic migrations in
``fido/store/migrations`` (run by :func:`fido.store.open_store`), never by
``create_all``; ``tests/server/test_store.py`` checks the two agree.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

__all__ = [
    "INT_MAX",
    "MONTH_CHECK",
    "Account",
    "AnalysisRow",
    "Base",
    "Block",
    "ChallengeRow",
    "Championship",
    "ChampionshipEntry",
    "ChampionshipTable",
    "EntryRow",
    "EventRow",
    "Follow",
    "GameRating",
    "GameRow",
    "LineRow",
    "MatchRow",
    "Notification",
    "OutboxMail",
    "Player",
    "PlayerClaim",
    "PuzzleAnswer",
    "PuzzleRating",
    "QueueEntry",
    "RatingChange",
    "Report",
    "ReviewRow",
    "RoleRow",
    "SeatRow",
    "Setting",
    "SnapshotRow",
    "TableRow",
    "WebSession",
]

# the largest value an Integer column holds on every backend (PostgreSQL's
# INTEGER is 32 bits): numbers and ids are checked against it before a query
INT_MAX = 2**31 - 1


class Base(DeclarativeBase):
    pass


class Player(Base):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    number: Mapped[int] = mapped_column(Integer, unique=True)  # the federation's player number
    name: Mapped[str] = mapped_column(String(200))
    country: Mapped[str | None] = mapped_column(String(3), nullable=True)
    registered_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    # a second registration of the same person, merged (migration 0003): the
    # survivor's id and when; rankings computed after it read her lines as the survivor's
    merged_into: Mapped[int | None] = mapped_column(
        ForeignKey("players.id", name="fk_players_merged_into"), nullable=True
    )
    merged_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(64), unique=True)  # idempotency key
    played_on: Mapped[dt.date] = mapped_column(Date, index=True)
    event: Mapped[str] = mapped_column(String(200))
    set: Mapped[int] = mapped_column(Integer)
    divisor: Mapped[int] = mapped_column(Integer)
    source: Mapped[str] = mapped_column(String(20))  # api, sheet, import, online
    received_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), index=True)
    submitted_by: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    record: Mapped[str | None] = mapped_column(Text, nullable=True)  # the game record JSON

    lines: Mapped[list[LineRow]] = relationship(
        back_populates="game", order_by="LineRow.seat", cascade="all, delete-orphan"
    )
    reviews: Mapped[list[ReviewRow]] = relationship(
        back_populates="game", order_by="ReviewRow.id", cascade="all, delete-orphan"
    )


class LineRow(Base):
    __tablename__ = "game_lines"
    __table_args__ = (
        UniqueConstraint("game_id", "player_id"),
        UniqueConstraint("game_id", "seat"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)  # the line's place on the sheet, from 0
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    points: Mapped[int] = mapped_column(Integer)
    pips: Mapped[int] = mapped_column(Integer)
    final: Mapped[int] = mapped_column(Integer)

    game: Mapped[GameRow] = relationship(back_populates="lines")
    player: Mapped[Player] = relationship()


class ReviewRow(Base):
    __tablename__ = "game_reviews"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    verdict: Mapped[str] = mapped_column(String(10))  # confirm, dispute, accept, reject
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    note: Mapped[str] = mapped_column(Text, default="")

    game: Mapped[GameRow] = relationship(back_populates="reviews")


# a month's one spelling, YYYY-MM from 0001-01 to 9998-12, checked by the
# database itself: seven characters, all ASCII digits but the '-' (replace()
# compares code points on SQLite and PostgreSQL alike, whatever the collation)
_NO_DIGITS = "month"
for _d in "0123456789":
    _NO_DIGITS = f"replace({_NO_DIGITS}, '{_d}', '')"
MONTH_CHECK = (
    f"length(month) = 7 AND substr(month, 5, 1) = '-' AND {_NO_DIGITS} = '-'"
    " AND substr(month, 1, 4) NOT IN ('0000', '9999')"
    " AND substr(month, 6, 2) BETWEEN '01' AND '12'"
)


class SnapshotRow(Base):
    __tablename__ = "ranking_snapshots"
    __table_args__ = (CheckConstraint(MONTH_CHECK, name="ck_ranking_snapshots_month"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    month: Mapped[str] = mapped_column(String(7), unique=True)  # YYYY-MM
    cutoff: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    computed_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    params: Mapped[str] = mapped_column(Text)  # the formula's parameters, JSON
    games: Mapped[int] = mapped_column(Integer)  # games that counted
    digest: Mapped[str] = mapped_column(String(64))  # sha256, see digest_version
    # 1: of the entries (before migration 0002); 2: of month, cutoff, params, games, entries
    digest_version: Mapped[int] = mapped_column(Integer, default=2)

    entries: Mapped[list[EntryRow]] = relationship(
        back_populates="snapshot", order_by="EntryRow.position"
    )


class EntryRow(Base):
    __tablename__ = "ranking_entries"
    __table_args__ = (
        UniqueConstraint("snapshot_id", "player_id"),
        Index("ix_ranking_entries_player", "player_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    snapshot_id: Mapped[int] = mapped_column(ForeignKey("ranking_snapshots.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    position: Mapped[int] = mapped_column(Integer)
    fladub: Mapped[float] = mapped_column(Float(precision=53))
    strength: Mapped[float] = mapped_column(Float(precision=53))
    games: Mapped[int] = mapped_column(Integer)
    provisional: Mapped[int] = mapped_column(Integer)  # 0 or 1
    previous_position: Mapped[int | None] = mapped_column(Integer, nullable=True)
    previous_fladub: Mapped[float | None] = mapped_column(Float(precision=53), nullable=True)

    snapshot: Mapped[SnapshotRow] = relationship(back_populates="entries")


class Account(Base):
    """A server account: registered (name and password) or a guest (neither).

    A guest who signs up keeps her row, so its id (and the games played
    under it) become the account's.
    """

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)  # as typed; None: guest
    # the name folded (NFKC, casefold): "Anna" and "ANNA" are one account
    name_key: Mapped[str | None] = mapped_column(String(160), unique=True, nullable=True)
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)  # argon2
    guest: Mapped[bool] = mapped_column(Boolean, default=False)
    # the ranking's player this account is (one account per player)
    player_id: Mapped[int | None] = mapped_column(
        ForeignKey("players.id", name="fk_accounts_player"), unique=True, nullable=True
    )
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    claimed_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # the interface's language she chose (fido.i18n.LANGUAGES; None: her browser's)
    language: Mapped[str | None] = mapped_column(String(16), nullable=True)
    # her address answered the confirmation's link (None: not, or changed since)
    email_confirmed_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True),
                                                                  nullable=True)
    # she asked for her inbox's news by mail since then (None: she did not; migration 0020)
    notices_since: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True),
                                                             nullable=True)
    notices_mailed_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True),
                                                                 nullable=True)
    # her vacation ends (or ended) then: a clock of hers at a turn-based table that runs
    # out before starts again from there (fido.accounts.vacation; migration 0021)
    vacation_until: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True),
                                                              nullable=True)
    # she is shown in the list of people online (she chose to be seen; 0024)
    online_visible: Mapped[bool] = mapped_column(Boolean, default=False,
                                                 server_default=false())

    player: Mapped[Player | None] = relationship()


class WebSession(Base):
    """A signed-in (or guest) browser: only the SHA-256 of its random id is stored,
    so a copy of the database opens no session."""

    __tablename__ = "web_sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)  # sha256 hex of the id
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    expires: Mapped[int] = mapped_column(BigInteger, index=True)  # Unix seconds, any backend
    # when the browser was last seen (a request, an open table socket), written at most
    # once a minute: who is online (fido.server.queue.online)
    seen_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True,
                                                        index=True)

    account: Mapped[Account] = relationship()


class Setting(Base):
    """A server setting by name (``secret``: the key cookies are signed with)."""

    __tablename__ = "settings"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class TableRow(Base):
    """A table of the game server: its settings, its state and, while it runs, its deal.

    ``seq`` is the sequence number of the last event of its log and
    ``move_seq`` that of the last game event (a move decided before it is
    stale). ``opened_from``: a keyed hash of the address the table was opened from
    (:func:`fido.server.deps.address_tag`; the address itself is never stored): its
    tables with bots are bounded per address, and it is the table's owner in the bots'
    fair order. ``deal`` (the hands as dealt, JSON) never leaves the server; the
    stock has no order (every draw is made by the server's secret random
    source when it happens) and the game is rebuilt by replaying the log.
    """

    __tablename__ = "game_tables"
    __table_args__ = (
        CheckConstraint(
            "status IN ('open', 'running', 'finished', 'abandoned')", name="ck_table_status"
        ),
        CheckConstraint("players BETWEEN 2 AND 9", name="ck_table_players"),
    )

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # random, public
    ruleset: Mapped[str] = mapped_column(String(200))  # canonical text
    players: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(10), index=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    clock: Mapped[int | None] = mapped_column(Integer, nullable=True)  # seconds per move
    grace: Mapped[int] = mapped_column(Integer)  # seconds away before a bot plays for her
    # how often her clock may run out before the stand-in takes her seat for the rest of
    # the game (None: never); and whether the table draws and passes for her when that is
    # her only move (both on by default at a turn-based table: a clock of an hour or more)
    timeouts: Mapped[int | None] = mapped_column(Integer, nullable=True)
    forced: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # its game moves its players' game ratings (fido.ratings; a friendly game: no), 0023
    rates: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # the seat to move while the game runs (None otherwise): her list of games waiting
    # for her is read from here, without replaying a log
    turn: Mapped[int | None] = mapped_column(Integer, nullable=True)
    invite: Mapped[str] = mapped_column(String(32))
    created_by: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True
    )
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    opened_from: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    seq: Mapped[int] = mapped_column(Integer, default=0)
    move_seq: Mapped[int] = mapped_column(Integer, default=0)
    deal: Mapped[str | None] = mapped_column(Text, nullable=True)  # secret
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True)  # Unix seconds
    record: Mapped[str | None] = mapped_column(Text, nullable=True)  # when finished
    finished_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    ranking_game: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # a hand of a match: the match, and which hand (1, 2, ...)
    match_id: Mapped[str | None] = mapped_column(
        ForeignKey("matches.id", ondelete="SET NULL"), nullable=True, index=True
    )
    hand: Mapped[int | None] = mapped_column(Integer, nullable=True)
    match: Mapped[MatchRow | None] = relationship()

    seats: Mapped[list[SeatRow]] = relationship(
        back_populates="table", order_by="SeatRow.seat", cascade="all, delete-orphan"
    )


class MatchRow(Base):
    """A match at the server: hands played until a side reaches ``goal`` points
    (``kind`` points) or ``goal`` hands are played (``kind`` hands). Each hand is a
    table of its own; ``totals`` (JSON: a list, one number per side) is the sum of
    the finished hands' ``match_points``, updated when each hand ends."""

    __tablename__ = "matches"
    __table_args__ = (
        CheckConstraint("kind IN ('points', 'hands')", name="ck_match_kind"),
        CheckConstraint("status IN ('playing', 'finished')", name="ck_match_status"),
    )

    id: Mapped[str] = mapped_column(String(16), primary_key=True)  # random, public
    ruleset: Mapped[str] = mapped_column(String(200))
    players: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(10))
    goal: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(10))
    totals: Mapped[str] = mapped_column(Text)  # JSON list, one number per side
    hands: Mapped[int] = mapped_column(Integer, default=0)  # hands finished
    created_by: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True
    )
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class SeatRow(Base):
    """One seat of a table: open, reserved for a named account, a person, or a bot."""

    __tablename__ = "table_seats"
    __table_args__ = (
        CheckConstraint("kind IN ('open', 'reserved', 'person', 'bot')", name="ck_seat_kind"),
    )

    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True
    )
    reserved_for: Mapped[str | None] = mapped_column(String(160), nullable=True)  # a name_key
    bot: Mapped[str | None] = mapped_column(String(200), nullable=True)  # a bot spec

    table: Mapped[TableRow] = relationship(back_populates="seats")
    account: Mapped[Account | None] = relationship()


class EventRow(Base):
    """One accepted action of a table's log, numbered from 1 without gaps.

    ``public`` is what everyone may see (JSON); ``private`` what only
    ``seat`` may see (the tile she drew). ``msg_id`` is the sender's message
    id: a resent message finds its first outcome here.
    """

    __tablename__ = "table_events"
    __table_args__ = (
        UniqueConstraint("table_id", "account_id", "msg_id", name="uq_event_message"),
    )

    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    account_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    msg_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    public: Mapped[str] = mapped_column(Text)
    private: Mapped[str | None] = mapped_column(Text, nullable=True)
    at: Mapped[float] = mapped_column(Float)  # Unix seconds


class RoleRow(Base):
    """A role an account holds beyond player (every account is one): ``organiser``
    of a scope (``club:Rostock``, ``event:Baltic Open``) or ``federation`` (scope "")."""

    __tablename__ = "account_roles"
    __table_args__ = (
        UniqueConstraint("account_id", "role", "scope", name="uq_account_role"),
        CheckConstraint("role IN ('organiser', 'federation')", name="ck_role_name"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    role: Mapped[str] = mapped_column(String(20))
    scope: Mapped[str] = mapped_column(String(200), default="")
    granted_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class Notification(Base):
    """Something the app tells an account about a stored game (a sheet to confirm, a
    dispute to settle, a verdict) or about her request to be a ranking player (the
    federation's answer): one of ``game_id`` and ``claim_id`` is set (migration 0011);
    or about a table where a seat is reserved for her (``table_id``), or the answer to
    her request to organise (``request_id``, migration 0017).
    ``read_at`` is None until she has seen it."""

    __tablename__ = "notifications"
    __table_args__ = (Index("ix_notifications_unread", "account_id", "read_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    # review, disputed, settled, claim, seat, organiser
    kind: Mapped[str] = mapped_column(String(20))
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), index=True, nullable=True
    )
    claim_id: Mapped[int | None] = mapped_column(
        ForeignKey("player_claims.id", name="fk_notifications_claim", ondelete="CASCADE"),
        nullable=True,
    )
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    read_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # told by mail (fido.accounts.notices): never twice (migration 0020)
    mailed_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    month: Mapped[str | None] = mapped_column(String(7), nullable=True)  # a ranking published

    table_id: Mapped[str | None] = mapped_column(  # a seat of it is reserved for her (0017)
        ForeignKey("game_tables.id", name="fk_notifications_table", ondelete="CASCADE"),
        nullable=True,
    )
    request_id: Mapped[int | None] = mapped_column(  # her request to organise, answered
        ForeignKey("organiser_requests.id", name="fk_notifications_request",
                   ondelete="CASCADE"),
        nullable=True,
    )
    report_id: Mapped[int | None] = mapped_column(  # a chat line reported (0025)
        ForeignKey("reports.id", name="fk_notifications_report", ondelete="CASCADE"),
        nullable=True,
    )

    game: Mapped[GameRow | None] = relationship()
    claim: Mapped[PlayerClaim | None] = relationship()
    request: Mapped[OrganiserRequest | None] = relationship()
    report: Mapped[Report | None] = relationship()
class Championship(Base):
    """An event (a championship or a cup): its settings and its secret seed.

    ``secret`` seeds the seat draws and, with ``duplicate``, the deals every
    table of a round shares; it never leaves the server. ``mode``: ``online``
    (the rounds are played at the server's tables) or ``tables`` (at real
    tables, the results come as score sheets).
    """

    __tablename__ = "championships"
    __table_args__ = (
        CheckConstraint("mode IN ('online', 'tables')", name="ck_champ_mode"),
        CheckConstraint("status IN ('registration', 'running', 'finished')",
                        name="ck_champ_status"),
        CheckConstraint("table_size BETWEEN 3 AND 9", name="ck_champ_table_size"),
        CheckConstraint("rounds BETWEEN 1 AND 30", name="ck_champ_rounds"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    starts_on: Mapped[dt.date] = mapped_column(Date)
    ends_on: Mapped[dt.date] = mapped_column(Date)
    set: Mapped[int] = mapped_column(Integer)
    divisor: Mapped[int] = mapped_column(Integer)
    table_size: Mapped[int] = mapped_column(Integer)
    rounds: Mapped[int] = mapped_column(Integer)
    mode: Mapped[str] = mapped_column(String(10))
    invitation: Mapped[bool] = mapped_column(Boolean, default=False)  # else registration open
    duplicate: Mapped[bool] = mapped_column(Boolean, default=False)
    seeded: Mapped[bool] = mapped_column(Boolean, default=False)  # later rounds by standings
    clock: Mapped[int | None] = mapped_column(Integer, nullable=True)  # online: s per move
    grace: Mapped[int] = mapped_column(Integer, default=60)  # online: away before a bot plays
    status: Mapped[str] = mapped_column(String(12), default="registration")
    # the organiser cancelled it: no further registration nor round (what was played stands)
    cancelled_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True),
                                                            nullable=True)
    secret: Mapped[str] = mapped_column(String(64))
    organiser_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True
    )
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))

    entries: Mapped[list[ChampionshipEntry]] = relationship(
        back_populates="championship", order_by="ChampionshipEntry.number",
        cascade="all, delete-orphan",
    )
    tables: Mapped[list[ChampionshipTable]] = relationship(
        back_populates="championship",
        order_by="(ChampionshipTable.round, ChampionshipTable.number)",
        cascade="all, delete-orphan",
    )


class ChampionshipEntry(Base):
    """A registered player of an event; ``number`` is her draw number (from 1).
    ``retired_after``: she left after that round (0: before the first she played);
    her results stand, later rounds are drawn without her."""

    __tablename__ = "championship_entries"
    __table_args__ = (UniqueConstraint("championship_id", "number", name="uq_entry_number"),)

    championship_id: Mapped[int] = mapped_column(
        ForeignKey("championships.id", ondelete="CASCADE"), primary_key=True
    )
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer)
    registered_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    retired_after: Mapped[int | None] = mapped_column(Integer, nullable=True)

    championship: Mapped[Championship] = relationship(back_populates="entries")
    account: Mapped[Account] = relationship()


class ChampionshipTable(Base):
    """One table of one round: who sits where (account ids in seat order, JSON) and
    where its result comes from: the server's table, or the score sheet's game."""

    __tablename__ = "championship_tables"
    __table_args__ = (UniqueConstraint("championship_id", "round", "number",
                                       name="uq_champ_table"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    championship_id: Mapped[int] = mapped_column(
        ForeignKey("championships.id", ondelete="CASCADE"), index=True
    )
    round: Mapped[int] = mapped_column(Integer)  # from 1
    number: Mapped[int] = mapped_column(Integer)  # from 1
    seats: Mapped[str] = mapped_column(Text)  # JSON: account ids, seat 0 first
    table_id: Mapped[str | None] = mapped_column(
        ForeignKey("game_tables.id", ondelete="SET NULL"), nullable=True
    )
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", ondelete="SET NULL"), nullable=True
    )

    championship: Mapped[Championship] = relationship(back_populates="tables")


class AnalysisRow(Base):
    """The analysis of one seat's moves in a finished game of the server (the player
    asked for it): queued, running, done (``result``: the analysis JSON,
    docs/analysis.md) or failed (``error``). One a seat."""

    __tablename__ = "game_analyses"
    __table_args__ = (
        UniqueConstraint("table_id", "seat", name="uq_analysis_seat"),
        CheckConstraint("status IN ('queued', 'running', 'done', 'failed')",
                        name="ck_analysis_status"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), index=True
    )
    seat: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(10), index=True)
    requested_by: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True
    )
    requested_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True),
                                                          nullable=True)
    finished_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True),
                                                           nullable=True)
    samples: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    result: Mapped[str | None] = mapped_column(Text, nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)


class PlayerClaim(Base):
    """An account asks to be linked to a ranking player; the federation approves
    or refuses (``approved``), so nobody plays rated games or enters sheets as
    somebody else. Pending while ``decided_at`` is None; at most one pending an
    account (:mod:`fido.accounts.claims` keeps that)."""

    __tablename__ = "player_claims"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    asked_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    decided_at: Mapped[dt.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, index=True
    )
    decided_by: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True
    )
    approved: Mapped[bool | None] = mapped_column(Boolean, nullable=True)

    account: Mapped[Account] = relationship(foreign_keys=[account_id])
    player: Mapped[Player] = relationship()


class GameRating(Base):
    """A person's game rating in one game family (:mod:`fido.ratings`): never the world
    ranking's FLADUB. Written in the transaction of the last move of each game she
    finishes (migration 0023)."""

    __tablename__ = "game_ratings"

    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    family: Mapped[str] = mapped_column(String(20), primary_key=True)  # fido:9, muggins
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class RatingChange(Base):
    """One game's move of one person's game rating: her rating's history (0023)."""

    __tablename__ = "rating_changes"
    __table_args__ = (Index("ix_rating_changes_account", "account_id", "family", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    family: Mapped[str] = mapped_column(String(20))
    table_id: Mapped[str | None] = mapped_column(
        ForeignKey("game_tables.id", ondelete="SET NULL"), nullable=True)
    match_id: Mapped[str | None] = mapped_column(String(16), nullable=True)
    mu_before: Mapped[float] = mapped_column(Float)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class PuzzleRating(Base):
    """A person's puzzle rating (:mod:`fido.puzzles`): apart from her game ratings and
    FLADUB, moved by each answer (migration 0026)."""

    __tablename__ = "puzzle_ratings"

    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    answers: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class PuzzleAnswer(Base):
    """One answer of a person to a puzzle: right or not, and her rating before and after
    (0026). One a puzzle and person: a second try of a puzzle moves nothing."""

    __tablename__ = "puzzle_answers"
    __table_args__ = (UniqueConstraint("account_id", "puzzle_id", name="uq_puzzle_answers"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    puzzle_id: Mapped[str] = mapped_column(String(16))
    move: Mapped[str] = mapped_column(String(24))
    solved: Mapped[bool] = mapped_column(Boolean)
    rating_before: Mapped[float] = mapped_column(Float)
    rating: Mapped[float] = mapped_column(Float)
    at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class Report(Base):
    """A chat line someone reported to the federation: the line as it was said (its
    table and place in the log, who said it), and who reported it (0025)."""

    __tablename__ = "reports"
    __table_args__ = (UniqueConstraint("reporter_id", "table_id", "seq", name="uq_reports_line"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    reporter_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    reported_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(80))
    text: Mapped[str] = mapped_column(String(600))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class Follow(Base):
    """She follows another person: the people online list shows those she follows first
    (0024)."""

    __tablename__ = "follows"

    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    follows_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, index=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class Block(Base):
    """She blocks another person: no challenge and no chat of hers reach her, and she
    challenges her no more either (0024)."""

    __tablename__ = "blocks"

    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True)
    blocked_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True, index=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class ChallengeRow(Base):
    """One person challenges another to a game: its ruleset, players, the other seats
    (``others``: ``bot:LEVEL`` or ``open``), the clock, whether it moves the game
    ratings; open until accepted (``table_id``: the table it opened), declined,
    withdrawn or expired (0024)."""

    __tablename__ = "challenges"
    __table_args__ = (
        CheckConstraint("status IN ('open', 'accepted', 'declined', 'withdrawn', 'expired')",
                        name="ck_challenge_status"),
        Index("ix_challenges_to", "to_id", "status"),
        Index("ix_challenges_from", "from_id", "status"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    from_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    to_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"))
    ruleset: Mapped[str] = mapped_column(String(200))
    players: Mapped[int] = mapped_column(Integer)
    others: Mapped[str] = mapped_column(String(40))
    clock: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rates: Mapped[bool] = mapped_column(Boolean)
    status: Mapped[str] = mapped_column(String(10))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    decided_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True),
                                                           nullable=True)
    table_id: Mapped[str | None] = mapped_column(
        ForeignKey("game_tables.id", ondelete="SET NULL"), nullable=True)


class QueueEntry(Base):
    """A person waiting for a table with other people ("Play with people"): the game
    (a ruleset's canonical text), the table size she wants (None: any), after how many
    seconds bots may fill the other seats (None: never), the time per move of a
    turn-based table (``clock``; None: a real-time table). ``seen_at``: her waiting
    page's last poll (a real-time entry not polled for a while is dropped; a turn-based
    one waits days without her page). Once paired, ``table_id``
    and ``seat`` say where she sits; ``joined_from``: the address she joined from, as a
    keyed hash (the table's ``opened_from``). One entry an account."""

    __tablename__ = "play_queue"
    __table_args__ = (
        CheckConstraint("status IN ('waiting', 'seated')", name="ck_queue_status"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), unique=True
    )
    ruleset: Mapped[str] = mapped_column(String(200), index=True)
    players: Mapped[int | None] = mapped_column(Integer, nullable=True)
    bots_after: Mapped[int | None] = mapped_column(Integer, nullable=True)  # seconds
    clock: Mapped[int | None] = mapped_column(Integer, nullable=True)  # turn-based: s a move
    joined_from: Mapped[str | None] = mapped_column(String(32), nullable=True)
    status: Mapped[str] = mapped_column(String(10))
    joined_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), index=True)
    seen_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), index=True)
    table_id: Mapped[str | None] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), nullable=True
    )
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
class OrganiserRequest(Base):
    """An account asks to organise events (an organiser's role of ``scope``); the
    federation approves, granting the role, or refuses (``approved``), like a
    :class:`PlayerClaim`. Pending while ``decided_at`` is None; at most one pending an
    account (:mod:`fido.accounts.roles` keeps that)."""

    __tablename__ = "organiser_requests"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    scope: Mapped[str] = mapped_column(String(200))
    asked_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    decided_at: Mapped[dt.datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True, index=True
    )
    decided_by: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True
    )
    approved: Mapped[bool | None] = mapped_column(Boolean, nullable=True)

    account: Mapped[Account] = relationship(foreign_keys=[account_id])


class OutboxMail(Base):
    """A mail to send (a password reset's link): written in the transaction that asks for
    it, sent by the server's postman (:mod:`fido.server.postman`), so a mail server that
    is down delays mail and loses none (migration 0019). ``sent_at`` is None until the
    mail server has accepted it; a failed try is counted and tried again later."""

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_due", "sent_at", "next_try_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    recipient: Mapped[str] = mapped_column(String(254))
    subject: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    next_try_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    last_error: Mapped[str | None] = mapped_column(String(500), nullable=True)
    sent_at: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # more headers, JSON {name: value} (List-Unsubscribe; migration 0020)
    headers: Mapped[str | None] = mapped_column(Text, nullable=True)

