"""Golden tests for the classic variants (docs/rules.md section 4, double-six set).

Every game here is an explicit deal (``Game.from_deal``) and a scripted list of
moves; the expected numbers are worked out by hand in the comments.

Layout reminders (fido.engine.table docstring), LINE layout: the opening tile is #0
with its ends east (0e) and west (0w); a tile placed at ``k<p>`` is #n (the
n-th placement) and its open end is at ``n<p>``. An opening double counts both
halves (2v) until both of its sides are covered; a double in line at an end
counts 2v. SPINNER (sebastopol): 6-6 has four arms 0n, 0e, 0s, 0w.
"""

from __future__ import annotations

import pytest

from fido import (
    DRAW,
    PASS,
    ConfigurationError,
    DominoSet,
    Game,
    IllegalMoveError,
    Move,
    Placement,
    Ruleset,
    Termination,
    Tile,
    ruleset,
)
from fido.engine.results import score_hand

SET6 = DominoSet(6)


# ---------------------------------------------------------------- helpers


def tiles(text: str) -> list[Tile]:
    return [Tile.from_text(w) for w in text.split()]


def deal(rules: str, hands: list[str], stock: str = "") -> Game:
    """An exact deal; the stock is ``stock`` (drawn first) then the rest, ascending."""
    hs = [tiles(h) for h in hands]
    st = tiles(stock)
    used = {t for h in hs for t in h} | set(st)
    rest = [t for t in SET6.tiles if t not in used]
    return Game.from_deal(rules, hs, st + rest)


def play(game: Game, script: str) -> None:
    """Push every move of ``script``; each must also be offered by legal_moves()."""
    for word in script.split():
        move = Move.from_text(word)
        assert move in game.legal_moves(), (word, game.turn, game.legal_moves())
        game.push(move)


def finals(game: Game) -> list[int]:
    assert game.outcome is not None
    return [r.final for r in game.outcome.seats]


def bonuses(game: Game) -> list[int]:
    assert game.outcome is not None
    return [r.bonus for r in game.outcome.seats]


def p(text: str) -> Placement:
    move = Move.from_text(text)
    assert isinstance(move, Placement)
    return move


# ---------------------------------------------------------------- hand sizes, teams, targets


HAND_SIZES = [
    ("straight", 2, 8),
    ("straight", 3, 6),
    ("straight", 4, 5),
    ("block", 2, 7),
    ("block", 3, 5),
    ("block", 4, 5),
    ("draw", 2, 7),
    ("draw", 3, 5),
    ("draw", 4, 6),
    ("muggins", 2, 7),
    ("muggins", 3, 5),
    ("muggins", 4, 5),
    ("fives_and_threes", 2, 7),
    ("fives_and_threes", 3, 7),
    ("fives_and_threes", 4, 7),
    ("sebastopol", 4, 7),
]


@pytest.mark.parametrize(("name", "players", "size"), HAND_SIZES)
def test_hand_size(name: str, players: int, size: int) -> None:
    r = ruleset(name)
    assert r.hand_size(players) == size
    g = Game.new(r, players, seed=7)
    assert g.hand_counts() == [size] * players
    assert g.stock_count == 28 - size * players  # e.g. straight 2p: 28 - 16 = 12
    assert r.max_pips == 6 and r.dominoes.count == 28


@pytest.mark.parametrize(("name", "players", "size"), HAND_SIZES)
def test_from_deal_rejects_a_wrong_hand_size(name: str, players: int, size: int) -> None:
    # one tile too many in every hand (or one too few when the set runs out)
    n = size + 1 if (size + 1) * players <= 28 else size - 1
    hands = [list(SET6.tiles[i * n : (i + 1) * n]) for i in range(players)]
    with pytest.raises(ConfigurationError):
        Game.from_deal(name, hands, list(SET6.tiles[n * players :]))


@pytest.mark.parametrize(
    ("name", "players"),
    [("straight", 5), ("straight", 1), ("block", 5), ("sebastopol", 3), ("sebastopol", 2)],
)
def test_player_counts_out_of_range(name: str, players: int) -> None:
    with pytest.raises(ConfigurationError):
        ruleset(name).hand_size(players)


@pytest.mark.parametrize("name", ["block", "draw", "muggins", "fives_and_threes", "sebastopol"])
def test_four_players_play_in_facing_teams(name: str) -> None:
    assert ruleset(name).teams(4) == ((0, 2), (1, 3))
    if name != "sebastopol":
        assert ruleset(name).teams(2) is None
        assert ruleset(name).teams(3) is None


def test_straight_has_no_teams() -> None:
    r = ruleset("straight")
    assert r.teams(4) is None and r.teams(3) is None and r.teams(2) is None


@pytest.mark.parametrize(
    ("name", "target"),
    [
        ("straight", 100),
        ("muggins", 61),
        ("fives_and_threes", 31),
        # docs/rules.md names no match target for these (silent): the engine has none
        ("block", None),
        ("draw", None),
        ("sebastopol", None),
    ],
)
def test_match_target(name: str, target: int | None) -> None:
    assert ruleset(name).match_target == target


def test_all_fives_is_muggins() -> None:
    assert ruleset("all_fives") == ruleset("muggins")
    assert ruleset("muggins").divisor == 5


# ---------------------------------------------------------------- openers


@pytest.mark.parametrize("name", ["straight", "block", "muggins"])
def test_highest_dealt_double_opens(name: str) -> None:
    # 3 players; 6-6 lies in the stock, so 5-5 (seat 1) is the highest dealt double,
    # although seat 0 holds 4-4 and seat 2 holds 0-0.
    size = ruleset(name).hand_size(3)
    hands = ["4-4 1-0 2-0 3-0 4-0 5-0", "5-5 2-1 3-1 4-1 5-1 6-1", "0-0 3-2 4-2 5-2 6-2 6-0"]
    hands = [" ".join(h.split()[:size]) for h in hands]
    g = deal(name, hands, "6-6")
    assert g.opener == 1 and g.turn == 1
    assert g.legal_moves() == [p("5-5")]
    with pytest.raises(IllegalMoveError):
        g.push(p("2-1"))  # not the opening double
    g.push(p("5-5"))
    assert g.turn == 2  # clockwise from the opener
    assert g.table.ends() == [5, 5]


