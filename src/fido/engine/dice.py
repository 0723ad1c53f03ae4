"""The searches' dice: a seeded generator cheap enough to make for every rollout.

A search plays each candidate move of a sampled world out "with the same dice", so
that the candidates meet the same luck: every rollout gets a generator seeded afresh
from the world's number. Seeding a ``random.Random`` (the Mersenne Twister's 624 words)
took about 5 µs, more than a double-6 rollout's own moves. :func:`seeded` makes SplitMix64
(Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014): one
64-bit word of state, numbers in [0, 1) from its top 53 bits as ``random.random``'s.

Where the engine's C is built (:mod:`fido.engine.native`) it is ``_core.Dice``, which
the C playouts draw from without a call; :class:`PyDice` is the same generator in
Python (the pure build's), number for number (``tests/engine/test_dice.py``).
"""

from __future__ import annotations

from typing import Final, Protocol, cast

from fido.engine.native import native

__all__ = ["Dice", "PyDice", "seeded"]

_MASK: Final = (1 << 64) - 1
_GAMMA: Final = 0x9E3779B97F4A7C15
_MIX1: Final = 0xBF58476D1CE4E5B9
_MIX2: Final = 0x94D049BB133111EB
_UNIT: Final = 2.0**-53


class Dice(Protocol):
    """What the rollouts draw from: ``random.Random`` is one too."""

    def random(self) -> float: ...


class PyDice:
    """SplitMix64 in Python: ``fido.engine._core.Dice``'s numbers, for the pure build."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        if seed.__class__ is not int:
            raise TypeError("Dice's seed is a whole number")
        self._state = seed & _MASK  # the seed mod 2**64, as the C's

    def random(self) -> float:
        """The next number, in [0, 1)."""
        s = self._state = (self._state + _GAMMA) & _MASK
        z = ((s ^ (s >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        z ^= z >> 31
        return (z >> 11) * _UNIT

    def getstate(self) -> int:
        """The state: a number below 2**64."""
        return self._state


_MAKE: Final = cast("type[PyDice]", native("Dice") or PyDice)


def seeded(seed: int) -> Dice:
    """A generator for one rollout, seeded with ``seed`` (a whole number, taken mod 2**64)."""
    return _MAKE(seed)
