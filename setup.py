"""Build the engine's hot modules with mypyc; everything else stays plain Python.

The compiled modules are the same typed source, so tests exercise both: the
default install is compiled, ``FIDO_PURE=1 pip install .`` is not.
"""

from __future__ import annotations

import os

from setuptools import setup

# the modules every move or every hand runs through
COMPILED = [
    "src/fido/table.py",
    "src/fido/game.py",
    "src/fido/results.py",
    "src/fido/movegen.py",
    "src/fido/rollout.py",
    "src/fido/dealing.py",
]

ext_modules = []
if not os.environ.get("FIDO_PURE"):
    from mypyc.build import mypycify

    ext_modules = mypycify(COMPILED, opt_level="3")

setup(ext_modules=ext_modules)
