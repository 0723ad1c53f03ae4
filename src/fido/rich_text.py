"""User text printed through Rich: never read as markup, no control characters.

A name holding ``[/x]`` is Rich markup that makes the table printing it raise.
:func:`safe` gives a string for markup contexts (``console.print``, table
cells), :func:`shown` a :class:`~rich.text.Text`, which Rich never reads as
markup; both first make control characters visible
(:func:`fido.safe_text.printable`).

>>> shown("[/x]").plain
'[/x]'
>>> safe("[/x]")
'\\\\[/x]'
"""

from __future__ import annotations

from rich.markup import escape
from rich.text import Text

from fido.safe_text import printable

__all__ = ["safe", "shown"]


def safe(text: object, limit: int | None = None) -> str:
    """:func:`~fido.safe_text.printable`, with Rich markup escaped."""
    return escape(printable(text, limit))


def shown(text: object, style: str = "") -> Text:
    """``text`` for Rich, shown exactly as typed: never read as markup, no controls."""
    return Text(printable(text), style=style)
