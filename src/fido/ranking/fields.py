"""Input field types shared by players, results and reviews.

A number or id beyond what the store's Integer columns hold is refused here,
not by the database; text with control characters (see :mod:`fido.safe_text`)
is refused so that no one's terminal shows it later.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, Field

from fido.ranking.errors import ResultError
from fido.safe_text import control_chars
from fido.store.models import INT_MAX

__all__ = ["INT_MAX", "Number", "Text", "check_number", "check_text"]


def check_text(text: str, what: str = "") -> str:
    """``text`` if it holds no control character, else an error naming them.

    :class:`ResultError` is a ``ValueError``: pydantic reports it as a field's error.
    """
    bad = control_chars(text)
    if bad:
        chars = ", ".join(dict.fromkeys(bad))
        raise ResultError(f"{what + ' ' if what else ''}holds control characters ({chars})")
    return text


def check_number(n: int, what: str) -> int:
    """``n`` if it is a possible player number or id (1 .. INT_MAX), else an error."""
    if not 1 <= n <= INT_MAX:
        raise ResultError(f"{what} must be from 1 to {INT_MAX}, not {n}")
    return n


Text = Annotated[str, AfterValidator(check_text)]
Number = Annotated[int, Field(ge=1, le=INT_MAX)]
