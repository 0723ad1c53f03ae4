"""Bots by name, with options: ``"search"``, ``"search:sims=400"``, ``"search:time=0.5"``.

The names are the levels a person picks: ``random``, ``greedy``, ``expert``, ``search``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from fido.bots.base import Bot
from fido.errors import ConfigurationError

__all__ = ["LEVELS", "make_bot", "register"]

LEVELS: tuple[str, ...] = ("random", "greedy", "expert", "search")
# name -> "module:factory", imported on first use (search pulls in more than random needs)
_WHERE: dict[str, str] = {
    "random": "fido.bots.simple:RandomBot",
    "greedy": "fido.bots.simple:GreedyBot",
    "expert": "fido.bots.expert:ExpertBot",
    "search": "fido.bots.search:SearchBot",
}


def register(name: str, where: str) -> None:
    """Add a bot under ``name``; ``where`` is ``"module:factory"``."""
    _WHERE[name] = where


def _factory(name: str) -> Callable[..., Bot]:
    where = _WHERE.get(name)
    if where is None:
        raise ConfigurationError(f"unknown bot {name!r} (one of: {', '.join(_WHERE)})")
    module, _, attr = where.partition(":")
    factory: Callable[..., Bot] = getattr(importlib.import_module(module), attr)
    return factory


def _value(text: str) -> int | float | str:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def make_bot(spec: str) -> Bot:
    """A bot from ``name`` or ``name:key=value,key=value``."""
    name, _, opts = spec.strip().partition(":")
    factory = _factory(name)
    kwargs: dict[str, int | float | str] = {}
    for item in filter(None, opts.split(",")):
        key, eq, value = item.partition("=")
        if not eq:
            raise ConfigurationError(f"bot option {item!r} needs a value, e.g. {key}=1")
        kwargs[key.strip()] = _value(value.strip())
    try:
        return factory(**kwargs)
    except (TypeError, ValueError) as e:
        raise ConfigurationError(f"bot {name!r}: {e}") from None
