"""An account asks to be a ranking player; the federation says yes or no.

A linked account plays rated games and enters score sheets in her player's
name, so an account cannot link itself: she asks (:func:`ask`), every
federation account sees the request on its page, and one of them approves
or refuses it (:func:`decide`). A server with no federation account at all
(a club's own, or ``make run`` at home) has nobody to ask: there the link
is made at once (:func:`ask_or_link`); granting the first federation role
turns the requests on. The federation links directly too
(:func:`link_player`, the federation's page and
``fido accounts link``); an account linked that way has its pending request
answered by it. These functions take a session and raise
:class:`~fido.errors.Refused`, like :mod:`fido.accounts.signup`.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from fido.accounts.notifications import notify_claim
from fido.accounts.roles import FEDERATION
from fido.errors import FidoError, Refused
from fido.i18n import _
from fido.ranking.players import find_player, register_player
from fido.store import Account, Player, PlayerClaim, RoleRow

__all__ = [
    "ask",
    "ask_or_link",
    "decide",
    "latest",
    "link_player",
    "links_at_once",
    "pending",
    "pending_count",
    "register_self",
]


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def link_player(s: Session, account: Account, number: int) -> Player:
    """Link ``account`` to the ranking's player ``number`` (404 unknown, 409 taken)."""
    try:
        player = find_player(s, number, live=True)
    except FidoError as e:
        raise Refused("unknown_player", str(e)) from None
    other = s.scalar(
        select(Account.name).where(Account.player_id == player.id, Account.id != account.id)
    )
    if other is not None:
        raise Refused("player_taken", _("player {number} is linked to the account '{name}'")
                      .format(number=number, name=other))
    account.player_id = player.id
    try:
        s.flush()  # two links of one player at once: the unique column refuses the second
    except IntegrityError:
        raise Refused("player_taken", _("player {number} is linked to another account")
                      .format(number=number)) from None
    for claim in s.scalars(select(PlayerClaim).where(PlayerClaim.account_id == account.id,
                                                    PlayerClaim.decided_at.is_(None))):
        # her request is answered by the link, and her inbox says so
        claim.decided_at, claim.approved = _now(), claim.player_id == player.id
        notify_claim(s, claim, now=claim.decided_at)
    s.flush()
    return player


def ask(s: Session, account: Account, number: int,
        now: dt.datetime | None = None) -> PlayerClaim:
    """Ask to be player ``number``; a request still pending is replaced by this one."""
    if account.guest:
        raise Refused("guest", _("a guest cannot be linked to a player: sign up first"))
    if account.player_id is not None:
        mine = s.get(Player, account.player_id)
        raise Refused("already_linked",
                      _("your account is player {number}; only the federation changes that")
                      .format(number=mine.number if mine else "?"))
    try:
        player = find_player(s, number, live=True)
    except FidoError as e:
        raise Refused("unknown_player", str(e)) from None
    if s.scalar(select(Account.id).where(Account.player_id == player.id)) is not None:
        raise Refused("player_taken", _("player {number} is linked to another account")
                      .format(number=number))
    # her row locked: two requests of hers at once take turns, one stays pending
    s.execute(select(Account.id).where(Account.id == account.id).with_for_update())
    claim = s.scalar(select(PlayerClaim).where(PlayerClaim.account_id == account.id,
                                               PlayerClaim.decided_at.is_(None)))
    if claim is None:
        claim = PlayerClaim(account_id=account.id, player_id=player.id,
                            asked_at=now or _now())
        s.add(claim)
    else:
        claim.player_id, claim.asked_at = player.id, now or _now()
    s.flush()
    return claim


def links_at_once(s: Session, account: Account, free: bool = True) -> bool:
    """Nobody is to be asked: she is the federation, or the server has no federation
    account and ``free`` (:func:`fido.server.policy.grants_at_once`)."""
    federation = s.scalar(select(RoleRow.account_id).where(RoleRow.role == FEDERATION).limit(1))
    return (free and federation is None) or s.scalar(select(RoleRow.id).where(
        RoleRow.account_id == account.id, RoleRow.role == FEDERATION)) is not None


def ask_or_link(s: Session, account: Account, number: int, free: bool = True) -> bool:
    """:func:`link_player` where :func:`links_at_once`, else :func:`ask`. True: linked."""
    if account.guest:
        raise Refused("guest", _("a guest cannot be linked to a player: sign up first"))
    if links_at_once(s, account, free):
        link_player(s, account, number)
        return True
    ask(s, account, number)
    return False


def register_self(s: Session, account: Account, free: bool = True) -> Player:
    """A new ranking player in her account's name, linked to her: only where nobody is to
    be asked (:func:`links_at_once`; a federation registers its players itself)."""
    if account.guest or account.name is None:
        raise Refused("guest", _("a guest cannot be a ranking player: sign up first"))
    if account.player_id is not None:
        mine = s.get(Player, account.player_id)
        raise Refused("already_linked", _("your account is player {number} already")
                      .format(number=mine.number if mine else "?"))
    if not links_at_once(s, account, free):
        raise Refused("federation_registers", _("the federation registers ranking "
                      "players here: ask it for your number"))
    try:
        player = register_player(s, account.name)
    except FidoError as e:
        raise Refused("invalid", str(e)) from None
    link_player(s, account, player.number)
    return player


def pending(s: Session, limit: int = 200) -> list[PlayerClaim]:
    """The requests waiting for the federation, oldest first."""
    return list(s.scalars(select(PlayerClaim).where(PlayerClaim.decided_at.is_(None))
                          .order_by(PlayerClaim.asked_at, PlayerClaim.id).limit(limit)))


def pending_count(s: Session) -> int:
    return s.scalar(select(func.count()).select_from(PlayerClaim)
                    .where(PlayerClaim.decided_at.is_(None))) or 0


def latest(s: Session, account_id: int) -> PlayerClaim | None:
    """Her newest request, pending or answered (what her results page tells her)."""
    return s.scalar(select(PlayerClaim).where(PlayerClaim.account_id == account_id)
                    .order_by(PlayerClaim.asked_at.desc(), PlayerClaim.id.desc()).limit(1))


def decide(s: Session, claim_id: int, by: Account, approve: bool,
           now: dt.datetime | None = None) -> PlayerClaim:
    """The federation's answer (the caller checked that ``by`` is the federation);
    approving links the account, or fails as :func:`link_player` does."""
    claim = s.get(PlayerClaim, claim_id, with_for_update=True,  # two answers take turns
                  populate_existing=True)
    if claim is None:
        raise Refused("unknown_claim", _("there is no request {number}").format(number=claim_id))
    if claim.decided_at is not None:
        raise Refused("decided", _("this request was answered already"))
    if approve:
        link_player(s, claim.account, claim.player.number)  # answers the claim too
    claim.decided_at, claim.decided_by, claim.approved = now or _now(), by.id, approve
    s.flush()
    if not approve:  # (approved: link_player has told her)
        notify_claim(s, claim, now=claim.decided_at)
    return claim
