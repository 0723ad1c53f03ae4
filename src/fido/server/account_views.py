"""Accounts and requests as the API shows them (:mod:`fido.server.schemas`)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from fido.accounts.claims import latest
from fido.server.schemas import AccountOut, ClaimOut
from fido.store import Account, Player, PlayerClaim

__all__ = ["account_out", "claim_out"]


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
