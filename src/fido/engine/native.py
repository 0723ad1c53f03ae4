"""Where the engine's C is built: one way for the modules that use it to find it.

``fido.engine._core`` (``_core.c``) is optional: the pure build (``FIDO_PURE=1``, and
``make pure-test``, which hides it) has none, and every module that hands work to it
plays the same in Python without it. Each asks :func:`native` for its function once, at
import.
"""

from __future__ import annotations

import importlib
from typing import Final

__all__ = ["MAX_PIPS", "native"]

# _core.c's MAX_VALUE: its arrays hold numbers up to 21, so it plays sets up to double-21
# (larger custom sets stay in Python)
MAX_PIPS: Final = 21


def native(name: str) -> object | None:
    """``fido.engine._core``'s ``name``, or None where the extension is not built."""
    try:
        core = importlib.import_module("fido.engine._core")
    except ImportError:
        return None
    found: object = getattr(core, name)
    return found
