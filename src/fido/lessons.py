"""The first lesson: FIDO taught by playing, one real position a step, in the federation's
own examples and words.

Each :class:`Step` is a position on double-18 (divisor 11, four players; the texts'
example: the opening 18-18, then 18-12 crosswise, 18 + 18 + 12 = 48), built by the engine
from the tiles laid so far, and a :class:`Goal`: the moves that do what the step asks
(score the most, score without spending a joker (a *heilige* tile), leave the next player the
fewest replies...). Every move she may make is judged by :func:`tries` with what it does
(the new sum, the points) and why it is right or not; the web page
(:mod:`fido.web.learn_pages`) and ``fido learn`` (:mod:`fido.terminal.lesson`) only show
it. ``tests/core/test_lessons.py`` checks each step against the engine: the position is
legal, the right moves are not all of them, and the numbers the text states are the
engine's.

>>> step = LESSON[1]
>>> view = step.view()
>>> view.table.ends_sum, view.rules.divisor
(48, 11)
>>> [t.move.text() for t in tries(step) if t.right]
['18-14@0e', '18-14@0w']
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final, NamedTuple

from fido.engine.game import Game
from fido.engine.knowledge import unseen_tiles
from fido.engine.moves import Placement
from fido.engine.rules import Ruleset
from fido.engine.table import Table
from fido.engine.tiles import Tile
from fido.engine.views import SeatView
from fido.i18n import N_, _, ngettext
from fido.position import parse_game

__all__ = ["FIRST_GAME", "LESSON", "RULES", "FirstGame", "Goal", "Step", "Try", "tries", "where"]

RULES = "fido set=18"  # the texts' examples are double-18 on the divisor 11
PLAYERS = 4
OTHERS_HOLD = 6  # tiles in each other hand: a table in the middle of its game


class Goal(enum.Enum):
    """Which moves a step asks for."""

    TILE = "tile"  # lay the step's tile (anywhere it fits)
    MOST = "most"  # score the most points there are
    SCORE = "score"  # score at all
    KEEP = "keep"  # score, without spending a heilige tile
    SAFE = "safe"  # leave the next player the fewest tiles that score


@dataclass(frozen=True)
class Step:
    """One step: the tiles laid so far, her hand, what to do and what to say.

    ``laid``: each tile and where it went, ``(tile, kind, value)`` (kind ``end`` or
    ``side``, the value it touched; the opening has neither), in the order played from
    seat 0; she is the next seat. The texts are messages (``N_``), translated when shown.
    """

    key: str
    title: str
    text: str
    right: str  # said when she makes a right move
    hint: str  # said after a wrong one, after what that move did
    hand: tuple[str, ...]
    laid: tuple[tuple[str, str | None, int | None], ...] = ()
    goal: Goal = Goal.MOST
    tile: str | None = None  # Goal.TILE's tile
    facts: tuple[tuple[str, int], ...] = ()  # what the text states (the sum "now", the sum
    # "after" a right move, its "points"), checked against the engine by the tests

    @property
    def seat(self) -> int:
        return len(self.laid) % PLAYERS

    def game(self) -> Game:
        return _game(self)

    def view(self) -> SeatView:
        return _game(self).view(self.seat)


@dataclass(frozen=True)
class Try:
    """One move she may make in a step, judged."""

    move: Placement
    right: bool
    sum: int  # the open ends' sum after it
    points: int
    replies: int | None  # Goal.SAFE: the tiles she cannot see that would score next
    said: str  # what it does and why it is (not) the move, in the reader's language


@cache
def _game(step: Step) -> Game:
    """The step's position: the laid tiles on the table, her hand, the other hands and the
    stock made of the rest (the stock unordered: a draw is chance)."""
    rules = Ruleset.from_text(RULES)
    table = Table(rules.layout)
    scores = [0] * PLAYERS
    for i, (text, kind, value) in enumerate(step.laid):
        tile = Tile.from_text(text)
        if kind is None:
            table.place(tile)
        else:
            code = next(c for c, (v, k) in table.open_slots().items() if v == value and k == kind)
            table.place(tile, code)
        scores[i % PLAYERS] += rules.points(table.ends_sum)
    hand = [Tile.from_text(t) for t in step.hand]
    used = {p.tile for p in table.placements} | set(hand)
    rest = [t for t in rules.dominoes.tiles if t not in used]
    hands: list[list[Tile]] = [[] for _ in range(PLAYERS)]
    hands[step.seat] = hand
    others = [s for s in range(PLAYERS) if s != step.seat]
    for n, seat in enumerate(others):  # spread over the set, not its lowest tiles
        hands[seat] = rest[n :: len(others) * 4][:OTHERS_HOLD]
    dealt = {t for h in hands for t in h}
    stock = [t for t in rest if t not in dealt]
    line = " | ".join([
        rules.text(), table.text(),
        "hands " + " / ".join(" ".join(t.text() for t in h) or "-" for h in hands),
        "stock {" + " ".join(t.text() for t in stock) + "}",
        f"to {step.seat}", "scores " + " ".join(map(str, scores)), "passes 0", "opener 0",
    ])
    return parse_game(line)


def _heilig(tile: Tile, divisor: int) -> bool:
    """A tile that keeps the sum's remainder on an end: the divisor's difference (or a
    multiple), and the doubles 0-0 and d-d (RULES.md, hand sorting: the jokers)."""
    if tile.is_double:
        return tile.high % divisor == 0
    return (tile.high - tile.low) % divisor == 0


def _replies(game: Game, move: Placement, unseen: Sequence[Tile]) -> int:
    """How many of the ``unseen`` tiles would score somewhere after ``move``."""
    after = game.copy()
    after.push(move)
    table = after.table
    slots = table.open_slots()
    count = 0
    for tile in unseen:
        for code, (value, _kind) in slots.items():
            if value in (tile.high, tile.low) and after.rules.points(table.sum_after(tile, code)):
                count += 1
                break
    return count


def where(move: Placement, table: Table) -> str:
    """Where a move lays its tile, as a player says it: "18-11 on the free side of
    18-18", "12-8 on the end 12"."""
    value, kind = table.open_slots()[move.slot] if move.slot >= 0 else (0, "")
    if move.slot < 0:
        return _("{tile} to open").format(tile=move.tile.text())
    if kind == "side":
        return _("{tile} on the free side of {double}").format(
            tile=move.tile.text(), double=f"{value}-{value}")
    return _("{tile} on the end {value}").format(tile=move.tile.text(), value=value)


