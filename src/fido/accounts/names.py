"""Account names as they are compared: one function below accounts and roles alike."""

from __future__ import annotations

import unicodedata

__all__ = ["name_key"]


def name_key(name: str) -> str:
    """The form two names are compared in: "Anna", "ANNA" and its full-width form are one."""
    return unicodedata.normalize("NFKC", name).casefold()
