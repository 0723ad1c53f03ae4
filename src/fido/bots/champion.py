"""The ``champion`` level: ``search`` with rollouts that play like the expert, and a tuned prior.

``search`` rolls its sampled worlds out with a greedy policy (the most points
now), which does not value what the FIDO texts teach: it spends jokers, keeps
doubles too long and opens scores for the next player. So its rollouts can
only confirm or overturn the expert's first choice within their noise. The
champion rolls out with :func:`fido.engine.rollout.smart_outcome` (``smart_playout``'s
moves, played in C once the world allows), the expert's main terms (about twice a
greedy rollout's cost), so the worlds are played the way strong players play them.

Its prior (the candidates, and the move that stands unless the rollouts
overrule it) is the expert's terms weighed by :data:`TUNED_WEIGHTS`, found by
self-play: the rollouts change about one decision in fifteen, so how the
expert's advice is weighed decides most of the champion's play.

Everything else is :class:`~fido.bots.search.SearchBot`: the worlds are
samples of the seat's information set (:mod:`fido.bots.sampling`), the
candidates the prior's best ``width`` moves, sequential halving over shared
worlds, and the prior's first choice stands unless a rival is better by
``doubt`` standard errors (paired over the shared worlds). What was tried and
measured is in docs/bots.md.
"""

from __future__ import annotations

import random
from typing import Final

from fido.bots.expert import EXPERT_WEIGHTS, FidoWeights
from fido.bots.sampling import HiddenDeal, SamplingError, hidden_deal
from fido.bots.search import Dealer, SearchBot
from fido.engine.dice import seeded
from fido.engine.game import Game
from fido.engine.knowledge import unseen_tiles
from fido.engine.moves import DRAW, Placement
from fido.engine.rollout import playout_margin, smart_margin
from fido.engine.table import Table
from fido.engine.views import SeatView

__all__ = [
    "FIDO_SMALL_SET_SIMS",
    "MIDDLE_SET_SIMS",
    "SMALL_SET_SIMS",
    "TUNED_WEIGHTS",
    "ChampionBot",
    "PassedUp",
    "likely_deal",
    "passed_up",
    "points_passed_up",
]

# The expert's FIDO terms weighed by self-play (docs/bots.md, "champion"): the expert
# against itself with one weight halved or doubled, double-12 with four, duplicate
# deals; the lesser weight on complementary pairs and the double weight on the next
# player's reply each won, and together they beat the expert's weights by about 5
# points a hand. The champion's prior (its candidates and its default move) uses them.
TUNED_WEIGHTS: Final = FidoWeights(pairs=0.5, spare=2.0)

# Simulations per decision when none are asked for: on sets up to double-6 a world is
# small (a decision at 8,000 takes about 0.25 s) and the moves are close, so four times
# search's budget (docs/bots.md, "Fifth slice"); up to double-12 4,000, the room the
# faster engine left in the clock (mid-game on double-12 with four a median 0.46 s;
# +8.09 a hand [+3.09, +13.08] over search in a duel fixed in advance, seed 290617,
# where 2,000 gave +2.15 [-2.92, +7.22]); on larger sets 2,000, which keeps double-18
# with six under the 0.9 s clock.
SMALL_SET_SIMS: Final = 8000
MIDDLE_SET_SIMS: Final = 4000
DEFAULT_SIMS: Final = 2000
# FIDO up to double-6: three times the small sets' budget, the room the searches' dice
# left in the clock (a decision at 24,000 takes about what 8,000 took before them, a
# median 0.24 s mid-game and at most 0.56 s at a hand's start); measured in a duel fixed
# in advance (docs/performance.md, "Double-6 with three, 24,000 simulations"). The classic
# games keep 8,000, the budget their strength was measured at.
FIDO_SMALL_SET_SIMS: Final = 24000


