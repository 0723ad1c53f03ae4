"""Text typed by users, made harmless before a terminal shows it.

A name holding ``ESC [2J`` clears the screen of whoever lists it; a bidi override
reorders what follows. Input is refused when it holds such characters
(:func:`has_control`, :func:`control_chars`); whatever reaches a terminal
anyway goes through :func:`printable`, and through :mod:`fido.rich_text` when
Rich prints it (a name holding ``[/x]`` is Rich markup). No dependency: the
engine's error messages quote user values through this module.

>>> printable("tab\\there \\x1b[2J")
'tab\\\\there \\\\x1b[2J'
"""

from __future__ import annotations

import unicodedata

__all__ = ["control_chars", "has_control", "printable", "whole_or_none"]

MAX_DIGITS = 4000  # int() refuses more than 4300 digits; no range of ours comes near

# Cc: C0/C1 controls (ESC, BEL, NUL, DEL ...); Cf: format characters such as the
# bidi overrides and isolates; Zl/Zp: line and paragraph separators; surrogates,
# private use and unassigned code points, which no terminal shows as themselves
_HIDDEN = frozenset(("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"))
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _hidden(ch: str) -> bool:
    return unicodedata.category(ch) in _HIDDEN


def _visible(ch: str) -> str:
    if not _hidden(ch):
        return ch
    if ch in _NAMED:
        return _NAMED[ch]
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def has_control(text: str) -> bool:
    """Whether ``text`` holds a character a terminal would not show as itself."""
    return any(_hidden(ch) for ch in text)


def control_chars(text: str) -> list[str]:
    """The control characters in ``text``, as visible escapes (empty: none)."""
    return [_visible(ch) for ch in text if _hidden(ch)]


def printable(text: object, limit: int | None = None) -> str:
    """``text`` with every control character written as a visible escape (``\\x1b``),
    cut to ``limit`` characters when given."""
    s = "".join(_visible(ch) for ch in str(text))
    if limit is not None and len(s) > limit:
        s = s[: max(0, limit - 1)] + "…"
    return s


def whole_or_none(text: str) -> int | None:
    """The whole number typed as ``text`` (decimal digits, as :func:`int` reads them), else
    None. ``str.isdigit`` is not the test: it accepts ``²``, which int() refuses."""
    return int(text) if text.isdecimal() and len(text) <= MAX_DIGITS else None
