"""The action encoding and the OpenSpiel game: round trips, hidden tiles, OpenSpiel's own checks."""

from __future__ import annotations

import random
from math import isclose

import numpy as np
import pyspiel
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from open_spiel.python.algorithms import ismcts, mcts

import fido.adapters.openspiel as fos
from fido import Game, Placement
from fido.adapters.encoding import action_space

# every ruleset, the FIDO sets 6 to 21, small and large tables
SIM_GAMES = [
    ("fido set=6", 2),
    ("fido set=6", 4),
    ("fido set=9", 3),
    ("fido set=9", 9),
    ("fido set=12", 4),
    ("fido set=15 mother_theresa", 3),
    ("fido set=18", 2),
    ("fido set=21", 3),
    ("straight", 2),
    ("straight", 4),
    ("block", 2),
    ("block", 4),
    ("draw", 3),
    ("muggins", 4),
    ("fives_and_threes", 2),
    ("sebastopol", 4),
    ("sebastopol all_fives", 4),
]
# the property tests: small sets, so many positions in little time
SMALL = [c for c in SIM_GAMES if "set=1" not in c[0] and "set=2" not in c[0]]


def load(rules: str, players: int) -> fos.FidoGame:
    game: fos.FidoGame = pyspiel.load_game(fos.GAME_NAME, {"rules": rules, "players": players})
    return game


def chance(state: fos.FidoState, rng: random.Random) -> int:
    actions, probs = zip(*state.chance_outcomes(), strict=True)
    return int(rng.choices(actions, weights=probs)[0])


# ------------------------------------------------------------------ the encoding


@settings(max_examples=20, deadline=None)
@given(case=st.sampled_from(SIM_GAMES), seed=st.integers(0, 2**32))
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
        g.push(rng.choice(moves))


@settings(max_examples=20, deadline=None)
@given(case=st.sampled_from(SMALL), seed=st.integers(0, 2**32))
def test_the_observation_shows_what_each_slot_action_means(
    case: tuple[str, int], seed: int
) -> None:
    # the row of slot rank r holds the number a tile placed "on slot #r" must show
    text, players = case
    space = action_space(text, players)
    n = space.rules.dominoes.max_pips + 1
    start = 2 * space.tiles + n
    rng = random.Random(seed)
    g = Game.new(text, players, rng=rng)
    while not g.is_over:
        view = g.view(g.turn)
        obs = space.observe(view)
        assert len(obs) == space.observation_size
        assert sum(obs[: space.tiles]) == len(view.hand)
        for m in view.legal_moves:
            a = space.action_of(view.table, m)
            if isinstance(m, Placement) and not m.is_opening:
                row = obs[start + (a % (space.slots + 1)) * (n + 2) :][: n + 2]
                value = row.index(1.0)
                assert value in (m.tile.high, m.tile.low) and row[n + 1] == 1.0
                assert value == view.table.open_slots()[m.slot][0]
        g.push(rng.choice(view.legal_moves))


def test_an_action_that_names_no_legal_move_is_refused() -> None:
    space = action_space("fido set=6", 3)
    g = Game.new("fido set=6", 3, seed=1)
    with pytest.raises(ValueError, match="not legal"):
        space.move_of(g.table, g.legal_moves(), space.pass_)
    with pytest.raises(ValueError, match="outside"):
        space.move_of(g.table, g.legal_moves(), space.size)


# ------------------------------------------------------------------ OpenSpiel


@pytest.mark.parametrize(("text", "players"), SIM_GAMES)
def test_openspiel_random_simulation(text: str, players: int) -> None:
    # serialize=True: OpenSpiel also rebuilds the game from its string and states from theirs
    pyspiel.random_sim_test(load(text, players), num_sims=1, serialize=True, verbose=False)


def test_the_game_string_loads_the_same_game() -> None:
    game = load("fido set=15 mother_theresa", 3)
    assert str(game) == "python_fido(players=3,rules=fido set:15 mother_theresa)"
    again = pyspiel.load_game(str(game))
    assert again.space == game.space and str(again) == str(game)
    assert pyspiel.load_game(fos.GAME_NAME).space == action_space("fido set=12", 4)


@settings(max_examples=15, deadline=None)
@given(case=st.sampled_from(SMALL), seed=st.integers(0, 2**32))
def test_openspiel_legal_actions_are_the_engines_moves(case: tuple[str, int], seed: int) -> None:
    text, players = case
    game = load(text, players)
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert isclose(sum(p for _a, p in outcomes), 1.0) and all(p > 0 for _a, p in outcomes)
            state.apply_action(chance(state, rng))
            continue
        g = state.game
        assert g is not None and state.current_player() == g.turn
        actions = state.legal_actions()
        moves = [game.space.move_of(g.table, g.legal_moves(), a) for a in actions]
        assert sorted(m.text() for m in moves) == sorted(m.text() for m in g.legal_moves())
        assert [state.action_to_string(g.turn, a) for a in actions] == [m.text() for m in moves]
        state.apply_action(rng.choice(actions))


