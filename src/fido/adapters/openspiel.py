"""Every fido ruleset as an OpenSpiel game, so OpenSpiel's algorithms play FIDO.

    import pyspiel
    import fido.adapters.openspiel  # registers "python_fido"
    game = pyspiel.load_game("python_fido", {"rules": "fido set=12", "players": 4})
    pyspiel.load_game("python_fido(rules=fido set:12,players=4)")  # the same game

The game is the fido engine itself behind OpenSpiel's Python-game interface:

* Chance deals the hands one tile at a time, seat 0's hand first; after a
  player's draw action, chance picks the drawn tile from the stock (each
  tile equally likely). So the shuffle is never fixed in advance and the
  game is a true imperfect-information game with explicit chance. Where the
  opener needs a double, :meth:`fido.Game.new` deals again until some hand
  holds one; the chance deal gives exactly that distribution by weighting
  each tile with the chance that the rest of the deal still brings a double
  (so no deal ever needs to be thrown away).
* Actions are :mod:`fido.adapters.encoding`'s: a tile and the rank of its
  open slot, the opening, draw, pass.
* A player observes her own hand and everything public (the table, tile
  counts, stock count, scores, the moves, draws and passes); other hands and
  the stock are never in her observation or information state.
* Returns are the finals of the hand (points minus pips, with the bonuses
  of the classic games); in team games each player gets her team's final.
* States clone in O(1) (:meth:`fido.Game.copy`); a draw rebuilds the game
  from its public view with the chosen tile on top of the stock.
  :meth:`FidoState.resample_from_infostate` (for ISMCTS) returns a world
  with the same view for that player but no OpenSpiel action history.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import Any

import numpy as np
import pyspiel

from fido.adapters.encoding import ActionSpace, action_space
from fido.bots.sampling import hidden_deal
from fido.engine.game import Game
from fido.engine.moves import Draw, Placement
from fido.engine.rules import Opener
from fido.engine.tiles import Tile
from fido.engine.views import SeatView

__all__ = ["GAME_NAME", "FidoGame", "FidoObserver", "FidoState"]

GAME_NAME = "python_fido"
_DEFAULTS: dict[str, Any] = {"rules": "fido set=12", "players": 4}
_ROW = 5  # a history row: seat, tile, anchor, port (or draw/pass), own drawn tile

_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="fido: FIDO dominoes and the classic domino games",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=9,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification=_DEFAULTS,
)


def _bounds(space: ActionSpace) -> tuple[float, float, int]:
    """Loose but safe utility bounds and the longest possible game."""
    rules, players = space.rules, space.players
    n = rules.dominoes.max_pips
    pips = sum(t.pips for t in rules.dominoes.tiles)
    # no sum of ends exceeds every open slot showing a double n (2n each)
    best_move = space.slots * 2 * n
    most = space.tiles * best_move + pips * players
    dealt = rules.hand_size(players) * players
    stock = space.tiles - dealt
    # deal, then each turn places, draws (with its chance node) or passes; a
    # round of passes with nothing changing ends the hand
    longest = dealt + space.tiles + 2 * stock + players * (space.tiles + stock + 1)
    return -float(most), float(most), longest


class FidoGame(pyspiel.Game):  # type: ignore[misc]
    """A fido ruleset and player count as an OpenSpiel game."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        # OpenSpiel's game strings, name(key=value,...), cannot hold "=" in a
        # value: the game keeps its rules as "fido set:12" and reads both forms
        self.space = action_space(str(params["rules"]).replace(":", "="), int(params["players"]))
        params = {**params, "rules": self.space.rules.text().replace("=", ":")}
        low, high, longest = _bounds(self.space)
        self.history_rows = longest
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size,
            max_chance_outcomes=self.space.tiles,
            num_players=self.space.players,
            min_utility=low,
            max_utility=high,
            utility_sum=None,
            max_game_length=longest,
        )
        super().__init__(_TYPE, info, params)

    def new_initial_state(self) -> FidoState:
        return FidoState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> FidoObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return FidoObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


@dataclass(slots=True)
class _Now:
    """Everything of a state that changes; cloned cheaply (OpenSpiel deep-copies states)."""

    hands: list[list[Tile]]  # the deal so far
    undealt: list[Tile]  # then: the stock, in no order (chance picks each draw)
    draws: list[Tile | None] = field(default_factory=list)  # every draw's tile (None: unknown)
    game: Game | None = None  # with explicit chance: a chosen draw waits for chance's tile

    def __deepcopy__(self, memo: object) -> _Now:
        game = None if self.game is None else self.game.copy()
        return _Now(
            [h.copy() for h in self.hands],
            self.undealt.copy(),
            self.draws.copy(),
            game,
        )


