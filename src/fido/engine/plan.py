"""What the engine's hot path reads of a ruleset, worked out once a ruleset.

A :class:`~fido.engine.rules.Ruleset` is an interpreted frozen dataclass:
each question put to it (its hand size, its set, its teams, its opener rule)
is a Python-level call or a descriptor lookup. ``Game.new`` on four-player
Block took 5.6 µs asking them and 3.4 µs with this module
(docs/performance.md, "The public API, a step further"). A :class:`Plan`
holds the answers as native fields; :func:`plan_of` keeps one a ruleset. The
rules stay where they are written: a plan only asks them.
"""

from __future__ import annotations

from typing import Final

from fido.engine.movegen import DRAW_FREE, DRAW_ONE, DRAW_UNTIL, PASS_ONLY
from fido.engine.rules import EndScoring, Layout, Opener, Ruleset, Scoring, Stuck
from fido.engine.tiles import DominoSet, Tile

__all__ = ["Plan", "doubles_in_order", "plan_of"]

# what a stuck player does, as movegen's small ints
_STUCK: Final[dict[Stuck, int]] = {
    Stuck.PASS: PASS_ONLY,
    Stuck.DRAW_ONE: DRAW_ONE,
    Stuck.DRAW_UNTIL: DRAW_UNTIL,
    Stuck.DRAW_FREE: DRAW_FREE,
}


def doubles_in_order(dominoes: DominoSet, opener: Opener) -> tuple[Tile, ...]:
    """The set's doubles in the order the opener is looked for (none: any tile opens)."""
    if opener is Opener.FIRST_SEAT:
        return ()
    values = range(dominoes.max_pips + 1)
    order = reversed(values) if opener is Opener.HIGHEST_DOUBLE else values
    pairs = dominoes.pair_tiles
    return tuple([pairs[v][v] for v in order])


Teams = tuple[tuple[int, ...], ...]


class Plan:
    """One ruleset's answers, as native fields."""

    rules: Ruleset
    dominoes: DominoSet
    needs_double: bool  # the opener needs a double: deal again while no hand holds one
    doubles: tuple[Tile, ...]  # the doubles in the order the opener is looked for
    # the divisor when the sum scores S / d, 0 when nothing scores during play, -1 to
    # ask the rules (fives and threes)
    divisor: int
    clockwise: bool
    stuck: int  # movegen's PASS_ONLY, DRAW_ONE, DRAW_UNTIL or DRAW_FREE
    mother_theresa: bool
    keep_in_stock: int
    end_scoring: EndScoring
    cross: bool  # FIDO's table: the cross layout (movegen.kernel_fits asks)
    _sizes: dict[int, int]  # players -> tiles a hand
    # players -> (the teams or None, the sides that score: the teams or each seat alone)
    _sides: dict[int, tuple[Teams | None, Teams]]

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.dominoes = rules.dominoes
        self.needs_double = rules.opener is not Opener.FIRST_SEAT
        self.doubles = doubles_in_order(self.dominoes, rules.opener)
        if rules.scoring is Scoring.DIVISOR:
            self.divisor = rules.divisor
        else:
            self.divisor = 0 if rules.scoring is Scoring.NONE else -1
        self.clockwise = rules.clockwise
        self.stuck = _STUCK[rules.stuck]
        self.mother_theresa = rules.mother_theresa
        self.keep_in_stock = rules.keep_in_stock
        self.end_scoring = rules.end_scoring
        self.cross = rules.layout is Layout.CROSS
        self._sizes = {}
        self._sides = {}

    def hand_size(self, players: int) -> int:
        """:meth:`Ruleset.hand_size` (a count it refuses raises, and is not kept)."""
        size = self._sizes.get(players)
        if size is None:
            size = self._sizes[players] = self.rules.hand_size(players)
        return size

    def teams(self, players: int) -> Teams | None:
        """:meth:`Ruleset.teams`."""
        return self._sides_of(players)[0]

    def sides(self, players: int) -> Teams:
        """The teams, or each seat alone: who shares a result."""
        return self._sides_of(players)[1]

    def _sides_of(self, players: int) -> tuple[Teams | None, Teams]:
        known = self._sides.get(players)
        if known is None:
            teams = self.rules.teams(players)
            alone = tuple([(s,) for s in range(players)])
            known = self._sides[players] = (teams, teams if teams is not None else alone)
        return known


# id of the rules -> plan. A plan holds its rules, so their id is not reused while the
# entry lives, and an entry is checked to be for these very rules.
_PLANS: Final[dict[int, Plan]] = {}
_MAX_PLANS: Final = 512


def plan_of(rules: Ruleset) -> Plan:
    """The rules' :class:`Plan` (made the first time they are asked)."""
    plan = _PLANS.get(id(rules))
    if plan is None or plan.rules is not rules:
        plan = Plan(rules)
        if len(_PLANS) >= _MAX_PLANS:
            _PLANS.clear()
        _PLANS[id(rules)] = plan
    return plan
