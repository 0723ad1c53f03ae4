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
from typing import Any

from sqlalchemy import Select, select
from sqlalchemy.orm import Session

from fido.i18n import N_, _
from fido.ranking.clock import utc, utcnow
from fido.ranking.errors import ResultError
from fido.ranking.fields import check_text
from fido.ranking.fladub import Params
from fido.ranking.players import find_player, with_merged
from fido.ranking.snapshot import closed_until, month_bounds, month_of, previous_month
from fido.ranking.submission import find_game
from fido.store import GameRow, ReviewRow, SnapshotRow

__all__ = [
    "NOTE_MAX",
    "STATUS_TEXT",
    "Status",
    "confirm",
    "counting_notes",
    "dispute",
    "disputed_games",
    "first_month",
    "settle",
    "status_at",
]

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


# a status as a person reads it (translated where shown; the value is for programs)
STATUS_TEXT: dict[Status, str] = {
    Status.SUBMITTED: N_("submitted"), Status.CONFIRMED: N_("confirmed"),
    Status.DISPUTED: N_("disputed"), Status.ACCEPTED: N_("accepted"),
    Status.REJECTED: N_("rejected"),
}


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
    check_text(note, _("the note"))
    if len(note) > NOTE_MAX:
        raise ResultError(_("the note has {n} characters; at most {most}").format(
            n=len(note), most=NOTE_MAX))
    return note


def _review(
    s: Session, game_id: int, number: int, verdict: str, *, note: str, now: dt.datetime | None
) -> Status:
    note = _note(note)
    game = find_game(s, game_id, lock=True)
    player = find_player(s, number, live=True)
    if not set(with_merged(s, player)) & {ln.player_id for ln in game.lines}:
        raise ResultError(_("player {player} did not play in game {game}").format(
            player=number, game=game_id))
    if player.id == game.submitted_by:
        raise ResultError(_("player {player} submitted game {game}; the others review it").format(
            player=number, game=game_id))
    current = status_at(game)
    if current is Status.REJECTED:
        raise ResultError(_("game {game} was rejected; it can no longer be reviewed").format(
            game=game_id))
    if current is Status.ACCEPTED and verdict == "dispute":
        raise ResultError(_("game {game}'s dispute was settled; it cannot be disputed "
                            "again").format(game=game_id))
    at = _dated(s, now)
    game.reviews.append(ReviewRow(player_id=player.id, verdict=verdict, at=at, note=note))
    s.flush()
    return status_at(game)


def _dated(s: Session, now: dt.datetime | None) -> dt.datetime:
    """A review's time, never inside a published month: a review dated before its
    cutoff would change a ranking that is published for good (verify would fail)."""
    at = utc(now or utcnow())
    closed = closed_until(s)
    if closed is not None and at < closed[1]:
        raise ResultError(
            _("a review dated {date} falls in {month}, which is published and closed; "
              "reviews count from {cutoff} UTC on").format(
                date=f"{at:%Y-%m-%d}", month=closed[0], cutoff=f"{closed[1]:%Y-%m-%d %H:%M}")
        )
    return at


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
    game = find_game(s, game_id, lock=True)
    if status_at(game) is not Status.DISPUTED:
        raise ResultError(_("game {game} is not disputed ({status})").format(
            game=game_id, status=_(STATUS_TEXT[status_at(game)])))
    verdict = "accept" if accept else "reject"
    game.reviews.append(ReviewRow(player_id=None, verdict=verdict, at=_dated(s, now), note=note))
    s.flush()
    return status_at(game)


def first_month(game: GameRow) -> str:
    """The first month whose ranking can count the game: received before its
    cutoff and played by its last day (the later of the two months)."""
    return max(month_of(utc(game.received_at)), month_of(game.played_on))


def _months(first: str, last: str) -> list[str]:
    """The months from ``first`` to ``last``, both included (none if last < first)."""
    out: list[str] = []
    m: str | None = last
    while m is not None and m >= first:
        out.append(m)
        m = previous_month(m)
    return out[::-1]


def _in_window(game: GameRow, month: str, window_days: int) -> bool:
    last_day, _ = month_bounds(month)
    return 0 <= (last_day - game.played_on).days < window_days


