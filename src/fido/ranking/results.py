"""Results in: players, validated game results, confirmations and disputes.

One result is one FIDO game: the date it was played, the place or event, the
set and divisor, and one line per player (her player number, points and pips
left; final = points - pips). A whole game record may come with it; it is
then replayed and must agree with the lines.

Every function here takes an open :class:`~sqlalchemy.orm.Session` from
:meth:`fido.store.Store.session`, so a caller's block is one transaction: a
:class:`ResultError` raised anywhere in it stores nothing. :func:`submit` is
idempotent: the same game sent again returns the stored one.

A result counts in the ranking unless a fellow player has disputed it and the
federation has not settled the dispute by accepting it; a rejected result
never counts. :func:`status_at` gives the status at any moment, from the
review rows, so a month's ranking can be recomputed later bit for bit.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from fido import FidoError, Ruleset, ruleset
from fido.record import GameRecord
from fido.store import GameRow, LineRow, Player, ReviewRow

__all__ = [
    "SOURCES",
    "Line",
    "PlayerIn",
    "ResultError",
    "ResultIn",
    "Status",
    "confirm",
    "dispute",
    "find_player",
    "list_players",
    "register_player",
    "settle",
    "status_at",
    "submit",
    "submit_many",
    "utc",
    "utcnow",
]

SOURCES = ("api", "sheet", "import", "online")


class ResultError(FidoError):
    """A result, player or review that cannot be accepted; nothing was stored."""


class Status(StrEnum):
    SUBMITTED = "submitted"  # counts; nobody has reviewed it yet
    CONFIRMED = "confirmed"  # counts; every other player confirmed
    DISPUTED = "disputed"  # does not count until settled
    ACCEPTED = "accepted"  # a dispute settled in the result's favour: counts
    REJECTED = "rejected"  # settled against the result: never counts

    @property
    def counts(self) -> bool:
        return self not in (Status.DISPUTED, Status.REJECTED)


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def utc(t: dt.datetime) -> dt.datetime:
    """``t`` in UTC; a naive time (as SQLite returns them) is taken as UTC."""
    return _aware(t)


def _aware(t: dt.datetime) -> dt.datetime:
    """SQLite hands back naive datetimes; every time fido stores is UTC."""
    return t.astimezone(dt.UTC) if t.tzinfo else t.replace(tzinfo=dt.UTC)


# ---------------------------------------------------------------- players


class PlayerIn(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    name: str = Field(min_length=1, max_length=200)
    number: int | None = Field(default=None, ge=1)
    country: str | None = Field(default=None, min_length=2, max_length=3)


def register_player(
    s: Session,
    name: str,
    number: int | None = None,
    country: str | None = None,
    *,
    now: dt.datetime | None = None,
) -> Player:
    """Register a player; without ``number`` she gets the next free one."""
    try:
        p = PlayerIn(name=name, number=number, country=country)
    except ValidationError as e:
        raise ResultError(_first_error(e, "player")) from None
    if p.number is None:
        p.number = (s.scalar(select(func.max(Player.number))) or 0) + 1
    elif s.scalar(select(Player).where(Player.number == p.number)) is not None:
        raise ResultError(f"player number {p.number} is already registered")
    row = Player(
        number=p.number,
        name=p.name,
        country=p.country.upper() if p.country else None,
        registered_at=_aware(now or utcnow()),
    )
    s.add(row)
    s.flush()
    return row


def find_player(s: Session, number: int) -> Player:
    row = s.scalar(select(Player).where(Player.number == number))
    if row is None:
        raise ResultError(f"no registered player has number {number}")
    return row


def list_players(s: Session) -> list[Player]:
    return list(s.scalars(select(Player).order_by(Player.number)))


# ---------------------------------------------------------------- results


class Line(BaseModel):
    """One player's line on the score sheet."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    player: int = Field(ge=1, description="the player's number")
    points: int = Field(ge=0, description="points scored during play")
    pips: int = Field(ge=0, description="pips left in hand at the end")
    final: int | None = Field(default=None, description="points - pips, checked if given")

    @model_validator(mode="after")
    def _final_agrees(self) -> Line:
        if self.final is not None and self.final != self.points - self.pips:
            raise ValueError(
                f"player {self.player}: final {self.final} is not points - pips "
                f"= {self.points} - {self.pips} = {self.points - self.pips}"
            )
        return self


