"""Request and response models: they make the OpenAPI schema exact.

Text typed by a user is refused when it holds control characters (ESC, bidi
overrides, NUL...) and kept as typed otherwise: ``<b>`` in a name is text,
escaped by whoever shows it, never stripped.
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from fido.i18n import LANGUAGES, _
from fido.safe_text import control_chars
from fido.store.models import INT_MAX

__all__ = [
    "AccountDeletion",
    "AccountOut",
    "AddressOut",
    "AgainIn",
    "AgainOut",
    "ClaimDecision",
    "ClaimFor",
    "ClaimOut",
    "EmailIn",
    "ErrorBody",
    "ErrorDetail",
    "Health",
    "JoinIn",
    "LanguageChoice",
    "LinkToken",
    "MatchDetail",
    "MatchIn",
    "MatchOut",
    "NoticesIn",
    "PlayerLink",
    "ResetAsk",
    "ResetAsked",
    "ResetIn",
    "SeatIn",
    "SeatOut",
    "SessionInfo",
    "SignIn",
    "SignUp",
    "TableIn",
    "TableList",
    "TableOut",
]

NAME_MIN, NAME_MAX = 2, 40
PASSWORD_MIN, PASSWORD_MAX = 8, 256  # an upper bound: hashing a megabyte is a denial of service


def _no_control(text: str) -> str:
    bad = control_chars(text)
    if bad:
        raise ValueError(_("it holds control characters ({chars})").format(
            chars=", ".join(dict.fromkeys(bad))))
    return text


def _name(text: str) -> str:
    text = unicodedata.normalize("NFC", _no_control(text))
    if text != text.strip():
        raise ValueError(_("it must not begin or end with a space"))
    return text


def _password(text: str) -> str:
    # a lone surrogate (JSON "\ud800") cannot be encoded for hashing
    if any(unicodedata.category(ch) == "Cs" for ch in text):
        raise ValueError(_("it holds an invalid character (a lone surrogate)"))
    return text


def _email(text: str) -> str:
    _no_control(text)
    local, at, domain = text.partition("@")
    if not at or not local or "." not in domain or any(ch.isspace() for ch in text):
        raise ValueError(_("it is not an email address"))
    return text


Name = Annotated[str, Field(min_length=NAME_MIN, max_length=NAME_MAX), AfterValidator(_name)]
Password = Annotated[
    str, Field(min_length=PASSWORD_MIN, max_length=PASSWORD_MAX), AfterValidator(_password)
]
Email = Annotated[str, Field(min_length=3, max_length=254), AfterValidator(_email)]


class _In(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SignUp(_In):
    """Sign up; with a guest session active, the guest becomes this account."""

    name: Name
    password: Password
    email: Email | None = None


class EmailIn(_In):
    """Her new email address (null: none); a confirmation link goes to a new one."""

    email: Email | None


class VacationIn(_In):
    """Days of vacation from now (her clocks at turn-based tables wait), or 0: end it."""

    days: Annotated[int, Field(ge=0, le=14)]


class VacationOut(BaseModel):
    until: dt.datetime | None  # the end of her vacation (None: she is on none)


class NoticesIn(_In):
    """Her inbox's news by mail, on or off (on: a confirmed address first)."""

    on: bool


class LinkToken(_In):
    """The token of a link mailed to her (an address's confirmation, an unsubscribe)."""

    token: Annotated[str, Field(min_length=1, max_length=600)]


class AddressOut(BaseModel):
    """Her address as the account page shows it: confirmed or not, whether the news go
    to it, and whether this server sends mail at all."""

    email: str | None
    confirmed: bool
    notices: bool
    mail: bool


class ResetAsk(_In):
    """Ask for a password reset's link, sent to the account's email address."""

    name: Annotated[str, Field(min_length=1, max_length=NAME_MAX)]


class ResetAsked(BaseModel):
    """The same answer whether the name is an account's or not (nobody learns which
    names exist): a link is on its way if the account has an address."""

    status: Literal["sent"] = "sent"


class ResetIn(_In):
    """A new password, with the reset link's token."""

    token: Annotated[str, Field(min_length=1, max_length=400)]
    password: Password


class AccountDeletion(_In):
    """Delete my account: a registered account's password, asked again (a guest has
    none: she leaves it out)."""

    password: Annotated[str | None, Field(min_length=1, max_length=PASSWORD_MAX)] = None


class SignIn(_In):
    name: Annotated[str, Field(min_length=1, max_length=NAME_MAX)]
    password: Annotated[str, Field(min_length=1, max_length=PASSWORD_MAX)]


class PlayerLink(_In):
    """The world ranking's player number this account is."""

    number: Annotated[int, Field(ge=1, le=INT_MAX)]


class Health(BaseModel):
    status: Literal["ok"]
    version: str


class ClaimOut(BaseModel):
    """An account's request to be a ranking player, and the federation's answer."""

    id: int
    number: int  # the player asked for
    name: str  # her name in the ranking
    status: Literal["pending", "approved", "refused"]
    asked_at: dt.datetime
    decided_at: dt.datetime | None


class ClaimFor(ClaimOut):
    """A request as the federation sees it: whose it is."""

    account: int
    account_name: str


class ClaimDecision(_In):
    """The federation approves or refuses a request."""

    approve: bool


class AccountOut(BaseModel):
    id: int
    name: str  # a guest's is "guest N"
    guest: bool
    email: str | None
    player: int | None  # the linked ranking player's number
    claim: ClaimOut | None = None  # her newest request to be a player (the federation links)


class SessionInfo(BaseModel):
    """Who this browser is, and the CSRF token its state-changing requests must send."""

    kind: Literal["anonymous", "guest", "account"]
    account: AccountOut | None
    csrf_token: str


