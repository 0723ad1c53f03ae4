"""Results of a hand as data: points, pips left, final, places, team totals.

Higher layers (terminal, server, ranking) read only these values. The end of
hand scoring of every variant lives in :func:`score_hand`.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Final, NamedTuple

from fido.engine.plan import plan_of
from fido.engine.rules import EndScoring, Ruleset

__all__ = [
    "Outcome", "SeatResult", "TeamResult", "Termination", "native_margin", "native_outcome",
    "places", "score_hand", "seat_margin",
]  # fmt: skip


class Termination(StrEnum):
    DOMINO = "domino"  # a player placed her last tile
    BLOCKED = "blocked"  # nobody could move any more


class SeatResult(NamedTuple):
    seat: int
    points: int  # scored during play
    bonus: int  # awarded at the end of the hand (classic games)
    pips: int  # left in hand
    final: int  # FIDO: points - pips; classic: points + bonus
    place: int  # 1 = best; equal finals share a place


class TeamResult(NamedTuple):
    seats: tuple[int, ...]
    points: int
    bonus: int
    pips: int
    final: int
    place: int


class Outcome(NamedTuple):
    termination: Termination
    out_seat: int | None  # who went out (DOMINO)
    seats: tuple[SeatResult, ...]
    teams: tuple[TeamResult, ...] | None
    match_points: tuple[int, ...]  # per side (team, or seat): what a match tally adds

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats in first place (a team's seats together)."""
        return tuple(r.seat for r in self.seats if r.place == 1)

    def to_dict(self) -> dict[str, object]:
        d: dict[str, object] = {
            "termination": self.termination.value,
            "out_seat": self.out_seat,
            "seats": [
                {
                    "seat": r.seat,
                    "points": r.points,
                    "bonus": r.bonus,
                    "pips": r.pips,
                    "final": r.final,
                    "place": r.place,
                }
                for r in self.seats
            ],
            "match_points": list(self.match_points),
        }
        if self.teams is not None:
            d["teams"] = [
                {
                    "seats": list(t.seats),
                    "points": t.points,
                    "bonus": t.bonus,
                    "pips": t.pips,
                    "final": t.final,
                    "place": t.place,
                }
                for t in self.teams
            ]
        return d


def places(finals: Sequence[int]) -> list[int]:
    """Competition ranking: 1 + the number of strictly better finals (ties share)."""
    values = list(finals)
    out = []
    for f in values:
        place = 1
        for other in values:
            if other > f:
                place += 1
        out.append(place)
    return out


# A named tuple's own constructor is interpreted Python (its generated ``__new__``);
# tuple.__new__ makes the same value from a tuple of its fields without a frame.
_make: Final = tuple.__new__

# the kinds as compiled globals (an enum member read through its class is a lookup)
_DOMINO: Final = Termination.DOMINO
_BLOCKED: Final = Termination.BLOCKED
_FIDO: Final = EndScoring.FIDO
_STRAIGHT: Final = EndScoring.STRAIGHT
_BLOCK: Final = EndScoring.BLOCK
_MUGGINS: Final = EndScoring.MUGGINS
_FIVES_AND_THREES: Final = EndScoring.FIVES_AND_THREES


def _total(values: list[int], seats: tuple[int, ...]) -> int:
    """The seats' values added up. (This, the two below and the loops of
    :func:`score_hand`: ``sum``, ``min``, ``max`` and ``sorted`` are builtins, looked
    up at each call in compiled code.)"""
    t = 0
    for s in seats:
        t += values[s]
    return t


def _sum(values: list[int]) -> int:
    t = 0
    for v in values:
        t += v
    return t


