"""Every fido ruleset as a PettingZoo AEC environment with action masks.

    from fido.adapters.pettingzoo import env
    e = env(rules="fido set=12", players=4)
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        action = None if term or trunc else pick(obs["observation"], obs["action_mask"])
        e.step(action)

Agents are ``seat_0`` .. ``seat_{n-1}``; the one to move is
``agent_selection`` (FIDO's direction of play, draws and passes included).
An observation is a dict: ``observation``, the seat's view as a vector
(:meth:`fido.adapters.encoding.ActionSpace.observe`: never another hand or
the stock), and ``action_mask``, 1 for each legal action of that seat now
(all zeros when it is not her turn). Rewards come once, at the end of the
hand: each seat's final (her team's in team games). ``reset(seed=...)``
deals from ``random.Random(seed)``, so a seed replays the same hand.

An action the mask forbids raises ``ValueError`` naming it and changes
nothing: a learner that ignores the mask should fail loudly, not be
silently corrected.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from fido.adapters.encoding import ActionSpace, action_space
from fido.engine.game import Game

__all__ = ["FidoEnv", "env", "raw_env"]


def env(rules: str = "fido set=12", players: int = 4, render_mode: str | None = None) -> AECEnv:
    """The environment with PettingZoo's standard checks (order, action bounds)."""
    e: AECEnv = FidoEnv(rules, players, render_mode)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


class FidoEnv(AECEnv):  # type: ignore[misc]
    """A hand of a fido ruleset; one agent per seat."""

    metadata = {  # noqa: RUF012 (PettingZoo's class attribute)
        "render_modes": ["ansi", "human"],
        "name": "fido_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self, rules: str = "fido set=12", players: int = 4, render_mode: str | None = None
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi", "human"):
            raise ValueError("render_mode is None, 'ansi' or 'human'")
        self.space: ActionSpace = action_space(rules, players)
        self.render_mode = render_mode
        self.possible_agents = [f"seat_{s}" for s in range(players)]
        self.agents = self.possible_agents[:]
        n = self.space.observation_size
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=0.0, high=np.inf, shape=(n,), dtype=np.float32),
                    "action_mask": spaces.Box(
                        low=0, high=1, shape=(self.space.size,), dtype=np.int8
                    ),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.space.size) for a in self.possible_agents}
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        rng = random.Random(seed if seed is not None else random.SystemRandom().getrandbits(64))
        self.game = Game.new(self.space.rules, self.space.players, rng=rng)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.turn]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.game is not None, "reset() first"
        seat = self._seat(agent)
        view = self.game.view(seat)
        mask = np.zeros(self.space.size, dtype=np.int8)
        if not self.game.is_over and self.game.turn == seat:
            for m in view.legal_moves:
                mask[self.space.action_of(view.table, m)] = 1
        obs = np.asarray(self.space.observe(view), dtype=np.float32)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        assert self.game is not None, "reset() first"
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        g = self.game
        move = self.space.move_of(g.table, g.legal_moves(), int(action))  # type: ignore[arg-type]
        g.push(move)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if g.outcome is not None:
            outcome = g.outcome
            if outcome.teams is not None:
                finals = {s: float(t.final) for t in outcome.teams for s in t.seats}
            else:
                finals = {r.seat: float(r.final) for r in outcome.seats}
            self.rewards = {a: finals[self._seat(a)] for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[g.turn]
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str | None:
        """The public table (never a hand): sum, ends, tile counts, stock, scores."""
        if self.render_mode is None or self.game is None:
            return None
        v = self.game.spectator_view()
        return (
            f"{v.table.summary()} | tiles {' '.join(map(str, v.hand_counts))} | "
            f"stock {v.stock_count} | scores {' '.join(map(str, v.scores))}"
        )

    def close(self) -> None:
        pass


raw_env = FidoEnv
