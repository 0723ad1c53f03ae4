"""Test-session set-up.

* ``FIDO_FORCE_PURE=1`` makes imports prefer ``.py`` sources over compiled
  extension modules, and hides the C playouts (``fido.engine._core``), so the
  same suite also checks the pure-Python engine (what ``FIDO_PURE=1 pip
  install .`` ships).
* Doctests of modules that mypyc compiled run from their source
  (tests/test_doctests.py); pytest cannot collect them from the extension.
"""

from __future__ import annotations

import importlib
import os
import sys
from importlib.abc import MetaPathFinder
from importlib.machinery import (
    BYTECODE_SUFFIXES,
    EXTENSION_SUFFIXES,
    SOURCE_SUFFIXES,
    ExtensionFileLoader,
    FileFinder,
    SourceFileLoader,
    SourcelessFileLoader,
)


class _WithoutC(MetaPathFinder):
    """The C playouts have no Python source: the pure engine is without them."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if name == "fido.engine._core":
            raise ModuleNotFoundError("the pure engine has no C playouts", name=name)


if os.environ.get("FIDO_FORCE_PURE"):
    sys.path_hooks.insert(
        0,
        FileFinder.path_hook(
            (SourceFileLoader, SOURCE_SUFFIXES),
            (SourcelessFileLoader, BYTECODE_SUFFIXES),
            (ExtensionFileLoader, EXTENSION_SUFFIXES),
        ),
    )
    sys.path_importer_cache.clear()
    sys.meta_path.insert(0, _WithoutC())

# fido.engine's modules that setup.py compiles
COMPILED_MODULES = ("table", "game", "results", "movegen", "rollout", "dealing", "plan")

collect_ignore = [
    f"src/fido/engine/{name}.py"
    for name in COMPILED_MODULES
    if not (importlib.import_module(f"fido.engine.{name}").__file__ or "").endswith(".py")
]
