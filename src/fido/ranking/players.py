"""Registered players: register, find by number, list, rename and merge.

A typo on a score sheet can register one person twice; :func:`merge_players`
undoes it without touching a stored game: the merged player's row records
whom she was merged into and when (:func:`merged_ids`), and the rankings
computed after the merge read her lines as the survivor's, so every month
published before it still recomputes bit for bit (docs/ranking.md).

Every function takes an open :class:`~sqlalchemy.orm.Session` from
:meth:`fido.store.Store.session`: a :class:`ResultError` in the caller's block
stores nothing.
"""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy import func, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from fido.i18n import _
from fido.ranking.clock import utc, utcnow
from fido.ranking.errors import ResultError
from fido.ranking.fields import INT_MAX, Number, Text, check_number, error_text
from fido.store import LineRow, Player, SnapshotRow

__all__ = [
    "PlayerIn",
    "find_player",
    "first_error",
    "list_players",
    "merge_players",
    "merged_ids",
    "month_merges",
    "player_of",
    "players_named",
    "register_player",
    "rename_player",
    "search_players",
    "survivor",
    "with_merged",
]


class PlayerIn(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    name: Text = Field(min_length=1, max_length=200)
    number: Number | None = None
    country: str | None = Field(default=None, pattern=r"^[A-Za-z]{2,3}$")


def first_error(e: ValidationError, what: str) -> str:
    """pydantic's first complaint as one line: ``what: field: message``."""
    first = e.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    msg = error_text(first)
    if first["type"] == "string_pattern_mismatch" and where == "country":
        msg = _("a country is a code of 2 or 3 letters, e.g. DE")
    return f"{what}: {where + ': ' if where else ''}{msg}"


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
        raise ResultError(first_error(e, _("player"))) from None
    given = p.number
    if given is None and s.get_bind().dialect.name == "postgresql":
        # registrations one at a time until commit, so "the highest number + 1"
        # is still free when it is written (SQLite's writers are serial already)
        s.execute(text("LOCK TABLE players IN SHARE ROW EXCLUSIVE MODE"))
    for _attempt in range(5):  # a concurrent registration took the next number: take the one after
        number = given or (s.scalar(select(func.max(Player.number))) or 0) + 1
        if number > INT_MAX:
            raise ResultError(_("the next player number would pass {most}: give a free "
                                  "number").format(most=INT_MAX))
        if s.scalar(select(Player.id).where(Player.number == number)) is not None:
            raise ResultError(_("player number {number} is already registered").format(
                number=number))
        row = Player(
            number=number,
            name=p.name,
            country=p.country.upper() if p.country else None,
            registered_at=utc(now or utcnow()),
        )
        try:
            with s.begin_nested():  # a savepoint: the race's loser keeps its transaction
                s.add(row)
                s.flush()
        except IntegrityError:
            if given is not None:
                raise ResultError(_("player number {number} is already registered").format(
                    number=number)) from None
            continue
        return row
    raise ResultError(_("other registrations kept taking the next number; try again"))


def find_player(s: Session, number: int, *, live: bool = False) -> Player:
    """The player with this number; an error (never a database overflow) if none.

    ``live``: a merged player is refused too, naming the one she was merged
    into (a new result or review must use the surviving number).
    """
    check_number(number, _("a player number"))
    row = s.scalar(select(Player).where(Player.number == number))
    if row is None:
        raise ResultError(_("no registered player has number {number}").format(number=number),
                          field="player", player=number)
    if live and row.merged_into is not None:
        into = survivor(s, row)
        raise ResultError(
            _("player {number} ({name}) was merged into player {into} ({into_name}): "
              "use {into}").format(number=number, name=row.name, into=into.number,
                                   into_name=into.name),
            field="player", player=number,
        )
    return row


def survivor(s: Session, player: Player) -> Player:
    """The player ``player`` was merged into, following merges of merges (herself if none)."""
    seen = {player.id}
    while player.merged_into is not None:
        nxt = s.get(Player, player.merged_into)
        if nxt is None or nxt.id in seen:  # a broken chain stops where it breaks
            break
        seen.add(nxt.id)
        player = nxt
    return player


def list_players(s: Session, *, merged: bool = False) -> list[Player]:
    """The registered players by number; merged ones only with ``merged``."""
    q = select(Player).order_by(Player.number)
    if not merged:
        q = q.where(Player.merged_into.is_(None))
    return list(s.scalars(q))


def rename_player(s: Session, number: int, name: str) -> tuple[Player, str]:
    """Correct a player's name; returns (her row, the old name).

    Names are not part of a published ranking's digest, so every month still
    verifies; a published month shows her under the new name.
    """
    p = find_player(s, number, live=True)
    try:
        new = PlayerIn(name=name).name
    except ValidationError as e:
        raise ResultError(first_error(e, _("player"))) from None
    old = p.name
    p.name = new
    s.flush()
    return p, old


def merge_players(
    s: Session, number: int, into: int, *, now: dt.datetime | None = None
) -> tuple[Player, Player, int]:
    """Merge player ``number`` (a second registration) into ``into``; returns
    (merged, survivor, her games).

    Refused when they played in one game together (two people, then) or
    either is merged already. The stored games keep their lines as entered.
    """
    old = find_player(s, number, live=True)
    new = find_player(s, into, live=True)
    if old.id == new.id:
        raise ResultError(f"player {number} cannot be merged into herself")
    mine = select(LineRow.game_id).where(LineRow.player_id == old.id)
    together = s.scalar(
        select(func.min(LineRow.game_id)).where(
            LineRow.player_id == new.id, LineRow.game_id.in_(mine)
        )
    )
    if together is not None:
        raise ResultError(
            f"players {number} and {into} both played in game {together}: they are two "
            "people, not one registered twice"
        )
    games = s.scalar(select(func.count()).select_from(LineRow).where(LineRow.player_id == old.id))
    old.merged_into = new.id
    old.merged_at = utc(now or utcnow())
    s.flush()
    return old, new, int(games or 0)


def merged_ids(s: Session, *, before: dt.datetime | None = None) -> dict[int, int]:
    """Store id of every merged player -> her survivor's, for the merges made
    before ``before`` (None: all of them); merges of merges are followed."""
    q = select(Player.id, Player.merged_into, Player.merged_at).where(
        Player.merged_into.is_not(None)
    )
    direct: dict[int, int] = {
        pid: into
        for pid, into, at in s.execute(q)
        if into is not None and (before is None or (at is not None and utc(at) < utc(before)))
    }
    out: dict[int, int] = {}
    for pid, first in direct.items():
        seen, end = {pid}, first
        while end in direct and end not in seen:
            seen.add(end)
            end = direct[end]
        out[pid] = end
    return out


def month_merges(s: Session, month: str) -> dict[int, int]:
    """The merges a month's ranking applies: those made before it was published
    (all of them for a month not published yet), so that a published month
    recomputes as it was published."""
    published_at = s.scalar(select(SnapshotRow.computed_at).where(SnapshotRow.month == month))
    return merged_ids(s, before=published_at)


def with_merged(s: Session, player: Player) -> list[int]:
    """Store ids of ``player`` and of everyone merged into her (for listings)."""
    merged = merged_ids(s)
    return [player.id, *(pid for pid, end in merged.items() if end == player.id)]


def players_named(s: Session, name: str, limit: int = 2) -> list[Player]:
    """The players (not merged into another) whose name is ``name``, its spaces as one;
    ``limit`` of them at most (two tell whether a name is someone's alone)."""
    return list(s.scalars(select(Player).where(
        Player.name == " ".join(name.split()), Player.merged_into.is_(None)).limit(limit)))


def search_players(s: Session, text: str, limit: int = 12) -> list[Player]:
    """The players (not merged into another) whose name holds ``text``, by name: what a
    sheet's form offers as she types (``%`` and ``_`` are letters here)."""
    like = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return list(s.scalars(select(Player).where(
        Player.name.ilike(f"%{like}%", escape="\\"), Player.merged_into.is_(None)
    ).order_by(Player.name, Player.number).limit(limit)))


def player_of(s: Session, player_id: int | None) -> Player | None:
    """The player with this store id (None: none, or no id)."""
    return s.get(Player, player_id) if player_id is not None else None

