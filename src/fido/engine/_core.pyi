"""fido.engine._core: the engine's hot loops in C (_core.c): the searches' playouts
(fido.engine.rollout) and their dice (fido.engine.dice), a fresh deal's kernel
(fido.engine.movegen.kernel, game.py) and the deal (fido.engine.dealing)."""

from collections.abc import Callable

from fido.engine.moves import Move
from fido.engine.tiles import DominoSet, Tile

def finish(
    game: object,
    rand: Callable[[], float],
    policy: int,
    param: float,
    partner: list[int],
    spare: float,
    /,
) -> tuple[list[int], list[int], bool, int] | None:
    """Play the hand to its end on a copy of its state (policy 0: ``playout`` with
    ``greedy=param``; 1: ``smart_playout`` with ``explore=param``); ``None`` for a game
    left to Python."""

class Dice:
    """SplitMix64 seeded with ``seed`` mod 2**64 (fido.engine.dice.PyDice's numbers); the
    playouts draw from it inline when ``rand`` is its ``random``."""

    def __init__(self, seed: int) -> None: ...
    def random(self) -> float: ...
    def getstate(self) -> int: ...

class Kernel:
    """A fresh FIDO deal played on machine integers (movegen.kernel makes it for game.py)."""

    def legal(self) -> list[Move]: ...
    def push(self, move: object, /) -> int: ...
    def moves(self) -> list[Move]: ...
    def result(self) -> tuple[list[int], list[int], bool, int]: ...

def kernel(
    players: int,
    turn: int,
    divisor: int,
    clockwise: int,
    stuck: int,
    keep: int,
    hands: list[int],
    order: tuple[object, ...],
    opening: object,
    opening_value: int,
    rows: list[list[object]],
    grow: Callable[[int, DominoSet], None],
    dominoes: DominoSet,
    tiles: int,
    draw: object,
    pass_: object,
    /,
) -> Kernel:
    """A fresh game's Kernel (game.py's fast path; movegen.kernel checks the game fits)."""

def deal(
    tiles: list[Tile],
    random: Callable[[], float],
    players: int,
    size: int,
    width: int,
    index: bool,
    /,
) -> tuple[list[int], list[list[int]] | None, bool]:
    """dealing.deal_hands in C: shuffle ``tiles`` in place, deal the first
    ``players * size``."""

def index(hands: list[int], width: int, /) -> list[list[int]]:
    """Each hand (a bitmask of tile ids) by value: game.py's ``_index`` in C."""
