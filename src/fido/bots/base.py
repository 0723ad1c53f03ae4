"""The one bot interface: a seat's view and a random generator in, a legal move out.

A bot never sees a :class:`~fido.engine.game.Game`. It gets the
:class:`~fido.engine.views.SeatView` of its seat (what a player at a real table
knows) and a ``random.Random`` owned by whoever runs it, so the same bot serves
the terminal, the web app, tournaments and the research adapters, and a
seeded run is reproducible.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from fido.engine.moves import Move
from fido.engine.views import SeatView

__all__ = ["Bot", "Move"]


@runtime_checkable
class Bot(Protocol):
    """A computer player. ``choose`` is called only when the view's seat is to move."""

    name: str

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        """One of ``view.legal_moves``."""
        ...
