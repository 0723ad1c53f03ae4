"""Roles and what they allow: player, organiser of a scope, federation.

Every account is a *player*: she enters score sheets of her own games and
confirms or disputes the sheets of games she played in (the ranking API
checks that she played: :mod:`fido.ranking.reviews`). Two roles are stored
(``account_roles``), granted with ``fido accounts grant`` or on the federation's
page, where the requests to organise wait (:func:`ask_organiser`,
:func:`decide_request`; a server with no federation account grants at once):

* **organiser** of a scope, ``club:NAME``, ``event:NAME`` or ``event:#ID``: enters
  sheets of games in her scope for others and settles their disputes.
* **federation** (no scope): registers players, links accounts to them,
  settles any dispute and publishes the rankings. Only the federation settles a
  dispute about an online game (played at the server's tables): no scope covers one.

``event:#ID`` names one of the server's events by its id and covers exactly the
games of that event's tables; creating an event grants its creator that scope,
and nothing wider (a name she picks could match other games).

A scope covers a game by the game's ``event`` text (the "place or event" of
its sheet), compared as :func:`event_key` writes both (whitespace collapsed,
case folded): the game's text must be the scope's name, or begin with it
followed by something that is not a letter or digit. So ``club:Rostock``
covers "Rostock", "rostock  club night 12" and "Rostock: round 2", but not
"Rostocker Open"; ``event:Baltic Open 2026`` covers "Baltic Open 2026, round
3". The kind (club or event) names what the scope is; it does not change
the matching. An organiser does not settle a game she played in herself:
the federation does (no one judges her own result).
"""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from fido.accounts.names import name_key
from fido.accounts.notifications import notify_request
from fido.errors import Refused
from fido.i18n import _
from fido.safe_text import control_chars
from fido.store import Account, ChampionshipTable, GameRow, OrganiserRequest, RoleRow

__all__ = [
    "FEDERATION",
    "ORGANISER",
    "ROLES",
    "SCOPE_KINDS",
    "RoleError",
    "ask_organiser",
    "check_settle",
    "check_submit",
    "covers",
    "covers_game",
    "decide_request",
    "event_key",
    "event_scope",
    "every_role",
    "find_account",
    "grant",
    "is_federation",
    "latest_request",
    "may_organise",
    "nobody_to_ask",
    "parse_scope",
    "pending_requests",
    "revoke",
    "roles_of",
    "settlers",
]

ORGANISER = "organiser"
FEDERATION = "federation"
ROLES = ("player", ORGANISER, FEDERATION)
SCOPE_KINDS = ("club", "event")
SCOPE_MAX = 200


class RoleError(Refused):
    """A role that cannot be granted, or an action the account's roles do not allow."""

    def __init__(self, message: str, code: str = "role") -> None:
        super().__init__(code, message)


def event_key(text: str) -> str:
    """An event or scope name as compared: NFKC, whitespace collapsed, case folded."""
    return " ".join(unicodedata.normalize("NFKC", text).split()).casefold()


def event_scope(event_id: int) -> str:
    """The scope of one of the server's events, by its id."""
    return f"event:#{event_id}"


def _event_id(scope: str) -> int | None:
    """The event id an ``event:#ID`` scope names (None: a name scope)."""
    kind, _sep, name = scope.partition(":")
    if kind != "event" or not name.startswith("#") or not name[1:].isascii() \
            or not name[1:].isdigit():
        return None
    return int(name[1:])


def parse_scope(text: str) -> str:
    """``club:NAME``, ``event:NAME`` or ``event:#ID`` written one way (kind in lower case,
    the name's whitespace collapsed); a :class:`RoleError` says what is wrong."""
    if control_chars(text):
        raise RoleError(_("a scope holds no control characters"))
    kind, sep, name = text.partition(":")
    kind, name = kind.strip().lower(), " ".join(name.split())
    if kind == "event" and name.startswith("#") and _event_id(f"event:{name}") is None:
        raise RoleError(_("event:#ID names an event by its number, not {text}")
                        .format(text=repr(text)))
    if not sep or kind not in SCOPE_KINDS or not name:
        raise RoleError(
            _("a scope is club:NAME or event:NAME (e.g. club:Rostock), not {text}")
            .format(text=repr(text)))
    scope = f"{kind}:{name}"
    if len(scope) > SCOPE_MAX:
        raise RoleError(_("a scope has at most {n} characters").format(n=SCOPE_MAX))
    return scope


def covers(scope: str, event: str) -> bool:
    """Whether a name scope covers a game whose event text is ``event`` (an id scope
    covers no text: :func:`covers_game`)."""
    if _event_id(scope) is not None:
        return False
    _kind, _sep, name = scope.partition(":")
    want, have = event_key(name), event_key(event)
    if not want or not have.startswith(want):
        return False
    rest = have[len(want):]
    return not rest or not rest[0].isalnum()


def covers_game(s: Session, scope: str, game: GameRow) -> bool:
    """Whether an organiser of ``scope`` is in charge of ``game``: never an online game
    (the federation's), an event's own games by its id, other games by their event text."""
    if game.source == "online":
        return False
    event_id = _event_id(scope)
    if event_id is not None:
        return s.scalar(select(ChampionshipTable.id).where(
            ChampionshipTable.championship_id == event_id,
            ChampionshipTable.game_id == game.id)) is not None
    return covers(scope, game.event)