def test_highest_double_straight_no_double_dealt() -> None:
    # straight 2p: all seven doubles in the stock: nobody can open (RULES: reshuffle);
    # an exact deal cannot be reshuffled, so it is refused.
    with pytest.raises(ConfigurationError):
        deal(
            "straight",
            ["1-0 2-0 3-0 4-0 5-0 6-0 2-1 3-1", "4-1 5-1 6-1 3-2 4-2 5-2 6-2 4-3"],
            "0-0 1-1 2-2 3-3 4-4 5-5 6-6",
        )


def test_new_game_always_deals_a_double_to_open() -> None:
    for seed in range(40):
        g = Game.new("straight", 4, seed=seed)  # 20 of 28 dealt: doubles can miss
        assert g.opening_tile is not None and g.opening_tile.is_double
        assert g.hands[g.opener] & g.opening_tile.bit
        higher = [d for d in SET6.doubles if d.high > g.opening_tile.high]
        assert all(not any(h & d.bit for h in g.hands) for d in higher)


def test_fives_and_threes_lowest_double_opens() -> None:
    # 2p; 0-0 in the stock: the lowest dealt double is 1-1 (seat 1), not 6-6 (seat 0)
    g = deal(
        "fives_and_threes",
        ["6-6 2-2 6-5 6-4 6-3 6-2 6-1", "1-1 5-5 5-4 5-3 5-2 5-1 5-0"],
        "0-0",
    )
    assert g.opener == 1 and g.turn == 1
    assert g.legal_moves() == [p("1-1")]
    with pytest.raises(IllegalMoveError):
        g.push(p("5-5"))


def test_fives_and_threes_four_players_open_with_double_blank() -> None:
    g = Game.new("fives_and_threes", 4, seed=3)
    assert g.stock_count == 0  # 4 x 7 = 28: everything is dealt
    assert g.opening_tile == Tile(0, 0)
    assert g.hands[g.opener] & Tile(0, 0).bit


def test_sebastopol_six_six_opens() -> None:
    g = deal(
        "sebastopol",
        [
            "5-5 5-4 5-3 5-2 5-1 5-0 4-4",
            "0-0 1-0 1-1 2-0 2-1 2-2 3-0",
            "6-6 6-5 6-4 6-3 6-2 6-1 6-0",
            "3-1 3-2 3-3 4-0 4-1 4-2 4-3",
        ],
    )
    assert g.opener == 2 and g.turn == 2
    assert g.legal_moves() == [p("6-6")]
    g.push(p("6-6"))
    # the spinner has four arms, and 6-6 counts 12
    assert sorted(g.table.open) == [0, 1, 2, 3]
    assert g.ends_sum == 12
    assert g.turn == 3


def test_draw_game_first_seat_opens_with_any_tile() -> None:
    # seat 2 holds 6-6, but in the draw game seat 0 opens with any of her tiles
    g = deal(
        "draw",
        [
            "1-0 1-1 3-0 3-1 3-2 3-3",
            "2-1 4-1 4-3 5-1 5-3 5-4",
            "2-0 2-2 4-0 4-2 5-0 6-6",
            "6-0 6-1 6-2 6-3 6-4 6-5",
        ],
        "5-2 5-5 4-4 0-0",
    )
    assert g.opener == 0 and g.turn == 0
    # all her tiles, ascending (ids 1, 2, 6, 7, 8, 9); no DRAW before the opening
    assert g.legal_moves() == [p(t) for t in ["1-0", "1-1", "3-0", "3-1", "3-2", "3-3"]]
    with pytest.raises(IllegalMoveError):
        g.push(DRAW)
    with pytest.raises(IllegalMoveError):
        g.push(p("6-6"))  # not hers
    g.push(p("3-2"))  # a non-double opening: low half east, high half west
    assert g.table.open_slots() == {1: (2, "end"), 3: (3, "end")}
    assert g.ends_sum == 5


# ---------------------------------------------------------------- stuck players


@pytest.mark.parametrize("name", ["straight", "block"])
def test_stuck_player_passes_without_drawing(name: str) -> None:
    # 2p; after 6-6 seat 1 has no 6 and must pass although the stock is full
    size = ruleset(name).hand_size(2)
    h0 = "6-6 0-0 1-0 1-1 2-0 2-1 2-2 3-0"[: 4 * size - 1]
    h1 = "3-1 3-2 3-3 4-0 4-1 4-2 4-3 4-4"[: 4 * size - 1]
    g = deal(name, [h0, h1])
    play(g, "6-6")
    stock = g.stock_count
    assert g.legal_moves() == [PASS]
    with pytest.raises(IllegalMoveError):
        g.push(DRAW)
    assert g.stock_count == stock and g.turn == 1
    g.push(PASS)
    assert g.turn == 0 and g.stock_count == stock
    assert not g.is_over


@pytest.mark.parametrize("name", ["straight", "block", "sebastopol", "muggins"])
def test_player_who_can_place_may_not_pass(name: str) -> None:
    g = Game.new(name, 4, seed=11)
    g.push(g.legal_moves()[0])
    while not g.can_place():
        g.push(g.legal_moves()[0])
    assert not g.is_over
    before = (g.turn, g.stock_count, list(g.hands))
    with pytest.raises(IllegalMoveError):
        g.push(PASS)
    assert (g.turn, g.stock_count, list(g.hands)) == before


