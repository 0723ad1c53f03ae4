"""The error every ranking module raises on bad input."""

from __future__ import annotations

from fido.errors import FidoError

__all__ = ["ResultError"]


class ResultError(FidoError):
    """A result, player, review or file that cannot be accepted; nothing was stored.

    The message is a sentence in the current language; ``field`` ("date", "set",
    "divisor", "lines", "player", "points", "twice", "game") and ``player`` (a
    player number) say what it is about, so a form puts it beside the right field
    without reading the sentence.
    """

    def __init__(self, message: str, *, field: str | None = None,
                 player: int | None = None) -> None:
        super().__init__(message)
        self.field, self.player = field, player