class ResultIn(BaseModel):
    """One FIDO game as it is submitted (API, score sheet, import, online game)."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)

    date: dt.date
    event: str = Field(min_length=1, max_length=200, description="place or event")
    set: int = Field(default=12, description="double-n set: 6, 9, 12, 15, 18 or 21")
    divisor: int | None = Field(default=None, description="default: the set's FIDO divisor")
    lines: list[Line] = Field(min_length=2, max_length=9)
    record: dict[str, Any] | None = Field(default=None, description="the whole game record")
    submitted_by: int | None = Field(default=None, description="submitting player's number")
    key: str | None = Field(
        default=None, max_length=64, description="a caller's id; default: the content's hash"
    )
    source: str = "api"

    def rules(self) -> Ruleset:
        try:
            if self.divisor is None:
                return ruleset("fido", set=self.set)
            return ruleset("fido", set=self.set, divisor=self.divisor)
        except FidoError as e:
            raise ResultError(str(e)) from None

    def content_key(self) -> str:
        """sha256 of what identifies the game: date, event, set, divisor and the lines."""
        content = {
            "date": self.date.isoformat(),
            "event": " ".join(self.event.split()).casefold(),
            "set": self.set,
            "divisor": self.rules().divisor,
            "lines": [[ln.player, ln.points, ln.pips] for ln in self.lines],
        }
        return hashlib.sha256(json.dumps(content, sort_keys=True).encode()).hexdigest()


def _first_error(e: ValidationError, what: str) -> str:
    first = e.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    msg = str(first["msg"]).removeprefix("Value error, ")
    return f"{what}: {where + ': ' if where else ''}{msg}"


def parse_result(data: dict[str, Any] | ResultIn) -> ResultIn:
    if isinstance(data, ResultIn):
        return data
    try:
        return ResultIn.model_validate(data)
    except ValidationError as e:
        raise ResultError(_first_error(e, "result")) from None


def set_pips(n: int) -> int:
    """Pips on all the tiles of a double-n set."""
    return n * (n + 1) * (n + 2) // 2


def check_result(r: ResultIn, *, today: dt.date) -> Ruleset:
    """Everything that can be checked without the store; returns the ruleset."""
    rules = r.rules()
    players = len(r.lines)
    try:
        rules.check_players(players)
        rules.hand_size(players)
    except FidoError as e:
        raise ResultError(f"{players} players: {e}") from None
    if r.date > today:
        raise ResultError(f"the game's date {r.date} is in the future (today is {today})")
    numbers = [ln.player for ln in r.lines]
    twice = sorted({n for n in numbers if numbers.count(n) > 1})
    if twice:
        raise ResultError(f"player {twice[0]} appears twice in one game")
    if r.submitted_by is not None and r.submitted_by not in numbers and r.source == "online":
        raise ResultError(f"player {r.submitted_by} did not play in this game")
    total = set_pips(rules.max_pips)
    held = sum(ln.pips for ln in r.lines)
    if held > total:
        raise ResultError(
            f"the players hold {held} pips at the end, but the whole double-{rules.max_pips} "
            f"set has only {total}"
        )
    # every scoring move scores (sum of the open ends) / divisor; the open ends of
    # a table never sum to more than twice the set's pips, and a game has at most
    # one move per tile
    most = rules.dominoes.count * (2 * total // rules.divisor)
    for ln in r.lines:
        if ln.points > most:
            raise ResultError(
                f"player {ln.player}: {ln.points} points are impossible with double-"
                f"{rules.max_pips} and divisor {rules.divisor}"
            )
    if r.record is not None:
        _check_record(r, rules)
    return rules


def _check_record(r: ResultIn, rules: Ruleset) -> None:
    try:
        record = GameRecord.from_json(json.dumps(r.record))
        game = record.replay()
    except FidoError as e:
        raise ResultError(f"the game record: {e}") from None
    if record.ruleset != rules:
        raise ResultError(
            f"the game record is for {record.ruleset.text()}, the result for {rules.text()}"
        )
    if record.date is not None and record.date != r.date:
        raise ResultError(f"the game record is dated {record.date}, the result {r.date}")
    if game.outcome is None:
        raise ResultError("the game record's game is not over")
    if len(game.outcome.seats) != len(r.lines):
        raise ResultError(
            f"the game record has {len(game.outcome.seats)} players, the result {len(r.lines)}"
        )
    for seat, (res, ln) in enumerate(zip(game.outcome.seats, r.lines, strict=True)):
        if (res.points, res.pips) != (ln.points, ln.pips):
            raise ResultError(
                f"the game record gives seat {seat} (player {ln.player}) {res.points} points "
                f"and {res.pips} pips, the result {ln.points} and {ln.pips}"
            )


def submit(
    s: Session,
    result: ResultIn | dict[str, Any],
    *,
    now: dt.datetime | None = None,
) -> tuple[GameRow, bool]:
    """Validate and store one result; returns (the game, whether it is new).

    The same game sent again (same ``key``, or the same content) returns the
    stored game and ``False``; a ``key`` sent again with other content is an
    error.
    """
    now = _aware(now or utcnow())
    r = parse_result(result)
    if r.source not in SOURCES:
        raise ResultError(f"unknown source {r.source!r} (one of: {', '.join(SOURCES)})")
    rules = check_result(r, today=now.date())
    key = r.key or r.content_key()
    old = s.scalar(select(GameRow).where(GameRow.key == key))
    if old is not None:
        if r.key is not None and r.content_key() != _stored_key(old):
            raise ResultError(f"game {r.key!r} was already submitted with other results")
        return old, False
    players = {ln.player: find_player(s, ln.player) for ln in r.lines}
    submitter = find_player(s, r.submitted_by) if r.submitted_by is not None else None
    game = GameRow(
        key=key,
        played_on=r.date,
        event=" ".join(r.event.split()),
        set=rules.max_pips,
        divisor=rules.divisor,
        source=r.source,
        received_at=now,
        submitted_by=submitter.id if submitter else None,
        record=json.dumps(r.record, sort_keys=True) if r.record is not None else None,
        lines=[
            LineRow(
                seat=i,
                player_id=players[ln.player].id,
                points=ln.points,
                pips=ln.pips,
                final=ln.points - ln.pips,
            )
            for i, ln in enumerate(r.lines)
        ],
    )
    s.add(game)
    s.flush()
    return game, True


def _stored_key(game: GameRow) -> str:
    return ResultIn(
        date=game.played_on,
        event=game.event,
        set=game.set,
        divisor=game.divisor,
        lines=[Line(player=ln.player.number, points=ln.points, pips=ln.pips) for ln in game.lines],
    ).content_key()


def submit_many(
    s: Session,
    results: Sequence[ResultIn | dict[str, Any]],
    *,
    now: dt.datetime | None = None,
    labels: Sequence[str] | None = None,
) -> list[tuple[GameRow, bool]]:
    """Submit several results; the first bad one raises naming it (``labels[i]``,
    default "result i+1"), and as the caller's transaction rolls back, nothing is stored."""
    out = []
    for i, r in enumerate(results):
        try:
            out.append(submit(s, r, now=now))
        except ResultError as e:
            label = labels[i] if labels else f"result {i + 1}"
            raise ResultError(f"{label}: {e}") from None
    return out