def test_muggins_stuck_player_draws_until_she_can_place() -> None:
    # 2p: seat 0 opens 6-6 (S = 12, 12 % 5 != 0: no points). Seat 1 has no 6.
    g = deal(
        "muggins",
        ["6-6 0-0 1-1 2-1 2-2 3-1 3-2", "3-3 4-0 4-1 4-2 4-3 4-4 5-0"],
        "1-0 6-3 6-4",
    )
    play(g, "6-6")
    assert g.scores == [0, 0]
    assert g.legal_moves() == [DRAW]
    with pytest.raises(IllegalMoveError):
        g.push(PASS)  # may not pass while the pile has tiles
    g.push(DRAW)  # 1-0: still no 6
    assert g.turn == 1  # she keeps the turn after a draw
    assert Tile(1, 0) in g.hand(1) and g.stock_count == 13
    assert g.legal_moves() == [DRAW]
    g.push(DRAW)  # 6-3: now she can place, so she stops drawing
    assert g.turn == 1 and g.stock_count == 12
    assert g.legal_moves() == [p("6-3@0e"), p("6-3@0w")]
    with pytest.raises(IllegalMoveError):
        g.push(DRAW)
    assert g.stock_count == 12
    g.push(p("6-3@0e"))
    # S = 12 (6-6 now at the west end, both halves) + 3 = 15 -> 15 / 5 = 3 points
    assert g.ends_sum == 15
    assert g.scores == [0, 3]
    assert [t.drawn for t in g.history()] == [None, Tile(1, 0), Tile(6, 3), None]


def test_muggins_stuck_player_empties_the_pile_then_passes() -> None:
    # 4p, 5 each, 8 in the stock, none of them a 6. Seat 1 has no 6 either.
    g = deal(
        "muggins",
        [
            "6-6 6-5 0-0 1-0 1-1",
            "2-0 2-1 2-2 3-0 3-1",
            "6-4 6-3 3-2 3-3 4-0",
            "6-2 6-1 6-0 4-1 4-2",
        ],
        "4-3 4-4 5-0 5-1 5-2 5-3 5-4 5-5",
    )
    play(g, "6-6")
    for k in range(8):
        assert g.legal_moves() == [DRAW]
        g.push(DRAW)
        assert g.turn == 1 and g.stock_count == 7 - k
    assert len(g.hand(1)) == 5 + 8
    assert g.legal_moves() == [PASS]
    with pytest.raises(IllegalMoveError):
        g.push(DRAW)
    g.push(PASS)
    assert g.turn == 2
    g.push(p("6-3@0e"))  # S = 12 + 3 = 15 -> 3 points for seat 2
    assert g.scores == [0, 0, 3, 0]


def test_fives_and_threes_stuck_player_draws_until_she_can_place() -> None:
    # 2p, lowest double 0-0 (seat 0) opens: S = 0, no points. Seat 1 has no 0.
    g = deal(
        "fives_and_threes",
        ["0-0 6-6 6-5 6-4 6-3 6-2 6-1", "1-1 2-1 2-2 3-1 3-2 3-3 4-1"],
        "5-5 5-4 3-0",
    )
    play(g, "0-0")
    assert g.legal_moves() == [DRAW]
    play(g, "draw draw")
    assert g.turn == 1 and g.legal_moves() == [DRAW]
    play(g, "draw")  # 3-0
    assert g.legal_moves() == [p("3-0@0e"), p("3-0@0w")]
    play(g, "3-0@0w")
    # S = 0 (0-0 at the east end) + 3 = 3 -> 3 / 3 = 1 point
    assert g.scores == [0, 1] and g.turn == 0


def test_draw_game_draw_before_placing_and_keep_two() -> None:
    # 4p draw: 6 each, 4 in the pile, of which the last two always stay.
    g = deal(
        "draw",
        [
            "1-0 1-1 3-0 3-1 3-2 3-3",
            "2-1 4-1 4-3 5-1 5-3 5-4",
            "2-0 2-2 4-0 4-2 5-0 5-2",
            "6-0 6-1 6-2 6-3 6-4 6-5",
        ],
        "6-6 5-5 4-4 0-0",
    )
    play(g, "3-2")  # ends: 0e shows 2, 0w shows 3
    # seat 1 can place, yet may draw: placements by slot (0e then 0w), ascending, then DRAW
    assert g.legal_moves() == [p("2-1@0e"), p("4-3@0w"), p("5-3@0w"), DRAW]
    g.push(DRAW)
    assert g.turn == 1 and g.stock_count == 3 and Tile(6, 6) in g.hand(1)
    assert g.legal_moves()[-1] is DRAW
    g.push(DRAW)
    assert g.turn == 1 and g.stock_count == 2 and Tile(5, 5) in g.hand(1)
    # only two are left: they stay in the pile
    assert g.legal_moves() == [p("2-1@0e"), p("4-3@0w"), p("5-3@0w")]
    with pytest.raises(IllegalMoveError):
        g.push(DRAW)
    assert g.stock_count == 2 and g.turn == 1 and len(g.hand(1)) == 8
    g.push(p("2-1@0e"))  # placing ends her turn (she cannot draw after placing)
    assert g.turn == 2
    # seat 2 shows neither 3 nor 1 and nothing is drawable: she passes
    assert g.legal_moves() == [PASS]
    with pytest.raises(IllegalMoveError):
        g.push(DRAW)
    g.push(PASS)
    # seat 3: slots in the order opened: 0w (3) before 1e (1)
    assert g.legal_moves() == [p("6-3@0w"), p("6-1@1e")]
    hist = g.history()
    assert [t.drawn for t in hist] == [None, Tile(6, 6), Tile(5, 5), None, None]
    assert [t.move for t in hist][:3] == [p("3-2"), DRAW, DRAW]


# ---------------------------------------------------------------- scoring during play


def test_muggins_opening_five_five_scores_two() -> None:
    # 2p; 6-6 in the stock, so seat 1's 5-5 opens: S = 10 -> 10 / 5 = 2 points
    g = deal(
        "muggins",
        ["4-4 0-0 1-0 2-0 3-0 4-0 6-0", "5-5 1-1 2-1 3-1 4-1 5-1 6-1"],
        "6-6",
    )
    assert g.points_for(p("5-5")) == 2
    play(g, "5-5")
    assert g.ends_sum == 10
    assert g.scores == [0, 2]
    assert g.history()[0].points == 2


