"""The bot interface, the simple levels, the runner and Game.from_view."""

from __future__ import annotations

import gc
import random

import pytest

from fido import ConfigurationError, Game, IllegalMoveError, Placement, SeatView, Tile
from fido.bots import GreedyBot, RandomBot, make_bot, play_hand, play_out
from fido.bots.base import Bot, Move
from fido.bots.registry import register
from fido.bots.runner import bot_move, bot_rng, new_secret
from fido.engine.views import make_view
from fido.tournament import deal_seed, run_tournament


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
    secret = new_secret()
    assert bot_rng(secret, 5, 0).random() != bot_rng(secret, 5, 1).random()
    c = play_hand("fido set=9", bots, seed=5, bot_secret=secret)
    d = play_hand("fido set=9", bots, seed=5, bot_secret=secret)
    assert c.history() == d.history()
    assert c.table != a.table  # other dice, same deal
    assert [c.hand(s) for s in range(4)] != [] and c.initial_hands == a.initial_hands


SPIED: list[tuple[int | None, object]] = []  # (seat, the generator's state at its first move)


class StateSpy:
    """A bot that keeps its generator's state, as a cheating bot would read it."""

    name = "spy"

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        SPIED.append((view.seat, rng.getstate()))
        return rng.choice(view.legal_moves)


def _spy_run(seed: int, secret: bytes | None = None) -> list[tuple[int | None, object]]:
    register("spy", f"{__name__}:StateSpy")
    SPIED.clear()
    run_tournament(
        "fido set=6", ["spy", "random", "random"], deals=2, seed=seed, workers=1,
        bot_secret=secret,
    )  # fmt: skip
    return list(SPIED)


def test_bot_generators_do_not_lead_back_to_the_public_seed() -> None:
    """The old generator, Random(f"fido-bot:{seed}:{deal}:{rotation}:{seat}"), gave the seed
    away through its state, and the seed gives every hand and the stock."""
    seed = 3
    a, b = _spy_run(seed), _spy_run(seed)
    assert a and b
    assert a[0][1] != b[0][1]  # the same deal, the same seat: other dice (a new secret each run)
    guesses = {
        random.Random(f"fido-bot:{x}:{deal}:{rot}:{s}").getstate()
        for x in range(50) for deal in range(2) for rot in range(3) for s in range(3)
    }  # fmt: skip
    guesses |= {random.Random(x).getstate() for x in range(50)}
    guesses |= {random.Random(deal_seed(seed, d)).getstate() for d in range(2)}
    assert not guesses & {state for _s, state in a}
    # with the secret given (to replay a run) the bots get the same dice again
    secret = new_secret()
    assert _spy_run(seed, secret) == _spy_run(seed, secret)


def test_bot_move_is_the_one_step_of_every_loop() -> None:
    g = mid_game(moves=3)
    seat = g.turn
    turn = bot_move(g, GreedyBot(), random.Random(0))
    assert turn.seat == seat and g.last_turn() == turn
    before = g.history()
    with pytest.raises(IllegalMoveError, match="bot 'cheater' at seat"):
        bot_move(g, Cheater(), random.Random(0))
    assert g.history() == before


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


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("search:sims=1e9", "sims is a whole number from 1 to 1,000,000, not 1000000000.0"),
        ("search:sims=0", "sims is simulations per move, 1 to 1,000,000, not 0"),
        ("search:sims=2000000", "not 2,000,000"),
        ("search:time=nan", "time must be a finite number, not nan"),
        ("search:time=-inf", "time must be a finite number"),
        ("search:time=1e400", "time is a number from 0 to 600, not '1e400'"),
        ("search:time=601", "time is seconds per move .* 0 to 600, not 601"),
        ("search:greedy=1.5", "greedy is a probability, 0 to 1"),
        ("search:sims=２", "sims is a whole number from 1 to 1,000,000, not '２'"),
        ("search:sims=²", "sims is a whole number"),
        ("search:sims=" + "9" * 5000, "longer than 200 characters"),
        ("search:prior=oracle", "prior is one of expert, none"),
        ("search:sims=5,sims=6", "option sims given twice"),
        ("search:__class__=1", "'__class__' is not an option name|no option '__class__'"),
        ("expert:depth=3", "bot 'expert' has no option 'depth' \\(it takes no options\\)"),
        ("search:depth=3", "has no option 'depth' \\(it takes sims, time"),
    ],
)
def test_bot_options_are_range_checked(spec: str, message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        make_bot(spec)


def test_good_bot_options_still_make_bots() -> None:
    bot = make_bot(" search : sims = 200 , time = 0 , greedy = .5 , prior = none ")
    assert bot.name == "search:sims=200,time=0"
    assert make_bot("search:time=0.25").name == "search:sims=2000,time=0.25"
