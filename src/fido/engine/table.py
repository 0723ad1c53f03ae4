"""The table: a tree of placed tiles and its open slots (docs/rules.md section 2).

Every placed tile is numbered in the order it was placed (the opening tile is
0). A *slot* is an open direction of a placed tile, coded ``anchor * 4 + port``
with ports n=0, e=1, s=2, w=3. A slot has a value (the number a tile must show
to attach), a kind (END counts in the sum of the ends, SIDE is a double's
naked side and counts nothing) and a weight (what it adds to the sum).

Geometry, used by notation and display: the opening tile lies with its ends
west and east (a FIDO opening double also has sides north and south; the
sebastopol spinner has four arms). A tile placed at direction p grows in
direction p; a crosswise double placed at direction p has its two ends at the
two directions perpendicular to p and its free side at p.

The sum of the ends is kept incrementally; :meth:`Table.recount` computes it
from scratch and the tests check the two agree.

>>> t = Table.from_text("cross 18-18 18-12@0n")
>>> t.ends_sum, sorted(t.open_slots().items())
(48, [(1, (18, 'end')), (2, (18, 'side')), (3, (18, 'end')), (4, (12, 'end'))])
"""

from __future__ import annotations

from typing import Final

from fido.engine.moves import PORTS, Move, Placement
from fido.engine.rules import Layout
from fido.engine.tiles import MAX_PIPS, Tile
from fido.errors import IllegalMoveError, NotationError, quote

__all__ = ["END", "SIDE", "Table"]

END: Final = 0
SIDE: Final = 1
# layouts as small ints: compiled code compares these without touching the enum
CROSS: Final = 0
INLINE: Final = 1
LINE: Final = 2
SPINNER: Final = 3
SHAPES: Final[dict[Layout, int]] = {
    Layout.CROSS: CROSS,
    Layout.INLINE: INLINE,
    Layout.LINE: LINE,
    Layout.SPINNER: SPINNER,
}
KIND_NAMES: Final = ("end", "side")

Slot = tuple[int, int, int]  # (value, kind, weight)

# The slots most placements open, made once: an end counting its value, a double's
# naked side (instead of a tuple made, and later freed, for every slot opened)
_ENDS: Final[tuple[Slot, ...]] = tuple([(v, END, v) for v in range(MAX_PIPS + 1)])
_SIDES: Final[tuple[Slot, ...]] = tuple([(v, SIDE, 0) for v in range(MAX_PIPS + 1)])


