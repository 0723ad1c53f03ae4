"""Table layout: where every placed tile is drawn, computed once, in Python.

Its parts: :mod:`~fido.layout.drawn` (what is drawn: :class:`Placed`,
:class:`Marker`, :class:`Box`), :mod:`~fido.layout.grid` (the half-unit grid and
the tiles' shapes on it), :mod:`~fido.layout.costs` (the tuned penalties),
:mod:`~fido.layout.layouter` (the stable path: :class:`Layouter`),
:mod:`~fido.layout.relayout` (a re-layout's search) and
:mod:`~fido.layout.sketch` (:func:`svg`).

The web table, replays, the rule book's pictures and (later) the terminal draw
the same geometry, so it lives here and clients only draw it (as chessground
does for lichess). The rules never look at it: a slot's direction (its port)
is fixed by :mod:`fido.engine.table`, but a drawn chain bends, so the drawn direction
of every open slot is this package's own state.

Units: a tile is 2 long and 1 wide (two 1x1 halves); x grows east and y grows
south, as in SVG. A :class:`Placed` tile has its centre, an angle (0, 90, 180
or 270: the direction from its ``first`` half to its ``second``, 0 pointing
east, clockwise as SVG's ``rotate``) and the numbers on its halves: ``first``
is the half touching its anchor, so it shows the matched value.

Slots as drawn (the semantics of :mod:`fido.engine.table`): a slot's *face* is the
edge of its tile where the next tile touches, facing the slot's drawn
direction. The opening double of ``cross`` and ``inline`` lies west-east, its
ends (short edges) west and east and, in ``cross``, its naked sides (long
edges) north and south. The opening double of ``line`` and ``spinner`` lies
across the west-east line: long edges west and east, short edges (the
spinner's other arms) north and south. A non-double opening lies west-east,
its higher half west. A double on a slot lies crosswise, the middle of a long
edge on the face: its ends are its short edges, perpendicular to the growth,
and its free side is the far long edge (``inline``: doubles lie in line like
other tiles). Each placed tile keeps the compass turn of the face it was laid
on, so its ports are its own n, e, s, w turned with the drawing.

How a position is chosen (:meth:`Layouter.add`): a single goes straight on or
turns right or left (its first half in front of the face, the second ahead or
beside it); a double lies crosswise. Every open slot keeps its front cell free
(its marker goes there and nothing else may cover it), and softly a runway
ahead and, where a double may still come, room for that double and its ends
(the tee). Of the positions that fit, the one taking least of the other slots'
room and leaving its new slots most room (free cells ahead and beside) wins,
straight on before a turn, inside a square table area sized for the set; a
position slid half a unit along the face only when none fits cleanly. So
chains bend before they run into each other or off the table area. A
lookahead on the numbers still to come passes over a position that would
leave a slot nearby (or a new one) no proper position for a single or a
double that may still come there, unless every position does.

That stable path never moves a tile, but it cannot know which slots will grow,
so now and then a crowded corner leaves the next tile no proper position (in
290 of 1,000 random FIDO double-18 games for 9 players, twice in such a game
on average; in the classic games never). Then the table is laid out again
(:meth:`Layouter._search`): a search over the tiles' positions (straight, a
bend, slid; doubles crosswise) until every tile touches its anchor, every
double lies crosswise, no two tiles overlap and every open slot's front cell
is free. It frees the new tile, its anchor and the tiles in its way first and
more only as needed, and keeps every tile where it was where it can (6 tiles
move in the median re-layout); :attr:`Layouter.moved` names the earlier tiles
that moved, for a client to animate. The search is bounded; only if it gives
up (never in those 1,000 games) is the tile drawn with the old fallbacks, in
order: a double in line instead of crosswise; covering another slot's front
cell, or leaving the new slot's front covered (that slot's marker then shows
where its tile would go); and last *detached*, at the nearest free spot ahead
of its face (``Placed.detached``; :func:`svg` draws a dashed connector).
Tiles never overlap.

The opening double and FIDO's second move on its north side:

>>> from fido.engine.table import Table
>>> table = Table.from_text("cross 18-18 18-12@0n")
>>> [(p.x, p.y, p.angle, p.first, p.second) for p in layout(table)]
[(0.0, 0.0, 0, 18, 18), (0.0, -1.5, 270, 18, 12)]
"""

from __future__ import annotations

from fido.layout.drawn import Box, Marker, Placed, bounds
from fido.layout.layouter import Layouter, layout, markers
from fido.layout.sketch import svg

__all__ = ["Box", "Layouter", "Marker", "Placed", "bounds", "layout", "markers", "svg"]