def test_muggins_doubles_at_both_ends_count_both_halves() -> None:
    g = deal(
        "muggins",
        ["6-6 4-4 0-0 1-0 1-1 2-0 2-1", "6-4 6-2 3-0 3-1 3-2 3-3 4-0"],
    )
    play(g, "6-6")  # S = 12 -> nothing
    assert (g.ends_sum, g.scores) == (12, [0, 0])
    play(g, "6-4@0e")  # 6-6 still counts whole at the west end: 12 + 4 = 16 -> nothing
    assert (g.ends_sum, g.scores) == (16, [0, 0])
    # 4-4 at one end and 6-6 at the other: 8 + 12 = 20 -> 20 / 5 = 4 points
    assert g.points_for(p("4-4@1e")) == 4
    play(g, "4-4@1e")
    assert (g.ends_sum, g.scores) == (20, [4, 0])
    # 6-2 covers the west side of 6-6: the opening double no longer counts:
    # 2 + 8 = 10 -> 2 points (a program still counting 6-6 would make 22: nothing)
    play(g, "6-2@0w")
    assert (g.ends_sum, g.scores) == (10, [4, 2])
    assert g.table.recount() == 10
    assert [t.points for t in g.history()] == [0, 0, 4, 2]


def test_fives_and_threes_fifteen_scores_eight() -> None:
    # 2p; 0-0 in the stock, 1-1 (seat 0) is the lowest dealt double
    g = deal(
        "fives_and_threes",
        ["1-1 6-6 5-5 5-4 5-3 5-2 5-0", "6-1 3-1 4-4 4-3 4-2 4-0 3-3"],
        "0-0",
    )
    play(g, "1-1")  # S = 2 -> nothing
    play(g, "6-1@0e")  # 1-1 still whole at the west end: 2 + 6 = 8 -> nothing
    play(g, "6-6@1e")  # 2 + 12 = 14 -> nothing
    assert g.scores == [0, 0] and g.ends_sum == 14
    assert g.points_for(p("3-1@0w")) == 8
    play(g, "3-1@0w")  # 1-1 covered: 3 + 12 = 15 -> 15/5 + 15/3 = 3 + 5 = 8
    assert (g.ends_sum, g.scores) == (15, [0, 8])


@pytest.mark.parametrize(
    ("ends_sum", "points"),
    [(15, 8), (30, 16), (5, 1), (10, 2), (3, 1), (9, 3), (12, 4), (6, 2), (7, 0), (0, 0)],
)
def test_fives_and_threes_points_table(ends_sum: int, points: int) -> None:
    # S/5 when S % 5 == 0, plus S/3 when S % 3 == 0 (30: 6 + 10 = 16)
    assert ruleset("fives_and_threes").points(ends_sum) == points


@pytest.mark.parametrize(
    ("ends_sum", "points"), [(5, 1), (10, 2), (15, 3), (20, 4), (12, 0), (9, 0), (0, 0)]
)
def test_muggins_points_table(ends_sum: int, points: int) -> None:
    assert ruleset("muggins").points(ends_sum) == points


@pytest.mark.parametrize("name", ["straight", "block", "draw", "sebastopol"])
def test_no_scoring_during_play(name: str) -> None:
    for ends_sum in (5, 10, 15, 20):
        assert ruleset(name).points(ends_sum) == 0


SEBASTOPOL_ARMS = [
    "6-6 6-1 0-0 1-0 1-1 2-0 2-1",
    "6-3 5-5 5-4 5-3 5-2 5-1 5-0",
    "6-2 2-2 3-0 3-1 3-2 3-3 4-0",
    "6-4 6-5 6-0 4-1 4-2 4-3 4-4",
]


def test_sebastopol_first_four_tiles_go_on_the_arms() -> None:
    g = deal("sebastopol", SEBASTOPOL_ARMS)
    play(g, "6-6 6-3@0n")  # #1 ends 3 at 1n
    # seat 2 holds 3-x tiles, but only 6-2 on the empty arms (e, s, w) is allowed
    assert g.legal_moves() == [p("6-2@0e"), p("6-2@0s"), p("6-2@0w")]
    with pytest.raises(IllegalMoveError):
        g.push(p("3-3@1n"))
    with pytest.raises(IllegalMoveError):
        g.push(p("3-2@1n"))
    play(g, "6-2@0e 6-4@0s 6-1@0w")
    # all four arms are taken: now any open end may be extended
    # (arm ends: 1n shows 3, 2e 2, 3s 4, 4w 1; seat 1 holds 5-3 5-2 5-4 5-1)
    assert {m.slot for m in g.legal_moves() if isinstance(m, Placement)} == {4, 9, 14, 19}


def test_sebastopol_all_fives_scores_with_the_spinner() -> None:
    g = deal("sebastopol all_fives", SEBASTOPOL_ARMS)
    play(g, "6-6")  # 12 -> nothing
    play(g, "6-3@0n")  # one arm taken, 6-6 still counts 12: 12 + 3 = 15 -> 3
    assert (g.ends_sum, g.scores) == (15, [0, 3, 0, 0])
    play(g, "6-2@0e")  # two arms taken: only arm ends count: 3 + 2 = 5 -> 1
    assert (g.ends_sum, g.scores) == (5, [0, 3, 1, 0])
    play(g, "6-4@0s")  # 3 + 2 + 4 = 9 -> nothing
    assert (g.ends_sum, g.scores) == (9, [0, 3, 1, 0])
    play(g, "6-1@0w")  # 3 + 2 + 4 + 1 = 10 -> 2
    assert (g.ends_sum, g.scores) == (10, [2, 3, 1, 0])
    assert g.table.recount() == 10


def test_sebastopol_default_scores_nothing() -> None:
    g = deal("sebastopol", SEBASTOPOL_ARMS)
    play(g, "6-6 6-3@0n 6-2@0e 6-4@0s 6-1@0w")
    assert g.ends_sum == 10  # the same sums as above ...
    assert g.scores == [0, 0, 0, 0]  # ... but no points by default
    assert [t.ends_sum for t in g.history()] == [12, 15, 5, 9, 10]


# ---------------------------------------------------------------- end of hand: straight

STRAIGHT_3P = [
    "6-6 6-5 5-5 5-4 4-4 4-3",
    "6-3 3-2 2-1 1-0 3-1 5-2",
    "3-3 2-2 1-1 0-0 6-1 5-3",
]
# seat 0 runs the east end, seats 1 and 2 the west end
LINE_SCRIPT = (
    "6-6 6-3@0w 3-3@1w 6-5@0e 3-2@2w 2-2@4w 5-5@3e 2-1@5w 1-1@7w 5-4@6e 1-0@8w 0-0@10w 4-4@9e"
)


