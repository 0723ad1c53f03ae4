"""The rulesets and table sizes the property tests sweep."""

from __future__ import annotations

from fido import Ruleset
from fido.errors import ConfigurationError

FIDO_SETS = (6, 9, 12, 15, 18, 21)


def dealable(text: str, players: int) -> bool:
    rules = Ruleset.from_text(text)
    if not rules.min_players <= players <= rules.max_players:
        return False
    try:
        size = rules.hand_size(players)
    except ConfigurationError:
        return False
    return size * players <= rules.dominoes.count


FIDO_SWEEP: list[tuple[str, int]] = [
    (f"fido set={n}", p) for n in FIDO_SETS for p in range(2, 10) if dealable(f"fido set={n}", p)
]

VARIANTS: list[tuple[str, int]] = [
    *((f"fido {opt}", p) for opt in ("mother_theresa", "soenke_hansen") for p in (2, 3, 4, 6, 9)),
    *(("fido direction=counterclockwise", p) for p in (2, 3, 5)),
    ("fido set=6 mother_theresa", 3),
    ("fido set=9 soenke_hansen mother_theresa", 4),
    ("fido set=18 direction=counterclockwise mother_theresa", 4),
    *(
        (name, p)
        for name in (
            "straight",
            "straight count_pips",
            "block",
            "draw",
            "muggins",
            "fives_and_threes",
        )
        for p in (2, 3, 4)
    ),
    ("sebastopol", 4),
    ("sebastopol all_fives", 4),
]


ALL_CASES = FIDO_SWEEP + VARIANTS
