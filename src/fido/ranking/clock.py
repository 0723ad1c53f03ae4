"""UTC timestamps, as the store keeps every time.

``FIDO_NOW`` (an ISO 8601 time, e.g. ``2026-12-01T00:05:00Z``) sets the ranking's
"now" for a whole process: tests start servers whose monthly close must see a
month as ended without waiting for it. Unset (always, in production), it is the
system clock.
"""

from __future__ import annotations

import datetime as dt
import os

from fido.ranking.errors import ResultError

__all__ = ["NOW_VARIABLE", "utc", "utcnow"]

NOW_VARIABLE = "FIDO_NOW"


def utcnow() -> dt.datetime:
    """The time now, in UTC (``$FIDO_NOW`` if it is set)."""
    fixed = os.environ.get(NOW_VARIABLE)
    if fixed:
        try:
            return utc(dt.datetime.fromisoformat(fixed.strip()))
        except ValueError:
            raise ResultError(
                f"{NOW_VARIABLE} is an ISO time such as 2026-12-01T00:05:00Z, not {fixed[:40]!r}"
            ) from None
    return dt.datetime.now(dt.UTC)


def utc(t: dt.datetime) -> dt.datetime:
    """``t`` in UTC; a naive time (SQLite hands them back naive) is taken as UTC."""
    return t.astimezone(dt.UTC) if t.tzinfo else t.replace(tzinfo=dt.UTC)
