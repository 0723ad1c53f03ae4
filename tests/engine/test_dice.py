"""The searches' dice (fido.engine.dice): the C generator and the Python one are the same
SplitMix64, number for number, and a seed that is not a whole number is refused.

Where the C is built (the compiled suite), ``seeded`` makes ``_core.Dice``; the pure
build's is :class:`PyDice`, so a search plays the same moves in both.
"""

from __future__ import annotations

import os

import pytest

from fido.engine.dice import PyDice, seeded
from fido.engine.native import native

PURE = bool(os.environ.get("FIDO_FORCE_PURE"))
SEEDS = [0, 1, 2, 12345, 2**63, 2**64 - 1, 2**64, 2**64 + 7, -1, -(2**70), 10**30]


def test_splitmix64_reference_values() -> None:
    """The published SplitMix64 sequence for seed 0 (its first three 64-bit outputs,
    as every implementation gives them), read off the numbers' top 53 bits."""
    d = PyDice(0)
    want = [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    assert [d.random() for _ in want] == [(w >> 11) * 2.0**-53 for w in want]


@pytest.mark.skipif(PURE, reason="the C is hidden in the pure build")
def test_the_c_dice_are_the_python_dice() -> None:
    made = native("Dice")
    assert made is not None and type(seeded(1)) is made
    for seed in SEEDS:
        c, py = seeded(seed), PyDice(seed)
        assert [c.random() for _ in range(1000)] == [py.random() for _ in range(1000)], seed
        assert c.getstate() == py.getstate()  # type: ignore[attr-defined]


def test_a_seed_is_taken_mod_2_64() -> None:
    for seed in SEEDS:
        a, b = seeded(seed), seeded(seed % 2**64)
        assert [a.random() for _ in range(10)] == [b.random() for _ in range(10)]
    assert seeded(1).random() != seeded(2).random()


def test_the_numbers_are_uniform_in_0_1() -> None:
    """Ten bins of 100,000 numbers: a chi-square far below what a biased generator
    (a wrong shift, a lost bit) gives; every number in [0, 1)."""
    d = seeded(20261130)
    n = 100_000
    bins = [0] * 10
    low, high = 1.0, 0.0
    for _ in range(n):
        x = d.random()
        low, high = min(low, x), max(high, x)
        bins[int(x * 10)] += 1
    chi2 = sum((b - n / 10) ** 2 / (n / 10) for b in bins)
    assert chi2 < 30  # 9 degrees of freedom: p < 0.001 above 27.9
    assert 0.0 <= low < 1e-3 and 1 - 1e-3 < high < 1.0


class Seven(int):
    """An int subclass: refused by both generators alike (the pure and compiled builds
    take the same seeds)."""


@pytest.mark.parametrize("seed", [1.5, "7", None, True, b"1", [1], Seven(7)])
def test_a_seed_that_is_not_a_whole_number_is_refused(seed: object) -> None:
    with pytest.raises(TypeError, match="whole number"):
        seeded(seed)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="whole number"):
        PyDice(seed)  # type: ignore[arg-type]
