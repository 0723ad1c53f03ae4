"""Run the docstring examples of every fido module from its source text.

pytest's --doctest-modules cannot read docstrings of mypyc-compiled modules,
so the examples of those modules are run here, against the compiled code.
"""

from __future__ import annotations

import ast
import doctest
import importlib
from pathlib import Path

import pytest

import fido.engine

# mypyc compiles modules of the engine package only (setup.py)
SRC = Path(fido.engine.__file__).resolve().parent
# the others' examples run through pytest --doctest-modules
MODULES = sorted(
    p.stem
    for p in SRC.glob("*.py")
    if p.stem != "__init__"
    and not (importlib.import_module(f"fido.engine.{p.stem}").__file__ or "").endswith(".py")
)


def docstrings(path: Path) -> list[tuple[str, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            doc = ast.get_docstring(node, clean=False)
            if doc and ">>>" in doc:
                out.append((getattr(node, "name", path.stem), doc))
    return out


@pytest.mark.parametrize("name", MODULES or ["(none compiled)"])
def test_module_examples(name: str) -> None:
    if not MODULES:
        pytest.skip("pure-Python install: pytest --doctest-modules runs every example")
    module = importlib.import_module(f"fido.engine.{name}")
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for where, doc in docstrings(SRC / f"{name}.py"):
        test = parser.get_doctest(doc, dict(vars(module)), f"{module.__name__}.{where}", None, 0)
        runner.run(test)
    failed = runner.failures
    assert failed == 0, f"{failed} docstring example(s) failed in {module.__name__}"


def test_compiled_modules_are_current() -> None:
    """A stale compiled module would test old code: it must be newer than its source."""
    # mypyc's shared library lies at the top of src/, beside the fido package
    shared = [p.stat().st_mtime for p in SRC.parents[1].glob("*__mypyc*.so")]
    for so in SRC.glob("*.so"):
        stem = so.name.split(".")[0]
        source = SRC / (stem + ".py") if (SRC / (stem + ".py")).exists() else SRC / (stem + ".c")
        built = max([so.stat().st_mtime, *shared])
        assert built >= source.stat().st_mtime, f"{so.name} is older than {source.name}: run make"
