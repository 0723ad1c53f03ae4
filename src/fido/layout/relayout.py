"""A re-layout's search (:meth:`Layouter._search <fido.layout.layouter.Layouter._search>`
hands it the table as :class:`Laid`): the tiles taken off and laid again until every tile
lies properly."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Protocol

from fido.engine.moves import Placement
from fido.engine.tiles import Tile
from fido.layout.costs import FURTHER_OUT, HEAVY, NOISE, ON_RUNWAY, OUT_OF_AREA
from fido.layout.grid import (
    FOOTPRINTS,
    FRONT,
    PROBES,
    REACH,
    RUNWAYS,
    Face,
    K,
    Shape,
    room_add,
    room_drop,
)


class Slot(Protocol):
    """An open slot as the search reads it: its face and its front cells."""

    @property
    def face(self) -> Face: ...
    @property
    def front(self) -> list[int]: ...


class How(Protocol):
    """How a tile was laid: its position's index in its face's order, and whether the
    position is proper."""

    @property
    def choice(self) -> int: ...
    @property
    def proper(self) -> bool: ...


class Laid(Protocol):
    """The table the search starts from, as the layouter that runs it has laid it (the
    layouter is one: the search names no module above it)."""

    @property
    def covered(self) -> Mapping[int, int]: ...  # cell under a tile -> that tile
    @property
    def slots(self) -> Mapping[int, Slot]: ...
    @property
    def faces(self) -> Sequence[Sequence[Face | None]]: ...  # per tile, per port
    @property
    def cells(self) -> Sequence[tuple[list[int], list[int]]]: ...  # per tile
    @property
    def how(self) -> Sequence[How]: ...  # per tile
    @property
    def area(self) -> int: ...

    def order(self, tile: Tile, d: int, proper: bool) -> tuple[tuple[Shape, int, int], ...]:
        """A tile's positions on a face of direction ``d``, best first."""
        ...