class Table:
    """The layout of placed tiles; mutable, cheap to copy."""

    __slots__ = ("arms_taken", "ends_sum", "layout", "open", "placements", "shape", "spinner")

    layout: Layout
    shape: int  # the layout as CROSS, INLINE, LINE or SPINNER
    placements: list[Placement]
    open: dict[int, Slot]  # slot code -> (value, kind, weight), in the order opened
    ends_sum: int
    spinner: int  # line/spinner layouts: value of an opening double still counted whole, else -1
    arms_taken: int

    def __init__(self, layout: Layout = Layout.CROSS) -> None:
        self.layout = layout
        self.shape = SHAPES[layout]
        self.placements = []
        self.open = {}
        self.ends_sum = 0
        self.spinner = -1
        self.arms_taken = 0

    def copy(self) -> Table:
        t = Table.__new__(Table)
        t.layout = self.layout
        t.shape = self.shape
        t.placements = self.placements.copy()
        t.open = self.open.copy()
        t.ends_sum = self.ends_sum
        t.spinner = self.spinner
        t.arms_taken = self.arms_taken
        return t

    def __copy__(self) -> Table:
        return self.copy()

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Table)
            and self.layout == other.layout
            and self.placements == other.placements
        )

    def __hash__(self) -> int:
        return hash((self.layout, tuple(self.placements)))

    def __len__(self) -> int:
        return len(self.placements)

    def __repr__(self) -> str:
        return f"Table.from_text({self.text()!r})"

    # ------------------------------------------------------------ queries

    def open_slots(self) -> dict[int, tuple[int, str]]:
        """Slot code -> (value, 'end' or 'side'), in the order the slots were opened."""
        return {code: (v, KIND_NAMES[k]) for code, (v, k, _w) in self.open.items()}

    def slot_name(self, code: int) -> str:
        return f"{code >> 2}{PORTS[code & 3]}"

    def ends(self) -> list[int]:
        """Values of the open ends (not sides), in slot order."""
        return [v for v, k, _w in self.open.values() if k == END]

    def sides(self) -> list[int]:
        return [v for v, k, _w in self.open.values() if k == SIDE]

    def slot_filter(self) -> tuple[bool, bool]:
        """(only sides, only arms): FIDO's second move goes on a side of the opening
        double; sebastopol's first four tiles go on the spinner's empty arms."""
        shape = self.shape
        if shape in (LINE, INLINE):
            return False, False
        n = len(self.placements)
        return (shape == CROSS and n == 1, shape == SPINNER and n < 5)

    def playable(self) -> list[tuple[int, int]]:
        """(slot code, value) of every slot a tile may go on now, in slot order."""
        only_sides, only_arms = self.slot_filter()
        return [
            (code, v)
            for code, (v, kind, _w) in self.open.items()
            if not (only_sides and kind != SIDE) and not (only_arms and code >= 4)
        ]

    def tile_at(self, index: int) -> Tile:
        return self.placements[index].tile

    def delta(self, tile: Tile, code: int) -> int:
        """How placing ``tile`` on slot ``code`` would change the sum (slot must fit)."""
        value, _kind, weight = self.open[code]
        other = tile.low if tile.high == value else tile.high
        return self.covered(code, weight) + self.adds(value, other) - self.ends_sum

    def covered(self, code: int, weight: int) -> int:
        """The sum once open slot ``code`` (of ``weight``) is taken, before the new tile's
        ends count: a search adds :meth:`adds` of each tile it weighs there."""
        s = self.ends_sum - weight
        if self.spinner >= 0 and code < 4 and self.arms_taken == 1:
            s -= 2 * self.spinner
        return s

    def adds(self, value: int, other: int) -> int:
        """What a tile showing ``value`` (the slot's number) and ``other`` adds to the sum."""
        if other == value:  # a double
            return value if self.shape == INLINE else 2 * value
        return other

    def sum_after(self, tile: Tile, code: int = -1) -> int:
        """The sum of the ends once ``tile`` is placed on slot ``code`` (-1: the opening)."""
        if code < 0:
            return 2 * tile.high if tile.is_double else tile.pips
        return self.ends_sum + self.delta(tile, code)

    # ------------------------------------------------------------ changes

    def place(self, tile: Tile, code: int = -1, move: Placement | None = None) -> int:
        """Place a tile (``code`` -1 opens the table); return the new sum.

        Only checks what the geometry needs (the slot exists and the values
        match); the rules of who may play what live in :mod:`fido.engine.game`.
        ``move``, when given, is this same placement, kept instead of a new one.
        """
        shape = self.shape
        placements = self.placements
        slots = self.open
        index = len(placements)
        base = index * 4
        if code < 0:
            if placements:
                raise IllegalMoveError("the table is already opened; say where the tile goes")
            v = tile.high
            if tile.is_double:
                if shape == CROSS:
                    slots[base] = _SIDES[v]
                    slots[base + 1] = _ENDS[v]
                    slots[base + 2] = _SIDES[v]
                    slots[base + 3] = _ENDS[v]
                elif shape == INLINE:
                    slots[base + 1] = _ENDS[v]
                    slots[base + 3] = _ENDS[v]
                elif shape == LINE:
                    slots[base + 1] = (v, END, 0)
                    slots[base + 3] = (v, END, 0)
                    self.spinner = v
                else:
                    for p in range(4):
                        slots[base + p] = (v, END, 0)
                    self.spinner = v
                self.ends_sum = 2 * v
            else:
                if shape != LINE:
                    raise IllegalMoveError(f"the table must open with a double, not {tile}")
                slots[base + 1] = _ENDS[tile.low]
                slots[base + 3] = _ENDS[tile.high]
                self.ends_sum = tile.pips
            placements.append(move if move is not None else Placement(tile, -1, -1))
            return self.ends_sum
        slot = slots.get(code)
        if slot is None:
            raise IllegalMoveError(f"there is no open slot {self.slot_name(code)}")
        if tile.high != slot[0] and tile.low != slot[0]:
            raise IllegalMoveError(
                f"{tile} does not show {slot[0]}, the number of slot {self.slot_name(code)}"
            )
        return self.attach(tile, code, slot, move)

    def attach(self, tile: Tile, code: int, slot: Slot, move: Placement | None = None) -> int:
        """:meth:`place` on an open slot, unchecked: ``slot`` is ``open[code]`` and the
        tile shows its number (the game's moves are legal by construction)."""
        shape = self.shape
        placements = self.placements
        slots = self.open
        base = len(placements) * 4
        value, _kind, weight = slot
        del slots[code]
        s = self.ends_sum - weight
        if self.spinner >= 0 and code < 4:
            self.arms_taken += 1
            if self.arms_taken == 2:
                s -= 2 * self.spinner
                self.spinner = -1
        port = code & 3
        if tile.is_double:
            if shape == CROSS:
                back = (port + 2) & 3  # towards the tile it attaches to
                for p in range(4):  # compass order n, e, s, w
                    if p == port:
                        slots[base + p] = _SIDES[value]
                    elif p != back:
                        slots[base + p] = _ENDS[value]
                s += 2 * value
            elif shape == INLINE:
                slots[base + port] = _ENDS[value]
                s += value
            else:
                slots[base + port] = (value, END, 2 * value)
                s += 2 * value
        else:
            other = tile.low if tile.high == value else tile.high
            slots[base + port] = _ENDS[other]
            s += other
        self.ends_sum = s
        placements.append(move if move is not None else Placement(tile, code >> 2, port))
        return s

    def unplace(self, slot: Slot | None, ends_sum: int, spinner: int, arms_taken: int) -> None:
        """Take the last placed tile back: ``slot`` is the slot it took (None for the
        opening), the rest the table's counters before it (what :meth:`place` changed).

        Slots are always open in ascending code order (a tile's slots are opened
        together and numbered after every earlier tile's), so the taken slot goes
        back into its place by code.
        """
        placements = self.placements
        if not placements:
            raise IllegalMoveError("the table is empty: no tile to take back")
        move = placements.pop()
        base = len(placements) * 4
        slots = self.open
        for p in range(4):
            slots.pop(base + p, None)
        if slot is not None:
            code = move.anchor * 4 + move.port
            last = next(reversed(slots), -1)
            slots[code] = slot
            if code < last:
                self.open = dict(sorted(slots.items()))
        self.ends_sum = ends_sum
        self.spinner = spinner
        self.arms_taken = arms_taken

    def recount(self) -> int:
        """The sum of the ends computed from the open slots alone (a check)."""
        s = sum(w for _v, _k, w in self.open.values())
        if self.spinner >= 0:
            s += 2 * self.spinner
        return s

    # ------------------------------------------------------------ notation

    def text(self) -> str:
        """One line: the layout name, then every placement in order."""
        return " ".join([self.layout.value, *(p.text() for p in self.placements)])

    def __str__(self) -> str:
        return self.text()

    @classmethod
    def from_text(cls, text: str | object) -> Table:
        if not isinstance(text, str):
            raise NotationError(f"a table is text such as 'cross 18-18', not {quote(text)}")
        if len(text) > 20_000 or not text.isprintable():
            raise NotationError(f"not a table: {quote(text)}")
        words = text.split()
        if not words:
            raise NotationError("empty table text (write e.g. 'cross 18-18 18-12@0n')")
        try:
            layout = Layout(words[0])
        except ValueError:
            raise NotationError(
                f"unknown layout {quote(words[0])} (one of: {', '.join(x.value for x in Layout)})"
            ) from None
        table = cls(layout)
        for i, w in enumerate(words[1:]):
            move = Move.from_text(w)
            if not isinstance(move, Placement):
                raise NotationError(f"a table holds placements only, not {quote(w)}")
            if move.is_opening != (i == 0):
                raise NotationError(f"{quote(w)}: only the first tile is written without an anchor")
            if move.anchor >= i > 0:
                raise NotationError(f"{quote(w)}: tile #{move.anchor} is not on the table yet")
            if move.tile in (p.tile for p in table.placements):
                raise NotationError(f"{quote(w)}: {move.tile} is on the table already")
            try:
                table.place(move.tile, move.slot)
            except IllegalMoveError as e:
                raise NotationError(f"{quote(w)}: {e}") from None
        return table

    def summary(self) -> str:
        """A human line: sum, ends and free sides with their slot names."""
        ends = " ".join(
            f"{self.slot_name(c)}:{v}" for c, (v, k, _w) in self.open.items() if k == END
        )
        sides = " ".join(
            f"{self.slot_name(c)}:{v}" for c, (v, k, _w) in self.open.items() if k == SIDE
        )
        out = f"sum {self.ends_sum} | ends {ends or '-'}"
        if sides:
            out += f" | sides {sides}"
        return out
