"""Who may see or do what, decided in one place: every endpoint and page that shows a
game's data, and every action reserved to a role, asks here.

A refusal is an :class:`~fido.server.errors.ApiError` whose code says why (a client
reads the code, a person the sentence). The rules (docs/server.md, docs/events.md):

* A running game's hands are secret: its record, replay and analyses exist only once it
  is over (409 ``not_finished``).
* A **private** table's game is seen by its players, and by whom its invite admits
  (403 ``private_table``); it is never listed to others.
* A **duplicate round** deals the same hands at every table: a table of it that has
  ended stays closed (record, replay, analyses, results, watching) until every table
  of the round has ended (409 ``round_playing``), or its replay would show the other
  tables the hands they are playing. Its result's score sheet (lines, finals, reviews)
  is shown nowhere, and listed nowhere, until then either (:func:`sheet_sealed`).
* The queue ("Play with people") shows a person her own entry only; of the others it
  tells how many wait for each game, never who (:func:`queue_entry`).
* Only a person seated at a finished table may ask to play it again (403
  ``not_seated``); a match is seen by whom its tables' lists show it to.
* Only the federation settles a dispute about an online game; an organiser's scope
  covers what it names exactly (:mod:`fido.accounts.roles`).
* The process's metrics (``/metrics``) are for the machine it runs on: a request
  straight from loopback (no proxy's ``X-Forwarded-For``), or one with the configured
  token (``Authorization: Bearer``); anyone else is answered as if it did not exist
  (:func:`may_read_metrics`).
* A person's data are hers: her export ("download my data") and her account's deletion
  are asked by her own session, and no role reads another's export (:func:`own_data`);
  deleting a registered account takes its password again.
* Creating an event takes an organiser's role (any scope) or the federation's
  (403 ``organiser``); an account without one asks the federation for it
  (:func:`fido.accounts.roles.ask_organiser`) and is shown that way, not the form.
"""

from __future__ import annotations

import functools
import hmac
import ipaddress
from collections.abc import Mapping
from typing import Any, Literal

from sqlalchemy import Select, bindparam, exists, func, or_, select
from sqlalchemy.orm import Session, aliased

from fido import puzzles
from fido.accounts import roles
from fido.accounts.names import name_key
from fido.events.rounds import TableResult, round_over
from fido.i18n import N_, _, ngettext
from fido.puzzles import Puzzle
from fido.server.errors import ApiError
from fido.server.tables.timers import TURN_BASED
from fido.store import (
    Account,
    ChallengeRow,
    Championship,
    ChampionshipTable,
    EventRow,
    QueueEntry,
    SeatRow,
    TableRow,
)

__all__ = [
    "STRONG_BOTS",
    "GameData",
    "bot_tables",
    "check_bot_tables_here",
    "check_organise",
    "game_data",
    "grants_at_once",
    "listed_tables",
    "match_tables",
    "may_organise",
    "may_read_metrics",
    "may_watch",
    "open_results",
    "own_data",
    "playing_at",
    "queue_entry",
    "rematch_seat",
    "round_playing",
    "sealed_sheets",
    "sealed_tables",
    "sheet_sealed",
]

GameData = Literal["record", "replay", "analysis"]
# each refusal's sentence for each of them, whole (a sentence is not glued from pieces)
_PRIVATE: dict[str, str] = {
    "record": N_("this table is private: its record is for its players (and whom its "
                 "invite admits)"),
    "replay": N_("this table is private: its replay is for its players (and whom its "
                 "invite admits)"),
    "analysis": N_("this table is private: its analysis is for its players (and whom its "
                   "invite admits)"),
}
_NOT_FINISHED: dict[str, str] = {
    "record": N_("the game is not finished: no record yet"),
    "replay": N_("the game is not finished: no replay yet"),
    "analysis": N_("the game is not finished: no analysis yet"),
}
_ROUND_PLAYING: dict[str, str] = {
    "record": N_("the other tables of this duplicate round are still playing the same "
                 "deal: the record opens when the round has ended"),
    "replay": N_("the other tables of this duplicate round are still playing the same "
                 "deal: the replay opens when the round has ended"),
    "analysis": N_("the other tables of this duplicate round are still playing the same "
                   "deal: the analysis opens when the round has ended"),
}


