"""The PettingZoo environment: PettingZoo's own checks, masks, rewards, refused actions."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from fido.adapters.encoding import action_space
from fido.adapters.pettingzoo import FidoEnv, env

CASES = [
    ("fido set=6", 3),
    ("fido set=12", 4),
    ("block", 4),
    ("draw", 2),
    ("muggins", 3),
    ("sebastopol", 4),
]


@pytest.mark.filterwarnings("ignore:Observation:UserWarning")  # a Dict, as in PettingZoo classic
@pytest.mark.parametrize(("text", "players"), CASES)
def test_pettingzoo_api_and_seed(text: str, players: int) -> None:
    api_test(env(rules=text, players=players), num_cycles=100)
    seed_test(lambda: env(rules=text, players=players), num_cycles=50)


@pytest.mark.parametrize(("text", "players", "seed"), [("fido set=6", 3, 3), ("block", 4, 1)])
def test_pettingzoo_plays_a_hand_and_pays_the_finals(text: str, players: int, seed: int) -> None:
    e = env(rules=text, players=players)
    e.reset(seed=seed)
    space = action_space(text, players)
    rng = np.random.default_rng(seed)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _info = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        g = e.unwrapped.game
        seat = e.possible_agents.index(agent)
        assert seat == g.turn
        view = g.view(seat)
        assert obs["observation"].tolist() == space.observe(view)
        legal = {space.action_of(view.table, m) for m in view.legal_moves}
        assert set(np.flatnonzero(obs["action_mask"]).tolist()) == legal
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    outcome = e.unwrapped.game.outcome
    assert outcome is not None
    if outcome.teams is not None:
        finals = {s: t.final for t in outcome.teams for s in t.seats}
        assert [total[a] for a in e.possible_agents] == [finals[s] for s in range(players)]
    else:
        assert [total[a] for a in e.possible_agents] == [r.final for r in outcome.seats]


def test_only_the_seat_to_move_has_a_mask() -> None:
    e = FidoEnv(rules="straight", players=4)
    e.reset(seed=5)
    masks = {a: e.observe(a)["action_mask"].sum() for a in e.possible_agents}
    assert masks[e.agent_selection] > 0
    assert all(m == 0 for a, m in masks.items() if a != e.agent_selection)


def test_pettingzoo_refuses_a_masked_action_and_changes_nothing() -> None:
    e = env(rules="block", players=2)
    e.reset(seed=1)
    obs, *_ = e.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = e.unwrapped.game.history()
    with pytest.raises(ValueError, match="not legal"):
        e.step(bad)
    assert e.unwrapped.game.history() == before


def test_render_shows_the_public_table_only() -> None:
    e = FidoEnv(rules="fido set=6", players=3, render_mode="ansi")
    e.reset(seed=2)
    assert e.game is not None
    v = e.game.spectator_view()
    assert e.render() == (
        f"{v.table.summary()} | tiles {' '.join(map(str, v.hand_counts))} | "
        f"stock {v.stock_count} | scores {' '.join(map(str, v.scores))}"
    )
    assert FidoEnv(rules="fido set=6", players=3).render() is None
