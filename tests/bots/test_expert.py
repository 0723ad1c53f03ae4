"""The expert bot: each heuristic on a position where it must prefer one move, then whole games."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import replace

import pytest

from fido import Game, Placement, Tile
from fido.bots import make_bot, play_hand
from fido.bots.expert import (
    SOFT_VOID,
    ExpertBot,
    Position,
    hold_chances,
    jokinen_force,
    keeps_complementary_pairs,
    keeps_jokers,
    keeps_suit_variety,
    pair_coverage,
    plays_to_voids,
    sheds_double_while_open,
    sheds_heavy,
    spares_next_player,
    takes_tap_in,
    ter_heide_block,
)
from fido.engine.moves import DRAW, PASS
from fido.engine.rules import RULESETS
from support.helpers import T, deal, tiles


def play(game: Game, *moves: str) -> Game:
    """Push moves given as ``tile`` (the only placement of it), ``tile@slot``, draw or pass."""
    for text in moves:
        if text in ("draw", "pass"):
            game.push(DRAW if text == "draw" else PASS)
            continue
        game.push(at(game, text))
    return game


def at(game: Game, text: str) -> Placement:
    """The legal placement written ``tile@slot`` (or ``tile`` when it fits one place only)."""
    tile_text, _, slot = text.partition("@")
    tile = T(tile_text)
    found = [
        m
        for m in game.legal_moves()
        if isinstance(m, Placement)
        and m.tile is tile
        and (not slot or game.table.slot_name(m.slot) == slot)
    ]
    assert len(found) == 1, f"{text}: {found}"
    return found[0]


def fido6(wanted: dict[int, Sequence[str]], stock_first: str = "") -> Game:
    """FIDO double-6 (divisor 3) for 3 players: seat 0 holds 6-6 and opens."""
    return deal(
        "fido set=6",
        3,
        {s: tiles(" ".join(ws)) for s, ws in wanted.items()},
        tiles(stock_first),
    )


def pos(game: Game) -> Position:
    return Position.of(game.view(game.turn))


# ------------------------------------------------------------------ FIDO heuristics


def test_keeps_jokers_prefers_keeping_a_class_d_tile() -> None:
    g = play(fido6({0: ["6-6"], 1: ["6-3", "6-5"]}), "6-6")
    p = pos(g)
    assert keeps_jokers(p, at(g, "6-3@0n")) == -1.0  # difference 3 on divisor 3
    assert keeps_jokers(p, at(g, "6-5@0n")) == 0.0


def test_keeps_complementary_pairs_keeps_the_last_tile_of_a_pair() -> None:
    # 6-5 is the hand's only tile of the pair 1|2; every other tile is a joker
    hand = ["6-5", "6-3", "3-0", "4-1", "5-2", "0-0", "3-3"]
    g = play(fido6({0: ["6-6"], 1: hand}), "6-6")
    p = pos(g)
    assert keeps_complementary_pairs(p, at(g, "6-5@0n")) == pytest.approx(-0.5)
    assert keeps_complementary_pairs(p, at(g, "6-3@0n")) == 0.0
    # the first tile of a pair counts more than the second
    d = 7
    one, two = pair_coverage(tiles("8-0"), d), pair_coverage(tiles("8-0 4-3"), d)
    assert one == 0.5 and two == 0.75  # 8-0 is class 1, 4-3 class 1: the same pair 1|6
    assert pair_coverage(tiles("8-0 9-0"), d) == 1.0  # classes 1 and 2: two pairs


def test_sheds_heavy_prefers_the_heavier_tile_and_grows_as_hands_shrink() -> None:
    hand = ["6-5", "6-2", "6-1", "6-4", "5-0", "5-3", "1-1"]
    g = play(fido6({0: ["6-6"], 1: hand}), "6-6")
    p = pos(g)
    heavy = sheds_heavy(p, at(g, "6-5@0n"))
    assert heavy > sheds_heavy(p, at(g, "6-1@0n")) > 0
    # the same tile weighs more when an opponent is close to going out
    view = g.view(1)
    near_end = Position.of(replace(view, hand_counts=(1, *view.hand_counts[1:])))
    assert sheds_heavy(near_end, at(g, "6-5@0n")) > heavy


def test_sheds_double_while_open_prefers_the_double_the_more_as_its_number_runs_out() -> None:
    g = play(fido6({0: ["6-6"], 1: ["6-5"], 2: ["5-5", "6-2"]}), "6-6", "6-5@0n")
    p = pos(g)
    double = sheds_double_while_open(p, at(g, "5-5@1n"))
    assert double > 0
    assert sheds_double_while_open(p, at(g, "6-2@0s")) == 0.0
    # three more 5s on the table (5-0, 5-1 and the 6-5): fewer chances for 5-5 later
    scarce = fido6({0: ["6-6", "1-0"], 1: ["6-5", "5-1"], 2: ["5-5", "5-0", "6-2"]})
    play(scarce, "6-6", "6-5@0n", "5-0@1n", "1-0@2n", "5-1@3n")
    assert scarce.turn == 2
    assert sheds_double_while_open(pos(scarce), at(scarce, "5-5@4n")) > double


def tap_in_position() -> Game:
    """Sum 21 (7 points) with 4-4's free side open at 2n; seat 1 holds 4-0 and 4-1."""
    g = fido6({0: ["6-6", "6-1"], 1: ["6-4", "4-0", "4-1"], 2: ["4-4"]})
    return play(g, "6-6", "6-4@0n", "4-4@1n", "6-1@0s")


