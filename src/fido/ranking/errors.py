"""The error every ranking module raises on bad input."""

from __future__ import annotations

from fido.errors import FidoError

__all__ = ["ResultError"]


class ResultError(FidoError):
    """A result, player, review or file that cannot be accepted; nothing was stored."""