@pytest.mark.parametrize(("options", "award"), [("", 1), (" count_pips", 26)])
def test_straight_going_out(options: str, award: int) -> None:
    g = deal("straight" + options, STRAIGHT_3P)
    play(g, LINE_SCRIPT)
    # ends: 0-0 (west, 0) and 4-4 (east, 4); seat 1 holds 3-1 5-2, seat 2 6-1 5-3: pass
    play(g, "pass pass 4-3@12e")
    assert g.outcome is not None
    assert g.outcome.termination is Termination.DOMINO and g.outcome.out_seat == 0
    # left: seat 1: 3-1 5-2 = 4 + 7 = 11; seat 2: 6-1 5-3 = 7 + 8 = 15
    assert [r.pips for r in g.outcome.seats] == [0, 11, 15]
    # 1 point, or (count_pips) 11 + 15 - 0 = 26
    assert bonuses(g) == [award, 0, 0]
    assert finals(g) == [award, 0, 0]
    assert g.outcome.match_points == (award, 0, 0)
    assert g.outcome.teams is None
    assert [r.place for r in g.outcome.seats] == [1, 2, 2]


STRAIGHT_BLOCKED_2P = ["6-6 0-0 1-0 1-1 2-0 2-1 2-2 3-0", "3-1 3-2 3-3 4-0 4-1 4-2 4-3 4-4"]


@pytest.mark.parametrize(("options", "award"), [("", 1), (" count_pips", 30)])
def test_straight_blocked_fewest_pips_wins(options: str, award: int) -> None:
    g = deal("straight" + options, STRAIGHT_BLOCKED_2P)
    play(g, "6-6 pass")
    assert not g.is_over  # only one pass so far
    play(g, "pass")
    assert g.outcome is not None
    assert g.outcome.termination is Termination.BLOCKED and g.outcome.out_seat is None
    # seat 0: 0+1+2+2+3+4+3 = 15; seat 1: 4+5+6+4+5+6+7+8 = 45 -> seat 0 wins
    assert [r.pips for r in g.outcome.seats] == [15, 45]
    # 1 point, or 45 - 15 = 30
    assert bonuses(g) == [award, 0]
    assert g.outcome.winners == (0,)


def test_straight_four_players_blocked_is_individual() -> None:
    # 4p straight: everyone passes after 6-6 (all other 6s are in the stock)
    hands = [
        "6-6 3-0 2-2 3-1 4-0",  # 15 after the opening
        "0-0 1-0 1-1 2-0 2-1",  # 0+1+2+2+3 = 8: fewest
        "3-2 4-1 5-0 3-3 4-2",  # 5+5+5+6+6 = 27
        "5-1 4-3 5-2 4-4 5-3",  # 6+7+7+8+8 = 36
    ]
    for options, award in (("", 1), (" count_pips", 15 + 27 + 36 - 8)):  # 78 - 8 = 70
        g = deal("straight" + options, hands)
        play(g, "6-6 pass pass pass pass")
        assert g.outcome is not None and g.outcome.termination is Termination.BLOCKED
        assert [r.pips for r in g.outcome.seats] == [15, 8, 27, 36]
        # no teams in straight: seat 1 wins alone, although seats 0+2 (42) < 1+3 (44)
        assert g.outcome.teams is None
        assert bonuses(g) == [0, award, 0, 0]
        assert g.outcome.match_points == (0, award, 0, 0)
        assert g.outcome.winners == (1,)


STRAIGHT_TIE_2P = ["6-6 5-5 5-4 2-1 3-1 4-1 5-1 5-2", "6-0 2-2 3-2 4-2 3-3 4-3 5-3 4-4"]


@pytest.mark.parametrize("options", ["", " count_pips"])
def test_straight_blocked_tie_scores_nothing(options: str) -> None:
    g = deal("straight" + options, STRAIGHT_TIE_2P)
    # after 6-0 the ends are 6 and 0; every other 6 and 0 is in the stock
    play(g, "6-6 6-0@0e pass pass")
    assert g.outcome is not None and g.outcome.termination is Termination.BLOCKED
    # seat 0: 10+9+3+4+5+6+7 = 44; seat 1: 4+5+6+6+7+8+8 = 44: tied
    assert [r.pips for r in g.outcome.seats] == [44, 44]
    assert bonuses(g) == [0, 0]
    assert finals(g) == [0, 0]
    assert g.outcome.match_points == (0, 0)


def test_straight_match_target() -> None:
    assert ruleset("straight", count_pips=True).match_target == 100


# ---------------------------------------------------------------- end of hand: block

BLOCK_3P = [
    "6-6 6-5 5-5 5-4 4-4",
    "6-3 3-2 2-1 1-0 3-1",
    "3-3 2-2 1-1 0-0 6-1",
]


def test_block_going_out_wins_the_opponents_pips() -> None:
    g = deal("block", BLOCK_3P)
    play(g, LINE_SCRIPT)
    assert g.outcome is not None and g.outcome.out_seat == 0
    # seat 1 keeps 3-1 (4), seat 2 keeps 6-1 (7): 4 + 7 = 11
    assert [r.pips for r in g.outcome.seats] == [0, 4, 7]
    assert bonuses(g) == [11, 0, 0]
    assert g.outcome.match_points == (11, 0, 0)


def test_block_individual_blocked_wins_the_opponents_pips() -> None:
    g = deal(
        "block",
        ["6-6 1-1 2-1 3-1 2-2", "6-0 4-1 3-2 5-1 4-2", "5-5 5-4 4-4 5-3 4-3"],
    )
    # ends 6 and 0: the other 6s and 0s are all in the stock
    play(g, "6-6 6-0@0e pass pass pass")
    assert g.outcome is not None and g.outcome.termination is Termination.BLOCKED
    # seat 0: 2+3+4+4 = 13; seat 1: 5+5+6+6 = 22; seat 2: 10+9+8+8+7 = 42
    assert [r.pips for r in g.outcome.seats] == [13, 22, 42]
    # fewest (seat 0) wins the opponents' pips: 22 + 42 = 64 (her own not subtracted)
    assert bonuses(g) == [64, 0, 0]
    assert [r.place for r in g.outcome.seats] == [1, 2, 2]