def _spoken(code: str) -> str:
    if code not in LANGUAGES:
        raise ValueError(_("it is not a language of the interface (one of: {codes})").format(
            codes=", ".join(LANGUAGES)))
    return code


class LanguageChoice(BaseModel):
    """A language of the interface, by its code (``en``, ``de``)."""

    language: Annotated[str, AfterValidator(_spoken)] = Field(
        json_schema_extra={"enum": list(LANGUAGES)})


class ErrorDetail(BaseModel):
    """A refusal: ``code`` for programs (stable, English), ``message`` for a person (in
    her language), ``field`` where it is about one input (``seats.2``; absent if none)."""

    code: str
    message: str
    field: str | None = None


class ErrorBody(BaseModel):
    error: ErrorDetail


# ---------------------------------------------------------------- tables

BotLevel = Literal["random", "greedy", "expert", "search", "champion"]


class SeatIn(_In):
    """A seat as the table's creator sets it: ``me``, ``open``, a ``bot`` of a level,
    or ``reserved`` for the account named ``name``."""

    kind: Literal["me", "open", "bot", "reserved"]
    level: BotLevel | None = None
    name: Name | None = None


MATCH_TARGET = (5, 1000)  # points a match may be played to
MATCH_HANDS = (2, 20)  # hands a match of hands may have


class MatchIn(_In):
    """A match instead of one hand: to ``goal`` points (``kind`` points; none: the
    ruleset's own target, e.g. 61 for Muggins) or ``goal`` hands (``kind`` hands; none:
    3, FIDO's championship groups)."""

    kind: Literal["points", "hands"]
    goal: Annotated[int, Field(ge=MATCH_HANDS[0], le=MATCH_TARGET[1])] | None = None


class MatchOut(BaseModel):
    """A table's match: its goal, the hand this table is, the hands finished, the
    running totals per side (``sides``: a team's seats, or one seat), and once it is
    over the winning side's index (None: a tie)."""

    id: str
    kind: Literal["points", "hands"]
    goal: int
    hand: int | None
    hands: int
    totals: list[int]
    sides: list[list[int]]
    over: bool
    winner: int | None


class AgainOut(BaseModel):
    """The seats that said yes to playing again, the seat of the table's creator, and
    whether she asked for bots in the seats of those who left."""

    yes: list[int] = []
    no: list[int] = []  # the seats whose person declined
    creator: int | None = None
    bots: bool = False


class AgainIn(_In):
    bots: bool = False  # the creator's yes: bots replace those who left


class MatchHand(BaseModel):
    hand: int | None
    table: str
    status: str
    match_points: list[int] | None  # what the hand gave each side (None: not finished)


class MatchDetail(MatchOut):
    ruleset: str
    players: int
    status: Literal["playing", "finished"]
    tables: list[MatchHand]


class TableIn(_In):
    ruleset: Annotated[str, Field(min_length=1, max_length=200, examples=["fido set=9"])]
    players: Annotated[int, Field(ge=2, le=9)]
    seats: Annotated[list[SeatIn], Field(max_length=9)] | None = None  # default: me, then open
    rated: bool = False  # for the world ranking (FIDO between people)
    rates: bool = True  # moves the players' game ratings (false: a friendly game)
    private: bool = False  # joined only through the invite link (or a reserved seat)
    # seconds per move; an hour or more (up to 3 days) makes the table turn-based
    clock: Annotated[int, Field(ge=5, le=259200)] | None = None
    grace: Annotated[int, Field(ge=5, le=3600)] = 60  # seconds away before a bot plays
    # how often her clock may run out before the stand-in takes her seat for the game;
    # None: 3 at a turn-based table, else never
    timeouts: Annotated[int, Field(ge=1, le=20)] | None = None
    forced: bool | None = None  # draw and pass for her when that is her only move
    # (None: on at a turn-based table)
    match: MatchIn | None = None  # None: one hand


class JoinIn(_In):
    seat: Annotated[int, Field(ge=0, le=8)] | None = None  # default: the first free one
    invite: Annotated[str, Field(max_length=64)] | None = None


class SeatOut(BaseModel):
    kind: Literal["open", "reserved", "person", "bot"]
    name: str
    bot: str | None
    account: int | None
    away: bool
    replaced: bool = False  # her clock ran out too often: the stand-in plays her seat
    for_you: bool = False  # reserved for the account asking (whom for is not told others)


class TableOut(BaseModel):
    id: str
    ruleset: str
    players: int
    status: Literal["open", "running", "finished", "abandoned"]
    rated: bool
    private: bool
    clock: int | None
    grace: int
    turn_based: bool = False  # a clock of an hour or more: away is no reason to replace
    timeouts: int | None = None  # her clock may run out this often, then she is replaced
    forced: bool = False  # draws and passes are played for her when they are her only move
    rates: bool = True  # its game moves the players' game ratings
    deadline: float | None  # Unix seconds: when the seat to move runs out of time
    seats: list[SeatOut]
    seq: int  # the last event of its log
    finished: bool  # a game record can be downloaded
    invite: str | None = None  # the invite code, shown to its seated people only
    my_seat: int | None = None
    match: MatchOut | None = None  # a hand of a match
    next: str | None = None  # the table everyone went on to (the next hand, a rematch)
    again: AgainOut = AgainOut()
    # the account asking may take a seat: one is open (and the table is not private), or
    # one is reserved for her; her_seat: the first seat reserved for her
    joinable: bool = False
    her_seat: int | None = None


class TableList(BaseModel):
    tables: list[TableOut]
