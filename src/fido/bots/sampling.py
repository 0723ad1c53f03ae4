"""Deal the tiles a seat cannot see, consistently with everything she has seen.

What a view tells about the hidden tiles (read by :mod:`fido.engine.knowledge`):

* which tiles are unseen (the set minus her hand and the table), how many
  each other hand holds and how many lie in the stock;
* *voids*: a player who drew because she was stuck, or passed, held no tile
  showing a number she could have played on at that moment. Tiles she drew
  later are exempt, and nobody knows which of her drawn tiles she still holds.
* *the opening*: where the holder of the highest (lowest) double opens, the
  opening double was the highest (lowest) dealt, so every double above
  (below) it lay in the stock at the deal and reaches a hand only by a draw;
  a player who placed one spent a draw on it.

The sampler gives each hidden hand one *slot* per tile. A slot that may hold a
tile drawn at her j-th draw must avoid only the voids after that draw; the
other slots (tiles held since the deal) avoid all her voids. A tile she played
that showed one of her void numbers came from a draw after that void, so that
draw is spent (the earliest possible one). Giving the slots her latest
remaining draws is the loosest reading that the history allows, so every deal
consistent with the view can be sampled and no deal violates a void by more
tiles than she drew since. Tiles go to slots by a random greedy pass
(most constrained slot first) repaired with augmenting paths when it gets
stuck, so a consistent deal is always found when one exists.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from fido.engine.dealing import shuffle
from fido.engine.game import Game, history_log
from fido.engine.knowledge import SeatEvent, Shown, seat_events, stock_doubles, unseen_tiles
from fido.engine.tiles import Tile
from fido.engine.views import SeatView
from fido.errors import FidoError

__all__ = ["HiddenDeal", "SamplingError", "hidden_deal"]


class SamplingError(FidoError):
    """No deal of the hidden tiles agrees with the view (a corrupt history)."""


def _slot_masks(events: list[SeatEvent], count: int) -> list[tuple[int, bool]]:
    """Per slot of a hand's ``count``: its forbidden-number mask, and whether it
    holds a tile from the deal (rather than from one of her draws)."""
    # suffix[i]: the voids from event i on
    suffix = [0] * (len(events) + 1)
    for i in range(len(events) - 1, -1, -1):
        kind, mask = events[i]
        suffix[i] = suffix[i + 1] | (mask if kind is Shown.VOID else 0)
    draws = [i for i, (kind, _m) in enumerate(events) if kind is Shown.DRAW]
    # A played tile that showed a void number must have come from a draw between
    # that void and its play, and a late double (its "late" event follows its
    # play) from a draw before it: give the tile the earliest such draw, one draw
    # per tile, so the latest draws stay free to be still in the hand.
    used: set[int] = set()
    for p, (kind, tile_mask) in enumerate(events):
        if kind is not Shown.PLAY:
            continue
        hit = [
            i for i in range(p) if events[i].kind is Shown.VOID and events[i].numbers & tile_mask
        ]
        late = p + 1 < len(events) and events[p + 1].kind is Shown.LATE_DOUBLE
        if hit or late:
            after = hit[-1] if hit else -1
            d = next((d for d in draws if after < d < p and d not in used), None)
            if d is not None:
                used.add(d)
    free = [d for d in draws if d not in used]
    latest = free[::-1][:count]  # her latest unexplained draws may still be in her hand
    masks = [(suffix[i + 1], False) for i in latest]
    masks += [(suffix[0], True)] * (count - len(masks))
    return masks


@dataclass(frozen=True, slots=True)
class HiddenDeal:
    """The fixed part of sampling for one decision: tiles, slots and who may take what."""

    view: SeatView
    unseen: tuple[Tile, ...]
    slot_seat: tuple[int, ...]  # seat of each slot, -1 for the stock
    allowed: tuple[tuple[int, ...], ...]  # per slot: indexes into ``unseen``
    constrained: tuple[int, ...]  # slots that some tile may not fill
    log: tuple[object, ...] | None  # the view's history as every world's log (shared)

    def sample(self, rng: random.Random) -> Game:
        """One world: the view's position with a random consistent deal of the unseen tiles."""
        n = len(self.unseen)
        owner = [-1] * n  # tile index -> slot
        slot_tile = [-1] * n
        # constrained slots first, the tightest first (ties in random order)
        order = sorted(self.constrained, key=lambda s: (len(self.allowed[s]), rng.random()))
        for s in order:
            options = [t for t in self.allowed[s] if owner[t] < 0]
            if options:
                t = options[int(rng.random() * len(options))]
                owner[t] = s
                slot_tile[s] = t
            elif not self._augment(s, owner, slot_tile, rng):
                raise SamplingError("no deal of the unseen tiles agrees with the history")
        free = [t for t in range(n) if owner[t] < 0]
        shuffle(free, rng)
        it = iter(free)
        for s in range(n):
            if slot_tile[s] < 0:
                slot_tile[s] = next(it)
        view = self.view
        hands: list[list[Tile]] = [[] for _ in range(view.players)]
        if view.seat is not None:
            hands[view.seat] = list(view.hand)
        stock: list[Tile] = []
        unseen = self.unseen
        slot_seat = self.slot_seat
        for s, t in enumerate(slot_tile):
            seat = slot_seat[s]
            (stock if seat < 0 else hands[seat]).append(unseen[t])
        shuffle(stock, rng)
        return Game.from_world(view, hands, stock, self.log)

    def _augment(
        self, start: int, owner: list[int], slot_tile: list[int], rng: random.Random
    ) -> bool:
        """Find a tile for ``start`` by moving others along an augmenting path."""
        seen: set[int] = set()

        def visit(s: int) -> bool:
            options = list(self.allowed[s])
            rng.shuffle(options)
            for t in options:
                if t in seen:
                    continue
                seen.add(t)
                if owner[t] < 0 or visit(owner[t]):
                    owner[t] = s
                    slot_tile[s] = t
                    return True
            return False

        return visit(start)


def hidden_deal(view: SeatView) -> HiddenDeal:
    """Prepare sampling for ``view``'s seat (a spectator's view samples every hand)."""
    unseen = unseen_tiles(view)
    events = seat_events(view)
    in_stock = stock_doubles(view)
    slot_seat: list[int] = []
    forbidden: list[tuple[int, bool]] = []
    for seat in range(view.players):
        if seat == view.seat:
            continue
        masks = _slot_masks(events[seat], view.hand_counts[seat])
        slot_seat += [seat] * len(masks)
        forbidden += masks
    slot_seat += [-1] * view.stock_count
    forbidden += [(0, False)] * view.stock_count
    if len(slot_seat) != len(unseen):
        raise SamplingError(f"{len(unseen)} unseen tiles for {len(slot_seat)} places")
    tile_mask = [(1 << t.high) | (1 << t.low) for t in unseen]
    late = [t in in_stock for t in unseen]
    everything = tuple(range(len(unseen)))
    allowed = tuple(
        everything
        if not f and not (dealt and in_stock)
        else tuple(i for i, m in enumerate(tile_mask) if not m & f and not (dealt and late[i]))
        for f, dealt in forbidden
    )
    constrained = tuple(s for s, a in enumerate(allowed) if len(a) < len(unseen))
    return HiddenDeal(view, unseen, tuple(slot_seat), allowed, constrained, history_log(view))
