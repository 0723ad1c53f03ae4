"""The errors fido raises. All are ``ValueError``s, as in python-chess.

Each message says what was wrong and, where there is one, the fix.
"""

from __future__ import annotations

from fido.safe_text import printable

__all__ = [
    "AmbiguousMoveError",
    "ArgumentError",
    "ConfigurationError",
    "FidoError",
    "IllegalMoveError",
    "NotationError",
    "RecordError",
    "Refused",
    "quote",
]


class FidoError(ValueError):
    """Base class of every error fido raises on bad input."""


class Refused(FidoError):
    """An action refused for a reason: ``code`` for a program (stable, English) and the
    sentence for a person; nothing of HTTP.

    The one refusal family: a table's room, the accounts, roles and claims raise it (or a
    subclass); the server answers it with the status its code has there (one table:
    ``fido.server.errors.STATUS``), the command line with an ``error:`` line, the pages
    with their message.
    """

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code, self.message = code, message
        self.field = field  # the input it is about ("seats.2"), for a form to show it there


class ArgumentError(FidoError):
    """A value of the wrong type or out of range handed to a fido function."""


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


def quote(value: object, limit: int = 40) -> str:
    """A user's value quoted for a message: bounded, control characters escaped.

    Error messages repeat what was typed; a huge number or a screen-clearing
    escape sequence must not come back through them.
    """
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**limit:
        return f"a number of more than {limit} digits"
    try:
        text = value if isinstance(value, str) else repr(value)
    except Exception:  # a hostile __repr__ must not break the message
        text = f"<{type(value).__name__}>"
    short = printable(text, limit)
    return f"'{short}'" if isinstance(value, str) else short