# ---------------------------------------------------------------- reviews


def _game(s: Session, game_id: int) -> GameRow:
    game = s.get(GameRow, game_id)
    if game is None:
        raise ResultError(f"there is no game {game_id}")
    return game


def status_at(game: GameRow, at: dt.datetime | None = None) -> Status:
    """The result's status after the reviews made before ``at`` (default: all)."""
    players = {ln.player_id for ln in game.lines}
    if game.submitted_by is not None:
        players.discard(game.submitted_by)
    status = Status.SUBMITTED
    confirmed: set[int] = set()
    for rv in game.reviews:
        if at is not None and _aware(rv.at) >= _aware(at):
            break
        if rv.verdict == "reject":
            return Status.REJECTED
        if rv.verdict == "accept":
            status = Status.ACCEPTED
        elif rv.verdict == "dispute":
            status = Status.DISPUTED
        elif rv.verdict == "confirm" and rv.player_id is not None:
            confirmed.add(rv.player_id)
            if status is Status.SUBMITTED and confirmed >= players:
                status = Status.CONFIRMED
    return status


def _review(
    s: Session, game_id: int, number: int, verdict: str, *, note: str, now: dt.datetime | None
) -> Status:
    game = _game(s, game_id)
    player = find_player(s, number)
    if player.id not in {ln.player_id for ln in game.lines}:
        raise ResultError(f"player {number} did not play in game {game_id}")
    if player.id == game.submitted_by:
        raise ResultError(f"player {number} submitted game {game_id}; the others review it")
    current = status_at(game)
    if current is Status.REJECTED:
        raise ResultError(f"game {game_id} was rejected; it can no longer be reviewed")
    if current is Status.ACCEPTED and verdict == "dispute":
        raise ResultError(f"game {game_id}'s dispute was settled; it cannot be disputed again")
    game.reviews.append(
        ReviewRow(player_id=player.id, verdict=verdict, at=_aware(now or utcnow()), note=note)
    )
    s.flush()
    return status_at(game)


def confirm(
    s: Session, game_id: int, number: int, *, note: str = "", now: dt.datetime | None = None
) -> Status:
    """Player ``number``, who played in the game, confirms its result."""
    return _review(s, game_id, number, "confirm", note=note, now=now)


def dispute(
    s: Session, game_id: int, number: int, *, note: str = "", now: dt.datetime | None = None
) -> Status:
    """Player ``number`` disputes the result: it stops counting until settled."""
    return _review(s, game_id, number, "dispute", note=note, now=now)


def settle(
    s: Session, game_id: int, accept: bool, *, note: str = "", now: dt.datetime | None = None
) -> Status:
    """The federation settles a disputed result: accepted, it counts; rejected, never."""
    game = _game(s, game_id)
    if status_at(game) is not Status.DISPUTED:
        raise ResultError(f"game {game_id} is not disputed ({status_at(game).value})")
    verdict = "accept" if accept else "reject"
    at = _aware(now or utcnow())
    game.reviews.append(ReviewRow(player_id=None, verdict=verdict, at=at, note=note))
    s.flush()
    return status_at(game)


def games_of(s: Session, numbers: Iterable[int] | None = None) -> list[GameRow]:
    q = select(GameRow).order_by(GameRow.played_on, GameRow.id)
    if numbers is not None:
        ids = [find_player(s, n).id for n in numbers]
        q = q.where(GameRow.id.in_(select(LineRow.game_id).where(LineRow.player_id.in_(ids))))
    return list(s.scalars(q))