def test_takes_tap_in_prefers_the_scoring_tap_in() -> None:
    g = tap_in_position()
    assert g.ends_sum == 21 and g.turn == 1
    p = pos(g)
    tap = at(g, "4-0@2n")
    assert p.view.points_for(tap) == 7
    assert takes_tap_in(p, tap) == 1.0
    assert takes_tap_in(p, at(g, "4-1@2n")) == 0.0  # the side, but 1 is not a multiple of 3
    assert takes_tap_in(p, at(g, "4-0@2e")) == 0.0  # the same tile on an end


def ter_heide_position(extra: str = "", rules: str = "fido set=6") -> Game:
    """After 6-6 and 6-4 on its north side, the south side (6) is free; seat 2 to move."""
    wanted: dict[int, Sequence[Tile]] = {
        0: tiles("6-6"),
        1: tiles("6-4"),
        2: tiles(f"4-4 6-1 {extra}"),
    }
    stock = [t for t in tiles("6-0 6-3") if t not in wanted[2]]
    return play(deal(rules, 3, wanted, stock), "6-6", "6-4@0n")


def test_ter_heide_block_covers_a_free_side_when_holding_no_tap_in() -> None:
    g = ter_heide_position()
    p = pos(g)
    assert ter_heide_block(p, at(g, "6-1@0s")) > 0  # 6-0 and 6-3 are somewhere unseen
    assert ter_heide_block(p, at(g, "6-1@0e")) == 0.0  # an end blocks nothing


def test_ter_heide_block_keeps_the_side_for_your_own_tap_in() -> None:
    g = ter_heide_position("6-0")
    assert ter_heide_block(pos(g), at(g, "6-1@0s")) == 0.0


def test_ter_heide_block_is_off_under_mother_theresa() -> None:
    g = ter_heide_position(rules="fido set=6 mother_theresa")
    side = Placement(T("6-1"), 0, 2)  # not even legal there: it does not score
    assert side not in g.legal_moves()
    assert ter_heide_block(pos(g), side) == 0.0


def test_jokinen_force_opens_a_number_you_hold_most_of() -> None:
    hand = ["6-4", "6-5", "4-0", "4-1", "4-2", "4-3", "5-0"]
    g = play(fido6({0: ["6-6"], 1: hand}), "6-6")
    p = pos(g)
    # after 6-4 the hand keeps four 4s of the six left (4-4 and 5-4 are unseen)
    assert jokinen_force(p, at(g, "6-4@0n")) == pytest.approx(4 / 6 - 0.5)
    assert jokinen_force(p, at(g, "6-5@0n")) == 0.0


def test_spares_next_player_avoids_leaving_a_score() -> None:
    # after 6-5 (sum 17) every reply that scores (6-1, 6-4, 5-0, 5-3) is in this hand;
    # after 6-2 (sum 14) the unseen 2-0 and 3-2 score
    hand = ["6-5", "6-2", "6-1", "6-4", "5-0", "5-3", "1-1"]
    g = play(fido6({0: ["6-6"], 1: hand}), "6-6")
    p = pos(g)
    assert spares_next_player(p, at(g, "6-5@0n")) == 0.0
    assert spares_next_player(p, at(g, "6-2@0n")) < 0.0


def test_a_fido_draw_is_a_soft_void_and_a_pass_a_sure_one() -> None:
    g = play(fido6({0: ["6-6"]}), "6-6")
    assert not any(6 in t for t in g.hand(1))
    play(g, "draw")
    assert hold_chances(g.view(2))[1] == {6: SOFT_VOID}
    b = deal("block", 2, {0: tiles("6-6")})
    play(b, "6-6", "pass")
    assert hold_chances(b.view(0))[1] == {6: 0.0}


# ------------------------------------------------------------------ classic heuristics


def test_keeps_suit_variety_keeps_a_number_held_once() -> None:
    g = deal("block", 2, {0: tiles("6-6 6-5 6-1 5-5 4-0 3-0 2-0")})
    play(g, "6-6", "pass")
    p = pos(g)
    # 6-1 takes the only 1 out of the hand; after 6-5 the 5 stays (5-5)
    assert keeps_suit_variety(p, at(g, "6-5@0e")) == keeps_suit_variety(p, at(g, "6-1@0e")) + 1


