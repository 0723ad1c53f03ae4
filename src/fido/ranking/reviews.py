"""Reviews of a stored result: confirmations, disputes, the federation's verdicts.

A result counts in the ranking unless a fellow player has disputed it and the
federation has not settled the dispute by accepting it; a rejected result
never counts. :func:`status_at` gives the status at any moment, from the
review rows, so a month's ranking can be recomputed later bit for bit.

Every function takes an open :class:`~sqlalchemy.orm.Session`; a
:class:`ResultError` in the caller's block stores nothing.
"""

from __future__ import annotations

import datetime as dt
from enum import StrEnum

from sqlalchemy.orm import Session

from fido.ranking.clock import utc, utcnow
from fido.ranking.errors import ResultError
from fido.ranking.fields import check_text
from fido.ranking.players import find_player
from fido.ranking.submission import find_game
from fido.store import GameRow, ReviewRow

__all__ = ["NOTE_MAX", "Status", "confirm", "dispute", "settle", "status_at"]

NOTE_MAX = 2000  # characters in a review's note


class Status(StrEnum):
    SUBMITTED = "submitted"  # counts; nobody has reviewed it yet
    CONFIRMED = "confirmed"  # counts; every other player confirmed
    DISPUTED = "disputed"  # does not count until settled
    ACCEPTED = "accepted"  # a dispute settled in the result's favour: counts
    REJECTED = "rejected"  # settled against the result: never counts

    @property
    def counts(self) -> bool:
        return self not in (Status.DISPUTED, Status.REJECTED)


def status_at(game: GameRow, at: dt.datetime | None = None) -> Status:
    """The result's status after the reviews made before ``at`` (default: all)."""
    players = {ln.player_id for ln in game.lines}
    if game.submitted_by is not None:
        players.discard(game.submitted_by)
    status = Status.SUBMITTED
    confirmed: set[int] = set()
    for rv in game.reviews:
        if at is not None and utc(rv.at) >= utc(at):
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


def _note(note: str) -> str:
    """A review's note, refused if it holds control characters or is too long."""
    check_text(note, "the note")
    if len(note) > NOTE_MAX:
        raise ResultError(f"the note has {len(note)} characters; at most {NOTE_MAX}")
    return note


def _review(
    s: Session, game_id: int, number: int, verdict: str, *, note: str, now: dt.datetime | None
) -> Status:
    note = _note(note)
    game = find_game(s, game_id)
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
        ReviewRow(player_id=player.id, verdict=verdict, at=utc(now or utcnow()), note=note)
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
    note = _note(note)
    game = find_game(s, game_id)
    if status_at(game) is not Status.DISPUTED:
        raise ResultError(f"game {game_id} is not disputed ({status_at(game).value})")
    verdict = "accept" if accept else "reject"
    at = utc(now or utcnow())
    game.reviews.append(ReviewRow(player_id=None, verdict=verdict, at=at, note=note))
    s.flush()
    return status_at(game)