def test_block_two_players_blocked_tie_scores_nothing() -> None:
    g = deal("block", ["6-6 5-5 5-4 2-1 4-1 5-1 5-2", "6-0 3-2 4-2 3-3 4-3 5-3 4-4"])
    play(g, "6-6 6-0@0e pass pass")
    assert g.outcome is not None
    # 10+9+3+5+6+7 = 40 and 5+6+6+7+8+8 = 40
    assert [r.pips for r in g.outcome.seats] == [40, 40]
    assert bonuses(g) == [0, 0] and finals(g) == [0, 0]


TEAM_4P = [
    "6-6 6-5 5-5 5-4 4-4",
    "6-3 2-2 1-0 4-2 5-3",
    "3-3 2-1 0-0 4-1 6-1",
    "3-2 1-1 2-0 3-1 3-0",
]
# seat 0 runs the east end; seats 1, 2, 3 extend the west end in turn
TEAM_SCRIPT = (
    "6-6 6-3@0w 3-3@1w 3-2@2w 6-5@0e 2-2@3w 2-1@5w 1-1@6w 5-5@4e 1-0@7w 0-0@9w "
    "2-0@10w 5-4@8e 4-2@11w 4-1@13w 3-1@14w 4-4@12e"
)


def test_block_teams_going_out() -> None:
    g = deal("block", TEAM_4P)
    play(g, TEAM_SCRIPT)
    out = g.outcome
    assert out is not None and out.out_seat == 0 and out.termination is Termination.DOMINO
    # left: seat 1 5-3 (8), seat 2 6-1 (7), seat 3 3-0 (3)
    assert [r.pips for r in out.seats] == [0, 8, 7, 3]
    # losing team 1+3: 8 + 3 = 11; winning team 0+2: 0 + 7 = 7 -> 11 - 7 = 4
    assert bonuses(g) == [4, 0, 0, 0]
    assert out.teams is not None
    assert [t.seats for t in out.teams] == [(0, 2), (1, 3)]
    assert [t.pips for t in out.teams] == [7, 11]
    assert [t.final for t in out.teams] == [4, 0]
    assert out.match_points == (4, 0)
    assert [r.place for r in out.seats] == [1, 2, 1, 2]


@pytest.mark.parametrize(
    ("pips", "award", "finals"),
    [
        ([0, 3, 20, 4], 0, [0, 0]),  # the partner holds more than both opponents: award 0
        ([0, 3, 7, 4], 0, [0, 0]),  # equal pips: award 0, not a tie
        ([0, 10, 2, 4], 12, [12, 0]),  # the ordinary case: 14 - 2
    ],
)
def test_block_teams_going_out_always_wins(pips: list[int], award: int, finals: list[int]) -> None:
    # docs/rules.md section 4 (decision): the couple whose player went out wins the hand, placed
    # first alone, and its award (the losing couple's pips minus its own) is never
    # below 0
    for rules in ("block", "draw", "sebastopol"):
        out = score_hand(ruleset(rules), [0] * 4, pips, Termination.DOMINO, 0)
        assert out.seats[0].bonus == award
        assert out.teams is not None
        assert [t.final for t in out.teams] == finals
        assert [t.place for t in out.teams] == [1, 2]
        assert out.winners == (0, 2)
        assert out.match_points == tuple(finals)
    # the seat that went out last in the seating wins too (team 1+3)
    out = score_hand(ruleset("block"), [0] * 4, [5, 0, 3, 30], Termination.DOMINO, 1)
    assert [t.final for t in out.teams or ()] == [0, 0]
    assert out.winners == (1, 3)


BLOCKED_4P = [
    "6-6 3-0 2-2 3-1 4-0",  # 3+4+4+4 = 15 after the opening
    "0-0 1-0 1-1 2-0 2-1",  # 8
    "3-2 4-1 5-0 3-3 4-2",  # 27
    "5-1 4-3 5-2 4-4 5-3",  # 36
]


def test_block_teams_blocked_compares_team_pips() -> None:
    g = deal("block", BLOCKED_4P)
    play(g, "6-6 pass pass pass pass")
    out = g.outcome
    assert out is not None and out.termination is Termination.BLOCKED
    # seat 1 has the fewest pips alone (8), but teams: 0+2 = 15 + 27 = 42,
    # 1+3 = 8 + 36 = 44 -> team 0+2 wins 44 - 42 = 2
    assert out.teams is not None
    assert [t.pips for t in out.teams] == [42, 44]
    assert [t.final for t in out.teams] == [2, 0]
    assert out.match_points == (2, 0)
    # (docs/rules.md section 8, fido's decision) the award goes to the team's seat with fewer pips
    assert bonuses(g) == [2, 0, 0, 0]
    assert out.winners == (0, 2)


def test_block_teams_blocked_tie_scores_nothing() -> None:
    # teams 10 + 10 = 20 and 5 + 15 = 20
    out = score_hand(ruleset("block"), [0] * 4, [10, 5, 10, 15], Termination.BLOCKED, None)
    assert out.teams is not None
    assert [t.pips for t in out.teams] == [20, 20]
    assert [r.bonus for r in out.seats] == [0, 0, 0, 0]
    assert out.match_points == (0, 0)


# ---------------------------------------------------------------- end of hand: draw


