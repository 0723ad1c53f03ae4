"""Pairing by strength (docs/server.md, "Play with people"): the queue seats people near
each other's game rating (docs/ratings.md), within a range that widens with waiting,
so two close players sit together before a far one, and nobody waits for ever.

Two people are near when their shown ratings differ by at most :func:`reach` of the
longer wait of the two: :data:`RANGE_BASE` at once, :data:`RANGE_GROWTH` more each second
(after a minute about 750 apart, after two about everyone).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy.orm import Session

from fido.engine.rules import Ruleset
from fido.ratings import family, ratings_for, shown
from fido.store import QueueEntry, aware

__all__ = ["RANGE_BASE", "RANGE_GROWTH", "Strengths", "reach"]

RANGE_BASE = 150.0  # shown rating points apart that two people are near at once
RANGE_GROWTH = 10.0  # ... and this many more for each second the longer waiting has waited


def reach(waited: float) -> float:
    """How far apart two people may be when the longer waiting of them has ``waited``."""
    return RANGE_BASE + RANGE_GROWTH * max(0.0, waited)



@dataclass(frozen=True)
class Strengths:
    """The shown ratings of the people waiting for one game, and the pairing's now."""

    ratings: dict[int, int]  # account -> shown rating in the game's family
    now: dt.datetime

    @classmethod
    def read(cls, s: Session, ruleset: str, entries: Sequence[QueueEntry],
             now: dt.datetime) -> Strengths:
        fam = family(Ruleset.from_text(ruleset))
        found = ratings_for(s, [e.account_id for e in entries], fam)
        return cls({a: shown(r) for a, r in found.items()}, now)

    def waited(self, e: QueueEntry) -> float:
        return (self.now - aware(e.joined_at)).total_seconds()

    def apart(self, a: QueueEntry, b: QueueEntry) -> int:
        return abs(self.ratings.get(a.account_id, 1500) - self.ratings.get(b.account_id, 1500))

    def near(self, a: QueueEntry, b: QueueEntry) -> bool:
        return self.apart(a, b) <= reach(max(self.waited(a), self.waited(b)))

    def closest(self, first: QueueEntry, others: Sequence[QueueEntry]) -> list[QueueEntry]:
        """Those of ``others`` near ``first``, the nearest first (then the longest waiting)."""
        near = [x for x in others if x is not first and self.near(first, x)]
        return sorted(near, key=lambda x: self.apart(first, x))  # stable: the queue's order

    def estimate(self, me: QueueEntry, others: Sequence[QueueEntry], needed: int) -> float | None:
        """Seconds until ``needed`` of ``others`` are near her (0: now), if they stay; None
        while fewer wait for her game at all."""
        times = sorted(
            max(0.0, (self.apart(me, x) - RANGE_BASE) / RANGE_GROWTH
                - max(self.waited(me), self.waited(x)))
            for x in others if x is not me)
        return times[needed - 1] if len(times) >= needed > 0 else None
