"""Results in: validate a FIDO game's score sheet and store it once.

One result is one FIDO game: the date it was played, the place or event, the
set and divisor, and one line per player (her player number, points and pips
left; final = points - pips). A whole game record may come with it; it is
then replayed and must agree with the lines.

Every function takes an open :class:`~sqlalchemy.orm.Session` from
:meth:`fido.store.Store.session`, so a caller's block is one transaction: a
:class:`ResultError` raised anywhere in it stores nothing. :func:`submit` is
idempotent: the same game sent again returns the stored one.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from fido import FidoError, Ruleset, ruleset
from fido.i18n import _
from fido.ranking.clock import utc, utcnow
from fido.ranking.errors import ResultError
from fido.ranking.fields import INT_MAX, Number, Text, check_number
from fido.ranking.players import find_player, first_error, with_merged
from fido.ranking.snapshot import closed_until
from fido.record import GameRecord
from fido.store import GameRow, LineRow

__all__ = [
    "SOURCES",
    "Line",
    "ResultIn",
    "check_received",
    "check_result",
    "find_game",
    "game_points_bound",
    "games_of",
    "parse_result",
    "set_pips",
    "stored_key",
    "submit",
    "submit_many",
]

SOURCES = ("api", "sheet", "import", "online")


class Line(BaseModel):
    """One player's line on the score sheet."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    player: Number = Field(description="the player's number")
    points: int = Field(ge=0, le=INT_MAX, description="points scored during play")
    pips: int = Field(ge=0, le=INT_MAX, description="pips left in hand at the end")
    final: int | None = Field(default=None, description="points - pips, checked if given")

    @model_validator(mode="after")
    def _final_agrees(self) -> Line:
        if self.final is not None and self.final != self.points - self.pips:
            raise ValueError(
                _("player {player}: final {final} is not points - pips = {points} - {pips} "
                  "= {difference}").format(player=self.player, final=self.final,
                                           points=self.points, pips=self.pips,
                                           difference=self.points - self.pips)
            )
        return self


@lru_cache(maxsize=256)
def _fido_rules(set_: int, divisor: int | None) -> Ruleset:
    """The FIDO ruleset of a set and divisor, built once (an import asks a million times)."""
    if divisor is None:
        return ruleset("fido", set=set_)
    return ruleset("fido", set=set_, divisor=divisor)


class ResultIn(BaseModel):
    """One FIDO game as it is submitted (API, score sheet, import, online game)."""

    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)

    date: dt.date
    event: Text = Field(min_length=1, max_length=200, description="place or event")
    set: int = Field(default=12, description="double-n set: 6, 9, 12, 15, 18 or 21")
    divisor: int | None = Field(
        default=None, le=INT_MAX, description="default: the set's FIDO divisor"
    )
    lines: list[Line] = Field(min_length=2, max_length=9)
    record: dict[str, Any] | None = Field(default=None, description="the whole game record")
    submitted_by: Number | None = Field(default=None, description="submitting player's number")
    key: Text | None = Field(
        default=None, max_length=64, description="a caller's id; default: the content's hash"
    )
    source: str = "api"

    def rules(self) -> Ruleset:
        try:
            return _fido_rules(self.set, self.divisor)
        except FidoError as e:
            try:  # the set is one: the divisor is the trouble
                _fido_rules(self.set, None)
                field = "divisor"
            except FidoError:
                field = "set"
            raise ResultError(str(e), field=field) from None

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


def parse_result(data: dict[str, Any] | ResultIn) -> ResultIn:
    """``data`` validated as a :class:`ResultIn`; a :class:`ResultError` names the first fault."""
    if isinstance(data, ResultIn):
        return data
    try:
        return ResultIn.model_validate(data)
    except ValidationError as e:
        raise ResultError(first_error(e, _("result"))) from None
    except RecursionError:
        raise ResultError(_("result: nested too deeply")) from None


def set_pips(n: int) -> int:
    """Pips on all the tiles of a double-n set."""
    return n * (n + 1) * (n + 2) // 2


