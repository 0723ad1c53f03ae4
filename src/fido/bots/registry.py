"""Bots by name, with options: ``"search"``, ``"search:sims=400"``, ``"search:time=0.5"``.

The names are the levels a person picks: ``random``, ``greedy``, ``expert``, ``search``,
``champion``.

A spec comes from a command line or a config file, so it is checked here,
whole, before any bot exists: every option of a built-in level has a type
and a range (``sims=1e9`` would run for days, ``time=nan`` never ends), numbers
are ASCII (a fullwidth or superscript digit is refused, not read as a number),
and NaN or infinity is never a value. Every problem is a
:class:`~fido.errors.ConfigurationError` in one line.
"""

from __future__ import annotations

import importlib
import math
import re
from collections.abc import Callable
from dataclasses import dataclass

from fido.bots.base import Bot
from fido.errors import ConfigurationError

__all__ = ["LEVELS", "MAX_SPEC_LENGTH", "OPTIONS", "Option", "make_bot", "parse_spec", "register"]

LEVELS: tuple[str, ...] = ("random", "greedy", "expert", "search", "champion")
# name -> "module:factory", imported on first use (search pulls in more than random needs)
_WHERE: dict[str, str] = {
    "random": "fido.bots.simple:RandomBot",
    "greedy": "fido.bots.simple:GreedyBot",
    "expert": "fido.bots.expert:ExpertBot",
    "search": "fido.bots.search:SearchBot",
    "champion": "fido.bots.champion:ChampionBot",
}
MAX_SPEC_LENGTH = 200


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a level: its type and its sane range (or its choices)."""

    kind: type  # int, float or str
    low: float = 0
    high: float = 0
    choices: tuple[str, ...] = ()
    meaning: str = ""

    def check(self, bot: str, key: str, value: int | float | str) -> int | float | str:
        what = f"bot {bot!r}: {key}"
        if self.kind is str:
            if value not in self.choices:
                raise ConfigurationError(f"{what} is one of {', '.join(self.choices)}")
            return value
        if isinstance(value, str) or (self.kind is int and not isinstance(value, int)):
            kind = "a whole number" if self.kind is int else "a number"
            raise ConfigurationError(
                f"{what} is {kind} from {_num(self.low)} to {_num(self.high)}, not {value!r}"
            )
        if not self.low <= value <= self.high:
            raise ConfigurationError(
                f"{what} is {self.meaning or 'from'} {_num(self.low)} to {_num(self.high)}, "
                f"not {_num(value)}"
            )
        return value


def _num(x: float) -> str:
    return f"{int(x):,}" if x == int(x) else f"{x:g}"


# The built-in levels' options (a level missing here takes no options). The
# bounds are what a person could want: a million simulations or ten minutes
# a move is already far past any use.
OPTIONS: dict[str, dict[str, Option]] = {
    "random": {},
    "greedy": {},
    "expert": {},
    "search": {
        "sims": Option(int, 1, 1_000_000, meaning="simulations per move,"),
        "time": Option(float, 0, 600, meaning="seconds per move (0: no clock),"),
        "greedy": Option(float, 0, 1, meaning="a probability,"),
        "prior": Option(str, choices=("expert", "none")),
        "width": Option(int, 2, 64, meaning="candidate moves,"),
        "solve": Option(int, 0, 1_000, meaning="tiles left when it solves exactly (0: never),"),
        "nodes": Option(int, 1, 100_000_000, meaning="solver nodes,"),
    },
    "champion": {
        "sims": Option(int, 1, 1_000_000, meaning="simulations per move,"),
        "time": Option(float, 0, 600, meaning="seconds per move (0: no clock),"),
        "explore": Option(float, 0, 1, meaning="a probability,"),
        "policy": Option(str, choices=("smart", "greedy")),
        "prior": Option(str, choices=("tuned", "expert", "none")),
        "width": Option(int, 2, 64, meaning="candidate moves,"),
        "doubt": Option(float, 0, 10, meaning="standard errors,"),
        "infer": Option(float, 0, 1000, meaning="points passed up (0: off),"),
    },
}

_INT = re.compile(r"[+-]?[0-9]{1,15}", re.ASCII)
_FLOAT = re.compile(
    r"[+-]?([0-9]{1,15}(\.[0-9]{0,15})?|\.[0-9]{1,15})([eE][+-]?[0-9]{1,3})?", re.ASCII
)
_KEY = re.compile(r"[a-z_][a-z0-9_]{0,30}", re.ASCII)


def register(name: str, where: str, options: dict[str, Option] | None = None) -> None:
    """Add a bot under ``name``; ``where`` is ``"module:factory"``.

    With ``options`` its options are checked like the built-in levels'; without,
    any ``key=value`` reaches the factory (numbers still finite).
    """
    _WHERE[name] = where
    if options is not None:
        OPTIONS[name] = options
    else:
        OPTIONS.pop(name, None)


def _factory(name: str) -> Callable[..., Bot]:
    where = _WHERE.get(name)
    if where is None:
        raise ConfigurationError(f"unknown bot {name!r} (one of: {', '.join(_WHERE)})")
    module, _, attr = where.partition(":")
    factory: Callable[..., Bot] = getattr(importlib.import_module(module), attr)
    return factory


def _value(text: str) -> int | float | str:
    """An ASCII integer, an ASCII finite number, or the text itself."""
    if _INT.fullmatch(text):
        return int(text)
    if _FLOAT.fullmatch(text):
        value = float(text)
        if math.isfinite(value):
            return value
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, int | float | str]]:
    """``name:key=value,...`` as the name and checked options (nothing is built)."""
    if not isinstance(spec, str):
        raise ConfigurationError(f"a bot spec is text such as 'search:sims=400', not {spec!r}")
    if len(spec) > MAX_SPEC_LENGTH:
        raise ConfigurationError(f"bot spec longer than {MAX_SPEC_LENGTH} characters")
    name, _, opts = spec.strip().partition(":")
    name = name.strip()
    if name not in _WHERE:
        raise ConfigurationError(f"unknown bot {name!r} (one of: {', '.join(_WHERE)})")
    known = OPTIONS.get(name)
    kwargs: dict[str, int | float | str] = {}
    for item in filter(None, (part.strip() for part in opts.split(","))):
        key, eq, text = item.partition("=")
        key = key.strip()
        if not eq:
            raise ConfigurationError(f"bot option {item!r} needs a value, e.g. {key}=1")
        if not _KEY.fullmatch(key):
            raise ConfigurationError(f"bot {name!r}: {key!r} is not an option name")
        if key in kwargs:
            raise ConfigurationError(f"bot {name!r}: option {key} given twice")
        value = _value(text.strip())
        if isinstance(value, str) and value.lower().lstrip("+-") in ("nan", "inf", "infinity"):
            raise ConfigurationError(f"bot {name!r}: {key} must be a finite number, not {value}")
        if known is not None:
            option = known.get(key)
            if option is None:
                takes = ", ".join(known) if known else "no options"
                raise ConfigurationError(f"bot {name!r} has no option {key!r} (it takes {takes})")
            value = option.check(name, key, value)
        kwargs[key] = value
    return name, kwargs


def make_bot(spec: str) -> Bot:
    """A bot from ``name`` or ``name:key=value,key=value`` (see :func:`parse_spec`)."""
    name, kwargs = parse_spec(spec)
    factory = _factory(name)
    try:
        return factory(**kwargs)
    except (TypeError, ValueError) as e:
        raise ConfigurationError(f"bot {name!r}: {e}") from None
