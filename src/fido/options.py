"""Checks of command-line values made before any long work starts.

A game must not be lost, nor an hour of simulation, to a path that cannot be
written or a number that makes no sense, found only at the end. Each check
raises a :class:`~fido.errors.ConfigurationError` with one clear line, or
returns the value; none leaves anything behind on disk.
"""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

from fido.errors import ConfigurationError
from fido.safe_text import has_control, printable

__all__ = [
    "MAX_NAME",
    "check_name",
    "check_output_dir",
    "check_output_file",
    "check_seconds",
    "split_specs",
]

MAX_NAME = 40


def _probe(directory: Path, what: str) -> None:
    """Create and remove a file in ``directory``: the only sure test of writing there."""
    try:
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".fido-probe-"):
            pass
    except OSError as e:
        raise ConfigurationError(
            f"{what}: cannot write in {printable(directory, 200)} ({e.strerror or e})"
        ) from None


def check_output_file(path: Path, what: str) -> Path:
    """``path`` can be written as a file (its directory exists and takes files)."""
    shown = printable(path, 200)
    if path.is_dir():
        raise ConfigurationError(f"{what} {shown} is a directory; give a file name")
    parent = path.parent
    if not parent.exists():
        raise ConfigurationError(
            f"{what} {shown}: the directory {printable(parent, 200)} does not exist"
        )
    if not parent.is_dir():
        raise ConfigurationError(f"{what} {shown}: {printable(parent, 200)} is not a directory")
    if path.exists():
        try:
            with path.open("r+b"):  # opened for writing, not truncated
                pass
        except OSError as e:
            raise ConfigurationError(
                f"{what} {shown} cannot be written ({e.strerror or e})"
            ) from None
    else:
        _probe(parent, f"{what} {shown}")
    return path


def check_output_dir(path: Path, what: str) -> Path:
    """``path`` is a directory that takes files, or can be made one (nothing is made now)."""
    shown = printable(path, 200)
    if path.exists():
        if not path.is_dir():
            raise ConfigurationError(f"{what} {shown} is a file, not a directory")
        _probe(path, f"{what} {shown}")
        return path
    ancestor = path.parent
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise ConfigurationError(f"{what} {shown}: {printable(ancestor, 200)} is not a directory")
    _probe(ancestor, f"{what} {shown}")
    return path


def check_seconds(value: float, what: str, high: float = 60.0) -> float:
    """A finite number of seconds, 0 to ``high``."""
    if not math.isfinite(value) or not 0 <= value <= high:
        raise ConfigurationError(f"{what} is seconds, 0 to {high:g}, not {value}")
    return value


def check_name(name: str, what: str = "--name") -> str:
    """A player's name: printable, not empty, at most :data:`MAX_NAME` characters.

    Markup such as ``[/x]`` is allowed (it is escaped wherever it is shown);
    control characters are refused: they would reach every screen and record.
    """
    if has_control(name):
        raise ConfigurationError(
            f"{what} '{printable(name, 60)}' holds control characters; use printable text"
        )
    if not name.strip():
        raise ConfigurationError(f"{what} must not be empty")
    if len(name) > MAX_NAME:
        raise ConfigurationError(f"{what} is at most {MAX_NAME} characters, not {len(name)}")
    return name.strip()


def split_specs(text: str) -> list[str]:
    """Bot specs separated by ``;`` or ``,``: ``expert,search:sims=200,time=0;greedy``.

    After a comma, ``key=value`` (no ``:``) is one more option of the spec before.
    """
    specs: list[str] = []
    for group in text.split(";"):
        parts = group.split(",")
        specs.append(parts[0].strip())
        for part in parts[1:]:
            part = part.strip()
            if "=" in part and ":" not in part and specs[-1]:
                specs[-1] += "," + part
            else:
                specs.append(part)
    if not all(specs):
        raise ConfigurationError(f"empty bot name in --bots {printable(text, 80)!r}")
    return specs
