"""The stable path: :class:`Layouter` lays a table out one placement at a time,
choosing each tile's position by its penalties (:mod:`fido.layout.costs`) and a
lookahead, and calls the re-layout's search (:mod:`fido.layout.relayout`) when no
proper position is left; with the fallbacks where that search gives up."""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Iterable
from dataclasses import replace
from typing import NamedTuple

from fido.engine.moves import Placement
from fido.engine.rules import Layout
from fido.engine.table import END, Table
from fido.engine.tiles import Tile
from fido.errors import ArgumentError, quote
from fido.layout.costs import (
    AREA_PER_TILE,
    BLOCKED,
    BUDGET,
    CLEARANCE,
    FRESH,
    FURTHER_OUT,
    ON_FRONT,
    ON_RUNWAY,
    ON_TEE,
    OUT_OF_AREA,
    PER_TILE,
    ROOM_AHEAD,
    ROOM_BESIDE,
    ROUND,
    ROUNDS,
    RUNWAY_TAKEN,
    TEE_SHARED,
    TEE_TAKEN,
    TEE_W,
    VIOLATION,
)
from fido.layout.drawn import Box, Marker, Placed, bounds
from fido.layout.grid import (
    AHEAD,
    ANGLES,
    BESIDE,
    DOUBLES_CROSS,
    DOUBLES_LINE,
    DX,
    DY,
    FOOTPRINTS,
    FRONT,
    KINDS,
    PROPER_CROSS,
    PROPER_LINE,
    REACH,
    RUNWAY_UNITS,
    SINGLES,
    TEE_CROSS_UNITS,
    TEE_LINE_UNITS,
    Face,
    K,
    Shape,
    room_add,
    room_drop,
    unit_cell,
)
from fido.layout.relayout import Repair


class _Slot(NamedTuple):
    """An open slot's drawing state: its face and the cells it keeps free."""

    face: Face
    front: list[int]
    runway: list[int]
    tee: list[int]


class _How(NamedTuple):
    """How a tile was laid: its position's index in its face's order, and whether the
    position is proper (attached, a double crosswise, every front cell free)."""

    choice: int
    proper: bool