class Repair:
    """A re-layout's search (see :meth:`Layouter._search`): the table as a set of cells
    under tiles and the front cells of the open slots, where any tile can be taken off
    and laid again in any order that lays a tile's anchor first.

    A layout is proper when no two tiles share a cell and every slot's front cell is
    under no tile but the one laid on that slot (and under no other slot's front):
    that does not depend on the order the tiles were laid in, so the search may lay
    them in any order, the most constrained first.
    """

    def __init__(self, lay: Laid, placements: list[Placement]) -> None:
        n = len(placements) - 1
        self.lay = lay
        self.pls = placements
        self.occ: dict[int, int] = dict(lay.covered)  # cell -> the tile on it
        self.res: dict[int, int] = {}  # front cell of an open slot -> that slot
        for code, state in lay.slots.items():
            self.res.update(dict.fromkeys(state.front, code))
        self.faces: list[list[Face | None]] = [list(f) for f in lay.faces]
        self.faces.append([None, None, None, None])
        self.cells: list[list[int]] = [cells for cells, _units in lay.cells]
        self.cells.append([])
        self.orig = [h.choice if h.proper else -1 for h in lay.how] + [-1]
        self.choice = self.orig.copy()
        self.laid = [True] * n + [False]
        self.kids: list[list[int]] = [[] for _ in range(n + 1)]
        self.size = [1] * (n + 1)
        for k in range(n, 0, -1):
            self.kids[placements[k].anchor].append(k)
            self.size[placements[k].anchor] += self.size[k]
        self.fill = {pl.slot: k for k, pl in enumerate(placements) if k}
        self.area = lay.area
        self.nodes = 0
        self.fresh = False  # a fresh layout: no tile prefers where it was
        self.rng: random.Random | None = None  # noise on the scores of a restart
        self.soft: dict[int, int] = {}  # cells ahead of the open slots (runways): how many
        for code, state in lay.slots.items():
            room_add(self.soft, self.runway(code, state.face), 1)
        # the room the new tile's positions need (at its anchor as it lies now)
        face = self.faces[placements[n].anchor][placements[n].port]
        assert face is not None
        base = face[0] * K + face[1]
        self.wanted = {base + c for foot in FOOTPRINTS[id(self.order(n))] for c in foot}
        self.wanted.update(map(base.__add__, FRONT[face[2]]))

    def closure(self, tiles: set[int]) -> set[int]:
        """``tiles`` and every tile hanging on them, but the opening (it never moves)."""
        out = set(tiles)
        out.discard(0)
        todo = list(out)
        while todo:
            for k in self.kids[todo.pop()]:
                if k not in out:
                    out.add(k)
                    todo.append(k)
        return out

    # ------------------------------------------------------------ the state

    def runway(self, code: int, face: Face) -> list[int]:
        """The cells ahead of slot ``code`` its tiles to come want (as many units as
        tiles hang there, up to 5; 2 for a slot open at the end)."""
        k = self.fill.get(code)
        reach = min(self.size[k], 5) if k is not None else 2
        return list(map((face[0] * K + face[1]).__add__, RUNWAYS[face[2]][reach]))

    def order(self, j: int) -> tuple[tuple[Shape, int, int], ...]:
        pl = self.pls[j]
        face = self.faces[pl.anchor][pl.port]
        assert face is not None
        return self.lay.order(pl.tile, face[2], True)

    def fits(self, j: int, o: int) -> bool:
        """Whether tile j (its anchor laid) fits properly at position o."""
        pl = self.pls[j]
        face = self.faces[pl.anchor][pl.port]
        assert face is not None
        base = face[0] * K + face[1]
        cells = list(map(base.__add__, FOOTPRINTS[id(self.lay.order(pl.tile, face[2], True))][o]))
        if not self.occ.keys().isdisjoint(cells):
            return False
        res = self.res
        s = pl.slot
        return res.keys().isdisjoint(cells) or all(res[c] == s for c in res.keys() & cells)

    def domain(self, j: int) -> list[int]:
        return [o for o in range(len(self.order(j))) if self.fits(j, o)]

    def blockers(self, j: int) -> set[int]:
        """The laid tiles whose cells or open slots are in the way of tile j."""
        pl = self.pls[j]
        face = self.faces[pl.anchor][pl.port]
        assert face is not None
        cells = set(map((face[0] * K + face[1]).__add__, REACH[id(self.order(j))]))
        occ = self.occ
        res = self.res
        out = {occ[c] for c in occ.keys() & cells}
        out.update(res[c] >> 2 for c in res.keys() & cells if res[c] != pl.slot)
        return out

    def lay_tile(self, j: int, o: int) -> None:
        pl = self.pls[j]
        face = self.faces[pl.anchor][pl.port]
        assert face is not None
        fx, fy, _d = face
        shape = self.order(j)[o][0]
        faces: list[Face | None] = [None, None, None, None]
        for dp, x, y, nd in shape.faces:
            faces[(pl.port + dp) & 3] = (fx + x, fy + y, nd)
        self.put(j, list(map((fx * K + fy).__add__, shape.cells)), faces, o)

    def put(self, j: int, cells: list[int], faces: list[Face | None], o: int) -> None:
        """Lay tile j on ``cells`` with the slots ``faces`` (position o)."""
        pl = self.pls[j]
        face = self.faces[pl.anchor][pl.port]
        assert face is not None
        res = self.res
        s = pl.slot
        for c in map((face[0] * K + face[1]).__add__, FRONT[face[2]]):
            if res.get(c) == s:
                del res[c]
        room_drop(self.soft, self.runway(s, face), 1)
        self.occ.update(dict.fromkeys(cells, j))
        for q, f in enumerate(faces):
            if f is not None:
                res.update(dict.fromkeys(map((f[0] * K + f[1]).__add__, FRONT[f[2]]), j * 4 + q))
                room_add(self.soft, self.runway(j * 4 + q, f), 1)
        self.faces[j] = faces
        self.cells[j] = cells
        self.choice[j] = o
        self.laid[j] = True

    def take(self, j: int) -> None:
        """Take tile j off (its children are off already): its slot opens again."""
        occ = self.occ
        for c in self.cells[j]:
            del occ[c]
        res = self.res
        for q, face in enumerate(self.faces[j]):
            if face is not None:
                code = j * 4 + q
                for c in map((face[0] * K + face[1]).__add__, FRONT[face[2]]):
                    if res.get(c) == code:
                        del res[c]
                room_drop(self.soft, self.runway(code, face), 1)
        self.faces[j] = [None, None, None, None]
        self.cells[j] = []
        self.laid[j] = False
        pl = self.pls[j]
        face = self.faces[pl.anchor][pl.port]
        assert face is not None
        res.update(dict.fromkeys(map((face[0] * K + face[1]).__add__, FRONT[face[2]]), pl.slot))
        room_add(self.soft, self.runway(pl.slot, face), 1)

    def score(self, j: int, o: int, face: Face, own: set[int]) -> int:
        """How bad position o of tile j at ``face`` looks: a bend, a slide, leaving the
        table area, reaching into the runways of other slots (``own``: its slot's),
        and tiles in the way ahead of its new slots, as far as tiles will come there."""
        fx, fy, d = face
        pl = self.pls[j]
        shape, cost, _g = self.lay.order(pl.tile, d, True)[o]
        a = self.area
        x0, y0, x1, y1 = shape.rect
        out = max(-a - fx - x0, -a - fy - y0, fx + x1 - a, fy + y1 - a)
        if out > 0:
            cost += OUT_OF_AREA + FURTHER_OUT * out
        soft = self.soft
        for c in soft.keys() & set(map((fx * K + fy).__add__, shape.cells)):
            if soft[c] > (c in own):
                cost += ON_RUNWAY
        if self.rng is not None:
            cost += self.rng.randrange(NOISE)
        occ = self.occ
        fill = self.fill
        size = self.size
        for dp, x, y, nd in shape.faces:
            k = fill.get(j * 4 + ((pl.port + dp) & 3))
            base = (fx + x) * K + fy + y
            for off, w in PROBES[nd][min(size[k], 5) if k is not None else 2]:
                if base + off in occ:
                    cost += w
        return cost

    # ------------------------------------------------------------ the search

    def search(self, free: set[int], budget: int, frontier: set[int]) -> bool:
        """Take the ``free`` tiles off and lay them again properly: the tile with the
        fewest positions left first, each first where it was; forward checking on
        the tiles waiting nearby; conflict-directed backjumping (a tile with no
        position left goes back to the latest tile whose move may make room: one in
        its way or one it hangs on); at most ``budget`` tiles laid. False: everything
        as it was, and ``frontier`` holds the tiles not free that were in the way."""
        before = {j: (self.cells[j], self.faces[j], self.choice[j])
                  for j in free if self.laid[j]}  # fmt: skip
        for j in sorted(before, reverse=True):
            self.take(j)
        dom: dict[int, list[int]] = {}
        for j in free:
            if self.laid[self.pls[j].anchor]:
                dom[j] = self.domain(j)
        stack: list[tuple[int, list[int], dict[int, list[int] | None], set[int]]] = []
        at: dict[int, int] = {}  # a laid free tile -> its place in the stack
        nodes = 0
        ok = True
        for j, opts in dom.items():
            if not opts:
                self._why(j, free, frontier)
                ok = False
        j = -1
        options: list[int] = []
        conf: set[int] = set()
        if ok and dom:
            j = min(dom, key=lambda k: (len(dom[k]), k))
            options = self._ranked(j, dom[j])
        while ok and j >= 0:
            laid = False
            while options and nodes < budget:
                o = options.pop(0)
                nodes += 1
                saved, why = self._forward(j, o, dom, free, frontier)
                if saved is not None:
                    at[j] = len(stack)
                    stack.append((j, options, saved, conf))
                    laid = True
                    break
                conf |= why
            if laid:
                if not dom:
                    break
                j = min(dom, key=lambda k: (len(dom[k]), k))
                options = self._ranked(j, dom[j])
                conf = set()
                continue
            if nodes >= budget:
                ok = False
                break
            # a dead end: back to the latest tile that may make room
            conf |= self._why(j, free, frontier)
            conf.discard(j)
            back = max((at[t] for t in conf if t in at), default=-1)
            if back < 0:
                ok = False
                break
            while len(stack) > back:
                t, options, saved, old = stack.pop()
                del at[t]
                self._back(t, dom, saved)
            conf = old | conf
            conf.discard(t)
            j = t
        self.nodes += nodes
        if ok:
            return True
        while stack:
            t, _options, saved, _conf = stack.pop()
            self._back(t, dom, saved)
        for t in sorted(before):
            self.put(t, *before[t])
        return False

    def _ranked(self, j: int, options: list[int]) -> list[int]:
        """The positions of tile j: where it was first if many tiles hang on it (they
        would all move), else those out of the new tile's way first, then where it
        was; then best first."""
        pl = self.pls[j]
        face = self.faces[pl.anchor][pl.port]
        assert face is not None
        own = set(self.runway(pl.slot, face))
        if self.fresh:
            return sorted(options, key=lambda o: self.score(j, o, face, own))
        was = self.orig[j]
        big = self.size[j] > HEAVY
        return sorted(options, key=lambda o: (big and o != was, self.in_way(j, o), o != was,
                                              self.score(j, o, face, own)))  # fmt: skip

    def in_way(self, j: int, o: int) -> bool:
        """Whether tile j at o takes room any position of the new tile needs."""
        pl = self.pls[j]
        face = self.faces[pl.anchor][pl.port]
        assert face is not None
        base = face[0] * K + face[1]
        foot = FOOTPRINTS[id(self.lay.order(pl.tile, face[2], True))][o]
        return not self.wanted.isdisjoint(map(base.__add__, foot))

    def _why(self, k: int, free: set[int], frontier: set[int]) -> set[int]:
        """The free tiles whose move may give tile k a position: those in its way and
        the tiles they and it hang on; the tiles in its way that are not free go
        to ``frontier``."""
        out: set[int] = set()
        pls = self.pls
        for t in (*self.blockers(k), pls[k].anchor):
            if t not in free:
                if t != pls[k].anchor:
                    frontier.add(t)
                continue
            while t in free and t not in out:
                out.add(t)
                t = pls[t].anchor
        return out

    def _forward(self, j: int, o: int, dom: dict[int, list[int]], free: set[int],
                 frontier: set[int],
                 ) -> tuple[dict[int, list[int] | None] | None, set[int]]:  # fmt: skip
        """Lay tile j at o and narrow the positions of the waiting tiles nearby; (None,
        the free tiles to blame) and nothing changed if one of them has none left."""
        self.lay_tile(j, o)
        saved: dict[int, list[int] | None] = {j: dom.pop(j)}
        taken = set(self.cells[j])  # what it takes from the others: its cells, its fronts
        for f in self.faces[j]:
            if f is not None:
                taken.update(map((f[0] * K + f[1]).__add__, FRONT[f[2]]))
        x0, y0, x1, y1 = self._near(j)
        failed = -1
        lay = self.lay
        for k, opts in dom.items():
            pl = self.pls[k]
            face = self.faces[pl.anchor][pl.port]
            assert face is not None
            if x0 <= face[0] <= x1 and y0 <= face[1] <= y1:
                base = face[0] * K + face[1]
                feet = FOOTPRINTS[id(lay.order(pl.tile, face[2], True))]
                narrowed = [o2 for o2 in opts if taken.isdisjoint(map(base.__add__, feet[o2]))]
                if len(narrowed) < len(opts):
                    saved[k] = opts
                    dom[k] = narrowed
                    if not narrowed:
                        failed = k
                        break
        if failed < 0:
            for k in self.kids[j]:
                saved[k] = None
                dom[k] = self.domain(k)
                if not dom[k]:
                    failed = k
                    break
        if failed < 0:
            return saved, set()
        why = self._why(failed, free, frontier)
        self._back(j, dom, saved)
        return None, why

    def _back(self, j: int, dom: dict[int, list[int]], saved: dict[int, list[int] | None]) -> None:
        """Undo _forward(j, ...)."""
        for k, opts in saved.items():
            if opts is None:
                del dom[k]
            else:
                dom[k] = opts
        self.take(j)

    def _near(self, j: int) -> tuple[int, int, int, int]:
        """A box around tile j holding every face whose positions it may stop."""
        x0 = y0 = 1 << 30
        x1 = y1 = -(1 << 30)
        for c in self.cells[j]:
            x, y = divmod(c + K // 2, K)
            y -= K // 2
            x0 = min(x0, x)
            y0 = min(y0, y)
            x1 = max(x1, x)
            y1 = max(y1, y)
        return x0 - 8, y0 - 8, x1 + 8, y1 + 8
