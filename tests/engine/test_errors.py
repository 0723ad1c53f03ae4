"""Illegal moves say why and change nothing; impossible set-ups are refused with the fix."""

from __future__ import annotations

import random

import pytest

from fido import DRAW, PASS, ConfigurationError, Game, IllegalMoveError, Move, Placement, ruleset
from fido.errors import Refused
from fido.server.errors import STATUS, ApiError, headers_of, status_of
from support.helpers import T, deal, tiles


def snapshot(g: Game) -> tuple[object, ...]:
    return (
        g.table.text(),
        tuple(g.hands),
        tuple(g.scores),
        g.turn,
        g.stock_count,
        len(g.history()),
        g.passes,
        g.outcome,
    )


def refuse(g: Game, move: object, message: str, seat: int | None = None) -> None:
    before = snapshot(g)
    with pytest.raises(IllegalMoveError, match=message):
        g.push(Move.from_text(move) if isinstance(move, str) else move, seat=seat)  # type: ignore[arg-type]
    assert snapshot(g) == before


@pytest.fixture
def g18() -> Game:
    g = deal(
        "fido set=18", 4, {0: [T("18-18")], 1: tiles("18-12 11-0"), 2: tiles("12-8 18-7 18-0")}
    )
    g.push(Move.from_text("18-18"))
    return g


def test_wrong_turn(g18: Game) -> None:
    refuse(g18, "18-12@0n", "it is seat 1's turn, not seat 2's", seat=2)


def test_tile_not_in_hand(g18: Game) -> None:
    refuse(g18, "18-7@0n", "you do not hold 18-7")


def test_no_such_slot(g18: Game) -> None:
    refuse(g18, "18-12@5n", "no tile #5 on the table")
    refuse(g18, Placement(T("18-12"), 0, 7), "no such direction")


def test_values_do_not_match(g18: Game) -> None:
    refuse(g18, "11-0@0n", "values do not match: 11-0 does not show 18")


def test_second_move_must_go_on_a_side(g18: Game) -> None:
    refuse(g18, "18-12@0e", "the second move must go on a free side of the opening double")
    g18.push(Move.from_text("18-12@0s"))
    assert g18.ends_sum == 48


def test_taken_slot(g18: Game) -> None:
    g18.push(Move.from_text("18-12@0n"))
    refuse(g18, "18-7@0n", "has no open n side")


def test_opening_must_be_the_highest_double() -> None:
    g = deal("fido set=12", 4, {2: [T("12-12"), T("11-11")]})
    assert g.turn == 2
    refuse(g, "11-11", r"opens with 12-12 \(the highest double dealt\)")
    refuse(g, "12-12@0n", "the table is empty")
    refuse(g, DRAW, "opens first")


def test_placement_needs_a_place_after_the_opening(g18: Game) -> None:
    refuse(g18, "18-12", "say where 18-12 goes")


def test_must_place_when_possible(g18: Game) -> None:
    refuse(g18, DRAW, "you can place a tile, so you must")
    refuse(g18, PASS, "you can place a tile, so you must")


def test_must_draw_before_passing() -> None:
    g = deal("fido set=6", 3, {0: tiles("6-6 0-0 1-0 2-0 3-0 4-0 5-0")})
    g.push(Move.from_text("6-6"))
    # seat 1 holds only low tiles without a 6
    assert not g.can_place()
    refuse(g, PASS, "you must draw")
    g.push(DRAW)
    assert g.turn == 2  # FIDO: the drawn tile is not played now


def test_mother_theresa_forbids_a_non_scoring_side() -> None:
    rules = ruleset("fido", set=18, mother_theresa=True)
    g = deal(rules, 4, {0: [T("18-18")], 1: tiles("18-12"), 2: tiles("12-8 18-3")})
    g.push(Move.from_text("18-18"))
    g.push(Move.from_text("18-12@0n"))  # the second move may (must) take a side
    # 18-3 on the free side: 48 + 3 = 51, no points, and seat 2 can place elsewhere
    refuse(
        g,
        "18-3@0s",
        "Mother Theresa: this free side takes only a scoring tile while you can play on an end",
    )
    assert Move.from_text("18-3@0s") not in g.legal_moves()
    assert Move.from_text("18-3@0e") in g.legal_moves()