@functools.cache
def sealed_tables() -> Select[str | None]:
    """The ids of the tables of a duplicate round in which a table is still playing (or
    not yet seated): their games stay closed, whatever their own state. Built once (a
    statement is immutable): its aliases cost 2 ms to build, at every table's socket."""
    other = aliased(ChampionshipTable)
    other_row = aliased(TableRow)
    playing = (
        select(other.id)
        .outerjoin(other_row, other_row.id == other.table_id)
        .where(other.championship_id == ChampionshipTable.championship_id,
               other.round == ChampionshipTable.round,
               or_(other.table_id.is_(None), other_row.record.is_(None)))
        .correlate(ChampionshipTable)
    )
    return (
        select(ChampionshipTable.table_id)
        .join(Championship, Championship.id == ChampionshipTable.championship_id)
        .where(Championship.duplicate.is_(True), ChampionshipTable.table_id.is_not(None),
               exists(playing))
    )


def round_playing(s: Session, table_id: str) -> bool:
    """Whether ``table_id`` belongs to a duplicate round that is not over."""
    return s.scalar(_round_playing(), {"table_id": table_id}) is True


@functools.cache
def _round_playing() -> Select[bool]:
    sealed = sealed_tables().where(ChampionshipTable.table_id == bindparam("table_id"))
    return select(exists(sealed))


@functools.cache
def sealed_sheets() -> Select[int | None]:
    """The ids of the stored games (the ranking's score sheets) that are the results of
    tables of a duplicate round still playing (:func:`sealed_tables`): a list of sheets
    leaves them out until the round has ended (their finals tell the tables still playing
    about the same deal). Built once, like :func:`sealed_tables`."""
    return select(TableRow.ranking_game).where(TableRow.ranking_game.is_not(None),
                                               TableRow.id.in_(sealed_tables()))


def sheet_sealed(s: Session, game_id: int) -> bool:
    """Whether the stored game ``game_id`` is the result of a table of a duplicate round
    still playing: its score sheet (lines, finals, reviews) is shown to nobody, its own
    players neither, and nobody reviews it, until every table of the round has ended."""
    sealed = sealed_sheets().where(TableRow.ranking_game == game_id)
    return s.scalar(select(exists(sealed))) is True


def _seated(s: Session, table_id: str, viewer: Account | None) -> bool:
    if viewer is None:
        return False
    return s.scalar(select(exists().where(
        SeatRow.table_id == table_id, SeatRow.account_id == viewer.id))) is True


def _admitted(row: TableRow, invite: str | None) -> bool:
    return invite is not None and row.invite is not None and hmac.compare_digest(
        invite.encode(), row.invite.encode())


def game_data(s: Session, table_id: str, viewer: Account | None, what: GameData,
              invite: str | None = None) -> TableRow:
    """The finished table whose ``what`` the viewer asks for, or the refusal: 404 no such
    table, 403 private, 409 not finished or its duplicate round still playing."""
    row = s.get(TableRow, table_id)
    if row is None:
        raise ApiError(404, "no_table", _("there is no such table"))
    if row.private and not (_seated(s, table_id, viewer) or _admitted(row, invite)):
        raise ApiError(403, "private_table", _(_PRIVATE[what]))
    if row.record is None:
        raise ApiError(409, "not_finished", _(_NOT_FINISHED[what]))
    if round_playing(s, table_id):
        raise ApiError(409, "round_playing", _(_ROUND_PLAYING[what]))
    return row


def listed_tables(viewer: Account | None) -> Select[TableRow]:
    """The tables a list may show the viewer: public ones and the private ones she sits
    at or where a seat is reserved for her, never a table of a duplicate round still
    playing (its result would tell)."""
    key = name_key(viewer.name) if viewer is not None and viewer.name else None
    mine = select(SeatRow.table_id).where(or_(
        SeatRow.account_id == (viewer.id if viewer else -1),
        (SeatRow.kind == "reserved") & (SeatRow.reserved_for == (key or ""))))
    return select(TableRow).where(
        or_(TableRow.private.is_(False), TableRow.id.in_(mine)),
        or_(TableRow.record.is_(None), TableRow.id.not_in(sealed_tables())),
    )