def test_draw_game_going_out_after_drawing() -> None:
    g = deal(
        "draw",
        ["6-6 6-5 5-5 5-4 4-4 4-3 3-3", "6-2 2-2 2-1 1-1 1-0 0-0 5-3"],
        "6-0 4-0",
    )
    play(g, "6-6")
    # seat 1 could place 6-2, but draws twice first (any number; last two stay)
    assert g.legal_moves() == [p("6-2@0e"), p("6-2@0w"), DRAW]
    play(g, "draw draw 6-2@0w")
    assert Tile(6, 0) in g.hand(1) and Tile(4, 0) in g.hand(1)
    assert g.turn == 0 and g.stock_count == 12
    assert g.legal_moves()[-1] is DRAW  # seat 0 may draw too
    play(
        g,
        "6-5@0e 2-2@1w 5-5@2e 2-1@3w 5-4@4e 1-1@5w 4-4@6e 1-0@7w 4-3@8e 0-0@9w 3-3@10e",
    )
    out = g.outcome
    assert out is not None and out.out_seat == 0
    # seat 1 keeps 5-3 6-0 4-0 = 8 + 6 + 4 = 18: all of it goes to seat 0
    assert [r.pips for r in out.seats] == [0, 18]
    assert bonuses(g) == [18, 0] and out.match_points == (18, 0)


# ---------------------------------------------------------------- end of hand: muggins


def test_muggins_team_hand_scores_and_going_out() -> None:
    g = deal("muggins", TEAM_4P)
    play(g, TEAM_SCRIPT)
    # sums after each move (6-6 whole until both sides are covered, doubles at ends twice):
    # 12, 12+3=15 (s1: 3), 12+6=18, 12+2=14, 2+5=7, 4+5=9, 1+5=6, 2+5=7, 2+10=12,
    # 0+10=10 (s1: 2), 0+10=10 (s2: 2), 2+10=12, 2+4=6, 4+4=8, 1+4=5 (s2: 1), 3+4=7, 3+8=11
    assert [t.ends_sum for t in g.history()] == [
        12, 15, 18, 14, 7, 9, 6, 7, 12, 10, 10, 12, 6, 8, 5, 7, 11
    ]  # fmt: skip
    assert g.scores == [0, 3 + 2, 2 + 1, 0]
    out = g.outcome
    assert out is not None and out.out_seat == 0
    # going out: the opponents' (seats 1+3) pips 8 + 3 = 11 -> 11/5 rounded up = 3
    # (rounded down or to nearest: 2; counting seat 2's 7 too: 18 -> 4)
    assert bonuses(g) == [3, 0, 0, 0]
    assert finals(g) == [3, 5, 3, 0]
    assert out.teams is not None
    assert [t.final for t in out.teams] == [3 + 3, 5 + 0]
    assert out.match_points == (6, 5)
    assert out.winners == (0, 2)


def test_muggins_going_out_rounds_up_two_players() -> None:
    # direct scoring: opponent holds 21 pips -> 21/5 = 4.2 -> 5 (not 4)
    out = score_hand(ruleset("muggins"), [7, 4], [0, 21], Termination.DOMINO, 0)
    assert [r.bonus for r in out.seats] == [5, 0]
    assert out.match_points == (12, 4)
    # exactly divisible: 20 -> 4
    out = score_hand(ruleset("muggins"), [0, 0], [20, 0], Termination.DOMINO, 1)
    assert [r.bonus for r in out.seats] == [0, 4]


def test_muggins_blocked_scores_the_difference() -> None:
    # docs/rules.md section 4 is silent on a blocked muggins hand; the engine's decision:
    # fewest pips wins (opponents' pips - own) / 5, rounded up: (20 - 7) / 5 = 2.6 -> 3
    out = score_hand(ruleset("muggins"), [0, 0], [7, 20], Termination.BLOCKED, None)
    assert [r.bonus for r in out.seats] == [3, 0]


def test_muggins_match_target() -> None:
    assert ruleset("muggins").match_target == 61


# ---------------------------------------------------------------- end of hand: fives and threes


def test_fives_and_threes_two_player_hand() -> None:
    g = deal(
        "fives_and_threes",
        ["0-0 1-0 1-1 2-1 2-2 3-2 3-3", "4-0 4-4 5-4 5-5 6-5 6-6 3-0"],
    )
    play(
        g,
        "0-0 4-0@0w 1-0@0e 4-4@1w 1-1@2e 5-4@3w 2-1@4e 5-5@5w 2-2@6e 6-5@7w 3-2@8e 6-6@9w 3-3@10e",
    )
    # sums (W + E): 0, 4+0=4, 4+1=5 (1), 8+1=9 (3), 8+2=10 (2), 5+2=7, 5+2=7,
    # 10+2=12 (4), 10+4=14, 6+4=10 (2), 6+3=9 (3), 12+3=15 (8), 12+6=18 (6)
    hist = g.history()
    assert [t.ends_sum for t in hist] == [0, 4, 5, 9, 10, 7, 7, 12, 14, 10, 9, 15, 18]
    assert [t.points for t in hist] == [0, 0, 1, 3, 2, 0, 0, 4, 0, 2, 3, 8, 6]
    # seat 0: 1 + 2 + 3 + 6 = 12; seat 1: 3 + 4 + 2 + 8 = 17
    assert g.scores == [12, 17]
    out = g.outcome
    assert out is not None and out.out_seat == 0
    # going out scores one more: 12 + 1 = 13; seat 1 keeps 17
    assert bonuses(g) == [1, 0]
    assert finals(g) == [13, 17]
    assert out.match_points == (13, 17)
    assert out.winners == (1,)


def test_fives_and_threes_teams_score_the_difference() -> None:
    # 4p: every tile is dealt; 0-0 (seat 0) opens.
    g = deal(
        "fives_and_threes",
        [
            "0-0 2-1 6-5 1-1 2-2 3-3 4-4",
            "4-0 3-0 6-0 5-5 6-6 3-1 4-1",
            "2-0 1-0 5-1 6-1 3-2 4-2 5-2",
            "4-3 5-0 6-2 5-3 6-3 5-4 6-4",
        ],
    )
    assert g.stock_count == 0
    play(g, "0-0 4-0@0e 2-0@0w 4-3@1e 2-1@2w 3-0@3e 1-0@4w 5-0@5e 6-5@7e 6-0@8e")
    # W+E: 0; 0+4=4; 2+4=6 (s2: 2); 2+3=5 (s3: 1); 1+3=4; 1+0=1; 0+0=0;
    # 0+5=5 (s3: 1); 0+6=6 (s0: 2); 0+0=0
    assert [t.points for t in g.history()] == [0, 0, 2, 1, 0, 0, 0, 1, 2, 0]
    assert g.scores == [2, 0, 2, 2]
    # both ends show 0 and all seven 0s are down: everyone passes
    play(g, "pass pass pass pass")
    out = g.outcome
    assert out is not None and out.termination is Termination.BLOCKED
    assert bonuses(g) == [0, 0, 0, 0]  # no bonus without going out
    assert out.teams is not None
    # couples: 0+2 = 2 + 2 = 4, 1+3 = 0 + 2 = 2 -> the difference 4 - 2 = 2 to 0+2
    assert [t.final for t in out.teams] == [4, 2]
    assert out.match_points == (2, 0)


