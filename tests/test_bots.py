"""The bot interface, the simple levels, the runner and Game.from_view."""

from __future__ import annotations

import gc
import random

import pytest

from fido import ConfigurationError, Game, IllegalMoveError, Placement, SeatView, Tile
from fido.bots import GreedyBot, RandomBot, make_bot, play_hand, play_out
from fido.bots.base import Bot
from fido.bots.runner import bot_rng
from fido.views import make_view


def reachable(root: object, limit: int = 200_000) -> list[object]:
    """Every object reachable from ``root`` through references (what a bot could touch)."""
    seen: dict[int, object] = {}
    todo = [root]
    while todo and len(seen) < limit:
        obj = todo.pop()
        if id(obj) in seen:
            continue
        seen[id(obj)] = obj
        todo.extend(
            r for r in gc.get_referents(obj) if not isinstance(r, type) and id(r) not in seen
        )
    return list(seen.values())


def mid_game(text: str = "fido set=12", players: int = 4, seed: int = 7, moves: int = 20) -> Game:
    g = Game.new(text, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if g.is_over:
            break
        g.push(rng.choice(g.legal_moves()))
    return g


def test_a_view_leads_to_no_game_and_no_hidden_tile() -> None:
    g = mid_game()
    seat = g.turn
    view = g.view(seat)
    objs = reachable(view)
    assert not any(isinstance(o, Game) for o in objs)
    hidden = {t for s in range(g.players) if s != seat for t in g.hand(s)}
    hidden |= set(g.stock[g.stock_pos :])
    # a tile object is reachable only if the seat may see it (hand, table, own draws)
    visible = set(view.hand) | {p.tile for p in view.table.placements}
    visible |= {t.drawn for t in view.history if t.drawn is not None}
    tiles = {o for o in objs if isinstance(o, Tile)}
    assert tiles <= visible
    assert not tiles & hidden


@pytest.mark.parametrize("bot", [RandomBot(), GreedyBot()])
def test_bots_satisfy_the_protocol_and_play_only_legal_moves(bot: Bot) -> None:
    assert isinstance(bot, Bot)
    for text, players in (("fido set=6", 3), ("block", 4), ("draw", 2), ("sebastopol", 4)):
        g = play_hand(text, [bot] * players, seed=11)
        assert g.is_over


def test_greedy_takes_the_most_points_now() -> None:
    for seed in range(30):
        g = mid_game(seed=seed, moves=seed % 15)
        if g.is_over:
            continue
        view = g.view(g.turn)
        move = GreedyBot().choose(view, random.Random(0))
        best = max(view.points_for(m) for m in view.legal_moves)
        assert view.points_for(move) == best
        ties = [
            m for m in view.legal_moves if isinstance(m, Placement) and view.points_for(m) == best
        ]
        if ties:
            assert isinstance(move, Placement)
            assert move.tile.pips == max(m.tile.pips for m in ties)


def test_play_hand_is_reproducible_and_seeds_bots_apart_from_the_deal() -> None:
    bots = [make_bot("random")] * 4
    a = play_hand("fido set=9", bots, seed=5)
    b = play_hand("fido set=9", bots, seed=5)
    assert a.history() == b.history()
    assert bot_rng(5, 0).random() != bot_rng(5, 1).random()


def test_registry_errors_are_clear() -> None:
    with pytest.raises(ConfigurationError, match=r"unknown bot 'wizard'.*random"):
        make_bot("wizard")
    with pytest.raises(ConfigurationError, match="needs a value"):
        make_bot("random:fast")
    with pytest.raises(ConfigurationError, match="bot 'random'"):
        make_bot("random:depth=3")


class Cheater:
    name = "cheater"

    def choose(self, view: SeatView, rng: random.Random) -> Placement:
        return Placement(Tile(0, 0), 0, 0)


def test_an_illegal_bot_move_names_the_bot_and_changes_nothing() -> None:
    g = mid_game(moves=5)
    before = g.history()
    bots = [Cheater()] * g.players
    with pytest.raises(IllegalMoveError, match="bot 'cheater' at seat"):
        play_out(g, bots, [random.Random(0)] * g.players)
    assert g.history() == before


def test_from_view_rebuilds_the_position_with_the_true_hidden_tiles() -> None:
    for text, players in (("fido set=12", 4), ("draw", 3), ("sebastopol", 4), ("muggins", 2)):
        for seed in range(5):
            g = mid_game(text, players, seed=seed, moves=6 + seed)
            if g.is_over:
                continue
            view = g.view(g.turn)
            w = Game.from_view(view, [g.hand(s) for s in range(players)], g.stock[g.stock_pos :])
            assert w.legal_moves() == g.legal_moves()
            assert w.table.text() == g.table.text() and w.scores == g.scores
            assert w.turn == g.turn and w.passes == g.passes
            assert make_view(w, g.turn) == view
            # both continue identically
            rng1, rng2 = random.Random(1), random.Random(1)
            while not g.is_over:
                m = rng1.choice(g.legal_moves())
                assert m == rng2.choice(w.legal_moves())
                g.push(m)
                w.push(m)
            assert w.outcome == g.outcome


def test_from_view_refuses_worlds_that_contradict_the_view() -> None:
    g = mid_game(moves=8)
    view = g.view(g.turn)
    hands = [g.hand(s) for s in range(g.players)]
    stock = list(g.stock[g.stock_pos :])
    other = (g.turn + 1) % g.players
    wrong = [list(h) for h in hands]
    wrong[g.turn], wrong[other] = wrong[other][: len(wrong[g.turn])], wrong[g.turn]
    with pytest.raises(ConfigurationError):
        Game.from_view(view, wrong, stock)
    short = [list(h) for h in hands]
    stock.append(short[other].pop())
    with pytest.raises(ConfigurationError, match="holds"):
        Game.from_view(view, short, stock)
    dup = [list(h) for h in hands]
    dup[other][0] = view.table.placements[0].tile
    with pytest.raises(ConfigurationError, match="not free"):
        Game.from_view(view, dup, g.stock[g.stock_pos :])