class Layouter:
    """Lays a table out one placement at a time; a placed tile moves only when the
    table has to be laid out again (:attr:`moved`).

    ``max_pips`` sizes the table area (the set double-n) and tells which numbers
    are used up; by default it is read from the opening tile (at least
    double-6). The layouter keeps its own :class:`~fido.engine.table.Table`, so it
    refuses placements that do not fit the table so far. ``relayout`` False
    keeps every tile where it was laid and draws a tile with no proper room
    with the fallbacks (what happens when a re-layout's search gives up);
    ``budget`` bounds that search (tiles laid); ``lookahead`` False turns the
    stable path's lookahead off (to measure what it is worth).

    >>> lay = Layouter(Layout.CROSS, max_pips=18)
    >>> lay.add(Placement(Tile(18, 18))).angle
    0
    >>> [m.slot for m in lay.markers()]
    [0, 1, 2, 3]
    >>> lay.add(Placement(Tile(18, 12), 0, 0)).y, lay.moved
    (-1.5, ())
    """

    def __init__(self, shape: Layout = Layout.CROSS, max_pips: int | None = None, *,
                 relayout: bool = True, lookahead: bool = True,
                 budget: int = BUDGET) -> None:  # fmt: skip
        if not isinstance(shape, Layout):
            raise ArgumentError(f"a layout is one of {', '.join(Layout)}, not {quote(shape)}")
        if max_pips is not None and (max_pips.__class__ is not int or not 1 <= max_pips <= 99):
            raise ArgumentError(f"max_pips is a set's highest number, not {quote(max_pips)}")
        if budget.__class__ is not int or budget < 0:
            raise ArgumentError(f"a search budget is a count of tiles, not {quote(budget)}")
        self._table = Table(shape)
        self._max_pips = max_pips
        self.relayout = bool(relayout)
        self.lookahead = bool(lookahead)
        self.budget = budget
        self._placed: list[Placed] = []
        self.faces: list[tuple[Face | None, ...]] = []  # per tile, per port
        self.how: list[_How] = []  # per tile
        self.cells: list[tuple[list[int], list[int]]] = []  # per tile: its cells, unit cells
        self.slots: dict[int, _Slot] = {}
        self.covered: dict[int, int] = {}  # cell under a tile -> that tile
        self._units: set[int] = set()  # unit cells a tile reaches into
        # what the open slots keep free: front cells (hard, half-unit cells), and
        # softly tees and runways (unit cells, weighted TEE_W and 1 into one count)
        self._fronts: dict[int, int] = {}
        self._soft: dict[int, int] = {}
        self._doubles: set[int] = set()  # numbers whose double is on the table
        self._left: list[int] = []  # per number: tiles showing it still to come
        self.area = 0  # half the side of the table area, half units (set at the opening)
        self._crosswise = shape is not Layout.INLINE
        self._tee = TEE_CROSS_UNITS if shape is Layout.CROSS else TEE_LINE_UNITS
        self._double = DOUBLES_CROSS if shape is Layout.CROSS else DOUBLES_LINE
        self._proper_double = PROPER_CROSS if shape is Layout.CROSS else PROPER_LINE
        self.rounds = 0
        """Rounds of the last re-layout's search."""
        self.moved: tuple[int, ...] = ()
        """The earlier tiles the last :meth:`add` moved (a re-layout), in order."""
        self.relayouts = 0
        """How many placements the stable path could not lay properly: each one a
        re-layout, unless ``relayout`` is off or the search gave up."""
        self.last_resorts = 0
        """How many of those the fallbacks drew (no re-layout, or it gave up)."""
        self.nodes = 0
        """Tiles the last re-layout's search placed."""

    @classmethod
    def from_table(cls, table: Table, max_pips: int | None = None) -> Layouter:
        if not isinstance(table, Table):
            raise ArgumentError(f"expected a fido.engine.table.Table, not {quote(table)}")
        lay = cls(table.layout, max_pips)
        lay.extend(table.placements)
        return lay

    def __len__(self) -> int:
        return len(self._placed)

    @property
    def table(self) -> Table:
        """A copy of the table laid out so far."""
        return self._table.copy()

    @property
    def placed(self) -> tuple[Placed, ...]:
        return tuple(self._placed)

    def extend(self, placements: Iterable[Placement]) -> None:
        for p in placements:
            self.add(p)

    def copy(self) -> Layouter:
        """An independent layouter in the same state (e.g. to try a placement)."""
        new = copy.copy(self)
        new._table = self._table.copy()
        new._placed = self._placed.copy()
        new.faces = self.faces.copy()
        new.how = self.how.copy()
        new.cells = self.cells.copy()
        new.slots = self.slots.copy()
        new.covered = self.covered.copy()
        new._units = self._units.copy()
        new._fronts = self._fronts.copy()
        new._soft = self._soft.copy()
        new._doubles = self._doubles.copy()
        new._left = self._left.copy()
        return new

    # ------------------------------------------------------------ placing

    def add(self, placement: Placement) -> Placed:
        """Lay out the next placement (it must fit the table so far) and return its tile.

        The stable path lays it at its anchor without moving anything. Where that
        finds no proper position (attached, a double crosswise, every open slot's
        front cell free), the whole table is laid out again (:meth:`_search`) and
        :attr:`moved` tells which earlier tiles moved; only if that search gives up
        is the tile drawn with the fallbacks (see :mod:`fido.layout`).
        """
        if not isinstance(placement, Placement):
            raise ArgumentError(f"only placements are laid out, not {quote(placement)}")
        self.moved = ()
        code = placement.slot
        if code < 0:
            return self._step(placement, -1)  # the table refuses a wrong opening
        table = self._table
        tile = placement.tile
        slot = table.open.get(code)
        if slot is None or slot[0] not in tile:
            table.copy().place(tile, code)  # refuses it with the table's own words
            raise AssertionError("unreachable")  # pragma: no cover
        state = self.slots[code]
        self._loosen(state)
        fx, fy, d = state.face
        order = self.order(tile, d, True)
        need = self._need(tile, slot[0])
        pens: dict[int, int] = {}
        choice = self._choose(order, fx, fy, need, (0,), pens=pens)
        if choice >= 0 and self.lookahead:
            harm = self._harm(tile, code, order[choice][0], fx, fy)
            skip = {choice}
            while harm:  # the least harmful position, the least penalised of those
                other = self._choose(order, fx, fy, need, (0,), skip=skip, pens=pens)
                if other < 0:
                    break
                skip.add(other)
                h = self._harm(tile, code, order[other][0], fx, fy)
                if h < harm:
                    choice, harm = other, h
        if choice >= 0:
            return self._step(placement, choice, loosened=True)
        self._tighten(state)
        self.relayouts += 1
        if self.relayout and self._search(placement):
            return self._placed[-1]
        self.last_resorts += 1
        return self._fallback(placement)

    def order(self, tile: Tile, d: int, proper: bool) -> tuple[tuple[Shape, int, int], ...]:
        """The positions of ``tile`` at a face facing d (``proper``: doubles crosswise)."""
        if tile.is_double and self._crosswise:
            return self._proper_double[d] if proper else self._double[d]
        return SINGLES[d]

    def _need(self, tile: Tile, value: int) -> int:
        """The room the new slots of ``tile`` laid on ``value`` need: none if it is the
        last tile showing their number (nothing will come there), a runway (1), and a
        tee (2) where a double may come."""
        other = tile.other(value)
        left = self._left
        if other < len(left) and left[other] == 1:
            return 0
        if tile.is_double and self._crosswise:
            return 1  # its slots show its number, whose double it is
        tee = self._crosswise and other not in self._doubles and not self._dead(other)
        return 2 if tee else 1

    def _fallback(self, pl: Placement) -> Placed:
        """The next tile with no proper room: a double in line, a front cell covered,
        and last detached (nearest free spot ahead of its face)."""
        state = self.slots[pl.slot]
        self._loosen(state)
        fx, fy, d = state.face
        order = self.order(pl.tile, d, False)
        need = self._need(pl.tile, self._table.open[pl.slot][0])
        chosen = self._choose(order, fx, fy, need, (0, 1, 2))
        spot = None if chosen >= 0 else self._free_spot(order[0][0], fx, fy, d)
        self._tighten(state)
        return self._step(pl, max(chosen, 0), spot, False)

    def _step(self, pl: Placement, choice: int, spot: tuple[int, int] | None = None,
              proper: bool = True, loosened: bool = False) -> Placed:  # fmt: skip
        """Lay the next tile at position ``choice`` of its face's order (or, detached,
        with its face put at ``spot``; ``loosened``: its slot's room is freed already)."""
        table = self._table
        tile = pl.tile
        code = pl.slot
        index = len(self._placed)
        if code < 0:
            table.place(tile)
            placed, faces, cells, units = self._open(tile)
            how = _How(-1, True)
        else:
            value = table.open[code][0]
            table.place(tile, code)
            state = self.slots.pop(code)
            if not loosened:
                self._loosen(state)
            fx, fy, d = state.face
            x, y = (fx, fy) if spot is None else spot
            placed, faces, cells, units = self._lay(index, pl, value, (x, y, d), choice)
            if spot is not None:
                placed = replace(placed, detached=True)
            how = _How(choice, proper)
        self.covered.update(dict.fromkeys(cells, index))
        self._units.update(units)
        self._placed.append(placed)
        self.faces.append(faces)
        self.how.append(how)
        self.cells.append((cells, units))
        if tile.is_double:
            self._doubles.add(tile.high)
            self._drop_room(tile.high, True)
        left = self._left
        for v in {tile.high, tile.low}:
            if v < len(left):
                left[v] -= 1
                if left[v] == 0:
                    self._drop_room(v, False)
        for p in range(4):
            if index * 4 + p in table.open:
                self._reserve(index * 4 + p)
        return placed

    def _lay(self, index: int, pl: Placement, value: int, face: Face, choice: int,
             ) -> tuple[Placed, tuple[Face | None, ...], list[int], list[int]]:  # fmt: skip
        """Tile ``index`` (laid by ``pl`` on ``value``) at position ``choice`` of a face
        (x, y, d): its drawing, its slots' faces, its cells and its unit cells."""
        x, y, d = face
        tile = pl.tile
        code = pl.slot
        shape = self.order(tile, d, False)[choice][0]
        cells = list(map((x * K + y).__add__, shape.cells))
        units = list(map(unit_cell(x, y).__add__, shape.units[2 * (x & 1) + (y & 1)]))
        faces: list[Face | None] = [None, None, None, None]
        port = code & 3
        for dp, nx, ny, nd in shape.faces:
            faces[(port + dp) & 3] = (x + nx, y + ny, nd)
        second = value if tile.is_double else tile.other(value)
        placed = Placed(index, tile, (x + shape.cx) / 2, (y + shape.cy) / 2, shape.angle,
                        value, second)  # fmt: skip
        return placed, tuple(faces), cells, units

    def _move(self, choices: dict[int, int]) -> None:
        """Lay the given tiles (none of them the last) at new positions (tile -> index in
        its face's order, in placement order: a moved tile's anchor moves first): their
        cells, drawings and open slots follow."""
        covered = self.covered
        touched: set[int] = set()  # unit cells
        for k in choices:
            cells, units = self.cells[k]
            for c in cells:
                del covered[c]
            touched.update(units)
        pls = self._table.placements
        for k, choice in choices.items():
            pl = pls[k]
            face = self.faces[pl.anchor][pl.port]
            assert face is not None
            value = self._placed[k].first
            placed, faces, cells, units = self._lay(k, pl, value, face, choice)
            covered.update(dict.fromkeys(cells, k))
            touched.update(units)
            self._placed[k] = placed
            self.faces[k] = faces
            self.how[k] = _How(choice, True)
            self.cells[k] = (cells, units)
            for p, f in enumerate(faces):
                state = self.slots.get(k * 4 + p)
                if state is not None and f is not None:
                    self._loosen(state)
                    self._reserve(k * 4 + p, bool(state.runway), bool(state.tee))
        for u in touched:  # a unit cell stays while a tile reaches into it
            ux, uy = divmod(u + K // 2, K)
            c = 2 * ux * K + 2 * uy - K
            if c in covered or c + 1 in covered or c + K in covered or c + K + 1 in covered:
                self._units.add(u)
            else:
                self._units.discard(u)

    def _open(self, tile: Tile) -> tuple[Placed, tuple[Face | None, ...], list[int], list[int]]:
        n = self._max_pips if self._max_pips is not None else max(tile.high, 6)
        self.area = math.ceil(math.sqrt((n + 1) * (n + 2) // 2 * AREA_PER_TILE))
        self._left = [n + 1] * (n + 1)
        upright = tile.is_double and self._table.layout in (Layout.LINE, Layout.SPINNER)
        if upright:  # across the west-east line
            faces: tuple[Face | None, ...] = ((0, -2, 0), (1, 0, 1), (0, 2, 2), (-1, 0, 3))
            x0, y0, x1, y1 = -1, -2, 1, 2
        else:
            faces = ((0, -1, 0), (2, 0, 1), (0, 1, 2), (-2, 0, 3))
            x0, y0, x1, y1 = -2, -1, 2, 1
        cells = [x * K + y for x in range(x0, x1) for y in range(y0, y1)]
        units = sorted({unit_cell(x, y) for x in range(x0, x1) for y in range(y0, y1)})
        placed = Placed(0, tile, 0.0, 0.0, 90 if upright else 0, tile.high, tile.low)
        return placed, faces, cells, units

    # ------------------------------------------------------------ re-layout

    def _search(self, new: Placement) -> bool:
        """Lay the table out again with ``new`` placed properly (True; :attr:`moved`
        tells which tiles moved), or give up after laying ``budget`` tiles (False,
        nothing changed).

        A large neighbourhood search (:class:`Repair`): the tiles free to move
        start as the new tile, its anchor, the tiles in its way and any tile an
        earlier search gave up on (with every tile hanging on them); each round
        takes them off and lays them again (most constrained first, each first
        where it was, forward checking, conflict-directed backjumping), and a round
        that fails frees the tiles not free that were in the way and the anchors of
        the free tiles. After ``ROUNDS`` rounds (or when nothing more can be
        freed) fresh layouts of the whole table follow, where no tile prefers its
        old place: the first by the scores alone, each restart with random noise
        on them, ``FRESH`` tiles laid per tile of the table at most. Every round
        is bounded, and all of them by ``budget``: tiles laid, so the result does
        not depend on the machine's speed.
        """
        n = len(self._placed)
        placements = [*self._table.placements, new]
        rep = Repair(self, placements)
        seeds = {k for k in range(1, n) if not self.how[k].proper}
        free = rep.closure(seeds | rep.blockers(n) | {n, new.anchor})
        budget = self.budget
        ok = False
        rounds = 0
        while rep.nodes < budget and rounds < ROUNDS:
            rounds += 1
            frontier: set[int] = set()
            limit = min(budget - rep.nodes, ROUND + PER_TILE * len(free))
            if rep.search(free, limit, frontier):
                ok = True
                break
            more = rep.closure(free | frontier | {placements[k].anchor for k in free})
            if more == free:
                break
            free = more
        if not ok:  # fresh layouts of the whole table, with noise after the first
            free = set(range(1, n + 1))
            rep.fresh = True
            while rep.nodes < budget:
                rounds += 1
                limit = min(budget - rep.nodes, FRESH * n)
                if rep.search(free, limit, set()):
                    ok = True
                    break
                rep.rng = random.Random(n * 1009 + rounds)
        self.nodes = rep.nodes
        self.rounds = rounds
        if not ok:
            return False
        moved = [False] * (n + 1)  # the tiles laid again (some land where they were)
        for k in range(1, n):
            moved[k] = rep.choice[k] != rep.orig[k] or moved[placements[k].anchor]
        old = self._placed.copy()
        self._move({k: rep.choice[k] for k in range(1, n) if moved[k]})
        self._step(new, rep.choice[n])
        placed = self._placed
        self.moved = tuple(k for k in range(n) if moved[k] and placed[k] != old[k])
        return True

    def _viable(self, order: tuple[tuple[Shape, int, int], ...], face: Face, own: list[int],
                extra: set[int]) -> bool:  # fmt: skip
        """Whether a position of ``order`` at ``face`` (whose front cells are ``own``)
        fits properly with the ``extra`` cells taken too."""
        covered = self.covered.keys()
        fronts = self._fronts.keys()
        base = face[0] * K + face[1]
        for foot in FOOTPRINTS[id(order)]:
            cells = list(map(base.__add__, foot))
            if (extra.isdisjoint(cells) and covered.isdisjoint(cells)
                    and (fronts.isdisjoint(cells) or (fronts & cells).issubset(own))):  # fmt: skip
                return True
        return False

    def _harm(self, tile: Tile, code: int, shape: Shape, fx: int, fy: int) -> int:
        """The stable path's lookahead: how much ``tile`` laid at (fx, fy) on slot
        ``code`` costs the open slots nearby and its own new slots, 0 if each keeps a
        proper position for a single and for a double as far as one may still come
        there; else per slot that loses it, 1 + the singles still to come showing its
        number for a single's position, 1 for a double's."""
        base = fx * K + fy
        extra = set(map(base.__add__, shape.cells))
        news: list[tuple[Face, list[int]]] = []
        for _dp, x, y, nd in shape.faces:
            front = list(map(((fx + x) * K + fy + y).__add__, FRONT[nd]))
            news.append(((fx + x, fy + y, nd), front))
            extra.update(front)
        x0, y0, x1, y1 = shape.rect
        x0 += fx - 8
        y0 += fy - 8
        x1 += fx + 8
        y1 += fy + 8
        open_ = self._table.open
        proper_double = self._proper_double if self._crosswise else None
        none: set[int] = set()
        harm = 0
        for c, state in self.slots.items():
            sx, sy, sd = state.face
            if c == code or not (x0 <= sx <= x1 and y0 <= sy <= y1):
                continue
            v, kind, _w = open_[c]
            singles, double = self._may_come(tile, v)
            b = sx * K + sy
            checks = [(SINGLES[sd], 1 + singles)] if singles else []
            if double and kind == END and proper_double is not None:
                checks.append((proper_double[sd], 1))
            for order, weight in checks:
                # a slot with no room already is not this tile's doing
                if (not extra.isdisjoint(map(b.__add__, REACH[id(order)]))
                        and not self._viable(order, state.face, state.front, extra)
                        and self._viable(order, state.face, state.front, none)):  # fmt: skip
                    harm += weight
        v = tile.high if tile.is_double else tile.other(open_[code][0])
        singles, double = self._may_come(tile, v)
        for face, front in news:
            nd = face[2]
            rest = extra.difference(front)
            if singles and not self._viable(SINGLES[nd], face, front, rest):
                harm += 1 + singles
            if double and proper_double is not None and \
                    not self._viable(proper_double[nd], face, front, rest):  # fmt: skip
                harm += 1
        return harm

    def _may_come(self, tile: Tile, value: int) -> tuple[int, bool]:
        """How many singles, and whether the double, showing ``value`` may still come
        once ``tile`` (the next) is laid."""
        left = self._left
        if value >= len(left):
            return 1, False
        n = left[value] - (value in tile)
        double_left = value not in self._doubles and not (tile.is_double and tile.high == value)
        return max(n - double_left, 0), double_left and n > 0

    # ------------------------------------------------------------ choosing

    def _choose(self, order: tuple[tuple[Shape, int, int], ...], fx: int, fy: int,
                need: int, tiers: tuple[int, ...], *, skip: set[int] | None = None,
                pens: dict[int, int] | None = None) -> int:  # fmt: skip
        """The index in ``order`` of the least penalised position but ``skip``, or -1 if
        none fits (``pens``: the tier-0 penalties found so far, kept for a next call).

        A later group (slid along the face; a double in line) is tried only when the
        earlier ones cost another slot its room; the relaxed tiers (covering another
        slot's front cell, leaving a new front covered) only when nothing fits.
        """
        for tier in tiers:
            best = -1
            best_pen = 0
            group = 0
            for i, (shape, cost, g) in enumerate(order):
                if g != group:
                    if best >= 0 and best_pen < VIOLATION:
                        return best
                    group = g
                if (best >= 0 and cost >= best_pen) or (skip and i in skip):
                    continue  # it cannot win
                if pens is None:
                    pen = self._penalty(shape, fx, fy, need, tier)
                else:
                    pen = pens.get(i, -2)
                    if pen == -2:
                        pen = pens[i] = self._penalty(shape, fx, fy, need, tier)
                if pen >= 0 and (best < 0 or pen + cost < best_pen):
                    best, best_pen = i, pen + cost
            if best >= 0:
                return best
        return -1

    def _penalty(self, shape: Shape, fx: int, fy: int, need: int, tier: int) -> int:
        """-1 if the tile does not fit (tier 0: nor on another slot's front cell, nor
        leaving a new front covered; tier 1 allows the first, tier 2 both); else how
        much room it takes from the other slots and leaves its new slots, as far as
        they ``need`` it (0 none, 1 a runway, 2 also a tee)."""
        covered = self.covered.keys()
        fronts = self._fronts.keys()
        cells = list(map((fx * K + fy).__add__, shape.cells))
        if not covered.isdisjoint(cells):
            return -1
        pen = 0
        if not fronts.isdisjoint(cells):
            if not tier:
                return -1
            pen += ON_FRONT
        soft = self._soft
        parity = 2 * (fx & 1) + (fy & 1)
        for k in soft.keys() & map(((fx >> 1) * K + (fy >> 1)).__add__, shape.units[parity]):
            pen += ON_TEE if soft[k] >= TEE_W else ON_RUNWAY
        a = self.area
        x0, y0, x1, y1 = shape.rect
        out = max(-a - fx - x0, -a - fy - y0, fx + x1 - a, fy + y1 - a)
        if out > 0:
            pen += OUT_OF_AREA + FURTHER_OUT * out
        tee = need == 2
        units = self._units
        for _dp, x, y, nd in shape.faces:
            nx = fx + x
            ny = fy + y
            front = list(map((nx * K + ny).__add__, FRONT[nd]))
            if not covered.isdisjoint(front) or (not tier and not fronts.isdisjoint(front)):
                if tier < 2:
                    return -1
                pen += BLOCKED
            if not need:
                continue
            u = (nx >> 1) * K + (ny >> 1)
            parity = 2 * (nx & 1) + (ny & 1)
            pen += RUNWAY_TAKEN * len(units.intersection(map(u.__add__, RUNWAY_UNITS[nd][parity])))
            if tee:
                tee_units = list(map(u.__add__, self._tee[nd][parity]))
                pen += TEE_TAKEN * len(units.intersection(tee_units))
                pen += TEE_SHARED * len(soft.keys() & tee_units)
            # room: free unit cells straight ahead of the new front cell and beside it
            u = ((nx + DX[nd]) >> 1) * K + ((ny + DY[nd]) >> 1)
            short = 0
            ahead = AHEAD[nd]
            if not units.isdisjoint(map(u.__add__, ahead)):
                short = ROOM_AHEAD
                for off in ahead:
                    if u + off in units:
                        break
                    short -= 1
            for side in BESIDE[nd]:
                if not units.isdisjoint(map(u.__add__, side)):
                    lack = ROOM_BESIDE
                    for off in side:
                        if u + off in units:
                            break
                        lack -= 1
                    short += 2 * lack if tee else lack
            pen += CLEARANCE * short
        return pen

    def _free_spot(self, shape: Shape, fx: int, fy: int, d: int) -> tuple[int, int]:
        """The nearest face position ahead of (fx, fy) facing d where ``shape`` fits with
        free front cells: where a tile with no room at its anchor is drawn."""
        covered = self.covered.keys()
        fronts = self._fronts.keys()
        rx, ry = DX[(d + 1) & 3], DY[(d + 1) & 3]
        for k in range(1, 1 << 12):
            for o in (0, *(s * j for j in range(1, k + 1) for s in (1, -1))):
                x = fx + k * DX[d] + o * rx
                y = fy + k * DY[d] + o * ry
                base = x * K + y
                cells = [base + c for c in shape.cells]
                cells += [(x + nx) * K + y + ny + c for _dp, nx, ny, nd in shape.faces
                          for c in FRONT[nd]]  # fmt: skip
                if covered.isdisjoint(cells) and fronts.isdisjoint(cells):
                    return x, y
        raise AssertionError("no free spot on an unbounded table")  # pragma: no cover

    # ------------------------------------------------------------ bookkeeping

    def _dead(self, value: int) -> bool:
        """No tile showing ``value`` is left: nothing will come to its slots."""
        return value < len(self._left) and self._left[value] <= 0

    def _reserve(self, code: int, runway_: bool = True, tee_: bool = True) -> None:
        """Open slot ``code``: its front cell (always: its marker goes there) and, while
        a tile may come, its runway and, where a double may come, its tee (each only
        if asked for)."""
        face = self.faces[code >> 2][code & 3]
        assert face is not None
        x, y, d = face
        runway: list[int] = []
        tee: list[int] = []
        value, kind, _w = self._table.open[code]
        front = list(map((x * K + y).__add__, FRONT[d]))
        if runway_ and not self._dead(value):
            u = unit_cell(x, y)
            parity = 2 * (x & 1) + (y & 1)
            runway = list(map(u.__add__, RUNWAY_UNITS[d][parity]))
            if tee_ and self._crosswise and kind == END and value not in self._doubles:
                tee = list(map(u.__add__, self._tee[d][parity]))
        state = _Slot(face, front, runway, tee)
        self._tighten(state)
        self.slots[code] = state

    def _tighten(self, state: _Slot) -> None:
        """Keep the room of a slot."""
        room_add(self._fronts, state.front, 1)
        room_add(self._soft, state.runway, 1)
        room_add(self._soft, state.tee, TEE_W)

    def _loosen(self, state: _Slot) -> None:
        """Free the room of a slot."""
        room_drop(self._fronts, state.front, 1)
        room_drop(self._soft, state.runway, 1)
        room_drop(self._soft, state.tee, TEE_W)

    def _drop_room(self, value: int, tees_only: bool) -> None:
        """Its double is placed (``tees_only``) or every tile showing ``value`` is: its
        slots keep no room for a double, or none at all but their front cells."""
        open_ = self._table.open
        slots = self.slots
        for code, state in slots.items():
            if open_[code][0] == value and (state.tee or (state.runway and not tees_only)):
                room_drop(self._soft, state.tee, TEE_W)
                if tees_only:
                    slots[code] = state._replace(tee=[])
                else:
                    room_drop(self._soft, state.runway, 1)
                    slots[code] = state._replace(runway=[], tee=[])

    # ------------------------------------------------------------ queries

    def markers(self) -> tuple[Marker, ...]:
        """Where each open slot is drawn, in the table's slot order: every legal target
        of the next placement is one of them."""
        out = []
        covered = self.covered
        for code, (v, k, _w) in self._table.open.items():
            state = self.slots[code]
            x, y, d = state.face
            base = x * K + y
            detached = any(base + c in covered for c in FRONT[d])
            if detached:
                room_drop(self._fronts, state.front, 1)
                x, y = self._free_spot(SINGLES[d][0][0], x, y, d)
                room_add(self._fronts, state.front, 1)
            out.append(Marker(code, (x + DX[d]) / 2, (y + DY[d]) / 2, ANGLES[d], v, KINDS[k],
                              detached))  # fmt: skip
        return tuple(out)

    def box(self, with_markers: bool = False) -> Box:
        """The bounding box of the tiles (and the markers): to fit the table to a view."""
        return bounds(self._placed, self.markers() if with_markers else ())


def layout(table: Table, max_pips: int | None = None) -> tuple[Placed, ...]:
    """Every placed tile of ``table``, drawn (the same as adding them one by one)."""
    return Layouter.from_table(table, max_pips).placed


def markers(table: Table, max_pips: int | None = None) -> tuple[Marker, ...]:
    """Where to draw each open slot of ``table`` (see :meth:`Layouter.markers`)."""
    return Layouter.from_table(table, max_pips).markers()