def rematch_seat(s: Session, table_id: str, viewer: Account | None) -> int:
    """The seat of the person asking to play a finished game again: only a person seated
    at the table may (401 not signed in, 404 no table, 403 a spectator or a stranger)."""
    if viewer is None:
        raise ApiError(401, "signed_out", _("sign in or play as a guest first (POST /api/guest)"))
    if s.get(TableRow, table_id) is None:
        raise ApiError(404, "no_table", _("there is no such table"))
    seat = s.scalar(select(SeatRow.seat).where(
        SeatRow.table_id == table_id, SeatRow.account_id == viewer.id, SeatRow.kind == "person"))
    if seat is None:
        raise ApiError(403, "not_seated", _("only the players of this table can ask to play "
                                            "again"))
    return seat


def match_tables(viewer: Account | None, match_id: str) -> Select[TableRow]:
    """The hands of a match the viewer may see (the tables a list may show her)."""
    return listed_tables(viewer).where(TableRow.match_id == match_id)


def may_watch(s: Session, table_id: str, viewer: Account | None) -> bool:
    """Whether the viewer may open the table's live view as a spectator: not a table of a
    duplicate round still playing (its moves show the hands of the same deal)."""
    return not round_playing(s, table_id) or _seated(s, table_id, viewer)


def open_results(s: Session, event: Championship,
                 known: list[TableResult]) -> list[TableResult]:
    """The results of an event's tables that may be shown: those of a duplicate round
    still playing are held back (a table's finals tell the others about the same deal)."""
    if not event.duplicate or round_over(s, event, known):
        return known
    last = max((r.round for r in known), default=0)
    return [TableResult(r.round, r.number, None) if r.round == last else r for r in known]


def queue_entry(s: Session, viewer: Account | None, *, lock: bool = False) -> QueueEntry | None:
    """The viewer's own entry of the queue (None: she waits for nothing, or is nobody):
    the only entry anyone is shown. ``lock``: held until the transaction ends
    (PostgreSQL ``FOR UPDATE``), to change it."""
    if viewer is None:
        return None
    query = select(QueueEntry).where(QueueEntry.account_id == viewer.id)
    return s.scalar(query.with_for_update() if lock else query)


STRONG_BOTS = ("search", "champion")  # the levels that think for seconds a move


def bot_tables(s: Session, viewer: Account | None = None, *, strong: bool = False,
               opened_from: str | None = None) -> int:
    """How many tables with bots (``strong``: with a bot of :data:`STRONG_BOTS`) the
    viewer plays at now (a seat of hers, the table open or running), or that were opened
    from the address ``opened_from`` (:func:`fido.server.deps.address_tag`): a person's
    and an address's share of the bots' workers, which serve everyone."""
    bots = select(SeatRow.table_id).where(SeatRow.kind == "bot")
    if strong:
        bots = bots.where(SeatRow.bot.in_(STRONG_BOTS))
    query = select(func.count()).select_from(TableRow).where(
        TableRow.id.in_(bots), TableRow.status.in_(("open", "running")))
    if viewer is not None:
        query = query.where(TableRow.id.in_(select(SeatRow.table_id).where(
            SeatRow.kind == "person", SeatRow.account_id == viewer.id)))
    if opened_from is not None:
        query = query.where(TableRow.opened_from == opened_from)
    return s.scalar(query) or 0


def check_bot_tables_here(s: Session, tag: str, most: int, *, strong: bool = False) -> None:
    """Refuse (429 ``too_many_bot_tables_here``) a table with bots (``strong``: strong
    ones) opened from an address whose ``most`` such tables are open or running (0: no
    bound)."""
    if most <= 0:
        return
    playing = bot_tables(s, strong=strong, opened_from=tag)
    if playing >= most:
        raise ApiError(429, "too_many_bot_tables_here", (ngettext(
            "{n} table with strong bots (search, champion) opened from your address is "
            "being played: wait until it is over",
            "{n} tables with strong bots (search, champion) opened from your address are "
            "being played: wait until one of them is over", playing) if strong else ngettext(
            "{n} table with bots opened from your address is being played: wait until it "
            "is over",
            "{n} tables with bots opened from your address are being played: wait until "
            "one of them is over", playing)).format(n=playing))