def test_plays_to_voids_opens_the_number_the_opponent_passed_on() -> None:
    g = deal("block", 2, {0: tiles("6-6 6-2 6-1 1-0"), 1: tiles("2-1")})
    play(g, "6-6", "pass", "6-2@0e", "2-1@1e")
    assert g.turn == 0 and sorted(g.table.ends()) == [1, 6]
    p = pos(g)
    assert plays_to_voids(p, at(g, "6-1@2e")) == 1.0  # a 6 end: she passed on 6
    assert plays_to_voids(p, at(g, "1-0@2e")) == 0.0


def test_plays_to_voids_spares_the_partner() -> None:
    g = deal("block", 2, {0: tiles("6-6 6-2 6-1 1-0"), 1: tiles("2-1")})
    play(g, "6-6", "pass", "6-2@0e", "2-1@1e")
    # the same position read as if the seat that passed on 6 were the partner
    p = replace(pos(g), partners=frozenset({1}))
    assert plays_to_voids(p, at(g, "6-1@2e")) == -1.0


def test_muggins_counts_difference_five_and_five_five_as_jokers() -> None:
    g = deal("muggins", 2, {0: tiles("6-6 6-1 6-4 5-5")})
    p = Position.of(g.view(0))
    assert keeps_jokers(p, Placement(T("6-1"), 0, 1)) == -1.0  # 6-1 keeps the sum mod 5
    assert keeps_jokers(p, Placement(T("5-5"), 0, 1)) == -1.0  # +5 at an end
    assert keeps_jokers(p, Placement(T("6-4"), 0, 1)) == 0.0


# ------------------------------------------------------------------ the bot in whole games


@pytest.mark.parametrize("rules", [*RULESETS, "fido set=12 mother_theresa", "sebastopol all_fives"])
def test_expert_plays_legal_reproducible_games_of_every_ruleset(rules: str) -> None:
    players = 4 if rules.startswith("sebastopol") else 3
    for seed in range(4):
        bots = [make_bot("expert"), make_bot("greedy"), make_bot("expert"), make_bot("random")]
        a = play_hand(rules, bots[:players], seed)
        b = play_hand(rules, bots[:players], seed)
        assert a.is_over and a.history() == b.history()


def test_expert_never_draws_when_it_can_place_in_the_draw_game() -> None:
    bot, rng = ExpertBot(), random.Random(3)
    checked = 0
    for seed in range(20):
        g = Game.new("draw", 2, seed=seed)
        while not g.is_over:
            view = g.view(g.turn)
            move = bot.choose(view, rng)
            assert move in view.legal_moves
            if any(isinstance(m, Placement) for m in view.legal_moves):
                assert isinstance(move, Placement)
                checked += DRAW in view.legal_moves
            g.push(move)
    assert checked > 20


def test_expert_needs_nothing_but_the_view(monkeypatch: pytest.MonkeyPatch) -> None:
    g = Game.new("fido set=12", 4, seed=2)
    rng = random.Random(0)
    for _ in range(25):
        g.push(rng.choice(g.legal_moves()))
    view = g.view(g.turn)
    expected = ExpertBot().choose(view, random.Random(1))

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the bot touched the game")

    for name in ("legal_moves", "hand", "view", "copy", "push", "points_for", "history"):
        monkeypatch.setattr(Game, name, refuse)
    assert ExpertBot().choose(view, random.Random(1)) == expected
    assert expected in view.legal_moves


def test_expert_beats_greedy_on_duplicate_double_12_deals() -> None:
    """A small, fixed duplicate match (every seat rotation of each deal); see the bench numbers."""
    margins = []
    for seed in range(10):
        for seat in range(4):
            bots = [make_bot("greedy") for _ in range(4)]
            bots[seat] = make_bot("expert")
            outcome = play_hand("fido set=12", bots, seed).outcome
            assert outcome is not None
            finals = [r.final for r in outcome.seats]
            margins.append(finals[seat] - (sum(finals) - finals[seat]) / 3)
    assert sum(margins) / len(margins) > 0


def test_expert_decides_fast_on_double_12() -> None:
    g = Game.new("fido set=12", 4, seed=9)
    bot, rng = ExpertBot(), random.Random(0)
    spent, moves = 0.0, 0
    while not g.is_over:
        view = g.view(g.turn)
        t = time.perf_counter()
        move = bot.choose(view, rng)
        spent += time.perf_counter() - t
        moves += 1
        g.push(move)
    assert spent / moves < 0.015  # about 1.5 ms on an idle machine; generous for loaded CI
