"""The research adapters: action encoding, OpenSpiel's and PettingZoo's own checks, hidden tiles."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from open_spiel.python.algorithms import ismcts, mcts
from pettingzoo.test import api_test, seed_test

import fido.adapters.openspiel as fos
from fido import Game, Ruleset
from fido.adapters.encoding import action_space
from fido.adapters.pettingzoo import env

GAMES = [
    ("fido set=6", 3),
    ("fido set=9", 5),
    ("fido set=12", 4),
    ("fido set=15 mother_theresa", 3),
    ("fido set=18", 6),
    ("fido set=21", 9),
    ("straight", 4),
    ("block", 2),
    ("block", 4),
    ("draw", 3),
    ("muggins", 2),
    ("fives_and_threes", 4),
    ("sebastopol", 4),
    ("sebastopol all_fives", 4),
]


@settings(max_examples=25, deadline=None)
@given(case=st.sampled_from(GAMES), seed=st.integers(0, 2**32))
def test_every_legal_move_has_one_action_and_back(case: tuple[str, int], seed: int) -> None:
    text, players = case
    space = action_space(text, players)
    rng = random.Random(seed)
    g = Game.new(text, players, rng=rng)
    while not g.is_over:
        moves = g.legal_moves()
        ids = [space.action_of(g.table, m) for m in moves]
        assert len(set(ids)) == len(ids)
        assert all(0 <= i < space.size for i in ids)
        assert [space.move_of(g.table, moves, i) for i in ids] == moves
        assert len(g.table.open) <= space.slots
        assert len(space.observe(g.view(g.turn))) == space.observation_size
        g.push(rng.choice(moves))


def test_an_action_that_names_no_legal_move_is_refused() -> None:
    space = action_space("fido set=6", 3)
    g = Game.new("fido set=6", 3, seed=1)
    with pytest.raises(ValueError, match="not legal"):
        space.move_of(g.table, g.legal_moves(), space.pass_)
    with pytest.raises(ValueError, match="outside"):
        space.move_of(g.table, g.legal_moves(), space.size)


@pytest.mark.parametrize(("text", "players"), GAMES)
def test_openspiel_random_simulation(text: str, players: int) -> None:
    game = pyspiel.load_game(fos.GAME_NAME, {"rules": text, "players": players})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def _deal(state: fos.FidoState, order: list[int]) -> None:
    for a in order:
        state.apply_action(a)


def test_openspiel_observations_hide_other_hands() -> None:
    # two deals that differ only in a tile swapped between seats 1 and 2
    game = pyspiel.load_game(fos.GAME_NAME, {"rules": "fido set=6", "players": 3})
    order = list(range(28))
    random.Random(4).shuffle(order)
    size = Ruleset.from_text("fido set=6").hand_size(3)
    swapped = order[:]
    swapped[size], swapped[2 * size] = swapped[2 * size], swapped[size]
    a, b = game.new_initial_state(), game.new_initial_state()
    _deal(a, order[: 3 * size])
    _deal(b, swapped[: 3 * size])
    assert not a.is_chance_node() and str(a) != str(b)
    if a.current_player() == b.current_player() and a.legal_actions() == b.legal_actions():
        act = a.legal_actions()[0]
        if a.current_player() == 0:
            a.apply_action(act)
            b.apply_action(act)
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.observation_string(0) == b.observation_string(0)
    assert a.information_state_tensor(0) == b.information_state_tensor(0)
    assert a.observation_tensor(0) == b.observation_tensor(0)
    assert a.information_state_string(1) != b.information_state_string(1)


def test_openspiel_returns_are_the_finals() -> None:
    game = pyspiel.load_game(fos.GAME_NAME, {"rules": "block", "players": 4})
    rng = np.random.RandomState(2)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    outcome = state.game.outcome
    assert outcome is not None and outcome.teams is not None
    team = {s: t.final for t in outcome.teams for s in t.seats}
    assert state.returns() == [team[s] for s in range(4)]


def test_openspiel_ismcts_plays_fido_with_resampled_hands() -> None:
    game = pyspiel.load_game(fos.GAME_NAME, {"rules": "fido set=6", "players": 3})
    rng = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 20, random_state=rng)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
            moves += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert moves > 0 and len(state.returns()) == 3


def test_a_resampled_state_looks_the_same_to_its_player() -> None:
    game = pyspiel.load_game(fos.GAME_NAME, {"rules": "draw", "players": 3})
    rng = np.random.RandomState(5)
    state = game.new_initial_state()
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
            continue
        p = state.current_player()
        other = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert other.information_state_string(p) == state.information_state_string(p)
        assert other.legal_actions() == state.legal_actions()
        checked += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked > 5


@pytest.mark.parametrize(("text", "players"), [("fido set=6", 3), ("block", 4), ("draw", 2)])
def test_pettingzoo_api_and_seed(text: str, players: int) -> None:
    api_test(env(rules=text, players=players), num_cycles=100)
    seed_test(lambda: env(rules=text, players=players), num_cycles=50)


def test_pettingzoo_plays_a_hand_and_pays_the_finals() -> None:
    e = env(rules="fido set=6", players=3)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _info = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    g = e.unwrapped.game
    assert g.outcome is not None
    assert [total[a] for a in e.possible_agents] == [r.final for r in g.outcome.seats]


def test_pettingzoo_refuses_a_masked_action_and_changes_nothing() -> None:
    e = env(rules="block", players=2)
    e.reset(seed=1)
    obs, *_ = e.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = e.unwrapped.game.history()
    with pytest.raises(ValueError, match="not legal"):
        e.step(bad)
    assert e.unwrapped.game.history() == before
