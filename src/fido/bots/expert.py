"""The ``expert`` level: the FIDO texts' own advice, and each classic game's standard play.

Every legal placement gets a score: the points it makes now plus a sum of
small, named heuristic terms, each a plain function ``(pos, move) -> float``
where ``pos`` is a :class:`Position`, the seat's view plus what one reads off
it once per decision (the unseen tiles, who is void in what). The weights are
module constants in points: a term of 1.0 is worth one point now.

FIDO (fido-rules-en.txt, "Tips" and "Special rules"): keep the jokers
(:func:`keeps_jokers`), keep tiles of each complementary class pair
(:func:`keeps_complementary_pairs`), shed heavy tiles (:func:`sheds_heavy`) and
doubles while their number is still open (:func:`sheds_double_while_open`),
take tap-ins (:func:`takes_tap_in`), block a double's free side when holding no
tap-in (:func:`ter_heide_block`), force a number you hold many of
(:func:`jokinen_force`), and do not leave the next player an easy score
(:func:`spares_next_player`). The classic games reuse the same terms where the
idea is the same (muggins' jokers are difference 5, 0-0 and 5-5) and add
:func:`keeps_suit_variety` and :func:`plays_to_voids` for the blocking games.

A bot sees only the :class:`~fido.engine.views.SeatView`; nothing here touches a game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final, NamedTuple

from fido.bots.base import Move
from fido.engine.knowledge import Shown, seat_events, unseen_tiles
from fido.engine.moves import Placement
from fido.engine.rules import Layout, Scoring, Stuck
from fido.engine.sorting import difference_class, is_joker, tap_ins
from fido.engine.table import SIDE, Table
from fido.engine.tiles import Tile
from fido.engine.views import SeatView

__all__ = [
    "EXPERT_WEIGHTS",
    "ExpertBot",
    "FidoWeights",
    "Position",
    "expert_score",
    "jokinen_force",
    "keeps_complementary_pairs",
    "keeps_jokers",
    "keeps_suit_variety",
    "plays_to_voids",
    "points_now",
    "sheds_double_while_open",
    "sheds_heavy",
    "spares_next_player",
    "takes_tap_in",
    "ter_heide_block",
]

# ------------------------------------------------------------------ weights (in points)

W_POINTS: Final = 1.0  # a point now is the unit every other term is measured in
# A joker is a score in reserve for the turn after an opponent scored; spending it costs
# about a third of a typical score (the sum / d), since it may never find that turn.
W_JOKER: Final = 0.6
# Losing the last tile of a class pair means missing scores for the rest of the game; the
# term is a change in coverage (at most 1 per pair), times a typical score.
W_PAIRS: Final = 1.0
# Pips count against you at the end: a tile's pips times the chance the hand ends before
# you shed it (about one over the shortest opponent hand), times this weight.
W_HEAVY: Final = 1.0
# A double goes only on an end of its number; once that number runs out it is stuck in hand.
W_DOUBLE: Final = 2.5
# A tap-in that scores uses a chance someone else may take, and keeps a joker in hand.
W_TAP_IN: Final = 1.0
# Blocking a free side (ter Heide) denies the opponents' tap-ins, a fraction of a score.
W_TER_HEIDE: Final = 0.1
# Jokinen: leaving ends of a number the opponents lack makes them draw.
W_JOKINEN: Final = 1.0
# Expected points the next player scores after the move; in a free-for-all of n players her
# points lower my margin by only 1 / (n - 1) of them (set in Position).
W_SPARE: Final = 1.0
# Blocking games: pips shed, per pip (the winner takes the losers' pips; fewest pips wins a block).
W_BLOCK_PIPS: Final = 0.5
# Blocking games: distinct numbers in hand after the move (fewer means passing sooner).
W_VARIETY: Final = 1.0
# Blocking games: an end an opponent is void in makes her pass; one the partner lacks, her.
W_VOIDS: Final = 3.0
# Trust in a void read off a FIDO draw: the drawn tile, unseen, may show the number.
SOFT_VOID: Final = 0.3


class FidoWeights(NamedTuple):
    """The FIDO terms' weights, in points: the expert's are the constants above.

    A bot that wants the same advice weighed differently (the ``champion``'s
    prior, tuned by self-play) passes its own to :func:`expert_score`.
    """

    joker: float = W_JOKER
    pairs: float = W_PAIRS
    heavy: float = W_HEAVY
    double: float = W_DOUBLE
    tap_in: float = W_TAP_IN
    ter_heide: float = W_TER_HEIDE
    jokinen: float = W_JOKINEN
    spare: float = W_SPARE


EXPERT_WEIGHTS: Final = FidoWeights()


# ------------------------------------------------------------------ the position


@dataclass(frozen=True, slots=True)
class Position:
    """A view and what is read off it once per decision."""

    view: SeatView
    divisor: int
    unseen: tuple[Tile, ...]  # full set minus own hand minus table
    unseen_by_value: tuple[tuple[Tile, ...], ...]
    mine_by_value: tuple[int, ...]  # tiles in my hand showing each number
    holds: tuple[dict[int, float], ...]  # seat -> number she lacked -> chance she holds it now
    next_seat: int
    partners: frozenset[int]  # my team mates (not me); empty without teams
    scale: float  # a typical score now: the sum / d, at least 1
    urgency: float  # chance a tile still in hand counts at the end
    spare_weight: float

    @classmethod
    def of(cls, view: SeatView) -> Position:
        rules = view.rules
        seat = view.seat if view.seat is not None else view.to_move
        n = rules.max_pips
        unseen = unseen_tiles(view)
        by_value: list[list[Tile]] = [[] for _ in range(n + 1)]
        for t in unseen:
            by_value[t.high].append(t)
            if not t.is_double:
                by_value[t.low].append(t)
        mine = [0] * (n + 1)
        for t in view.hand:
            mine[t.high] += 1
            if not t.is_double:
                mine[t.low] += 1
        teams = rules.teams(view.players)
        partners: frozenset[int] = frozenset()
        if teams is not None:
            partners = frozenset(s for team in teams if seat in team for s in team) - {seat}
        others = [c for s, c in enumerate(view.hand_counts) if s != seat and s not in partners]
        shortest = min(others) if others else 1
        opponents = view.players - 1 - len(partners)
        return cls(
            view=view,
            divisor=rules.divisor,
            unseen=unseen,
            unseen_by_value=tuple(tuple(v) for v in by_value),
            mine_by_value=tuple(mine),
            holds=hold_chances(view),
            next_seat=rules.next_seat(seat, view.players),
            partners=partners,
            scale=max(1.0, view.ends_sum / rules.divisor),
            urgency=1.0 / max(1, shortest),
            spare_weight=1.0 if teams is not None else 1.0 / max(1, opponents),
        )


def hold_chances(view: SeatView) -> tuple[dict[int, float], ...]:
    """Per seat, the numbers she showed she lacked, each with the chance she holds it now.

    Read off :func:`fido.engine.knowledge.seat_events`. A pass,
    or a muggins draw (she draws until she can place), is sure; a FIDO draw is
    soft (:data:`SOFT_VOID`): the tile she drew may show the number. A draw in
    the draw game says nothing (she may draw at will). A number she places
    later was drawn, so it is forgotten.
    """
    until = view.rules.stuck is Stuck.DRAW_UNTIL
    out: list[dict[int, float]] = []
    for events in seat_events(view):
        seen: dict[int, float] = {}
        for i, (kind, mask) in enumerate(events):
            if kind is Shown.PLAY:
                for v in _numbers(mask):
                    seen.pop(v, None)
            elif kind is Shown.VOID:
                sure = until or i + 1 == len(events) or events[i + 1].kind is not Shown.DRAW
                if not sure:
                    # each further FIDO draw brings a tile that may show an older void number
                    for v, held in seen.items():
                        seen[v] = max(held, SOFT_VOID)
                for v in _numbers(mask):
                    seen[v] = 0.0 if sure else min(seen.get(v, 1.0), SOFT_VOID)
        out.append(seen)
    return tuple(out)


def _numbers(mask: int) -> list[int]:
    return [v for v in range(mask.bit_length()) if mask >> v & 1]


def _after(pos: Position, move: Placement) -> Table:
    table = pos.view.table.copy()
    table.place(move.tile, move.slot, move)
    return table


def _exposed(pos: Position, move: Placement) -> list[int]:
    """Numbers of the new open ends the move makes (a double: its own number)."""
    t = move.tile
    if move.is_opening or t.is_double:
        return [t.high]
    v = pos.view.table.open[move.slot][0]
    return [t.other(v)]


def _hand_after(pos: Position, move: Placement) -> list[Tile]:
    return [t for t in pos.view.hand if t is not move.tile]


# ------------------------------------------------------------------ the heuristics


def points_now(pos: Position, move: Placement) -> float:
    """What the move scores at once."""
    return float(pos.view.points_for(move))


def keeps_jokers(pos: Position, move: Placement) -> float:
    """-1 for spending a joker (class d: keeps the sum's remainder), else 0.

    A joker scores right after an opponent scored; spend one only when it is
    the best score on offer (points now outweigh this term).
    """
    return -1.0 if is_joker(move.tile, pos.divisor) else 0.0


def pair_coverage(hand: list[Tile], divisor: int) -> float:
    """How well a hand covers the class pairs k | d - k: 1 - 2^-count per pair, summed.

    A pair is the set of remainders a hand can reach (+k, or -(d - k)); the
    first tile of a pair matters most, further ones less.
    """
    counts: dict[int, int] = {}
    for t in hand:
        k = difference_class(t, divisor)
        if k != divisor:
            key = min(k, divisor - k)
            counts[key] = counts.get(key, 0) + 1
    return sum(1.0 - 0.5**c for c in counts.values())


def keeps_complementary_pairs(pos: Position, move: Placement) -> float:
    """The change in class-pair coverage (<= 0): keep tiles of each pair to the end."""
    before = pair_coverage(list(pos.view.hand), pos.divisor)
    return pair_coverage(_hand_after(pos, move), pos.divisor) - before


def sheds_heavy(pos: Position, move: Placement) -> float:
    """The tile's pips times the chance the hand ends before you could shed it."""
    return move.tile.pips * pos.urgency


def sheds_double_while_open(pos: Position, move: Placement) -> float:
    """A double placed now, the more so the fewer tiles of its number are left.

    A double fits only an end of its own number; each tile of that number
    played elsewhere is one chance less (fido-rules-en.txt, "Tips").
    """
    t = move.tile
    if not t.is_double:
        return 0.0
    left = len(pos.unseen_by_value[t.high]) + pos.mine_by_value[t.high] - 1
    return 1.0 / (1.0 + left / 3.0)


def takes_tap_in(pos: Position, move: Placement) -> float:
    """1 for a tap-in (a w % d == 0 half on a double's free side) that scores.

    It scores like a joker but the chance is on the table, where anyone may
    take it, while the joker stays in hand.
    """
    if move.is_opening or pos.view.table.open[move.slot][1] != SIDE:
        return 0.0
    taps = tap_ins([move.tile], pos.view.table, pos.divisor)
    if (move.tile, move.slot) in taps and pos.view.points_for(move) > 0:
        return 1.0
    return 0.0


def _tap_in_tiles(pos: Position, v: int) -> list[Tile]:
    return [t for t in pos.unseen_by_value[v] if not t.is_double and t.other(v) % pos.divisor == 0]


def ter_heide_block(pos: Position, move: Placement) -> float:
    """Covering a free side with a non-tap-in while you hold no tap-in for it (ter Heide).

    Worth the chance the opponents hold a tap-in for that side. 0 under
    ``mother_theresa`` (which forbids it) or when the move is itself a tap-in.
    """
    view = pos.view
    if view.rules.mother_theresa or move.is_opening:
        return 0.0
    v, kind, _w = view.table.open[move.slot]
    if kind != SIDE:
        return 0.0
    if move.tile.other(v) % pos.divisor == 0:
        return 0.0  # a tap-in itself: takes_tap_in's business
    if any(code == move.slot for _t, code in tap_ins(view.hand, view.table, pos.divisor)):
        return 0.0  # keep the side for your own tap-in
    theirs = len(_tap_in_tiles(pos, v))
    if not theirs or not pos.unseen:
        return 0.0
    held = sum(view.hand_counts) - len(view.hand) - sum(view.hand_counts[s] for s in pos.partners)
    share = held / len(pos.unseen)
    return 1.0 - (1.0 - share) ** theirs


def jokinen_force(pos: Position, move: Placement) -> float:
    """Open ends of a number you hold most of: the others must draw (or pass).

    For each new end: the share of that number's remaining tiles in your hand
    (after the move) above one half.
    """
    out = 0.0
    for x in _exposed(pos, move):
        mine = pos.mine_by_value[x] - (1 if x in move.tile else 0)
        total = mine + len(pos.unseen_by_value[x])
        if mine and total:
            out += max(0.0, mine / total - 0.5)
    return out


def keeps_suit_variety(pos: Position, move: Placement) -> float:
    """Distinct numbers left in hand after the move (blocking games: fewer means passing)."""
    values: set[int] = set()
    for t in _hand_after(pos, move):
        values.add(t.high)
        values.add(t.low)
    return float(len(values))


def plays_to_voids(pos: Position, move: Placement) -> float:
    """New ends an opponent is void in (she must pass), minus those the partner lacks."""
    out = 0.0
    for x in _exposed(pos, move):
        for s, void in enumerate(pos.holds):
            if s == pos.view.seat or x not in void:
                continue
            sure = 1.0 - void[x]
            out += -sure if s in pos.partners else sure
    return out


def spares_next_player(pos: Position, move: Placement) -> float:
    """Minus the points the next player may expect to score after the move.

    From the unseen tiles (full set minus own hand minus table) that would
    score on some slot, each held by her with chance her hand / unseen tiles
    (less for numbers she showed she lacks): the expected best of them.
    """
    view = pos.view
    if view.rules.scoring is Scoring.NONE or len(view.hand) == 1 or not pos.unseen:
        return 0.0
    if pos.next_seat in pos.partners:
        return 0.0
    table = _after(pos, move)
    points = view.rules.points
    s = table.ends_sum
    best: dict[Tile, int] = {}
    for code, v in table.playable():
        for t in pos.unseen_by_value[v]:
            p = points(s + table.delta(t, code))
            if p > best.get(t, 0):
                best[t] = p
    if not best:
        return 0.0
    p_hold = view.hand_counts[pos.next_seat] / len(pos.unseen)
    void = pos.holds[pos.next_seat]
    expected = 0.0
    miss = 1.0  # chance she holds none of the better tiles
    for t, pts in sorted(best.items(), key=lambda kv: -kv[1]):
        held = min(1.0, p_hold * min(void.get(t.high, 1.0), void.get(t.low, 1.0)))
        expected += miss * held * pts
        miss *= 1.0 - held
    return -expected


# ------------------------------------------------------------------ the bot


def fido_score(pos: Position, move: Placement, w: FidoWeights = EXPERT_WEIGHTS) -> float:
    """FIDO: the texts' advice."""
    s = pos.scale
    return (
        W_POINTS * points_now(pos, move)
        + w.joker * s * keeps_jokers(pos, move)
        + w.pairs * s * keeps_complementary_pairs(pos, move)
        + w.heavy * sheds_heavy(pos, move)
        + w.double * s * sheds_double_while_open(pos, move)
        + w.tap_in * takes_tap_in(pos, move)
        + w.ter_heide * s * ter_heide_block(pos, move)
        + w.jokinen * jokinen_force(pos, move)
        + w.spare * pos.spare_weight * spares_next_player(pos, move)
    )


def blocking_score(pos: Position, move: Placement) -> float:
    """Block, draw, straight, sebastopol: shed pips, stay flexible, make them pass."""
    score = (
        W_BLOCK_PIPS * move.tile.pips
        + W_DOUBLE * sheds_double_while_open(pos, move)
        + W_VARIETY * keeps_suit_variety(pos, move)
        + W_VOIDS * plays_to_voids(pos, move)
        + W_JOKINEN * jokinen_force(pos, move)
    )
    if pos.view.rules.scoring is not Scoring.NONE:  # sebastopol all_fives
        score += W_POINTS * points_now(pos, move) + W_SPARE * spares_next_player(pos, move)
    return score


def fives_score(pos: Position, move: Placement) -> float:
    """Muggins and fives and threes: points now, no easy reply, jokers kept, pips shed."""
    score = (
        W_POINTS * points_now(pos, move)
        + W_SPARE * pos.spare_weight * spares_next_player(pos, move)
        + W_HEAVY * sheds_heavy(pos, move) / 5.0
        + W_DOUBLE * sheds_double_while_open(pos, move)
        + W_VARIETY * keeps_suit_variety(pos, move) / 4.0
    )
    if pos.view.rules.scoring is Scoring.DIVISOR:  # muggins: difference 5, 0-0, 5-5
        score += W_JOKER * keeps_jokers(pos, move) + W_PAIRS * keeps_complementary_pairs(pos, move)
    return score


def expert_score(pos: Position, move: Move, fido: FidoWeights = EXPERT_WEIGHTS) -> float:
    """The score of one legal move; drawing or passing ranks below every placement.

    In the draw game a player may draw although she can place; the expert
    never does (each drawn tile is pips in hand), so a draw is a last resort.
    ``fido`` weighs the terms of FIDO games (the other games keep theirs).
    """
    if not isinstance(move, Placement):
        return float("-inf")
    rules = pos.view.rules
    if rules.is_fido:
        return fido_score(pos, move, fido)
    if rules.scoring is not Scoring.NONE and rules.layout is not Layout.SPINNER:
        return fives_score(pos, move)
    return blocking_score(pos, move)


class ExpertBot:
    """Scores every legal move with :func:`expert_score`; ties go to the generator."""

    name = "expert"
    fido_weights: FidoWeights = EXPERT_WEIGHTS  # how the FIDO terms are weighed

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        moves = view.legal_moves
        if len(moves) == 1:
            return moves[0]
        pos = Position.of(view)
        scores = [expert_score(pos, m, self.fido_weights) for m in moves]
        best = max(scores)
        return rng.choice([m for m, s in zip(moves, scores, strict=True) if s >= best - 1e-9])