@settings(max_examples=15, deadline=None)
@given(case=st.sampled_from(SMALL), seed=st.integers(0, 2**32), data=st.data())
def test_openspiel_observations_hide_the_other_seats_tiles(
    case: tuple[str, int], seed: int, data: st.DataObject
) -> None:
    # two hands dealt alike but for two tiles hidden from the observer, swapped
    # (between two other hands or another hand and the stock), then played alike
    text, players = case
    game = load(text, players)
    size = game.space.rules.hand_size(players)
    rng = random.Random(seed)
    a = game.new_initial_state()
    while a.game is None:
        a.apply_action(chance(a, rng))
    g = a.game
    me = data.draw(st.integers(0, players - 1), label="observer")
    where = {t: s for s in range(players) for t in g.hand(s)}
    hidden = [t for t in game.space.rules.dominoes.tiles if where.get(t, -1) != me]
    x = data.draw(st.sampled_from(hidden), label="x")
    others = [t for t in hidden if where.get(t, -1) != where.get(x, -1)]
    others = [t for t in others if t.is_double == x.is_double]  # a double stays in hand
    if not others:
        return
    y = data.draw(st.sampled_from(others), label="y")
    swap = {x.id: y.id, y.id: x.id}
    b = game.new_initial_state()
    for s in range(players):
        for t in g.hand(s):
            b.apply_action(swap.get(t.id, t.id))
    assert b.game is not None and len(b.game.hand(0)) == size
    # who opens with which double is public from the first move on
    assume((b.game.opener, b.game.opening_tile) == (g.opener, g.opening_tile))
    assert str(a) != str(b)
    holders = {where.get(x, -1), where.get(y, -1)}
    watchers = [s for s in range(players) if s not in holders]
    for s in holders - {-1}:
        assert a.information_state_string(s) != b.information_state_string(s)
    for _ in range(200):
        for p in watchers:
            assert a.observation_string(p) == b.observation_string(p)
            assert a.information_state_string(p) == b.information_state_string(p)
            assert a.observation_tensor(p) == b.observation_tensor(p)
            assert a.information_state_tensor(p) == b.information_state_tensor(p)
        if a.is_terminal() or b.is_terminal():
            break
        if a.is_chance_node():
            # the same draw in both, unless it is x or y (then the worlds part)
            outcomes = [o for o, _p in a.chance_outcomes() if o not in swap]
            if not outcomes or not b.is_chance_node():
                break
            pick = rng.choice(outcomes)
            a.apply_action(pick)
            b.apply_action(pick)
            continue
        both = sorted(set(a.legal_actions()) & set(b.legal_actions()))
        both = [act for act in both if act // (game.space.slots + 1) not in swap]
        if a.current_player() != b.current_player() or not both:
            break
        pick = rng.choice(both)
        a.apply_action(pick)
        b.apply_action(pick)


def test_the_deal_keeps_a_double_in_hand() -> None:
    # Game.new deals again when no hand holds a double; the chance deal is
    # conditioned on one instead: after 13 tiles without a double, the 14th is one
    game = load("block", 2)
    state = game.new_initial_state()
    plain = [t.id for t in game.space.rules.dominoes.tiles if not t.is_double]
    for a in plain[:13]:
        state.apply_action(a)
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 7 and isclose(sum(p for _a, p in outcomes), 1.0)
    assert all(game.space.rules.dominoes.tiles[a].is_double for a, _p in outcomes)


@pytest.mark.parametrize(("text", "players"), [("block", 4), ("fido set=6", 3), ("draw", 2)])
def test_openspiel_returns_are_the_finals(text: str, players: int) -> None:
    game = load(text, players)
    rng = random.Random(2)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state.game is not None
    outcome = state.game.outcome
    assert outcome is not None
    if outcome.teams is not None:
        team = {s: t.final for t in outcome.teams for s in t.seats}
        assert state.returns() == [team[s] for s in range(players)]
    else:
        assert state.returns() == [r.final for r in outcome.seats]
    assert game.min_utility() <= min(state.returns()) <= max(state.returns()) <= game.max_utility()


def test_openspiel_ismcts_plays_fido_with_resampled_hands() -> None:
    game = load("fido set=6", 3)
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
    game = load("draw", 3)
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
        assert other.observation_tensor(p) == state.observation_tensor(p)
        assert other.legal_actions() == state.legal_actions()
        checked += 1
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert checked > 5
