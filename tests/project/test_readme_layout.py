"""The README's layout is the tree: every module and folder of src/fido is named in its
block, in its package, and every name there exists (a module added or moved without
the map fails here)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "fido"
INDENT = len("src/fido/   ")


def readme_layout() -> dict[str, set[str]]:
    """Package (``""``: fido itself, ``"server/tables"``) -> the names the README lists
    there: modules, and folders that are no package with a trailing ``/``."""
    text = (ROOT / "README.md").read_text()
    block = text[text.index("## Layout"):]
    block = block[block.index("```\n") + 4:]
    block = block[:block.index("```")]
    listed: dict[str, set[str]] = {}
    package = ""
    for line in block.splitlines():
        if not line.startswith(("src/fido/", " ")):
            break  # tests/, bench/, docs/: not the package
        body = line[INDENT:]
        indent = len(body) - len(body.lstrip())
        names = re.split(r"\s{2,}", body.strip())[0]
        if indent == 0:
            package = ""
        head, sep, rest = names.partition("/: ")
        if sep and "," not in head:
            package, names = head, rest
        for name in (n.strip() for n in names.split(",")):
            if name:
                listed.setdefault(package, set()).add(name)
    return listed


def tree() -> dict[str, set[str]]:
    """The same from the files: each package's modules and its folders that are not
    packages (those that are get their own entry)."""
    out: dict[str, set[str]] = {}
    for init in sorted(SRC.rglob("__init__.py")):
        folder = init.parent
        package = folder.relative_to(SRC).as_posix()
        package = "" if package == "." else package
        if "migrations" in package.split("/"):
            continue
        names = {p.stem for p in folder.glob("*.py") if not p.stem.startswith("__")}
        names |= {p.name for p in folder.glob("*.c")}  # C sources, named with their suffix
        names |= {f"{d.name}/" for d in folder.iterdir() if d.is_dir()
                  and not (d / "__init__.py").exists() and d.name != "__pycache__"}
        names |= {f"{d.name}/" for d in folder.iterdir()
                  if d.name == "migrations" and d.is_dir()}
        out[package] = names
    return out


def test_the_readme_names_every_module_where_it_lives() -> None:
    listed, files = readme_layout(), tree()
    assert set(listed) == set(files), (set(listed) ^ set(files))
    for package, names in files.items():
        assert listed[package] == names, (
            package, "not in the README:", sorted(names - listed[package]),
            "not in the tree:", sorted(listed[package] - names))


def test_the_check_sees_a_module_missing() -> None:
    """The parse is not vacuous: the root and a nested package are read whole."""
    listed = readme_layout()
    assert {"errors", "position", "i18n", "locale/"} <= listed[""]
    assert {"tiles", "game", "movegen", "match"} <= listed["engine"]
    assert {"room", "feed", "types"} <= listed["server/tables"]
    assert "tables" not in listed["server"]