def game_points_bound(rules: Ruleset) -> int:
    """The most points all players of one game can score together (docs/ranking.md).

    A move scores S / d, S the sum of the open ends. The opening double leaves 2
    ends and 2 sides; a double laid on an end adds an end and a side, a tile on
    a side turns the side into an end, any other move keeps the count: so a
    double-n table never has more than 4 + 2n ends (n doubles after the
    opener), each at most n, and S <= n (2n + 4). Every move places a tile, so a
    game has at most as many moves as the set has tiles.
    """
    n = rules.max_pips
    per_move = n * (2 * n + 4) // rules.divisor
    return int(rules.dominoes.count * per_move)


def check_result(r: ResultIn, *, today: dt.date) -> Ruleset:
    """Everything that can be checked without the store; returns the ruleset."""
    rules = r.rules()
    players = len(r.lines)
    try:
        rules.check_players(players)
        rules.hand_size(players)
    except FidoError as e:
        raise ResultError(_("{players} players: {error}").format(players=players, error=e),
                          field="lines") from None
    if r.date > today:
        raise ResultError(_("the game's date {date} is in the future (today is {today})").format(
            date=r.date, today=today), field="date")
    numbers = [ln.player for ln in r.lines]
    twice = sorted({n for n in numbers if numbers.count(n) > 1})
    if twice:
        raise ResultError(_("player {player} appears twice in one game").format(
            player=twice[0]), field="twice", player=twice[0])
    if r.submitted_by is not None and r.submitted_by not in numbers and r.source == "online":
        raise ResultError(_("player {player} did not play in this game").format(
            player=r.submitted_by))
    total = set_pips(rules.max_pips)
    held = sum(ln.pips for ln in r.lines)
    if held > total:
        raise ResultError(
            _("the players hold {held} pips at the end, but the whole double-{set} set has "
              "only {total}").format(held=held, set=rules.max_pips, total=total),
            field="lines",
        )
    most = game_points_bound(rules)
    for ln in r.lines:
        if ln.points > most:
            raise ResultError(
                _("player {player}: {points} points are impossible with double-{set} and "
                  "divisor {divisor} (a whole game scores at most {most})").format(
                    player=ln.player, points=ln.points, set=rules.max_pips,
                    divisor=rules.divisor, most=most),
                field="points", player=ln.player,
            )
    scored = sum(ln.points for ln in r.lines)
    if scored > most:
        raise ResultError(
            _("the players scored {scored} points together, but a whole game of double-{set} "
              "on divisor {divisor} scores at most {most} ({moves} moves of at most "
              "{each})").format(scored=scored, set=rules.max_pips, divisor=rules.divisor,
                                most=most, moves=rules.dominoes.count,
                                each=most // rules.dominoes.count),
            field="lines",
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
    except RecursionError:
        raise ResultError("the game record is nested too deeply") from None
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


def check_received(received: dt.datetime, closed: tuple[str, dt.datetime] | None) -> None:
    """Refuse a receipt before the latest published month's cutoff: it would change
    a ranking that is published for good (``closed``: see :func:`closed_until`)."""
    if closed is not None and received < closed[1]:
        month, cutoff = closed
        raise ResultError(
            _("received {received}: {month} is published and closed, so nothing received "
              "before {cutoff} UTC can be added any more").format(
                received=f"{received:%Y-%m-%d}", month=month, cutoff=f"{cutoff:%Y-%m-%d %H:%M}")
        )


def submit(
    s: Session,
    result: ResultIn | dict[str, Any],
    *,
    now: dt.datetime | None = None,
    closed: tuple[str, dt.datetime] | bool | None = True,
) -> tuple[GameRow, bool]:
    """Validate and store one result received at ``now``; returns (the game, whether it is new).

    The same game sent again (same ``key``, or the same content) returns the
    stored game and ``False``; a ``key`` sent again with other content is an
    error. Sent again with an earlier receipt (sheets imported first without
    ``--received``), the game keeps the earlier one: a game counts from when
    the federation first had it. A receipt before the latest published
    cutoff is refused (``closed``: that month and cutoff, looked up when True).
    """
    now = utc(now or utcnow())
    r = parse_result(result)
    if r.source not in SOURCES:
        raise ResultError(_("unknown source {source} (one of: {sources})").format(
            source=repr(r.source), sources=", ".join(SOURCES)))
    rules = check_result(r, today=now.date())
    check_received(now, closed_until(s) if closed is True else closed or None)
    key = r.key or r.content_key()
    old = s.scalar(select(GameRow).where(GameRow.key == key))
    if old is not None:
        if r.key is not None and r.content_key() != stored_key(old):
            raise ResultError(_("game {key} was already submitted with other results").format(
                key=repr(r.key)))
        if now < utc(old.received_at):
            old.received_at = now
        return old, False
    players = {ln.player: find_player(s, ln.player, live=True) for ln in r.lines}
    submitter = (
        find_player(s, r.submitted_by, live=True) if r.submitted_by is not None else None
    )
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
    try:
        with s.begin_nested():  # a savepoint: losing a race keeps the caller's transaction
            s.add(game)
            s.flush()
    except IntegrityError:
        # the same game stored at the same moment by another session (PostgreSQL;
        # on SQLite a writer waits for the other's commit and then finds it above)
        old = s.scalar(select(GameRow).where(GameRow.key == key))
        if old is None:
            raise
        return old, False
    return game, True


def stored_key(game: GameRow) -> str:
    """The content key of a stored game (a result sent again must match it)."""
    # built unvalidated: a row stored before a check was added must not make this raise
    return ResultIn.model_construct(
        date=game.played_on,
        event=game.event,
        set=game.set,
        divisor=game.divisor,
        lines=[
            Line.model_construct(player=ln.player.number, points=ln.points, pips=ln.pips)
            for ln in game.lines
        ],
    ).content_key()


def submit_many(
    s: Session,
    results: Sequence[ResultIn | dict[str, Any]],
    *,
    now: dt.datetime | None = None,
    labels: Sequence[str] | None = None,
) -> list[tuple[GameRow, bool]]:
    """Submit several results; the first bad one raises naming it (``labels[i]``,
    default "result i+1"), and as the caller's transaction rolls back, nothing is stored.

    A result dict's ``received`` (a datetime: an archive's column, see
    :mod:`fido.ranking.importer`) is its own receipt; the others are received ``now``.
    """
    closed = closed_until(s)
    out = []
    for i, r in enumerate(results):
        try:
            when = now
            if isinstance(r, dict) and "received" in r:
                r = dict(r)
                when = r.pop("received") or now
            out.append(submit(s, r, now=when, closed=closed))
        except ResultError as e:
            label = labels[i] if labels else f"result {i + 1}"
            raise ResultError(f"{label}: {e}") from None
    return out


def find_game(s: Session, game_id: int, *, lock: bool = False) -> GameRow:
    """The stored game with this id; an error (never a database overflow) if none.
    ``lock``: held until the transaction ends, for a change that depends on its state
    (a review: two at once take turns, the second sees the first)."""
    check_number(game_id, _("a game number"))
    game = s.get(GameRow, game_id)
    if game is None:
        raise ResultError(_("there is no game {game}").format(game=game_id), field="game")
    if lock:  # read again under the lock, even if this session had it: its reviews too
        s.refresh(game, with_for_update=True)
    return game


def games_of(s: Session, numbers: Iterable[int] | None = None) -> list[GameRow]:
    """The stored games, oldest first; with ``numbers``, only those players' games."""
    q = select(GameRow).order_by(GameRow.played_on, GameRow.id)
    if numbers is not None:
        ids = [i for n in numbers for i in with_merged(s, find_player(s, n))]
        q = q.where(GameRow.id.in_(select(LineRow.game_id).where(LineRow.player_id.in_(ids))))
    return list(s.scalars(q))