def _least(values: list[int]) -> int:
    low = values[0]
    for v in values:
        if v < low:  # noqa: PLR1730  (min is the builtin this avoids)
            low = v
    return low


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def score_hand(
    rules: Ruleset,
    points: Sequence[int],
    pips: Sequence[int],
    termination: Termination,
    out_seat: int | None,
) -> Outcome:
    """Score the end of a hand per docs/rules.md (sections 3.7 and 4)."""
    n = len(points)
    plan = plan_of(rules)
    teams = plan.teams(n)
    sides = plan.sides(n)
    scored = list(points)  # lists, whatever the caller gave: compiled indexing
    left = list(pips)
    side_pips = left if teams is None else [_total(left, side) for side in sides]
    bonus = [0] * n
    domino = termination is _DOMINO

    # the winning side and the seat credited with the award
    win = -1
    credited = -1
    if domino and out_seat is not None:
        for i in range(len(sides)):
            if out_seat in sides[i]:
                win = i
        credited = out_seat
    else:
        low = _least(side_pips)
        if side_pips.count(low) == 1:  # tied fewest pips: nobody wins (decision)
            win = side_pips.index(low)
            for s in sides[win]:  # the partner with the fewest pips, the first on a tie
                if credited < 0 or left[s] < left[credited]:
                    credited = s
    opp_pips = _sum(side_pips) - side_pips[win] if win >= 0 else 0
    own_pips = side_pips[win] if win >= 0 else 0

    es = plan.end_scoring
    if credited >= 0:
        if es is _STRAIGHT:
            bonus[credited] = opp_pips - own_pips if rules.count_pips else 1
        elif es is _BLOCK:
            # teams: the couples' difference, never below 0 (docs/rules.md section 4, decision)
            gap = opp_pips - own_pips
            bonus[credited] = (gap if gap > 0 else 0) if teams else opp_pips
        elif es is _MUGGINS:
            # going out: the opponents' pips; blocked (decision): the difference
            bonus[credited] = _ceil_div(opp_pips - (0 if domino else own_pips), 5)
        elif es is _FIVES_AND_THREES and domino:
            bonus[credited] = 1

    if es is _FIDO:
        finals = [scored[s] - left[s] for s in range(n)]
    else:
        finals = [scored[s] + bonus[s] for s in range(n)]
    if teams is None:
        side_finals = finals
        side_places = places(finals)
    else:
        side_finals = [_total(finals, side) for side in sides]
        side_places = places(side_finals)
    if es is _BLOCK and domino and win >= 0:
        # the block games: the side that went out wins the hand, placed first alone,
        # even when its award is 0 (the partner holds many pips; docs/rules.md section 4, decision)
        side_places = []
        for i in range(len(side_finals)):
            place = 1 if i == win else 2  # then 1 + the others (not the winner) better
            if i != win:
                for j in range(len(side_finals)):
                    if j != win and side_finals[j] > side_finals[i]:
                        place += 1
            side_places.append(place)
    if teams is None:
        seat_place = side_places
    else:
        seat_place = [0] * n
        for i, side in enumerate(sides):
            for s in side:
                seat_place[s] = side_places[i]

    if es is _FIVES_AND_THREES and teams is not None:
        best = max(side_finals)
        others = sorted(side_finals)[-2] if len(side_finals) > 1 else 0
        match = tuple([f - others if f == best and best > others else 0 for f in side_finals])
    else:
        match = tuple(side_finals)

    seats = tuple(
        [
            _make(SeatResult, (s, scored[s], bonus[s], left[s], finals[s], seat_place[s]))
            for s in range(n)
        ]
    )
    team_results = None
    if teams is not None:
        team_results = tuple(
            [
                _make(
                    TeamResult,
                    (
                        side,
                        _total(scored, side),
                        _total(bonus, side),
                        side_pips[i],
                        side_finals[i],
                        side_places[i],
                    ),
                )
                for i, side in enumerate(sides)
            ]
        )
    return _make(Outcome, (termination, out_seat, seats, team_results, match))


def native_outcome(rules: Ruleset, got: tuple[list[int], list[int], bool, int]) -> Outcome:
    """The outcome of a hand fido.engine._core played to its end: its (points, pips left,
    blocked, the seat that went out) scored as game.py's ``_finish`` scores them."""
    points, pips, blocked, out = got
    if blocked:
        return score_hand(rules, points, pips, _BLOCKED, None)
    return score_hand(rules, points, pips, _DOMINO, out)


def seat_margin(outcome: Outcome, seat: int) -> float:
    """The seat's final minus the mean of the others' (teams: own team minus the others):
    what a search's rollout is worth to her (:mod:`fido.bots.search`)."""
    if outcome.teams is not None:
        own = next(t for t in outcome.teams if seat in t.seats)
        others = [t.final for t in outcome.teams if t is not own]
        return own.final - sum(others) / len(others)
    return _margin_of([r.final for r in outcome.seats], seat)


def _margin_of(finals: list[int], seat: int) -> float:
    """The seat's final minus the mean of the other seats'."""
    return finals[seat] - (sum(finals) - finals[seat]) / (len(finals) - 1)


def native_margin(rules: Ruleset, got: tuple[list[int], list[int], bool, int], seat: int) -> float:
    """``seat_margin(native_outcome(rules, got), seat)``, the same number: a search reads
    only this of a rollout, so in FIDO without teams (a final is the points less the pips
    left, however the hand ended) it is computed without the outcome's records."""
    plan = plan_of(rules)
    points, pips = got[0], got[1]
    n = len(points)
    if plan.end_scoring is not _FIDO or plan.teams(n) is not None:
        return seat_margin(native_outcome(rules, got), seat)
    return _margin_of([points[s] - pips[s] for s in range(n)], seat)
