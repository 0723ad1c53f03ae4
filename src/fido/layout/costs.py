"""The layout's tuned numbers: what a candidate position costs (lower is better) and
the bounds of a re-layout's search, tuned on random games of FIDO double-18 with
9 players, the largest tables."""

from __future__ import annotations

from typing import Final

# the penalties of a candidate position (Layouter._choose, Layouter._penalty)
ON_TEE: Final = 1000  # per unit cell of another slot's tee the tile reaches into
ON_RUNWAY: Final = 250  # per unit cell of another slot's runway the tile reaches into
ON_FRONT: Final = 10_000  # covering another slot's front cell (when nothing else fits)
BLOCKED: Final = 50_000  # a new slot's front is covered (when nothing else fits)
OUT_OF_AREA: Final = 500  # the tile leaves the table area
FURTHER_OUT: Final = 200  # per half unit further out
RUNWAY_TAKEN: Final = 400  # per unit cell of a new slot's runway a tile reaches into
TEE_TAKEN: Final = 400  # per unit cell of a new end's tee a tile reaches into
TEE_SHARED: Final = 40  # per unit cell of a new end's tee another slot keeps too
CLEARANCE: Final = 15  # per unit of free room a new slot lacks ahead and beside
TURN: Final = 20  # a bend
SHIFT: Final = 50  # a tile slid half a unit along its face
INLINE: Final = 100_000  # a double in line (only where no crosswise one fits)
VIOLATION: Final = 100  # a later group (slid, in line) is tried from this penalty on
TEE_W: Final = 1 << 8  # a tee's weight in Layouter._soft (a runway's is 1)
ROOM_AHEAD: Final = 10  # units of free room wanted straight ahead of a new slot
ROOM_BESIDE: Final = 5  # ... and on either side of its front cell
AREA_PER_TILE: Final = 30  # square units of table area per tile of the set
# a re-layout's search (Layouter._search, fido.layout.relayout.Repair)
CROWDED: Final = 30  # a tile in the way ahead of a new slot (more if nearer)
NOISE: Final = 300  # a restart's random score of a position is below this
ROUNDS: Final = 4  # rounds of repair before fresh layouts
FRESH: Final = 3  # tiles per tile of the table a fresh layout may lay before a restart
ROUND: Final = 100  # tiles a round of repair may lay, and per free tile:
PER_TILE: Final = 5
HEAVY: Final = 20  # a tile carrying more tiles than this stays put if it can
BUDGET: Final = 20_000  # tiles a re-layout's search may lay before it gives up
