"""Build the engine's hot modules with mypyc; everything else stays plain Python.

The compiled modules are the same typed source, so tests exercise both: the
default install is compiled, ``FIDO_PURE=1 pip install .`` is not. Beside them,
``fido.engine._core`` is C written for the searches' playouts (the rollouts hand a
world over to it; without it they play on in Python, move for move the same).
"""

from __future__ import annotations

import os

from setuptools import Extension, setup

# the modules every move or every hand runs through
COMPILED = [
    "src/fido/engine/table.py",
    "src/fido/engine/game.py",
    "src/fido/engine/results.py",
    "src/fido/engine/movegen.py",
    "src/fido/engine/rollout.py",
    "src/fido/engine/dealing.py",
    "src/fido/engine/tiles.py",
    "src/fido/engine/plan.py",
]

ext_modules = []
if not os.environ.get("FIDO_PURE"):
    from mypyc.build import mypycify

    ext_modules = mypycify(COMPILED, opt_level="3")
    # the keys' floating point as Python computes them: no fused multiply-add
    ext_modules.append(
        Extension(
            "fido.engine._core",
            ["src/fido/engine/_core.c"],
            extra_compile_args=["-O3", "-ffp-contract=off"],
        )
    )

setup(ext_modules=ext_modules)