def _points(n: int) -> str:
    if not n:
        return _("no points")
    return ngettext("{n} point", "{n} points", n).format(n=n)


def tries(step: Step) -> list[Try]:
    """Every move she may make in ``step``, judged, in the engine's order."""
    game = _game(step)
    view = game.view(step.seat)
    table = view.table
    divisor = view.rules.divisor
    moves = [m for m in view.legal_moves if isinstance(m, Placement)]
    sums = {m: table.sum_after(m.tile, m.slot) for m in moves}
    points = {m: view.rules.points(sums[m]) for m in moves}
    unseen = unseen_tiles(view)  # the tiles she cannot see: the next player's, or the stock's
    replies = ({m: _replies(game, m, unseen) for m in moves}
               if step.goal is Goal.SAFE else {})
    best = max(points.values(), default=0)
    fewest = min(replies.values(), default=0)

    def right(m: Placement) -> bool:
        match step.goal:
            case Goal.TILE:
                return m.tile.text() == step.tile
            case Goal.MOST:
                return points[m] == best > 0
            case Goal.SCORE:
                return points[m] > 0
            case Goal.KEEP:
                return points[m] > 0 and not _heilig(m.tile, divisor)
            case Goal.SAFE:
                return replies[m] == fewest
        return False  # pragma: no cover (every goal is matched)

    out = []
    for m in moves:
        did = _("{move}: the sum is {sum}, {points}.").format(
            move=where(m, table), sum=sums[m], points=_points(points[m]))
        if step.goal is Goal.SAFE:
            did += " " + ngettext(
                "{n} of the tiles you cannot see would score next.",
                "{n} of the tiles you cannot see would score next.", replies[m]
            ).format(n=replies[m])
        ok = right(m)
        said = f"{did} {_(step.right) if ok else _(step.hint)}"
        out.append(Try(m, ok, sums[m], points[m], replies.get(m), said))
    return out


class FirstGame(NamedTuple):
    """The game the lesson ends with: the gentlest bot, the smallest set, a short game."""

    set: int = 6
    players: int = 3
    bot: str = "random"

    @property
    def rules(self) -> str:
        return f"fido set={self.set}"


FIRST_GAME: Final = FirstGame()


