"""fido: FIDO dominoes and the classic domino games.

The core: :class:`Tile`, :class:`Ruleset` (:func:`ruleset`), :class:`Table`,
:class:`Game` with its moves (:class:`Move`: a :class:`Placement`, ``DRAW``
or ``PASS``), undo (:meth:`Game.pop`), the chance step (:class:`Chance`) and
views, and the results of a hand. One-line positions: :mod:`fido.position`;
what a seat knows of the hidden tiles: :mod:`fido.engine.knowledge`.
"""

from fido.engine.game import Chance, Game, Turn
from fido.engine.moves import DRAW, PASS, Draw, Move, Pass, Placement
from fido.engine.results import Outcome, SeatResult, TeamResult, Termination
from fido.engine.rules import RULESETS, Ruleset, ruleset
from fido.engine.table import Table
from fido.engine.tiles import DominoSet, Tile
from fido.engine.views import SeatView
from fido.errors import (
    AmbiguousMoveError,
    ArgumentError,
    ConfigurationError,
    FidoError,
    IllegalMoveError,
    NotationError,
    RecordError,
)

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