def playing_at(s: Session, viewer: Account) -> str | None:
    """The running real-time table where the viewer holds a seat (None: she plays none):
    the queue deals her no other real-time table while she plays one (each queue table is
    a game of hers, bots included, on the server's shared workers). Her turn-based games
    run for days beside it."""
    return s.scalar(select(TableRow.id).join(SeatRow, SeatRow.table_id == TableRow.id).where(
        SeatRow.kind == "person", SeatRow.account_id == viewer.id,
        TableRow.status == "running",
        or_(TableRow.clock.is_(None), TableRow.clock < TURN_BASED)).limit(1))


def check_turn_based_games(s: Session, viewer: Account, most: int) -> None:
    """Refuse (409 ``turn_based_games``) one more turn-based game from the queue to
    someone who holds ``most`` running or open ones already: a person's games wait in
    memory for days, bots' seats included."""
    held = s.scalar(select(func.count()).select_from(TableRow).join(
        SeatRow, SeatRow.table_id == TableRow.id).where(
        SeatRow.kind == "person", SeatRow.account_id == viewer.id,
        TableRow.status.in_(("open", "running")), TableRow.clock >= TURN_BASED)) or 0
    if held >= most:
        raise ApiError(409, "turn_based_games", _(
            "you have {n} turn-based games already: finish one before you ask for "
            "another").format(n=held))

def challengeable(s: Session, viewer: Account, account_id: int) -> Account:
    """The person the viewer may challenge (or whose challenge she may accept): anyone
    but herself whom she does not block and who does not block her (404 ``no_player``,
    422 ``yourself``, 403 ``blocked``, the same words either way: a block is not told)."""
    from fido.accounts.social import blocked_between  # noqa: PLC0415

    who = s.get(Account, account_id) if 0 < account_id <= 2**31 - 1 else None
    if who is None:
        raise ApiError(404, "no_player", _("there is no such player"))
    if who.id == viewer.id:
        raise ApiError(422, "yourself", _("you cannot challenge yourself"))
    if blocked_between(s, viewer.id, who.id):
        raise ApiError(403, "blocked", _("no challenge between the two of you is possible"))
    return who


def challenge_of(s: Session, viewer: Account, challenge_id: int, role: Literal["to", "from"],
                 *, lock: bool = False) -> ChallengeRow:
    """A challenge the viewer answers (``to``: sent to her) or withdraws (``from``: hers),
    404 ``no_challenge`` otherwise: nobody learns of another's challenges."""
    query = select(ChallengeRow).where(ChallengeRow.id == challenge_id)
    if lock:
        query = query.with_for_update()
    c = s.scalar(query) if 0 < challenge_id <= 2**31 - 1 else None
    if c is None or (c.to_id if role == "to" else c.from_id) != viewer.id:
        raise ApiError(404, "no_challenge", _("there is no such challenge"))
    return c


def chat_muted(s: Session, viewer: Account) -> set[int]:
    """The accounts whose chat at a table is not sent to the viewer: the people she
    blocks (docs/people.md)."""
    from fido.accounts.social import blocked  # noqa: PLC0415

    return blocked(s, viewer.id)


def reportable_line(s: Session, viewer: Account, table_id: str, seq: int) -> EventRow:
    """A chat line the viewer may report to the federation: one she could read there (the
    table's chat is its watchers' too, where she may watch), not her own (404
    ``no_line`` otherwise: nobody learns of a line she could not read)."""
    row = s.get(EventRow, (table_id, seq)) if 0 <= seq <= 2**31 - 1 else None
    if (row is None or row.kind != "chat" or row.account_id == viewer.id
            or not may_watch(s, table_id, viewer)):
        raise ApiError(404, "no_line", _("there is no such chat line"))
    return row


