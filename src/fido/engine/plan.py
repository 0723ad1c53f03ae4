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
from fido.engine.rules import EndScoring, Opener, Ruleset, Scoring, Stuck
from fido.engine.tiles import DominoSet, Tile

__all__ = ["Plan", "plan_of"]

# what a stuck player does, as movegen's small ints
_STUCK: Final[dict[Stuck, int]] = {
    Stuck.PASS: PASS_ONLY,
    Stuck.DRAW_ONE: DRAW_ONE,
    Stuck.DRAW_UNTIL: DRAW_UNTIL,
    Stuck.DRAW_FREE: DRAW_FREE,
}


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
    _sizes: dict[int, int]  # players -> tiles a hand
    _teams: dict[int, tuple[tuple[int, ...], ...] | None]  # players -> teams
    _sides: dict[int, tuple[tuple[int, ...], ...]]  # players -> the sides that score

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.dominoes = rules.dominoes
        rule = rules.opener
        self.needs_double = rule is not Opener.FIRST_SEAT
        values = range(self.dominoes.max_pips + 1)
        order = reversed(values) if rule is Opener.HIGHEST_DOUBLE else values
        pairs = self.dominoes.pair_tiles
        self.doubles = tuple(pairs[v][v] for v in order) if self.needs_double else ()
        if rules.scoring is Scoring.DIVISOR:
            self.divisor = rules.divisor
        else:
            self.divisor = 0 if rules.scoring is Scoring.NONE else -1
        self.clockwise = rules.clockwise
        self.stuck = _STUCK[rules.stuck]
        self.mother_theresa = rules.mother_theresa
        self.keep_in_stock = rules.keep_in_stock
        self.end_scoring = rules.end_scoring
        self._sizes = {}
        self._teams = {}
        self._sides = {}

    def hand_size(self, players: int) -> int:
        """:meth:`Ruleset.hand_size` (a count it refuses raises, and is not kept)."""
        size = self._sizes.get(players)
        if size is None:
            size = self._sizes[players] = self.rules.hand_size(players)
        return size

    def teams(self, players: int) -> tuple[tuple[int, ...], ...] | None:
        """:meth:`Ruleset.teams`."""
        if players in self._teams:
            return self._teams[players]
        teams = self._teams[players] = self.rules.teams(players)
        return teams

    def sides(self, players: int) -> tuple[tuple[int, ...], ...]:
        """The teams, or each seat alone: who shares a result."""
        sides = self._sides.get(players)
        if sides is None:
            teams = self.teams(players)
            sides = teams if teams is not None else tuple([(s,) for s in range(players)])
            self._sides[players] = sides
        return sides


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