def test_mother_theresa_allows_a_scoring_side() -> None:
    rules = ruleset("fido", set=18, mother_theresa=True)
    g = deal(rules, 4, {0: [T("18-18")], 1: tiles("18-12"), 2: tiles("18-7")})
    g.push(Move.from_text("18-18"))
    g.push(Move.from_text("18-12@0n"))
    assert Move.from_text("18-7@0s") in g.legal_moves()
    g.push(Move.from_text("18-7@0s"))
    assert g.scores[2] == 5


def test_without_mother_theresa_ter_heide_blocks_a_side() -> None:
    g = deal("fido set=18", 4, {0: [T("18-18")], 1: tiles("18-12"), 2: tiles("12-8 18-3")})
    g.push(Move.from_text("18-18"))
    g.push(Move.from_text("18-12@0n"))
    g.push(Move.from_text("18-3@0s"))
    assert g.table.sides() == []


def test_game_over_refuses_moves() -> None:
    g = Game.new("fido set=6", 3, seed=3)
    rng = random.Random(0)
    while not g.is_over:
        g.push(rng.choice(g.legal_moves()))
    assert g.legal_moves() == []
    refuse(g, PASS, "the game is over")


def test_block_has_no_drawing() -> None:
    g = Game.new("block", 2, seed=1)
    g.push(g.legal_moves()[0])
    refuse(g, DRAW, "block has no drawing")


def test_draw_game_keeps_two_in_the_pile() -> None:
    g = Game.new("draw", 2, seed=2)
    g.push(g.legal_moves()[0])
    while g.stock_count > 2:
        g.push(DRAW)
    refuse(g, DRAW, "the last 2 stay in the pile")


def test_not_a_move() -> None:
    g = Game.new("fido", 4, seed=1)
    refuse(g, ("6-6",), "not a move")


# ---------------------------------------------------------------- set-ups


def test_one_player_is_refused() -> None:
    with pytest.raises(ConfigurationError, match="2 to 9 players, not 1"):
        Game.new("fido", 1)


def test_too_many_players_for_a_classic_game() -> None:
    with pytest.raises(ConfigurationError, match="2 to 4 players, not 5"):
        Game.new("block", 5)


def test_set_too_small_for_the_players() -> None:
    with pytest.raises(ConfigurationError, match="too few tiles"):
        Game.new("fido set=2 divisor=3", 9)


def test_explicit_deal_checks() -> None:
    rules = ruleset("fido", set=6)
    full = list(rules.dominoes.tiles)
    hands = [full[0:7], full[7:14], full[14:21]]
    stock = full[21:]
    assert Game.from_deal(rules, hands, stock).players == 3
    with pytest.raises(ConfigurationError, match="dealt twice"):
        Game.from_deal(rules, [full[0:7], full[0:7], full[14:21]], stock)
    with pytest.raises(ConfigurationError, match="deals 7 each"):
        Game.from_deal(rules, [full[0:6], full[7:14], full[14:21]], [full[6], *stock])
    with pytest.raises(ConfigurationError, match="misses 1 tiles"):
        Game.from_deal(rules, hands, stock[1:])
    with pytest.raises(ConfigurationError, match="not in the double-6 set"):
        Game.from_deal(rules, hands, [*stock[:-1], T("7-0")])


def test_deal_without_doubles_is_refused() -> None:
    rules = ruleset("fido", set=6)
    non_doubles = [t for t in rules.dominoes.tiles if not t.is_double]
    doubles = [t for t in rules.dominoes.tiles if t.is_double]
    hands = [non_doubles[0:7], non_doubles[7:14], non_doubles[14:21]]
    with pytest.raises(ConfigurationError, match="nobody can open: deal again"):
        Game.from_deal(rules, hands, doubles)


def test_a_refusal_knows_no_http_and_the_request_layer_gives_its_code_a_status() -> None:
    """The library's refusals carry a code and a sentence only; one table in the request
    layer answers each code (a table's, an account's) with its status, 409 by default."""
    refused = Refused("invitation", "this table is private")
    assert not hasattr(refused, "status") and not hasattr(refused, "headers")
    assert status_of(refused) == 403 == STATUS["invitation"]
    assert status_of(Refused("invalid", "seats are 0 to 2")) == 422
    assert status_of(Refused("busy", "try again")) == 503
    assert status_of(Refused("unknown_player", "no player 7")) == 404
    assert status_of(Refused("taken", "seat 1 is not free for you")) == 409
    own = ApiError(429, "too_many", "slow down", {"Retry-After": "5"})
    assert status_of(own) == 429 and headers_of(own) == {"Retry-After": "5"}
    assert headers_of(refused) == {}