def test_fives_and_threes_team_going_out_bonus() -> None:
    # seat 2 goes out: +1 -> finals 5, 3, 4 + 1, 9; couples 10 and 12 -> (0, 2)
    f3 = ruleset("fives_and_threes")
    out = score_hand(f3, [5, 3, 4, 9], [6, 2, 0, 8], Termination.DOMINO, 2)
    assert [r.bonus for r in out.seats] == [0, 0, 1, 0]
    assert out.teams is not None and [t.final for t in out.teams] == [10, 12]
    assert out.match_points == (0, 2)
    # tied couples (5 + 4 + 1 = 10 and 4 + 6 = 10): nobody gets anything
    out = score_hand(f3, [5, 4, 4, 6], [6, 2, 0, 8], Termination.DOMINO, 2)
    assert out.match_points == (0, 0)


def test_fives_and_threes_match_target() -> None:
    assert ruleset("fives_and_threes").match_target == 31


# ---------------------------------------------------------------- end of hand: sebastopol


def test_sebastopol_arm_rule_stuck_players_pass_and_teams_score() -> None:
    g = deal(
        "sebastopol",
        [
            "6-6 6-5 6-4 6-3 6-2 6-1 6-0",
            "5-1 2-2 5-5 5-4 5-3 5-2 5-0",
            "4-4 4-3 0-0 1-0 1-1 2-0 2-1",
            "3-0 3-3 4-2 4-1 4-0 3-2 3-1",
        ],
    )
    play(g, "6-6 pass pass pass 6-5@0n")
    # seat 1 holds five 5s and 1n shows 5, but the arms come first: she must pass
    assert g.turn == 1 and g.legal_moves() == [PASS]
    with pytest.raises(IllegalMoveError):
        g.push(p("5-1@1n"))
    play(g, "pass pass pass 6-4@0e pass pass pass 6-3@0s pass pass pass 6-2@0w")
    assert not g.is_over
    play(g, "5-1@1n 4-4@2e 3-0@3s 6-1@5n 2-2@4w 4-3@6e 3-3@10e 6-0@7s")
    out = g.outcome
    assert out is not None and out.out_seat == 0
    # left: seat 1 5-5 5-4 5-3 5-2 5-0 = 39; seat 2 0-0 1-0 1-1 2-0 2-1 = 8;
    # seat 3 4-2 4-1 4-0 3-2 3-1 = 24. Teams: 0+2 = 8, 1+3 = 63 -> 63 - 8 = 55
    assert [r.pips for r in out.seats] == [0, 39, 8, 24]
    assert bonuses(g) == [55, 0, 0, 0]
    assert out.teams is not None and [t.final for t in out.teams] == [55, 0]
    assert out.match_points == (55, 0)
    assert g.scores == [0, 0, 0, 0]


def test_sebastopol_blocked_tie_scores_nothing() -> None:
    out = score_hand(ruleset("sebastopol"), [0] * 4, [4, 9, 6, 1], Termination.BLOCKED, None)
    assert out.match_points == (0, 0)
    assert [r.bonus for r in out.seats] == [0, 0, 0, 0]


# ---------------------------------------------------------------- consistency over random games


@pytest.mark.parametrize(
    "name", ["straight", "block", "draw", "muggins", "fives_and_threes", "sebastopol"]
)
def test_random_hands_keep_the_sum_and_the_points(name: str) -> None:
    r = ruleset(name)
    for seed in range(15):
        players = 4 if name == "sebastopol" else 2 + seed % 3
        g = Game.new(r, players, seed=seed)
        while not g.is_over:
            moves = g.legal_moves()
            g.push(moves[(seed * 7 + len(g.table)) % len(moves)])
            assert g.table.recount() == g.ends_sum
        hist = g.history()
        for seat in range(players):
            assert g.scores[seat] == sum(t.points for t in hist if t.seat == seat)
        assert all(t.points == r.points(t.ends_sum) for t in hist if isinstance(t.move, Placement))
        out = g.outcome
        assert out is not None
        assert [x.pips for x in out.seats] == [g.pips(s) for s in range(players)]
        assert [x.final for x in out.seats] == [g.scores[x.seat] + x.bonus for x in out.seats]
        if out.termination is Termination.DOMINO:
            assert out.out_seat is not None and g.hands[out.out_seat] == 0
        # at most one side gets an award
        assert sum(1 for x in out.seats if x.bonus) <= 1


def test_opener_house_rule_lets_the_first_seat_open_with_any_tile() -> None:
    r = Ruleset.from_text("block hand=7 opener=first_seat")
    assert Ruleset.from_text(r.text()) == r
    for seed in range(5):
        g = Game.new(r, 4, seed=seed)
        assert g.turn == 0
        assert sorted(m.tile for m in g.legal_moves() if isinstance(m, Placement)) == g.hand(0)
        non_double = next((t for t in g.hand(0) if not t.is_double), None)
        if non_double is not None:
            g.push(Placement(non_double))
            assert g.ends_sum == non_double.pips
    low = Ruleset.from_text("muggins opener=lowest_double")
    g = Game.new(low, 2, seed=3)
    lowest = min(t for h in g.initial_hands for t in low.dominoes.tiles_of(h) if t.is_double)
    assert g.legal_moves() == [Placement(lowest)]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("block opener=last", "opener is one of"),
        ("sebastopol opener=first_seat", "needs a line"),
    ],
)
def test_opener_house_rule_errors(text: str, message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        Ruleset.from_text(text)