class FidoState(pyspiel.State):  # type: ignore[misc]
    """A hand in progress: the deal so far, then the fido game itself."""

    def __init__(self, game: FidoGame) -> None:
        super().__init__(game)
        self.space = game.space
        self.now = _Now(
            [[] for _ in range(self.space.players)], list(self.space.rules.dominoes.tiles)
        )

    @property
    def game(self) -> Game | None:
        """The fido game once the hands are dealt (``None`` during the deal)."""
        return self.now.game

    # -------------------------------------------------------------- OpenSpiel

    def current_player(self) -> int:
        if self.now.game is None or self.now.game.chance is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.now.game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.now.game.turn

    def _legal_actions(self, player: int) -> list[int]:
        assert self.now.game is not None and player == self.now.game.turn
        table = self.now.game.table
        return sorted(self.space.action_of(table, m) for m in self.now.game.legal_moves())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        undealt = self.now.undealt
        if self.now.game is None and self.needs_double():
            # as Game.new deals again until a hand holds a double, deal
            # conditioned on that: tile t with weight P(some double | t)
            left = self.space.rules.hand_size(self.space.players) * self.space.players
            left -= sum(len(h) for h in self.now.hands)  # tiles still to deal, this one too
            doubles = sum(t.is_double for t in undealt)
            rest = len(undealt) - 1
            other = 1 - Fraction(comb(rest - doubles, left - 1), comb(rest, left - 1))
            total = doubles + (len(undealt) - doubles) * other
            weights = [(t.id, 1 / total if t.is_double else other / total) for t in undealt]
            return sorted((a, float(w)) for a, w in weights if w > 0)
        p = 1.0 / len(undealt)
        return sorted((t.id, p) for t in undealt)

    def needs_double(self) -> bool:
        """Whether the deal so far leaves the hands still to hold a double."""
        if self.space.rules.opener is Opener.FIRST_SEAT:
            return False
        return not any(t.is_double for h in self.now.hands for t in h)

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            tile = self.space.rules.dominoes.tiles[action]
            self.now.undealt.remove(tile)
            if self.now.game is None:
                size = self.space.rules.hand_size(self.space.players)
                next(h for h in self.now.hands if len(h) < size).append(tile)
                if len(self.now.hands[-1]) == size:
                    self.now.game = Game.from_deal(
                        self.space.rules, self.now.hands, self.now.undealt, explicit_chance=True
                    )
                return
            # the engine's chance step: the chosen draw waits for this tile
            self.now.game.apply_chance(tile)
            self.now.draws.append(tile)
            return
        assert self.now.game is not None
        move = self.space.move_of(self.now.game.table, self.now.game.legal_moves(), action)
        self.now.game.push(move)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> FidoState:
        """A state ``player_id`` cannot tell from this one, hidden tiles dealt anew.

        The hidden hands and the stock are sampled consistently with her view
        (:mod:`fido.bots.sampling`: what the opening, passes and draws
        revealed), so ISMCTS and other algorithms that resample information
        states run on fido. Other seats' draws stay unknown in the new state.
        """
        if self.now.game is None or self.is_terminal() or self.now.game.chance is not None:
            return self.clone()  # type: ignore[no-any-return]
        rng = random.Random(int(probability_sampler() * 2**53))
        world = hidden_deal(self.now.game.view(player_id)).sample(rng)
        state: FidoState = self.get_game().new_initial_state()
        world.forget_stock_order()  # its draws stay chance nodes
        state.now.game = world
        state.now.hands = [world.hand(s) for s in range(self.space.players)]
        placed = {p.tile for p in world.table.placements}
        held = {t for s in range(self.space.players) for t in world.hand(s)}
        state.now.undealt = [t for t in self.space.rules.dominoes.tiles if t not in placed | held]
        state.now.draws = self.own_draws(player_id)
        return state

    def own_draws(self, player: int) -> list[Tile | None]:
        """Per draw so far, the tile if ``player`` drew it (what she saw), else None."""
        assert self.now.game is not None
        drawers = [t.seat for t in self.now.game.history() if isinstance(t.move, Draw)]
        if self.now.game.chance is not None:
            drawers.pop()  # the draw waiting for its tile has none yet
        return [d if s == player else None for s, d in zip(drawers, self.now.draws, strict=True)]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            tile = self.space.rules.dominoes.tiles[action]
            return f"{'draw' if self.now.game is not None else 'deal'} {tile.text()}"
        if self.now.game is not None and not self.now.game.is_over:
            try:
                move = self.space.move_of(self.now.game.table, self.now.game.legal_moves(), action)
            except ValueError:
                return self.space.describe(action)
            return move.text()
        return self.space.describe(action)

    def is_terminal(self) -> bool:
        return self.now.game is not None and self.now.game.is_over

    def returns(self) -> list[float]:
        players = self.space.players
        if self.now.game is None or self.now.game.outcome is None:
            return [0.0] * players
        outcome = self.now.game.outcome
        if outcome.teams is not None:
            by_seat = {s: float(t.final) for t in outcome.teams for s in t.seats}
            return [by_seat[s] for s in range(players)]
        return [float(r.final) for r in outcome.seats]

    def __str__(self) -> str:
        if self.now.game is None:
            dealt = " | ".join(" ".join(t.text() for t in h) for h in self.now.hands)
            return f"dealing: {dealt}"
        hands = " | ".join(
            " ".join(t.text() for t in self.now.game.hand(s)) for s in range(self.space.players)
        )
        return f"{self.now.game.table.summary()} || hands {hands} || stock {len(self.now.undealt)}"

    def view(self, player: int) -> SeatView | None:
        """What ``player`` sees (``None`` while the hands are still being dealt)."""
        return None if self.now.game is None else self.now.game.view(player)


