"""A player's vacation: while it lasts, her clocks at turn-based tables wait for her.

A clock of hers that runs out during her vacation does not let the stand-in play: it
starts again, whole, when the vacation ends (:meth:`fido.server.tables.room.Room._timed`
writes that in the table's log). Within limits, so that nobody holds a table for ever:
at most :data:`MAX_DAYS` days at a time, and a new one only :data:`REST_DAYS` days
after the last ended; while one runs she may end it, not lengthen it.
"""

from __future__ import annotations

import datetime as dt

from fido.i18n import _, ngettext
from fido.store import Account, aware

__all__ = ["MAX_DAYS", "REST_DAYS", "on_vacation", "refusal", "set_vacation"]

MAX_DAYS = 14
REST_DAYS = 7



def on_vacation(account: Account, now: dt.datetime) -> dt.datetime | None:
    """The end of her vacation, if she is on one now."""
    until = account.vacation_until
    return aware(until) if until is not None and aware(until) > now else None


def refusal(account: Account, days: int, now: dt.datetime) -> str | None:
    """Why she may not take ``days`` of vacation from ``now`` (0: end the one running);
    None when she may."""
    if not 0 <= days <= MAX_DAYS:
        return ngettext("a vacation lasts at most {n} day", "a vacation lasts at most {n} days",
                        MAX_DAYS).format(n=MAX_DAYS)
    if days == 0:
        return None
    if on_vacation(account, now) is not None:
        return _("you are on vacation already: end it first, or let it run")
    last = account.vacation_until
    if last is not None and aware(last) + dt.timedelta(days=REST_DAYS) > now:
        return ngettext("a new vacation begins {n} day after the last one ended",
                        "a new vacation begins {n} days after the last one ended",
                        REST_DAYS).format(n=REST_DAYS)
    return None


def set_vacation(account: Account, days: int, now: dt.datetime) -> dt.datetime | None:
    """Take ``days`` of vacation from ``now``, or end the one running (0); the end of
    her vacation now (None: none). The caller asked :func:`refusal` first."""
    if days == 0:
        if on_vacation(account, now) is not None:
            account.vacation_until = now
        return None
    account.vacation_until = now + dt.timedelta(days=days)
    return account.vacation_until
