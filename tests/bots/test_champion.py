"""The ``champion`` level: legal everywhere, fair, reproducible, its options checked."""

from __future__ import annotations

import itertools
import random

import pytest

from fido import ConfigurationError, Game, Placement
from fido.bots import LEVELS, make_bot, play_hand
from fido.bots.champion import (
    FIDO_SMALL_SET_SIMS,
    MIDDLE_SET_SIMS,
    SMALL_SET_SIMS,
    TUNED_WEIGHTS,
    ChampionBot,
    likely_deal,
    passed_up,
    points_passed_up,
)
from fido.bots.expert import EXPERT_WEIGHTS, ExpertBot, Position, expert_score
from fido.bots.sampling import hidden_deal
from fido.engine.rollout import best_now, smart_now, smart_playout
from fido.engine.sorting import is_joker
from fido.engine.views import make_view

FAMILIES = [
    ("fido set=6", 3),
    ("fido set=9", 5),
    ("fido set=12 mother_theresa", 4),
    ("muggins", 2),
    ("fives_and_threes", 3),
    ("block", 4),
    ("draw", 2),
    ("straight", 4),
    ("sebastopol", 4),
]


def mid_game(text: str, players: int, seed: int, stop: int) -> Game:
    g = Game.new(text, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(stop):
        if g.is_over:
            break
        g.push(rng.choice(g.legal_moves()))
    return g


def test_champion_is_a_level() -> None:
    assert "champion" in LEVELS
    assert make_bot("champion").name == "champion:time=0.9"
    assert make_bot("champion:sims=300").name == "champion:sims=300,time=0.9"


@pytest.mark.parametrize(
    ("spec", "text", "players", "budget"),
    [
        ("champion:time=0", "fido set=6", 3, FIDO_SMALL_SET_SIMS),  # small worlds: more
        ("champion:time=0", "fido set=6", 4, FIDO_SMALL_SET_SIMS),
        ("champion:time=0", "block", 4, SMALL_SET_SIMS),  # the classic games: as measured
        ("champion:time=0", "fido set=9", 4, MIDDLE_SET_SIMS),  # the clock's room
        ("champion:time=0", "fido set=12", 4, MIDDLE_SET_SIMS),
        ("champion:time=0", "fido set=15", 5, 2000),  # big worlds: the clock binds sooner
        ("champion:sims=500,time=0", "fido set=6", 3, 500),  # asked for: as asked
        ("champion:sims=2000,time=0", "fido set=12", 4, 2000),
    ],
)
def test_champion_spends_its_budget_by_the_set(
    spec: str, text: str, players: int, budget: int
) -> None:
    bot = make_bot(spec)
    assert isinstance(bot, ChampionBot)
    for seed in range(20):
        g = mid_game(text, players, seed, stop=3)
        if not g.is_over and len(g.legal_moves()) >= 3:
            break
    else:
        pytest.fail("no decision with three moves")
    bot.choose(g.view(g.turn), random.Random(0))
    # sequential halving spends the budget to within a stage's rounding
    assert 0.9 * budget <= bot.last_simulations <= budget


@pytest.mark.parametrize(("text", "players"), FAMILIES)
def test_champion_plays_legal_moves_in_every_game_family(text: str, players: int) -> None:
    bot = make_bot("champion:sims=24,time=0")
    others = [make_bot("expert")] * (players - 1)
    for seed in range(2):
        g = play_hand(text, [bot, *others], seed=seed)  # an illegal move raises
        assert g.is_over


@pytest.mark.parametrize(("text", "players"), [("fido set=9", 4), ("fido set=6", 3), ("block", 4)])
def test_champion_reads_only_its_view(text: str, players: int) -> None:
    # two worlds that differ only in what the seat cannot see (the other hands, the
    # stock) give the same decision with the same generator
    checked = 0
    for seed in range(10):
        g = mid_game(text, players, seed, stop=4 + seed)
        if g.is_over or len(g.legal_moves()) < 2:
            continue
        seat = g.turn
        view = g.view(seat)
        other = hidden_deal(view).sample(random.Random(100 + seed))
        assert make_view(other, seat) == view
        if all(other.hand(s) == g.hand(s) for s in range(players)):
            continue
        for bot in (ChampionBot(sims=60, time=0), ChampionBot(sims=60, time=0, infer=3)):
            a = bot.choose(g.view(seat), random.Random(seed))
            b = bot.choose(other.view(seat), random.Random(seed))
            assert a == b
            assert a in view.legal_moves
        checked += 1
    assert checked >= 4


def test_champion_is_reproducible_without_a_clock() -> None:
    g = mid_game("fido set=12", 4, seed=3, stop=14)
    view = g.view(g.turn)
    bot = make_bot("champion:sims=80,time=0")
    picks = {bot.choose(view, random.Random(9)) for _ in range(3)}
    assert len(picks) == 1


@pytest.mark.parametrize("prior", ["tuned", "expert"])
def test_with_too_few_worlds_the_champion_plays_its_priors_choice(prior: str) -> None:
    """Too few worlds to overrule it: the expert's terms decide, weighed as the prior says."""
    weights = TUNED_WEIGHTS if prior == "tuned" else EXPERT_WEIGHTS
    checked = differ = 0
    for seed in range(40):
        g = mid_game("fido set=9", 4, seed, stop=10 + seed % 12)
        if g.is_over or len(g.legal_moves()) < 2:
            continue
        view = g.view(g.turn)
        pos = Position.of(view)
        scores = [expert_score(pos, m, weights) for m in view.legal_moves]
        if scores.count(max(scores)) > 1:
            continue
        best = view.legal_moves[scores.index(max(scores))]
        bot = ChampionBot(sims=6, time=0, prior=prior)
        assert bot.choose(view, random.Random(1)) == best
        expert = ExpertBot().choose(view, random.Random(0))
        differ += best != expert
        checked += 1
    assert checked >= 15
    # the tuned weights are not the expert's: they choose otherwise somewhere
    assert (differ > 0) == (prior == "tuned")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("champion:sims=0", "sims is simulations per move, 1 to 1,000,000, not 0"),
        ("champion:time=601", "time is seconds per move .* 0 to 600, not 601"),
        ("champion:explore=1.5", "explore is a probability, 0 to 1"),
        ("champion:policy=oracle", "policy is one of smart, greedy"),
        ("champion:prior=oracle", "prior is one of tuned, expert, none"),
        ("champion:width=1", "width is candidate moves, 2 to 64, not 1"),
        ("champion:doubt=-1", "doubt is standard errors, 0 to 10, not -1"),
        ("champion:doubt=nan", "doubt must be a finite number"),
        ("champion:infer=-1", "infer is points passed up \\(0: off\\), 0 to 1,000, not -1"),
        ("champion:greedy=0.5", "has no option 'greedy'"),
    ],
)
def test_champion_options_are_range_checked(spec: str, message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        make_bot(spec)


def test_good_champion_options_make_bots() -> None:
    bot = make_bot("champion:sims=300,time=0,explore=0,policy=greedy,width=3,doubt=0,infer=2")
    assert isinstance(bot, ChampionBot)
    assert (bot.sims, bot.time, bot.explore, bot.policy, bot.width, bot.doubt, bot.infer) == (
        300, 0, 0, "greedy", 3, 0, 2
    )


def test_smart_playout_ends_every_hand_legally() -> None:
    for text, players in FAMILIES:
        for seed in range(4):
            g = Game.new(text, players, seed=seed)
            out = smart_playout(g.copy(), random.Random(seed), 0.0)
            assert out.termination is not None


def test_smart_policy_keeps_jokers_the_greedy_one_spends() -> None:
    # FIDO double-6 (divisor 3): where no placement scores, greedy sheds its heaviest
    # tile even when it is a joker (it keeps the sum's remainder: a score in reserve)
    spent = kept = 0
    for seed in range(120):
        for stop in (3, 6, 9):
            g = mid_game("fido set=6", 3, seed, stop)
            if g.is_over:
                continue
            moves = g.legal_moves()
            placements = [m for m in moves if isinstance(m, Placement)]
            if len(placements) < 2 or any(g.points_for(m) for m in placements):
                continue
            greedy = best_now(g, list(moves))
            pick = smart_now(g, list(moves), [-1] * 3, 0.5)
            assert pick in moves
            if isinstance(greedy, Placement) and is_joker(greedy.tile, 3):
                spent += 1
                kept += isinstance(pick, Placement) and not is_joker(pick.tile, 3)
    assert spent >= 10
    assert kept >= spent // 4


def test_likely_deals_keep_from_an_opponent_the_points_she_passed_up() -> None:
    # expert opponents take points: the narrowed deals never give a seat a tile that
    # would have scored 3 points more than her placement after her last draw, and
    # every world still shows the seat exactly her view
    expert = make_bot("expert")
    narrowed = 0
    for seed in range(6):
        g = Game.new("fido set=12", 4, seed=seed)
        rng = random.Random(seed)
        for _ in range(14):
            if g.is_over:
                break
            g.push(expert.choose(g.view(g.turn), rng))
        if g.is_over:
            continue
        view = g.view(g.turn)
        plain = hidden_deal(view)
        deal = likely_deal(view, 3)
        narrowed += deal.allowed != plain.allowed
        for slot, tiles in enumerate(deal.allowed):
            assert set(tiles) <= set(plain.allowed[slot])
        for _ in range(20):
            world = deal.sample(rng)
            assert make_view(world, view.seat) == view
    assert narrowed >= 3


def test_the_true_hands_pass_up_fewer_points_than_sampled_ones() -> None:
    # expert opponents take points, so in the true deal they passed up (almost) nothing
    # on their placements since their last draws, while uniformly sampled deals have
    # them pass up points: the evidence the champion's infer option and the analysis
    # bench's weighted worlds read (docs/bots.md, "champion")
    expert = make_bot("expert")
    above = positions = 0
    for seed in range(8):
        g = Game.new("fido set=12", 4, seed=seed)
        rng = random.Random(seed)
        for _ in range(14):
            g.push(expert.choose(g.view(g.turn), rng))
        view = g.view(g.turn)
        evidence = passed_up(view)
        assert view.seat not in evidence
        for placements in evidence.values():
            for levels in placements:
                gains = [gain for gain, _mask in levels]
                assert gains == sorted(gains, reverse=True) and gains[-1] > 0
                masks = [mask for _gain, mask in levels]
                assert all(a & b == a for a, b in itertools.pairwise(masks))  # growing
        true = sum(points_passed_up(g.hands[s], e) for s, e in evidence.items())
        deal = hidden_deal(view)
        for _ in range(50):
            world = deal.sample(rng)
            sampled = sum(points_passed_up(world.hands[s], e) for s, e in evidence.items())
            above += sampled > true
            positions += 1
    assert above >= 0.8 * positions
