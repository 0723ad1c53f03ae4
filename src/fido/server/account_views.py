"""Accounts and requests as the API shows them (:mod:`fido.server.schemas`), and who asks
as a page's nav shows her (:func:`person_json`)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy.orm import Session, object_session

from fido.accounts.claims import latest, pending_count
from fido.accounts.notifications import unread_of, waiting_for
from fido.accounts.roles import is_federation
from fido.accounts.social import challenges_waiting
from fido.accounts.vacation import on_vacation
from fido.i18n import _
from fido.server.schemas import AccountOut, ClaimOut
from fido.store import Account, Player, PlayerClaim

__all__ = ["account_out", "claim_out", "guest_name", "person_json"]


def account_out(s: Session, account: Account) -> AccountOut:
    number = None
    if account.player_id is not None:
        player = s.get(Player, account.player_id)
        number = player.number if player else None
    return AccountOut(
        id=account.id,
        name=account.name if account.name is not None else f"guest {account.id}",
        guest=account.guest,
        email=account.email,
        player=number,
        claim=claim_out(latest(s, account.id)) if not account.guest else None,
    )


def claim_out(claim: PlayerClaim | None) -> ClaimOut | None:
    if claim is None:
        return None
    return ClaimOut(id=claim.id, number=claim.player.number, name=claim.player.name,
                    status=("pending" if claim.decided_at is None
                            else "approved" if claim.approved else "refused"),
                    asked_at=claim.asked_at, decided_at=claim.decided_at)


def guest_name(account_id: int) -> str:
    """A guest as the pages name her (she has no name of her own): "guest 12"."""
    return _("guest {id}").format(id=account_id)


def person_json(account: Account) -> dict[str, Any]:
    """An account as the pages show her: name (a guest's in the reader's language), her
    unread notifications, and for the federation the requests waiting for it."""
    name = account.name if account.name is not None else guest_name(account.id)
    session = object_session(account)
    federation = session is not None and not account.guest and is_federation(session, account.id)
    return {"id": account.id, "name": name, "guest": account.guest,
            "unread": unread_of(account),  # the nav's count of notifications
            # the nav's count of games waiting for her move
            "waiting": waiting_for(session, account.id) if session is not None else 0,
            # the nav's count of challenges to her, open
            "challenges": challenges_waiting(session, account.id) if session is not None else 0,
            # the end of her vacation, while she is on one (her account's page says it)
            "vacation": on_vacation(account, dt.datetime.now(dt.UTC)),
            # the nav links the federation's page for the federation, with the requests waiting
            "federation": federation,
            "claims": pending_count(session) if federation and session is not None else 0}