def find_account(s: Session, name: str) -> Account:
    """The registered account of this name (as sign-in compares names)."""
    account = None
    if not control_chars(name):
        account = s.scalar(select(Account).where(Account.name_key == name_key(name)))
    if account is None:
        raise RoleError(_("there is no account named {name}").format(name=repr(name)))
    return account


def _checked(role: str, scope: str | None) -> tuple[str, str]:
    if role == FEDERATION:
        if scope:
            raise RoleError(_("the federation role has no scope"))
        return role, ""
    if role == ORGANISER:
        if not scope:
            raise RoleError(_("an organiser has a scope: --scope club:NAME or event:NAME"))
        return role, parse_scope(scope)
    if role == "player":
        raise RoleError(_("every account is a player: there is nothing to grant"))
    raise RoleError(_("unknown role {role} (one of: {roles})").format(
        role=repr(role), roles=f"{ORGANISER}, {FEDERATION}"))


def grant(
    s: Session, account: Account, role: str, scope: str | None = None,
    *, now: dt.datetime | None = None,
) -> tuple[RoleRow, bool]:
    """Give ``account`` the role (in ``scope``); returns the row and whether it is new."""
    if account.guest:
        raise RoleError(_("a guest holds no roles: she signs up first"))
    role, scope_ = _checked(role, scope)
    # her row locked: the same grant twice at once takes turns, the second finds the first
    s.execute(select(Account.id).where(Account.id == account.id).with_for_update())
    old = s.scalar(select(RoleRow).where(
        RoleRow.account_id == account.id, RoleRow.role == role, RoleRow.scope == scope_))
    if old is not None:
        return old, False
    row = RoleRow(account_id=account.id, role=role, scope=scope_,
                  granted_at=now or dt.datetime.now(dt.UTC))
    s.add(row)
    s.flush()
    return row, True


def revoke(s: Session, account: Account, role: str, scope: str | None = None) -> None:
    """Take the role (in ``scope``) from ``account``; an error if she does not hold it."""
    role, scope_ = _checked(role, scope)
    row = s.scalar(select(RoleRow).where(
        RoleRow.account_id == account.id, RoleRow.role == role, RoleRow.scope == scope_))
    if row is None:
        if scope_:
            raise RoleError(_("{name} is not {role} of {scope}").format(
                name=account.name, role=role, scope=scope_))
        raise RoleError(_("{name} is not {role}").format(name=account.name, role=role))
    s.delete(row)
    s.flush()


def roles_of(s: Session, account_id: int) -> list[RoleRow]:
    """The stored roles of an account (player is implied), federation first."""
    rows = s.scalars(select(RoleRow).where(RoleRow.account_id == account_id))
    return sorted(rows, key=lambda r: (r.role != FEDERATION, r.scope))


def is_federation(s: Session, account_id: int) -> bool:
    return any(r.role == FEDERATION for r in roles_of(s, account_id))


def _organises(s: Session, account_id: int, event: str | GameRow) -> str | None:
    """The first of the account's organiser scopes covering ``event`` (a sheet's event
    text, or a stored game), if any."""
    for r in roles_of(s, account_id):
        if r.role != ORGANISER:
            continue
        if covers_game(s, r.scope, event) if isinstance(event, GameRow) \
                else covers(r.scope, event):
            return r.scope
    return None


def check_submit(s: Session, account: Account, event: str, numbers: Iterable[int]) -> None:
    """Refuse (:class:`RoleError`) a sheet the account may not enter: she must be one
    of its players (by her linked player's number), an organiser of its event, or the
    federation."""
    if account.player is not None and account.player.number in set(numbers):
        return
    if is_federation(s, account.id) or _organises(s, account.id, event):
        return
    raise RoleError(_(
        "you can enter a sheet of a game you played in (your account is linked to one of "
        "its players), or as an organiser of its club or event, or as the federation"
    ))


def check_settle(s: Session, account: Account, game: GameRow) -> None:
    """Refuse (:class:`RoleError`) a settlement by an account whose roles do not allow it."""
    if is_federation(s, account.id):
        return
    if game.source == "online":
        raise RoleError(_("only the federation settles a dispute about an online game"))
    scope = _organises(s, account.id, game)
    if scope is None:
        held = [r.scope for r in roles_of(s, account.id) if r.role == ORGANISER]
        if not held:
            raise RoleError(_("only an organiser of the game's club or event, or the "
                              "federation, settles a dispute; players confirm or dispute"))
        raise RoleError(_("you organise {scopes}, which does not cover this game's event "
                          "{event}: its organiser or the federation settles it").format(
                              scopes=", ".join(held), event=repr(game.event)))
    if account.player_id is not None and account.player_id in {ln.player_id for ln in game.lines}:
        raise RoleError(_("you played in this game: the federation settles its dispute"))


