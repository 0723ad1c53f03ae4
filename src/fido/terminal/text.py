"""Text from outside (names, events, typed input, file names) made safe to show.

A player's name or a record's event is data, not markup or terminal control:
``[/x]`` would be read as Rich markup (and crash the result table), and an
ESC sequence in a record could clear or repaint the reader's terminal. So
everything such goes through :func:`plain` (control and format characters
shown as escapes, length capped) and, when printed through Rich, :func:`safe`.
"""

from __future__ import annotations

import unicodedata

from rich.markup import escape

__all__ = ["has_control", "plain", "safe"]

# Cc: C0/C1 controls (ESC, BEL, NUL, ...); Cf: format characters such as the
# bidi overrides that reorder what a terminal shows; Zl/Zp: line breaks
_HIDDEN = frozenset(("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"))


def _visible(ch: str) -> str:
    if unicodedata.category(ch) not in _HIDDEN:
        return ch
    code = ord(ch)
    return (
        f"\\x{code:02x}"
        if code < 0x100
        else f"\\u{code:04x}"
        if code < 0x10000
        else f"\\U{code:08x}"
    )


def has_control(text: str) -> bool:
    """Whether ``text`` holds a character that is not shown as itself."""
    return any(unicodedata.category(ch) in _HIDDEN for ch in text)


def plain(text: object, limit: int | None = None) -> str:
    """``text`` on one line, every control or format character as an escape, at most ``limit``."""
    s = "".join(_visible(ch) for ch in str(text))
    if limit is not None and len(s) > limit:
        s = s[: max(0, limit - 1)] + "…"
    return s


def safe(text: object, limit: int | None = None) -> str:
    """:func:`plain`, with Rich markup escaped: for ``console.print`` and table cells."""
    return escape(plain(text, limit))