def puzzle(viewer: Account | None, puzzle_id: str) -> Puzzle:
    """A puzzle anyone may see and try, signed in or not (404 ``no_puzzle``); its answer
    is told only with an answer (:func:`fido.server.puzzles_service.answer`)."""
    del viewer
    found = puzzles.by_id(puzzle_id)
    if found is None:
        raise ApiError(404, "no_puzzle", _("there is no such puzzle"))
    return found


def rates_puzzles(viewer: Account | None) -> bool:
    """Whether an answer moves a puzzle rating: hers when she has an account (a guest's
    too); a visitor without one is told the answer all the same."""
    return viewer is not None


def table_seats(s: Session, viewer: Account | None, table_id: str) -> TableRow:
    """A table whose seats the viewer asks about (404 ``no_table``): anyone's who knows
    its address, as the table itself (``GET /api/tables/{id}``) is."""
    del viewer
    row = s.get(TableRow, table_id)
    if row is None:
        raise ApiError(404, "no_table", _("there is no such table"))
    return row


def rated_person(s: Session, viewer: Account | None, account_id: int) -> Account:
    """The person whose game ratings the viewer asks for (404 ``no_player``): anyone's,
    to anyone, as her finished games and her page are (a rating says no more than they
    do); an account deleted is no one's."""
    del viewer  # everyone may read them
    who = s.get(Account, account_id) if 0 < account_id <= 2**31 - 1 else None
    if who is None:
        raise ApiError(404, "no_player", _("there is no such player"))
    return who


def own_data(viewer: Account | None) -> Account:
    """The account whose data a request may export or delete: the asker's own, signed in
    or a guest (401 otherwise); never another's, whatever her roles."""
    if viewer is None:
        raise ApiError(401, "signed_out", _("sign in first"))
    return viewer


def may_organise(s: Session, viewer: Account | None) -> bool:
    """Whether the viewer may create events (the events page shows her the form)."""
    return roles.may_organise(s, viewer)


def check_organise(s: Session, viewer: Account) -> None:
    """Refuse (403 ``organiser``) an event created by an account that may not organise."""
    if not may_organise(s, viewer):
        raise ApiError(403, "organiser", _(
            "organising an event takes an organiser's role (of a club or an event) or the "
            "federation's: ask the federation for one on the events page"))


# headers a proxy adds: a request carrying one came through it (from anywhere)
_FORWARDED = ("x-forwarded-for", "forwarded", "x-real-ip")


def may_read_metrics(scope: Mapping[str, Any], headers: Mapping[str, str],
                     token: str | None) -> bool:
    """``/metrics``: a request from the machine itself, or one with the token.

    From the machine itself: its peer is a loopback address and no proxy forwarded it
    (nginx on the same machine connects from loopback too: what it passes on carries
    ``X-Forwarded-For``, whoever sent it, and uvicorn has by then put the forwarded
    address in ``scope["client"]``). Else only ``Authorization: Bearer <token>`` with
    the token configured (``fido serve --metrics-token``, ``$FIDO_METRICS_TOKEN``),
    compared in constant time; a token is never read from the query (the access log
    writes the address).
    """
    given = headers.get("authorization", "")
    if token and given[:7].lower() == "bearer ":
        return hmac.compare_digest(given[7:].strip().encode(), token.encode())
    if any(h in headers for h in _FORWARDED):
        return False
    client = scope.get("client")
    try:
        return client is not None and ipaddress.ip_address(client[0]).is_loopback
    except ValueError:
        return False


Grants = Literal["auto", "always", "never"]


def grants_at_once(setting: Grants, public: bool, headers: Mapping[str, str]) -> bool:
    """On a server with no federation account, are organiser roles and player links
    granted at once (nobody is there to ask), or do they wait for a federation account?

    ``always``: granted (a club's laptop on its own network, said so explicitly);
    ``never``: they wait. ``auto`` (``fido serve``'s default): granted only to a request
    that reached a server listening on loopback directly, never through a proxy (its
    ``X-Forwarded-For``) nor on a server listening on another address (``public``): a
    server on the internet grants nothing to whoever asks first.
    """
    if setting != "auto":
        return setting == "always"
    return not public and not any(h in headers for h in _FORWARDED)