class FidoObserver:
    """OpenSpiel's observer interface over a seat's view (tensor and string)."""

    def __init__(self, game: FidoGame, iig_obs_type: Any) -> None:
        self.space = game.space
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = bool(iig_obs_type.public_info)
        self.recall = bool(iig_obs_type.perfect_recall)
        size = self.space.observation_size
        self.rows = game.history_rows if self.recall else 0
        self.tensor = np.zeros(size + _ROW * self.rows, np.float32)
        self.dict = {
            "view": self.tensor[:size],
            "history": self.tensor[size:].reshape(self.rows, _ROW),
        }

    def set_from(self, state: FidoState, player: int) -> None:
        self.tensor.fill(0.0)
        view = state.view(player)
        if view is None:  # the deal: her tiles so far
            if self.private:
                for t in state.now.hands[player]:
                    self.tensor[t.id] = 1.0
            return
        obs = self.space.observe(view)
        if not self.private:
            obs[: self.space.tiles] = [0.0] * self.space.tiles
        if not self.public:
            obs[self.space.tiles :] = [0.0] * (len(obs) - self.space.tiles)
        self.dict["view"][:] = obs
        if self.recall and self.public:
            rows = self.dict["history"]
            drawn = iter(state.own_draws(player))
            for i, turn in enumerate(view.history):
                m = turn.move
                rows[i, 0] = turn.seat + 1
                if isinstance(m, Placement):
                    rows[i, 1] = m.tile.id + 1
                    rows[i, 2] = m.anchor + 2  # the opening's -1 is 1
                    rows[i, 3] = m.port + 2
                else:
                    rows[i, 3] = -1.0 if isinstance(m, Draw) else -2.0
                if isinstance(m, Draw):
                    tile = next(drawn, None)
                    if tile is not None and self.private:
                        rows[i, 4] = tile.id + 1

    def string_from(self, state: FidoState, player: int) -> str:
        view = state.view(player)
        if view is None:
            mine = " ".join(t.text() for t in state.now.hands[player]) if self.private else "?"
            return f"p{player} dealing: {mine}"
        parts = [f"p{player}"]
        if self.private:
            parts.append("hand " + " ".join(t.text() for t in sorted(view.hand)))
        if self.public:
            parts.append(
                f"to move {view.to_move} | {view.table.summary()} | counts "
                f"{' '.join(map(str, view.hand_counts))} | stock {view.stock_count} | scores "
                f"{' '.join(map(str, view.scores))}"
            )
            if self.recall:
                drawn = iter(state.own_draws(player))
                turns = []
                for t in view.history:
                    tile = next(drawn, None) if isinstance(t.move, Draw) else None
                    extra = f"+{tile.text()}" if tile is not None and self.private else ""
                    turns.append(f"{t.seat}:{t.move.text()}{extra}")
                parts.append("history " + " ".join(turns))
        return " | ".join(parts)


pyspiel.register_game(_TYPE, FidoGame)