def settlers(s: Session, game: GameRow) -> list[int]:
    """The accounts that may settle the game's dispute (for their notification)."""
    players = {ln.player_id for ln in game.lines}
    out = []
    for account_id, role, scope in s.execute(select(RoleRow.account_id, RoleRow.role,
                                                    RoleRow.scope)):
        if role == FEDERATION or (role == ORGANISER and covers_game(s, scope, game)):
            out.append(account_id)
    if not out:
        return []
    accounts = s.scalars(select(Account).where(Account.id.in_(out)))
    return sorted({a.id for a in accounts
                   if is_federation(s, a.id) or a.player_id not in players})


# ---------------------------------------------------------------- requests to organise


def nobody_to_ask(s: Session) -> bool:
    """The server has no federation account (yet)."""
    return _nobody_to_ask(s)


def may_organise(s: Session, account: Account | None) -> bool:
    """Whether she may create events: an organiser (of any scope) or the federation."""
    if account is None or account.guest:
        return False
    return any(r.role in (ORGANISER, FEDERATION) for r in roles_of(s, account.id))


def _nobody_to_ask(s: Session) -> bool:
    return s.scalar(select(RoleRow.id).where(RoleRow.role == FEDERATION).limit(1)) is None


def ask_organiser(s: Session, account: Account, scope: str,
                  *, now: dt.datetime | None = None, free: bool = True) -> OrganiserRequest:
    """She asks the federation for an organiser's role of ``scope`` (``club:NAME`` or
    ``event:NAME``); a request of hers still pending is replaced by this one. A server
    with no federation account has nobody to ask: with ``free`` the role is granted at
    once (the request is stored approved), else it waits for a federation account
    (:func:`fido.server.policy.grants_at_once`)."""
    if account.guest:
        raise RoleError(_("a guest holds no roles: she signs up first"), "guest")
    try:
        scope_ = parse_scope(scope)
    except RoleError as e:
        raise RoleError(e.message, "invalid") from None
    if _event_id(scope_) is not None:
        raise RoleError(_("an event's own scope comes with creating it: ask for a club "
                          "or an event by its name"), "invalid")
    now = now or dt.datetime.now(dt.UTC)
    # her row locked: two requests of hers at once take turns, one stays pending
    s.execute(select(Account.id).where(Account.id == account.id).with_for_update())
    if s.scalar(select(RoleRow.id).where(RoleRow.account_id == account.id,
                                         RoleRow.role == ORGANISER,
                                         RoleRow.scope == scope_)) is not None:
        raise RoleError(_("you are organiser of {scope} already").format(scope=scope_),
                        "already")
    request = s.scalar(select(OrganiserRequest).where(
        OrganiserRequest.account_id == account.id, OrganiserRequest.decided_at.is_(None)))
    if request is None:
        request = OrganiserRequest(account_id=account.id, scope=scope_, asked_at=now)
        s.add(request)
    else:
        request.scope, request.asked_at = scope_, now
    s.flush()
    if free and _nobody_to_ask(s):
        grant(s, account, ORGANISER, scope_, now=now)
        request.decided_at, request.approved = now, True
        s.flush()
    return request


def pending_requests(s: Session, limit: int = 200) -> list[OrganiserRequest]:
    """The requests to organise waiting for the federation, oldest first."""
    return list(s.scalars(select(OrganiserRequest)
                          .where(OrganiserRequest.decided_at.is_(None))
                          .order_by(OrganiserRequest.asked_at, OrganiserRequest.id)
                          .limit(limit)))


def latest_request(s: Session, account_id: int) -> OrganiserRequest | None:
    """Her newest request to organise, pending or answered."""
    return s.scalar(select(OrganiserRequest).where(OrganiserRequest.account_id == account_id)
                    .order_by(OrganiserRequest.asked_at.desc(), OrganiserRequest.id.desc())
                    .limit(1))


def decide_request(s: Session, request_id: int, by: Account, approve: bool,
                   *, now: dt.datetime | None = None) -> OrganiserRequest:
    """The federation's answer (``by`` must be the federation): approving grants her the
    organiser's role of the scope she asked for; she finds the answer in her inbox."""
    if not is_federation(s, by.id):
        raise RoleError(_("only the federation answers requests to organise"))
    request = s.get(OrganiserRequest, request_id, with_for_update=True,  # answers take turns
                    populate_existing=True)
    if request is None:
        raise RoleError(_("there is no request {number}").format(number=request_id),
                        "unknown_request")
    if request.decided_at is not None:
        raise RoleError(_("this request was answered already"), "decided")
    now = now or dt.datetime.now(dt.UTC)
    if approve:
        grant(s, request.account, ORGANISER, request.scope, now=now)
    request.decided_at, request.decided_by, request.approved = now, by.id, approve
    s.flush()
    notify_request(s, request, now=now)
    return request


def every_role(s: Session) -> list[tuple[RoleRow, Account]]:
    """Every role held and who holds it, by role, name and scope: the federation's page."""
    rows = s.execute(select(RoleRow, Account).join(Account, Account.id == RoleRow.account_id)
                     .order_by(RoleRow.role, Account.name_key, RoleRow.scope)).all()
    return [(r, a) for r, a in rows]

