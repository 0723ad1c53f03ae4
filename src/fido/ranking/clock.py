"""UTC timestamps, as the store keeps every time."""

from __future__ import annotations

import datetime as dt

__all__ = ["utc", "utcnow"]


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def utc(t: dt.datetime) -> dt.datetime:
    """``t`` in UTC; a naive time (SQLite hands them back naive) is taken as UTC."""
    return t.astimezone(dt.UTC) if t.tzinfo else t.replace(tzinfo=dt.UTC)
