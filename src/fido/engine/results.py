"""Results of a hand as data: points, pips left, final, places, team totals.

Higher layers (terminal, server, ranking) read only these values. The end of
hand scoring of every variant lives in :func:`score_hand`.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import NamedTuple

from fido.engine.rules import EndScoring, Ruleset

__all__ = ["Outcome", "SeatResult", "TeamResult", "Termination", "places", "score_hand"]


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
    ordered = sorted(finals, reverse=True)
    return [ordered.index(f) + 1 for f in finals]


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
    teams = rules.teams(n)
    sides: tuple[tuple[int, ...], ...] = teams or tuple((s,) for s in range(n))
    side_pips = list(pips) if teams is None else [sum([pips[s] for s in side]) for side in sides]
    bonus = [0] * n

    # the winning side and the seat credited with the award
    win: int | None = None
    credited: int | None = None
    if termination is Termination.DOMINO and out_seat is not None:
        win = next(i for i, side in enumerate(sides) if out_seat in side)
        credited = out_seat
    else:
        low = min(side_pips)
        if side_pips.count(low) == 1:  # tied fewest pips: nobody wins (decision)
            win = side_pips.index(low)
            credited = min([(pips[s], s) for s in sides[win]])[1]
    opp_pips = sum(side_pips) - side_pips[win] if win is not None else 0
    own_pips = side_pips[win] if win is not None else 0

    es = rules.end_scoring
    if credited is not None:
        if es is EndScoring.STRAIGHT:
            bonus[credited] = opp_pips - own_pips if rules.count_pips else 1
        elif es is EndScoring.BLOCK:
            # teams: the couples' difference, never below 0 (docs/rules.md section 4, decision)
            bonus[credited] = max(0, opp_pips - own_pips) if teams else opp_pips
        elif es is EndScoring.MUGGINS:
            # going out: the opponents' pips; blocked (decision): the difference
            blocked = termination is Termination.BLOCKED
            bonus[credited] = _ceil_div(opp_pips - (own_pips if blocked else 0), 5)
        elif es is EndScoring.FIVES_AND_THREES and termination is Termination.DOMINO:
            bonus[credited] = 1

    if es is EndScoring.FIDO:
        finals = [points[s] - pips[s] for s in range(n)]
    else:
        finals = [points[s] + bonus[s] for s in range(n)]
    if teams is None:
        side_finals = finals
        side_places = places(finals)
    else:
        side_finals = [sum([finals[s] for s in side]) for side in sides]
        side_places = places(side_finals)
    if es is EndScoring.BLOCK and termination is Termination.DOMINO and win is not None:
        # the block games: the side that went out wins the hand, placed first alone,
        # even when its award is 0 (the partner holds many pips; docs/rules.md section 4, decision)
        rest = [f for i, f in enumerate(side_finals) if i != win]
        side_places = [
            1 if i == win else 2 + sum([r > f for r in rest]) for i, f in enumerate(side_finals)
        ]
    if teams is None:
        seat_place = side_places
    else:
        seat_place = [0] * n
        for i, side in enumerate(sides):
            for s in side:
                seat_place[s] = side_places[i]

    if es is EndScoring.FIVES_AND_THREES and teams is not None:
        best = max(side_finals)
        others = sorted(side_finals)[-2] if len(side_finals) > 1 else 0
        match = tuple(f - others if f == best and best > others else 0 for f in side_finals)
    else:
        match = tuple(side_finals)

    seats = tuple(
        SeatResult(s, points[s], bonus[s], pips[s], finals[s], seat_place[s]) for s in range(n)
    )
    team_results = None
    if teams is not None:
        team_results = tuple(
            TeamResult(
                side,
                sum(points[s] for s in side),
                sum(bonus[s] for s in side),
                side_pips[i],
                side_finals[i],
                side_places[i],
            )
            for i, side in enumerate(sides)
        )
    return Outcome(termination, out_seat, seats, team_results, match)
