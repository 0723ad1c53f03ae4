"""The ``fido`` command line (the console script ``fido = "fido.cli:main"``).

:mod:`fido.cli.main` holds the app and the game commands (``play``, ``replay``,
``demo``, ``rules``, ``simulate``, ``analyze``); the federation's commands live
in their own modules, imported only when one of them runs (:mod:`fido.cli.lazy`):
:mod:`fido.cli.ranking` (``players``, ``results``, ``ranking``),
:mod:`fido.cli.accounts` (``accounts``) and :mod:`fido.cli.analysis` (the body of
``analyze``). ``fido serve`` is :mod:`fido.cli.serve`.
"""

from __future__ import annotations

from fido.cli.main import app, main

__all__ = ["app", "main"]