class ChampionBot(SearchBot):
    """Determinized search whose rollouts follow the expert's advice."""

    name = "champion"

    def __init__(
        self,
        sims: int | None = None,
        time: float = 0.9,
        *,
        explore: float = 0.1,
        policy: str = "smart",
        prior: str = "tuned",
        width: int = 4,
        doubt: float = 1.645,
        infer: float = 0.0,
    ) -> None:
        if prior not in ("tuned", "expert", "none"):
            raise ValueError("prior is tuned, expert or none")
        super().__init__(
            DEFAULT_SIMS if sims is None else sims,
            time,
            prior="none" if prior == "none" else "expert",
            width=width,
        )
        self.asked_sims = sims  # None: by the set and game (:meth:`_budget`)
        # tuned: the expert's terms weighed by self-play; expert: the expert's own weights
        self.prior = prior
        self.fido_weights = TUNED_WEIGHTS if prior == "tuned" else EXPERT_WEIGHTS
        if not 0.0 <= explore <= 1.0:
            raise ValueError("explore is a probability, 0 to 1")
        if policy not in ("smart", "greedy"):
            raise ValueError("policy is smart or greedy")
        if doubt < 0:
            raise ValueError("doubt is 0 or more standard errors")
        if infer < 0:
            raise ValueError("infer is 0 (every consistent deal alike) or points passed up")
        self.infer = infer
        self.explore = explore
        self.policy = policy
        self.doubt = doubt
        self.name = f"champion:time={time}" if sims is None else f"champion:sims={sims},time={time}"

    def _budget(self, view: SeatView) -> int:
        if self.asked_sims is not None:
            return self.sims
        if view.rules.max_pips <= 6:
            return FIDO_SMALL_SET_SIMS if view.rules.is_fido else SMALL_SET_SIMS
        return MIDDLE_SET_SIMS if view.rules.max_pips <= 12 else self.sims

    def _deal(self, view: SeatView) -> Dealer:
        if self.infer > 0:
            return likely_deal(view, self.infer)
        return hidden_deal(view)

    def _evaluate(self, g: Game, seat: int, dice: int, solve_at: int) -> tuple[float, int]:
        if self.policy == "greedy":
            return playout_margin(g, seeded(dice), seat, 1.0 - self.explore), 1
        return smart_margin(g, seeded(dice), seat, self.explore), 1


# One placement's evidence (:func:`passed_up`): (points passed up, the bits of the tiles
# that would have passed up at least that many), the largest first, the masks growing.
PassedUp = tuple[tuple[int, int], ...]


def passed_up(view: SeatView) -> dict[int, list[PassedUp]]:
    """Per opponent, per placement she made since her last draw: which unseen tiles
    would have scored more than it, and by how many points.

    Only her placements after her last draw count (every tile she holds now she
    held then; which drawn tile came when is not known). Everything read is
    public: the history's tables and placements.
    """
    points = view.rules.points
    unseen = unseen_tiles(view)
    last_draw = {t.seat: i for i, t in enumerate(view.history) if t.move is DRAW}
    out: dict[int, list[PassedUp]] = {}
    table = Table(view.rules.layout)
    for i, turn in enumerate(view.history):
        move = turn.move
        if not isinstance(move, Placement):
            continue
        seat = turn.seat
        if table.placements and seat != view.seat and i > last_draw.get(seat, -1):
            by_gain: dict[int, int] = {}
            for code, v in table.playable():
                for tile in unseen:
                    if v in (tile.high, tile.low):
                        gain = points(table.ends_sum + table.delta(tile, code)) - turn.points
                        if gain > 0:
                            by_gain[gain] = by_gain.get(gain, 0) | tile.bit
            levels: list[tuple[int, int]] = []
            mask = 0
            for gain in sorted(by_gain, reverse=True):
                mask |= by_gain[gain]
                levels.append((gain, mask))
            if levels:
                out.setdefault(seat, []).append(tuple(levels))
        table.place(move.tile, move.slot, move)
    return out


def points_passed_up(hand: int, evidence: list[PassedUp]) -> int:
    """Points a hand (tile bits) would have passed up on these placements: at each, the
    most that one of its tiles would have scored above the placement made."""
    return sum(next((gain for gain, mask in levels if hand & mask), 0) for levels in evidence)


def likely_deal(view: SeatView, threshold: float) -> HiddenDeal:
    """The view's deals in which no opponent passed up ``threshold`` points or more.

    Players take points: an opponent who placed a tile scoring ``p`` most
    likely held no unseen tile that would have scored ``p + threshold`` or
    more on that table (:func:`passed_up`). Those tiles are dealt to her no
    more, as the sampler keeps a void number from her. Where no deal is left
    (a player who did pass up points), every consistent deal is sampled alike.
    """
    deal = hidden_deal(view)
    ruled_out: dict[int, int] = {}  # seat -> tile bits
    for seat, evidence in passed_up(view).items():
        for levels in evidence:
            over = [mask for gain, mask in levels if gain >= threshold]
            if over:
                ruled_out[seat] = ruled_out.get(seat, 0) | over[-1]
    if not ruled_out:
        return deal
    bits = [t.bit for t in deal.unseen]
    allowed = tuple(
        tuple(t for t in tiles if not bits[t] & ruled_out.get(seat, 0))
        for seat, tiles in zip(deal.slot_seat, deal.allowed, strict=True)
    )
    n = len(deal.unseen)
    constrained = tuple(s for s, a in enumerate(allowed) if len(a) < n)
    narrowed = HiddenDeal(view, deal.unseen, deal.slot_seat, allowed, constrained, deal.log)
    try:
        narrowed.sample(random.Random(0))
    except SamplingError:
        return deal
    return narrowed
