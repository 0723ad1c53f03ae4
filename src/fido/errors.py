"""The errors fido raises. All are ``ValueError``s, as in python-chess.

Each message says what was wrong and, where there is one, the fix.
"""

from __future__ import annotations

__all__ = [
    "AmbiguousMoveError",
    "ConfigurationError",
    "FidoError",
    "IllegalMoveError",
    "NotationError",
    "RecordError",
]


class FidoError(ValueError):
    """Base class of every error fido raises on bad input."""


class NotationError(FidoError):
    """Text that is not a tile, move, table or ruleset in fido's notation."""


class IllegalMoveError(FidoError):
    """A well-formed move the rules do not allow now; the state is unchanged."""


class AmbiguousMoveError(FidoError):
    """A short move (just a tile) that fits more than one place."""


class ConfigurationError(FidoError):
    """A game that cannot be set up: unknown variant or option, impossible deal."""


class RecordError(FidoError):
    """A game record that is malformed or does not replay to what it claims."""

    def __init__(self, message: str, move_number: int | None = None) -> None:
        super().__init__(message)
        self.move_number = move_number
