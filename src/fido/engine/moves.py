"""Moves: placing a tile on a slot, drawing from the stock, passing.

A placement names exactly where a tile goes: the placed tile it attaches to
(its *anchor*, numbered from 0 in the order tiles were placed) and the
direction from that tile (``n``, ``e``, ``s``, ``w``). The opening tile has no
anchor. The text form needs no game state and round-trips:

>>> m = Move.from_text("18-7@0n")
>>> m, m.text()
(Move.from_text('18-7@0n'), '18-7@0n')
>>> Move.from_text("18-18").is_opening, Move.from_text("draw") is DRAW
(True, True)
>>> isinstance(m, Move), isinstance(DRAW, Move)
(True, True)
"""

from __future__ import annotations

import re
from typing import ClassVar, Final, NamedTuple

from fido.engine.tiles import Tile
from fido.errors import NotationError, quote

__all__ = [
    "DRAW",
    "PASS",
    "PORTS",
    "Draw",
    "Move",
    "Pass",
    "Placement",
    "Turn",
    "port_from_letter",
]

N: Final = 0
E: Final = 1
S: Final = 2
W: Final = 3
PORTS: Final = "nesw"

_MOVE_RE: Final = re.compile(r"(\d{1,3})-(\d{1,3})(?:@(\d{1,4})([nesw]))?", re.ASCII)


def port_from_letter(letter: str) -> int:
    """``'n'`` -> 0 ... ``'w'`` -> 3."""
    i = PORTS.find(letter)
    if i < 0 or len(letter) != 1:
        raise NotationError(f"not a direction: {letter!r} (use one of n, e, s, w)")
    return i


class Move:
    """A move: a :class:`Placement`, ``DRAW`` or ``PASS``; ``isinstance(m, Move)`` holds.

    :meth:`Move.from_text` is the one parser of the canonical text. Moves are
    immutable values: equal moves compare and hash equal.
    """

    __slots__ = ()

    def text(self) -> str:
        """The canonical text, which :meth:`from_text` reads back."""
        raise NotImplementedError

    def __str__(self) -> str:
        return self.text()

    @staticmethod
    def from_text(text: str) -> Move:
        """Parse the canonical text of a move (``18-7@0n``, ``18-18``, ``draw``, ``pass``).

        Case and surrounding whitespace are ignored; anything else raises
        :class:`~fido.errors.NotationError`.
        """
        if not isinstance(text, str):
            raise NotationError(f"not a move: {quote(text)} (a move is text such as '18-7@0n')")
        s = text.strip().lower()
        if s == "draw":
            return DRAW
        if s == "pass":
            return PASS
        m = _MOVE_RE.fullmatch(s)
        if not m:
            raise NotationError(
                f"not a move: {quote(text)} (write tile@anchor+direction such as '18-7@0n', "
                "the opening tile alone such as '18-18', 'draw' or 'pass')"
            )
        tile = Tile.from_text(f"{m.group(1)}-{m.group(2)}")
        if m.group(3) is None:
            return Placement(tile)
        return Placement(tile, int(m.group(3)), PORTS.index(m.group(4)))


# what compiled code unpacks a Placement as: a plain tuple's items are read at C
# speed, its fields by name through the class's descriptors
PlacementTuple = tuple[Tile, int, int]


class _PlacementFields(NamedTuple):
    tile: Tile
    anchor: int = -1
    port: int = -1


class Placement(_PlacementFields, Move):
    """Place ``tile`` at direction ``port`` of the ``anchor``-th placed tile.

    The opening placement has ``anchor == port == -1``. The half that touches
    is the one equal to the slot's value, so no orientation is needed.
    """

    __slots__ = ()

    @property
    def is_opening(self) -> bool:
        return self.anchor < 0

    @property
    def slot(self) -> int:
        """The slot code ``anchor * 4 + port`` (-1 for the opening)."""
        return self.anchor * 4 + self.port if self.anchor >= 0 else -1

    def text(self) -> str:
        if self.anchor < 0:
            return self.tile.text()
        return f"{self.tile.text()}@{self.anchor}{PORTS[self.port]}"

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Move.from_text({self.text()!r})"


class _Word(Move):
    """A move that is one word: one instance per class, so ``move is DRAW`` works."""

    __slots__ = ()
    _word: ClassVar[str]
    _instances: ClassVar[dict[type, Move]] = {}

    def __new__(cls) -> _Word:
        inst = _Word._instances.get(cls)
        if inst is None:
            inst = _Word._instances[cls] = object.__new__(cls)
        return inst  # type: ignore[return-value]

    def __reduce__(self) -> tuple[type[_Word], tuple[()]]:
        return (type(self), ())

    def __repr__(self) -> str:
        return self._word.upper()

    def text(self) -> str:
        return self._word


class Draw(_Word):
    """Take one tile from the stock (the singleton ``DRAW``)."""

    __slots__ = ()
    _word = "draw"


class Pass(_Word):
    """Pass the turn (the singleton ``PASS``)."""

    __slots__ = ()
    _word = "pass"


DRAW: Final = Draw()
PASS: Final = Pass()


class Turn(NamedTuple):
    """One entry of the history. ``drawn`` is hidden from the other seats' views."""

    seat: int
    move: Move
    points: int
    ends_sum: int
    drawn: Tile | None = None