def _when(at: dt.datetime) -> str:
    return f"{utc(at):%Y-%m-%d %H:%M} UTC"


def counting_notes(
    s: Session, game: GameRow, *, window_days: int = Params().window_days
) -> list[str]:
    """Plain sentences on what each dispute after the game's first cutoff changes.

    A month is computed from the reviews made before its cutoff, so a dispute
    made later leaves that month (published or not yet) counting the game;
    published months never change. The dispute takes effect from the ranking
    of the month it was made in, until the federation settles it.
    """
    first = first_month(game)
    published = set(s.scalars(select(SnapshotRow.month).where(SnapshotRow.month >= first)))
    notes: list[str] = []
    for i, rv in enumerate(game.reviews):
        if rv.verdict != "dispute":
            continue
        made = month_of(utc(rv.at))  # the first month whose cutoff comes after it
        if made <= first:
            _, cutoff = month_bounds(first)
            notes.append(
                f"The dispute of {_when(rv.at)} came before the cutoff of {first} "
                f"({_when(cutoff)}), the first month that could count the game: "
                "no ranking counted it before the dispute."
            )
        else:
            before = [
                m for m in _months(first, previous_month(made) or first)
                if _in_window(game, m, window_days) and status_at(game, month_bounds(m)[1]).counts
            ]
            done = [m for m in before if m in published]
            waiting = [m for m in before if m not in published]
            _, last_cutoff = month_bounds(before[-1] if before else first)
            text = (
                f"The dispute of {_when(rv.at)} came after the cutoff of "
                f"{before[-1] if before else first} ({_when(last_cutoff)})."
            )
            if done:
                text += (
                    f" The published ranking{'s' if len(done) > 1 else ''} of "
                    f"{_span(done)} counted this game and still count{'' if len(done) > 1 else 's'}"
                    " it: published months never change."
                )
            if not before:
                text += " No ranking counted the game before it."
            if waiting:
                text += (
                    f" {_span(waiting)}, not published yet, will still count it: a month is "
                    "computed from the reviews made before its cutoff."
                )
            notes.append(text)
        notes.append(_from_then_on(game, i, max(made, first), window_days))
    return notes


def _span(months: list[str]) -> str:
    return months[0] if len(months) == 1 else f"{months[0]} to {months[-1]}"


def _from_then_on(game: GameRow, index: int, made: str, window_days: int) -> str:
    """What the dispute at ``game.reviews[index]`` does from the month it was made in."""
    _, cutoff = month_bounds(made)
    later = game.reviews[index + 1:]
    verdict = next((rv for rv in later if rv.verdict in ("accept", "reject")), None)
    if not _in_window(game, made, window_days):
        return (
            f"By {made} the game has left the {window_days}-day window: no later ranking "
            "would count it anyway."
        )
    if verdict is None:
        return (
            f"From the ranking of {made} on the game does not count, unless the federation "
            f"accepts it (fido results settle --accept) before a month's cutoff; settled "
            f"before {_when(cutoff)}, it counts in {made} again."
        )
    settled = month_of(utc(verdict.at))
    if verdict.verdict == "reject":
        return (
            f"The federation rejected it on {_when(verdict.at)}: it counts in no ranking "
            f"from {settled if settled > made else made} on."
        )
    if settled == made:
        return (
            f"The federation accepted it on {_when(verdict.at)}, before the cutoff of "
            f"{made}: the ranking of {made} counts it as if never disputed."
        )
    return (
        f"The federation accepted it on {_when(verdict.at)}: the rankings of "
        f"{_span(_months(made, previous_month(settled) or made))} do not count it, "
        f"those from {settled} on do again."
    )


def disputed_games(s: Session, hidden: Select[Any]) -> list[GameRow]:
    """The games with a dispute among their reviews, newest first, but those ``hidden``
    (the sheets sealed until their duplicate round is over: the policy's)."""
    disputed = select(ReviewRow.game_id).where(ReviewRow.verdict == "dispute")
    return list(s.scalars(select(GameRow).where(GameRow.id.in_(disputed),
                                                GameRow.id.not_in(hidden))
                          .order_by(GameRow.played_on.desc(), GameRow.id.desc())))

