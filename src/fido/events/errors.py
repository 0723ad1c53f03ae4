"""The error of the events package: bad input to a draw, a standings table or a deal."""

from __future__ import annotations

from fido.errors import ArgumentError

__all__ = ["EventError"]


class EventError(ArgumentError):
    """Players, tables, rounds or results that a championship cannot use (a ``ValueError``).

    The message names what was wrong and, where there is one, the fix; nothing
    was drawn or computed.
    """
