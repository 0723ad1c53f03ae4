"""Text typed by users, made harmless before a terminal shows it.

A name holding ``[/x]`` is Rich markup that makes the table printing it raise;
one holding ``ESC [2J`` clears the screen of whoever lists it. Input is refused
when it holds control characters (:func:`control_chars`); whatever reaches a
terminal anyway goes through :func:`printable` (plain output) or :func:`shown`
(Rich output: a :class:`~rich.text.Text`, which Rich never reads as markup).

>>> printable("tab\\there \\x1b[2J")
'tab\\\\there \\\\x1b[2J'
>>> shown("[/x]").plain
'[/x]'
"""

from __future__ import annotations

import re

from rich.text import Text

__all__ = ["control_chars", "printable", "shown"]

# C0 and C1 controls and DEL; line and paragraph separators; the bidirectional
# overrides and isolates, which reorder what a terminal shows
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def control_chars(text: str) -> list[str]:
    """The control characters in ``text``, as visible escapes (empty: none)."""
    return [_visible(m) for m in _CONTROL.finditer(text)]


def _visible(m: re.Match[str]) -> str:
    c = m.group()
    if c in _NAMED:
        return _NAMED[c]
    return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"


def printable(text: object) -> str:
    """``text`` with every control character written as a visible escape (``\\x1b``)."""
    return _CONTROL.sub(_visible, str(text))


def shown(text: object, style: str = "") -> Text:
    """``text`` for Rich, shown exactly as typed: never read as markup, no controls."""
    return Text(printable(text), style=style)