LESSON: Sequence[Step] = (
    Step(
        key="open",
        title=N_("The highest double opens"),
        text=N_("Whoever holds the highest double of the set opens the game with it: "
                "in the double-18 game, 18-18. Lay it on the table."),
        right=N_("Its two ends show 18 each: the sum of the ends is 36. A sum divisible "
                 "by the divisor (11 in double-18) scores the quotient; 36 is not, so "
                 "nobody scores yet."),
        hint=N_("The opening tile is the highest double."),
        hand=("18-18", "18-12", "15-4", "9-2", "7-7", "6-1"),
        goal=Goal.TILE, tile="18-18", facts=(("now", 0), ("after", 36)),
    ),
    Step(
        key="down",
        title=N_("Come down by a difference"),
        text=N_("18-12 was laid at a side of the double: now three ends are open, "
                "18 + 18 + 12 = 48. The nearest multiple of 11 below is 44: lay a tile "
                "that lowers the sum by 4. A tile changes the sum only by the "
                "difference of its two numbers."),
        right=N_("Its 18 covers an end of 18 and opens a 14: the sum comes down by 4, "
                 "to 44. 44 ÷ 11 = 4 points."),
        hint=N_("Look for a difference of 4 whose higher number covers an end: then the "
                "sum comes down. Laid on its lower number, the same tile raises the "
                "sum by 4."),
        hand=("18-14", "12-16", "12-3", "9-5", "6-2"),
        laid=(("18-18", None, None), ("18-12", "side", 18)),
        goal=Goal.MOST, facts=(("now", 48), ("after", 44), ("points", 4)),
    ),
    Step(
        key="side",
        title=N_("The free side of a double"),
        text=N_("A double is laid crosswise, so besides its two ends it has a free side. "
                "A tile laid there covers no end: the sum rises by the tile's other "
                "number. The sum is 44. Reach 55."),
        right=N_("On the free side 18-11 adds 11: 55 ÷ 11 = 5 points. A tile whose other "
                 "number is 0 or a multiple of the divisor scores on a free side right "
                 "after the player before you scored: a tap-in tile (Abstauber)."),
        hint=N_("Which tile adds 11 on the free side of 18-18?"),
        hand=("18-11", "8-4", "18-6", "9-3", "5-1"),
        laid=(("18-18", None, None), ("18-12", "side", 18), ("12-8", "end", 12)),
        goal=Goal.MOST, facts=(("now", 44), ("after", 55), ("points", 5)),
    ),
    Step(
        key="double",
        title=N_("A double adds its number"),
        text=N_("A double is always laid crosswise: it covers one end and opens two of "
                "the same number. So double-eight makes plus eight, not sixteen. The sum "
                "is 47."),
        right=N_("47 + 8 = 55: 5 points. Doubles never lower the sum."),
        hint=N_("Which tile adds 8 to the sum?"),
        hand=("8-8", "3-12", "18-5", "8-1", "6-4"),
        laid=(("18-18", None, None), ("18-12", "side", 18), ("12-8", "end", 12),
              ("18-3", "side", 18)),
        goal=Goal.MOST, facts=(("now", 47), ("after", 55), ("points", 5)),
    ),
    Step(
        key="heilig",
        title=N_("Keep a joker"),
        text=N_("Back at 18 + 18 + 12 = 48. Two of your tiles score. 18-7 has the "
                "divisor's difference, 11: a joker, a holy tile in the federation's "
                "words. On an end it keeps the sum's remainder, so it scores right "
                "after the player before you scored. Play it only when nothing else "
                "fits: score with another tile."),
        right=N_("12-8 comes down by 4 to 44: 4 points, and the joker 18-7 stays in "
                 "your hand for later."),
        hint=N_("That spends your joker. Score with a tile that is not one."),
        hand=("18-7", "12-8", "6-2", "9-9", "4-1"),
        laid=(("18-18", None, None), ("18-12", "side", 18)),
        goal=Goal.KEEP, facts=(("now", 48), ("after", 44), ("points", 4)),
    ),
    Step(
        key="classes",
        title=N_("Up and down: difference classes"),
        text=N_("The sum is 50: +5 reaches 55, -6 comes down to 44. On the divisor 11 "
                "the differences 5 and 6 belong together: your hand is sorted in rows by "
                "difference, each row beside its partner. Score with either."),
        right=N_("Both ways score: a tile of difference 5 laid upwards, or one of "
                 "difference 6 laid downwards."),
        hint=N_("Look in the row of differences 5 and 6."),
        hand=("6-11", "8-2", "8-16", "6-7", "18-9"),
        laid=(("18-18", None, None), ("18-12", "side", 18), ("12-8", "end", 12),
              ("18-6", "side", 18)),
        goal=Goal.SCORE, facts=(("now", 50),),
    ),
    Step(
        key="reply",
        title=N_("Leave the next player nothing"),
        text=N_("The sum is 48 and none of your tiles scores. Then choose the move after "
                "which the fewest tiles you cannot see would score for the next player."),
        right=N_("That leaves the next player the fewest replies."),
        hint=N_("Another move leaves the next player fewer tiles that score."),
        hand=("12-2", "18-10", "12-5", "9-4", "3-1"),
        laid=(("18-18", None, None), ("18-12", "side", 18)),
        goal=Goal.SAFE, facts=(("now", 48),),
    ),
)
