"""The best public domino bots, wrapped as fido bots so they play at fido's tables.

Both peers play Block with seat 0 opening with any tile, so the matches use
fido's ``block opener=first_seat`` (2 players: 7 tiles each, 14 asleep; 4
players: all 28 dealt, ``hand=7``), which is their own game move for move.
Each wrapper gets a fido :class:`~fido.engine.views.SeatView` only, rebuilds the
peer's own state from it, asks the peer bot and maps the answer back.

* :class:`DominoesAlphaBeta`: the ``dominoes`` package's (6.1.0)
  ``probabilistic_alphabeta``: it samples the hidden hands from the package's
  own game state and runs alpha-beta to the end of the hand. Before its
  ``start_move`` it plays the package's ``bota_gorda`` (heaviest tile first).
  The hidden hands we hand it are filled with arbitrary unseen tiles: the
  player resamples them itself (``random_possible_hands``) from sizes, plays
  and passes, so it learns nothing it could not see.
* :class:`OpenSpielISMCTS`: OpenSpiel's ``ISMCTSBot`` on
  ``python_block_dominoes`` with a random-rollout evaluator. Its worlds come
  from a resampler of the hidden hand: fido's consistent sampler
  (:mod:`fido.bots.sampling`) turned into OpenSpiel states (the game has no
  resampler of its own).
"""

from __future__ import annotations

import random

from fido import Game, Placement, Table, Tile
from fido.bots.base import Move
from fido.bots.sampling import hidden_deal
from fido.engine.views import SeatView

PEER_RULES_2P = "block opener=first_seat"
PEER_RULES_4P = "block hand=7 opener=first_seat"


def _placement_on(view: SeatView, tile: Tile, port: int | None, value: int | None) -> Move:
    """The legal placement of ``tile`` matching a peer's answer (port or end value)."""
    fits = [m for m in view.legal_moves if isinstance(m, Placement) and m.tile == tile]
    if not fits:
        raise ValueError(f"the peer chose {tile}, which is not playable here")
    if fits[0].anchor < 0:
        return fits[0]
    playable = dict(view.table.playable())
    for m in fits:
        if (port is None or m.port == port) and (value is None or playable[m.slot] == value):
            return m
    return fits[0]  # both ends show the same number: the same move for the rules


class DominoesAlphaBeta:
    """The ``dominoes`` package's probabilistic alpha-beta player (4-player team Block)."""

    def __init__(self, start_move: int = 0, sample_size: int = 10) -> None:
        import dominoes  # noqa: PLC0415 (bench-only peer)

        self._d = dominoes
        self._ab = dominoes.players.probabilistic_alphabeta(
            start_move=start_move, sample_size=sample_size
        )
        self.name = f"dominoes-alphabeta:start={start_move},samples={sample_size}"

    def _game(self, view: SeatView) -> object:
        d = self._d
        assert view.seat is not None
        mine = [d.Domino(t.high, t.low) for t in view.hand]
        seen = set(view.hand) | {p.tile for p in view.table.placements}
        unseen = [t for t in view.rules.dominoes.tiles if t not in seen]
        hands = []
        for seat, count in enumerate(view.hand_counts):
            if seat == view.seat:
                hands.append(d.Hand(mine))
            else:
                hands.append(d.Hand([d.Domino(t.high, t.low) for t in unseen[:count]]))
                unseen = unseen[count:]
        board = d.Board()
        moves: list[object] = []
        for turn in view.history:
            m = turn.move
            if isinstance(m, Placement):
                step = (d.Domino(m.tile.high, m.tile.low), m.anchor < 0 or m.port == 3)
                board.add(*step)
                moves.append(step)
            else:
                moves.append(None)  # a pass
        game = d.Game(board, hands, moves, view.seat, (), view.opener, None)
        if len(board):
            game._update_valid_moves()
        else:
            game.valid_moves = tuple((x, True) for x in hands[view.seat])
        return game

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        if len(view.legal_moves) == 1:
            return view.legal_moves[0]
        game = self._game(view)
        random.seed(rng.getrandbits(64))  # the package samples with the module's generator
        self._d.players.bota_gorda(game)
        self._ab(game)
        domino, left = game.valid_moves[0]  # type: ignore[attr-defined]
        tile = Tile(domino.first, domino.second)
        return _placement_on(view, tile, 3 if left else 1, None)


class OpenSpielISMCTS:
    """OpenSpiel's ISMCTS bot (2-player Block) with a resampler of the hidden hand."""

    def __init__(self, simulations: int = 1000, uct_c: float = 2.0, seed: int = 0) -> None:
        import numpy as np  # noqa: PLC0415 (bench-only peer)
        import open_spiel.python.games  # noqa: F401, PLC0415 (registers the game)
        import pyspiel  # noqa: PLC0415
        from open_spiel.python.algorithms import ismcts, mcts  # noqa: PLC0415
        from open_spiel.python.games import block_dominoes  # noqa: PLC0415

        self._bd = block_dominoes
        self._game = pyspiel.load_game("python_block_dominoes")
        self._np_rng = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=self._np_rng)
        self._bot = ismcts.ISMCTSBot(
            self._game,
            evaluator,
            uct_c=uct_c,
            max_simulations=simulations,
            random_state=self._np_rng,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        )
        self._action_index = {s: i for i, s in enumerate(block_dominoes._ACTIONS_STR)}
        self.name = f"openspiel-ismcts:sims={simulations}"

    def _tile(self, t: Tile) -> tuple[float, float]:
        return (float(t.low), float(t.high))

    def state_of(self, world: Game) -> object:
        """The OpenSpiel state of a fido world: its deal, then its placements."""
        bd = self._bd
        state = self._game.new_initial_state()
        placed = [t for t in world.history() if isinstance(t.move, Placement)]
        for s in range(2):  # initial hands: what she holds now plus what she placed
            dealt = world.hand(s) + [
                t.move.tile for t in placed if t.seat == s and isinstance(t.move, Placement)
            ]
            for t in sorted(dealt):
                state.apply_action(bd._DECK.index(self._tile(t)))
        table = Table(world.table.layout)
        for turn in placed:
            m: Placement = turn.move  # type: ignore[assignment]
            edge = None if m.anchor < 0 else float(table.open[m.slot][0])
            action = bd.Action(turn.seat, self._tile(m.tile), edge)
            state.apply_action(self._action_index[str(action)])
            table.place(m.tile, m.slot, m)
        return state

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        if len(view.legal_moves) == 1:
            return view.legal_moves[0]
        deal = hidden_deal(view)
        root = self.state_of(deal.sample(rng))
        seat = view.seat
        assert seat is not None
        opponent = 1 - seat
        order = {t: i for i, t in enumerate(self._bd._DECK)}

        def resample(_state: object, _player: int) -> object:
            # the root with the opponent's hand and the sleeping tiles dealt anew
            world = deal.sample(rng)
            state = root.clone()  # type: ignore[attr-defined]
            state.hands[opponent] = sorted(self._tile(t) for t in world.hand(opponent))
            seen = set(view.hand) | {p.tile for p in view.table.placements}
            seen |= set(world.hand(opponent))
            asleep = [self._tile(t) for t in view.rules.dominoes.tiles if t not in seen]
            state.deck = sorted(asleep, key=order.__getitem__)
            return state

        self._bot.set_resampler(resample)
        action = self._bot.step(resample(None, 0))
        chosen = self._bd._ACTIONS[action]
        low, high = (int(x) for x in chosen.tile)
        edge = None if chosen.edge is None else int(chosen.edge)
        return _placement_on(view, Tile(high, low), None, edge)
