"""The table assistant (fido.assistant): it follows real engine games from their public moves.

The "physical" truth is an engine game from a seed; the assistant hears only
what the table shows (placements with their tiles, draws without, passes) and
must agree with the engine on every sum, point, tile count and the end, take
every move back exactly, and refuse what cannot have happened.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fido import Game
from fido.assistant import AssistantError, TableAssistant
from fido.engine.moves import DRAW, PASS, Move, Placement
from fido.engine.tiles import Tile
from fido.engine.validation import explain


def real_game(rules: str, players: int, seed: int) -> Game:
    """A whole engine game, played by random legal moves: what happened at the table."""
    g = Game.new(rules, players, seed=seed)
    rng = random.Random(seed)
    while not g.is_over:
        g.push(rng.choice(g.legal_moves()))
    return g


def public(g: Game) -> tuple[object, ...]:
    """What the table shows of an engine game."""
    return (
        g.table.text(), g.ends_sum, tuple(g.scores), tuple(g.hand_counts()), g.stock_count,
        None if g.is_over else g.turn, g.is_over,
    )


def shown(a: TableAssistant) -> tuple[object, ...]:
    return (
        a.table.text(), a.ends_sum, a.scores, a.hand_counts, a.stock_count, a.to_move, a.is_over,
    )


CASES = st.sampled_from([
    ("fido set=6", 3), ("fido set=6", 4), ("fido set=9", 3), ("fido set=9", 5),
    ("fido set=12", 4), ("fido set=12", 7), ("fido set=9 direction=counterclockwise", 4),
    ("fido set=6 soenke_hansen", 3),
])


@settings(max_examples=25, deadline=None)
@given(case=CASES, seed=st.integers(0, 2**31))
def test_public_moves_reproduce_the_engine_game(case: tuple[str, int], seed: int) -> None:
    rules, players = case
    truth = real_game(rules, players, seed)
    g = Game.new(rules, players, seed=seed)  # the same deal, played again move by move
    a = TableAssistant(rules, players)
    a.set_opener(truth.opener)  # the players say who holds the highest double
    for n, turn in enumerate(truth.history()):
        before = a.state()
        a.push(turn.move.text(), seat=turn.seat)  # a draw's tile is not told
        g.push(turn.move)
        assert shown(a) == public(g)
        assert a.history[-1].points == turn.points and a.history[-1].ends_sum == turn.ends_sum
        after = a.state()
        assert a.pop() == turn.move
        assert a.state() == before  # pop undoes exactly
        a.push(turn.move, seat=turn.seat)
        assert a.state() == after
        assert len(a.moves) == n + 1
    assert a.is_over and a.outcome is not None and truth.outcome is not None
    assert a.outcome.termination == truth.outcome.termination
    assert a.outcome.out_seat == truth.outcome.out_seat
    pips = [truth.pips(s) for s in range(players)]
    for seat, (lo, hi) in enumerate(a.pip_bounds()):
        assert lo <= pips[seat] <= hi
    assert a.result(pips) == truth.outcome  # the sheet is the engine's result
    # the browser sends the whole list again: one load gives the same game
    b = TableAssistant(rules, players)
    assert b.load(truth.opener, [t.move.text() for t in truth.history()]) == len(truth)
    assert b.state() == a.state()


@pytest.mark.parametrize(
    ("rules", "players", "seed"), [("fido set=18", 9, 5), ("fido set=15", 3, 2)]
)
def test_big_sets(rules: str, players: int, seed: int) -> None:
    truth = real_game(rules, players, seed)
    a = TableAssistant(rules, players)
    for turn in truth.history():
        a.push(turn.move, seat=turn.seat)
    assert a.scores == tuple(truth.scores)
    assert a.result([truth.pips(s) for s in range(players)]) == truth.outcome


def opened(
    rules: str = "fido set=6", players: int = 3, seed: int = 1
) -> tuple[Game, TableAssistant]:
    """The engine game after its first two moves, and the assistant that heard them."""
    g = Game.new(rules, players, seed=seed)
    a = TableAssistant(rules, players)
    for _ in range(2):
        m = g.legal_moves()[0]
        a.push(m, seat=g.turn)
        g.push(m)
    return g, a


def test_a_tile_on_the_table_is_refused_and_nothing_changes() -> None:
    g, a = opened()
    before = a.state()
    tile = g.table.placements[1].tile
    slot = next(iter(g.table.open_slots()))
    with pytest.raises(AssistantError, match=f"{tile} is already on the table"):
        a.push(Placement(tile, slot >> 2, slot & 3))
    assert a.state() == before


def test_a_move_the_table_forbids_gets_the_engines_reason() -> None:
    # 6-6 opens; the second move must go on a free side (crosswise)
    a = TableAssistant("fido set=6", 3)
    a.push("6-6", seat=0)
    with pytest.raises(AssistantError) as err:
        a.push("6-3@0e")
    hands = [
        ["6-6", "1-0", "2-0", "2-1", "3-0", "3-1", "4-3"],
        ["6-3", "5-5", "4-4", "3-3", "2-2", "1-1", "0-0"],
        ["5-1", "5-2", "5-3", "5-4", "4-0", "4-1", "4-2"],
    ]
    stock = ["6-0", "6-1", "6-2", "6-4", "6-5", "3-2", "5-0"]
    g = Game.from_deal("fido set=6", [tiles(*h) for h in hands], tiles(*stock))
    g.push(Placement(Tile.from_text("6-6")))
    engine_reason = explain(g, Move.from_text("6-3@0e"))  # seat 1 holds 6-3 here
    assert str(err.value) == engine_reason
    assert "crosswise" in engine_reason
    with pytest.raises(AssistantError, match="values do not match: 5-3 does not show 6"):
        a.push("5-3@0n")
    with pytest.raises(AssistantError, match="no tile #3 on the table"):
        a.push("6-3@3n")
    assert a.moves == (Move.from_text("6-6"),)


def tiles(*texts: str) -> list[Tile]:
    return [Tile.from_text(t) for t in texts]


def test_draw_and_pass_follow_the_stock() -> None:
    a = TableAssistant("fido set=6", 3)
    a.push("6-6", seat=0)
    with pytest.raises(AssistantError, match="you cannot place, so you must draw"):
        a.push(PASS)
    a.push(DRAW)  # seat 1 holds no 6: possible
    assert a.hand_counts == (6, 8, 7) and a.stock_count == 6 and a.to_move == 2


def test_a_draw_no_deal_allows_is_refused() -> None:
    """Double-6, 3 players: 7 in each hand, 7 in the stock. After 6-6 every player is
    stuck on 6, so the six other 6s lay in the stock; a second draw by the same player
    says her first drawn tile was no 6 either: two such draws leave 6 + 2 > 7."""
    a = TableAssistant("fido set=6", 3, names=["Ann", "Bob", "Cy"])
    a.push("6-6", seat=0)
    for _ in range(4):
        a.push(DRAW)
    before = a.state()
    with pytest.raises(AssistantError, match="Cy cannot be stuck"):
        a.push(DRAW)
    assert a.state() == before
    a.push("6-5@0n")  # she places a 6 instead: her draw was one
    assert a.ends_sum == 12 + 5


def test_a_higher_double_lay_in_the_stock() -> None:
    a = TableAssistant("fido set=6", 3, names=["Ann", "Bob", "Cy"])
    a.push("5-5", seat=0)  # so 6-6 lay in the stock
    a.push("6-5@0n")
    with pytest.raises(AssistantError, match="Cy cannot hold 6-6: the highest double dealt opens"):
        a.push("6-6@1n")
    before = a.state()
    a.push(DRAW)  # Cy is stuck and draws: 6-6 may be the tile she drew
    a.push("5-4@0e")
    a.push("5-3@0s")
    a.push("6-6@1n")
    assert a.ends_sum == 10 + 6 - 1 + 3 + 6 and a.hand_counts == (5, 5, 7)
    for _ in range(4):
        a.pop()
    assert a.state() == before


def test_the_opening() -> None:
    a = TableAssistant("fido set=6", 6)  # 4 tiles each, 4 in the stock
    with pytest.raises(AssistantError, match="say who opens"):
        a.push("6-6")
    with pytest.raises(AssistantError, match="is not a double"):
        a.push("6-5", seat=2)
    with pytest.raises(AssistantError, match="the 5 higher doubles would all lie in the stock"):
        a.push("1-1", seat=2)
    a.push("2-2", seat=2)
    assert a.to_move == 3 and a.hand_counts == (4, 4, 3, 4, 4, 4)
    assert a.pop() == Move.from_text("2-2")
    assert a.moves == () and a.opener == 2 and a.to_move == 2
    with pytest.raises(AssistantError, match="no move to take back"):
        a.pop()


def test_impossible_pips_are_refused() -> None:
    truth = real_game("fido set=6", 3, 4)
    a = TableAssistant("fido set=6", 3)
    a.load(truth.opener, [t.move.text() for t in truth.history()])
    pips = [truth.pips(s) for s in range(3)]
    with pytest.raises(AssistantError, match="not over"):
        TableAssistant("fido set=6", 3).result(pips)
    for seat in range(3):
        _lo, hi = a.pip_bounds()[seat]
        wrong = list(pips)
        wrong[seat] = hi + 1
        with pytest.raises(AssistantError, match=r"cannot hold|went out|together"):
            a.result(wrong)
    if truth.outcome and truth.outcome.out_seat is not None:
        wrong = list(pips)
        wrong[truth.outcome.out_seat] = 3
        with pytest.raises(AssistantError, match="went out: she holds 0 pips"):
            a.result(wrong)
    with pytest.raises(AssistantError, match="give the pips of all 3"):
        a.result(pips[:2])
    with pytest.raises(AssistantError, match="whole number"):
        a.result([-1, *pips[1:]])
    assert a.result(pips) == truth.outcome


def test_the_total_of_a_blocked_game() -> None:
    """Blocked, the stock is empty: the hands hold exactly the pips not on the table."""
    for seed in range(200):
        truth = real_game("fido set=6", 4, seed)
        if truth.outcome and truth.outcome.out_seat is None:
            break
    else:
        pytest.skip("no blocked game in 200 seeds")
    a = TableAssistant("fido set=6", 4)
    a.load(truth.opener, [t.move.text() for t in truth.history()])
    pips = [truth.pips(s) for s in range(4)]
    assert a.result(pips) == truth.outcome
    bounds = a.pip_bounds()
    for seat in range(4):  # one hand off by one, within its own bounds: the total is wrong
        for delta in (1, -1):
            wrong = list(pips)
            wrong[seat] += delta
            if bounds[seat][0] <= wrong[seat] <= bounds[seat][1]:
                with pytest.raises(AssistantError, match="together"):
                    a.result(wrong)


def test_load_names_the_first_refused_move() -> None:
    truth = real_game("fido set=9", 4, 7)
    moves = [t.move.text() for t in truth.history()]
    bad = [*moves[:10], moves[3], *moves[11:]]
    a = TableAssistant("fido set=9", 4)
    with pytest.raises(AssistantError) as err:
        a.load(truth.opener, bad)
    assert err.value.index == 10 and len(a.moves) == 10
    assert "already on the table" in str(err.value) or "not legal" in str(err.value)
    with pytest.raises(AssistantError) as err:
        a.load(truth.opener, ["draw"])
    assert err.value.index == 0
    with pytest.raises(AssistantError) as err:
        a.load(truth.opener, [moves[0], "nonsense"])
    assert err.value.index == 1 and "not a move" in str(err.value)


def test_setup_is_checked() -> None:
    from fido.errors import FidoError  # noqa: PLC0415

    with pytest.raises(FidoError, match="FIDO games"):
        TableAssistant("block", 3)
    with pytest.raises(FidoError, match="Mother Theresa"):
        TableAssistant("fido set=6 mother_theresa", 3)
    with pytest.raises(FidoError, match="players"):
        TableAssistant("fido set=6", 12)
