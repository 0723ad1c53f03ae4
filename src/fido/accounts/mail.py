"""A mail into the outbox (:class:`fido.store.OutboxMail`), written in the transaction
that asks for it and sent by the server's postman once that commits
(:mod:`fido.server.postman`): a mail server that is down delays mail and loses none."""

from __future__ import annotations

import datetime as dt
import json

from sqlalchemy.orm import Session

from fido.store import OutboxMail

__all__ = ["post"]


def post(s: Session, recipient: str, subject: str, body: str,
         headers: dict[str, str] | None = None) -> OutboxMail:
    """A mail into the outbox, sent once ``s`` commits; ``headers``: more of them
    (``List-Unsubscribe``)."""
    now = dt.datetime.now(dt.UTC)
    mail = OutboxMail(recipient=recipient, subject=subject[:200], body=body, created_at=now,
                      next_try_at=now, attempts=0,
                      headers=json.dumps(headers) if headers else None)
    s.add(mail)
    return mail
