"""fido: FIDO dominoes and the classic domino games.

The core: :class:`Tile`, :class:`Ruleset` (:func:`ruleset`), :class:`Table`,
:class:`Game` with its moves (:class:`Move`: a :class:`Placement`, ``DRAW``
or ``PASS``), undo (:meth:`Game.pop`), the chance step (:class:`Chance`) and
views, and the results of a hand. One-line positions: :mod:`fido.position`;
what a seat knows of the hidden tiles: :mod:`fido.knowledge`.
"""

from fido.errors import (
    AmbiguousMoveError,
    ArgumentError,
    ConfigurationError,
    FidoError,
    IllegalMoveError,
    NotationError,
    RecordError,
)
from fido.game import Chance, Game, Turn
from fido.moves import DRAW, PASS, Draw, Move, Pass, Placement
from fido.results import Outcome, SeatResult, TeamResult, Termination
from fido.rules import RULESETS, Ruleset, ruleset
from fido.table import Table
from fido.tiles import DominoSet, Tile
from fido.views import SeatView

__version__ = "0.1.0"

__all__ = [
    "DRAW",
    "PASS",
    "RULESETS",
    "AmbiguousMoveError",
    "ArgumentError",
    "Chance",
    "ConfigurationError",
    "DominoSet",
    "Draw",
    "FidoError",
    "Game",
    "IllegalMoveError",
    "Move",
    "NotationError",
    "Outcome",
    "Pass",
    "Placement",
    "RecordError",
    "Ruleset",
    "SeatResult",
    "SeatView",
    "Table",
    "TeamResult",
    "Termination",
    "Tile",
    "Turn",
    "__version__",
    "ruleset",
]
