"""What a seat (or a spectator) may see: SeatView hides other hands and the stock.

The leak check walks every object reachable from a view (dataclass fields,
slots, ``__dict__``, containers, history entries) and collects every Tile; a
seat may only see her own hand and the tiles on the table. The same check runs
on a pickled-and-unpickled view, with an unpickler that records every Tile it
builds.
"""

from __future__ import annotations

import dataclasses
import io
import pickle
import random
from enum import Enum
from typing import Any

import pytest

from fido import (
    DRAW,
    PASS,
    DominoSet,
    Game,
    IllegalMoveError,
    Move,
    Placement,
    SeatView,
    Table,
    Tile,
    Turn,
)

# ---------------------------------------------------------------- helpers


def reachable(obj: object) -> tuple[set[Tile], set[type]]:
    """Every Tile reachable from ``obj``, and the types of every object walked."""
    found: set[Tile] = set()
    types: set[type] = set()
    seen: set[int] = set()
    stack: list[object] = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, Tile):
            found.add(x)
            continue
        if x is None or isinstance(x, (str, bytes, int, float, Enum, type)):
            continue
        if id(x) in seen:
            continue
        seen.add(id(x))
        types.add(type(x))
        if isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
            continue
        if isinstance(x, (list, tuple, set, frozenset)):
            stack.extend(x)
            continue
        walked = False
        if dataclasses.is_dataclass(x):
            stack.extend(getattr(x, f.name) for f in dataclasses.fields(x))
            walked = True
        for cls in type(x).__mro__:
            # plain slots, and the attributes of classes compiled by mypyc
            for key in ("__slots__", "__mypyc_attrs__"):
                names = cls.__dict__.get(key, ())
                for name in (names,) if isinstance(names, str) else names:
                    walked = True
                    if name not in ("__dict__", "__weakref__") and hasattr(x, name):
                        stack.append(getattr(x, name))
        if hasattr(x, "__dict__"):
            stack.extend(vars(x).values())
            walked = True
        assert walked or getattr(type(x), "__slots__", None) == (), f"cannot look in {type(x)}"
    return found, types


def hidden_from(game: Game, seat: int | None) -> set[Tile]:
    """Tiles ``seat`` must not see: other hands and the stock (drawn or not)."""
    visible = {pl.tile for pl in game.table.placements}
    if seat is not None:
        visible |= set(game.hand(seat))
    return set(game.set.tiles) - visible


def check_view(game: Game, seat: int | None) -> SeatView:
    view = game.view(seat) if seat is not None else game.spectator_view()
    found, types = reachable(view)
    hidden = hidden_from(game, seat)
    assert not found & hidden, f"seat {seat} sees {sorted(found & hidden)}"
    assert Game not in types and random.Random not in types
    assert not any(issubclass(t, random.Random) for t in types)
    # what she may see is there
    if seat is None:
        assert view.hand == () and view.seat is None
    else:
        assert view.hand == tuple(game.hand(seat))
        assert set(view.hand) <= found
    assert view.table == game.table and view.table is not game.table
    assert view.hand_counts == tuple(game.hand_counts())
    assert view.stock_count == game.stock_count
    assert view.scores == tuple(game.scores)
    assert view.to_move == game.turn and view.players == game.players
    assert view.outcome == game.outcome
    # legal moves only for the seat to move
    if seat is not None and seat == game.turn and not game.is_over:
        assert view.is_my_turn
        assert view.legal_moves == tuple(game.legal_moves())
    else:
        assert not view.is_my_turn
        assert view.legal_moves == ()
    # the history: every turn is there; drawn tiles only for the seat that drew them
    full = game.history()
    assert len(view.history) == len(full)
    for mine, real in zip(view.history, full, strict=True):
        assert (mine.seat, mine.move, mine.points, mine.ends_sum) == (
            real.seat,
            real.move,
            real.points,
            real.ends_sum,
        )
        if real.seat == seat:
            assert mine.drawn == real.drawn
        else:
            assert mine.drawn is None
    return view


class RecordingUnpickler(pickle.Unpickler):
    """Records every Tile built and every class looked up while unpickling."""

    def __init__(self, data: bytes) -> None:
        super().__init__(io.BytesIO(data))
        self.tiles: list[Tile] = []
        self.classes: list[tuple[str, str]] = []

    def find_class(self, module: str, name: str) -> Any:
        self.classes.append((module, name))
        found = super().find_class(module, name)
        if found is Tile:
            return self._make_tile
        return found

    def _make_tile(self, a: int, b: int) -> Tile:
        t = Tile(a, b)
        self.tiles.append(t)
        return t


def check_pickle(game: Game, seat: int | None, view: SeatView) -> None:
    hidden = hidden_from(game, seat)
    for protocol in (pickle.DEFAULT_PROTOCOL, pickle.HIGHEST_PROTOCOL):
        data = pickle.dumps(view, protocol=protocol)
        up = RecordingUnpickler(data)
        back = up.load()
        assert isinstance(back, SeatView)
        assert back == view
        assert not set(up.tiles) & hidden
        found, types = reachable(back)
        assert not found & hidden
        assert Game not in types
        assert not any(m == "fido.engine.game" or m == "random" for m, _n in up.classes), up.classes
    # asdict is another way a client might serialise a view
    found, _types = reachable(dataclasses.asdict(view))
    assert not found & hidden


def play(game: Game, script: str) -> None:
    for word in script.split():
        game.push(Move.from_text(word))


def p(text: str) -> Placement:
    move = Move.from_text(text)
    assert isinstance(move, Placement)
    return move


def tiles(text: str) -> list[Tile]:
    return [Tile.from_text(w) for w in text.split()]


def deal(rules: str, hands: list[str], stock: str = "") -> Game:
    hs = [tiles(h) for h in hands]
    st = tiles(stock)
    used = {t for h in hs for t in h} | set(st)
    rest = [t for t in DominoSet(6).tiles if t not in used]
    return Game.from_deal(rules, hs, st + rest)


def every_view(game: Game, pickled: bool = False) -> None:
    for seat in [*range(game.players), None]:
        view = check_view(game, seat)
        if pickled:
            check_pickle(game, seat, view)


# ---------------------------------------------------------------- fixed games


def fido_after_draws() -> Game:
    """fido set=6, 3 players (7 each, 7 in the stock): seat 1 cannot place and draws."""
    g = deal(
        "fido set=6",
        [
            "6-6 0-0 1-0 1-1 2-0 2-1 2-2",
            "3-0 3-1 3-2 3-3 4-0 4-1 4-2",
            "6-5 4-3 4-4 5-0 5-1 5-2 5-3",
        ],
        "5-4 5-5 6-0 6-1 6-2 6-3 6-4",
    )
    play(g, "6-6")  # 12 / 3 = 4 points for seat 0
    assert g.legal_moves() == [DRAW]  # no 6 for the side of 6-6
    play(g, "draw")  # seat 1 draws 5-4 and her turn ends
    assert g.turn == 2 and Tile(5, 4) in g.hand(1)
    play(g, "6-5@0n")  # seat 2 on a side of 6-6
    return g


def draw_game_after_draws() -> Game:
    """The draw game, 4 players: seat 1 draws 6-6 and 5-5 although she could place."""
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
    play(g, "3-2 draw draw")
    return g


def test_fido_views_after_a_draw() -> None:
    g = fido_after_draws()
    every_view(g, pickled=True)
    drawn = Tile(5, 4)
    # seat 1 sees what she drew, in her hand and in the history
    v1 = g.view(1)
    assert drawn in v1.hand
    assert v1.history[1] == Turn(1, DRAW, 0, 12, drawn)
    # the others see that she drew, not what
    for seat in (0, 2, None):
        v = g.view(seat) if seat is not None else g.spectator_view()
        assert v.history[1] == Turn(1, DRAW, 0, 12, None)
        assert drawn not in reachable(v)[0]
        assert v.hand_counts == (6, 8, 6)
        assert v.stock_count == 6
    assert g.view(0).scores == (4, 0, 0)


def test_fido_drawn_tile_becomes_public_once_placed() -> None:
    g = fido_after_draws()
    # seat 0 shows neither 6 nor 5: she draws 5-5 and her turn ends
    assert g.turn == 0 and g.legal_moves() == [DRAW]
    play(g, "draw")
    every_view(g, pickled=True)
    assert Tile(5, 5) in g.view(0).hand
    assert Tile(5, 5) not in reachable(g.view(1))[0]
    # seat 1 plays the 5-4 she drew on the 5 of 6-5
    play(g, "5-4@1n")
    every_view(g, pickled=True)
    v0 = g.view(0)
    assert Tile(5, 4) in reachable(v0)[0]  # on the table now
    assert v0.history[1].drawn is None  # but not as "what seat 1 drew"
    assert g.view(1).history[1].drawn == Tile(5, 4)


def test_draw_game_views_after_draws() -> None:
    g = draw_game_after_draws()
    every_view(g, pickled=True)
    v1 = g.view(1)
    assert [t.drawn for t in v1.history] == [None, Tile(6, 6), Tile(5, 5)]
    assert {Tile(6, 6), Tile(5, 5)} <= set(v1.hand)
    assert v1.legal_moves == (p("2-1@0e"), p("4-3@0w"), p("5-3@0w"))  # no DRAW: 2 left
    for seat in (0, 2, 3):
        v = g.view(seat)
        assert [t.drawn for t in v.history] == [None, None, None]
        found = reachable(v)[0]
        assert Tile(6, 6) not in found and Tile(5, 5) not in found
        # the two tiles that stay in the pile are never visible either
        assert Tile(4, 4) not in found and Tile(0, 0) not in found
        assert v.legal_moves == ()
    assert g.spectator_view().hand_counts == (5, 8, 6, 6)
    assert g.spectator_view().stock_count == 2


def test_muggins_views_while_drawing() -> None:
    g = deal(
        "muggins",
        ["6-6 0-0 1-1 2-1 2-2 3-1 3-2", "3-3 4-0 4-1 4-2 4-3 4-4 5-0"],
        "1-0 6-3 6-4",
    )
    play(g, "6-6 draw")
    # seat 1 keeps the turn: she sees her legal moves (DRAW again), seat 0 sees none
    assert g.view(1).legal_moves == (DRAW,)
    assert g.view(0).legal_moves == ()
    every_view(g, pickled=True)
    play(g, "draw")
    assert g.view(1).legal_moves == (p("6-3@0e"), p("6-3@0w"))
    assert g.view(0).history[2].drawn is None and g.view(1).history[2].drawn == Tile(6, 3)
    every_view(g, pickled=True)


def test_spectator_view_has_no_hand() -> None:
    g = draw_game_after_draws()
    v = g.spectator_view()
    assert v.seat is None and v.hand == () and v.legal_moves == ()
    assert not v.is_my_turn
    assert reachable(v)[0] == {Tile(3, 2)}  # only the table
    assert all(t.drawn is None for t in v.history)


def test_view_of_a_bad_seat() -> None:
    g = Game.new("block", 3, seed=1)
    for seat in (-1, 3):
        with pytest.raises(ValueError):
            g.view(seat)


# ---------------------------------------------------------------- views are copies


def test_view_is_a_copy_of_the_table() -> None:
    g = fido_after_draws()
    text, total, open_ = g.table.text(), g.ends_sum, dict(g.table.open)
    v = g.view(g.turn)
    # mutate the view's table in every way a client could
    v.table.place(Tile(6, 0), 0 * 4 + 2)  # the free south side of 6-6
    v.table.open.clear()
    v.table.placements.append(Placement(Tile(0, 0), 0, 1))
    v.table.ends_sum = -1
    assert g.table.text() == text
    assert g.ends_sum == total
    assert g.table.open == open_
    assert g.table.recount() == total
    # and the game still plays normally
    assert g.legal_moves()
    assert Placement(Tile(6, 0), 0, 2) not in g.table.placements


def test_view_does_not_follow_the_game() -> None:
    g = fido_after_draws()
    v = g.view(0)
    snapshot = (v.table.text(), v.hand, v.hand_counts, v.stock_count, v.scores, len(v.history))
    g.push(g.legal_moves()[0])
    g.push(g.legal_moves()[0])
    assert (
        v.table.text(),
        v.hand,
        v.hand_counts,
        v.stock_count,
        v.scores,
        len(v.history),
    ) == snapshot


def test_view_is_frozen() -> None:
    g = fido_after_draws()
    v = g.view(g.turn)
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.hand = ()  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.legal_moves = ()  # type: ignore[misc]
    assert isinstance(v.hand, tuple) and isinstance(v.history, tuple)
    assert isinstance(v.legal_moves, tuple)


def test_pushing_through_a_view_is_impossible() -> None:
    # a view has no push; moves go to the game, which checks the seat
    g = fido_after_draws()
    v = g.view(1)
    assert not hasattr(v, "push")
    assert not any(f.name in ("stock", "hands", "seed", "rng") for f in dataclasses.fields(v))
    with pytest.raises(IllegalMoveError):
        g.push(g.legal_moves()[0], seat=(g.turn + 1) % g.players)


def finished_block_hand() -> Game:
    g = deal(
        "block",
        ["6-6 1-1 2-1 3-1 2-2", "6-0 4-1 3-2 5-1 4-2", "5-5 5-4 4-4 5-3 4-3"],
    )
    play(g, "6-6 6-0@0e pass pass")  # seats 0, 1, 2, 0
    assert g.view(1).legal_moves == (PASS,) and g.view(0).legal_moves == ()
    play(g, "pass")
    assert g.is_over
    return g


def test_views_at_the_end_of_a_hand() -> None:
    g = finished_block_hand()
    for seat in (0, 1, 2, None):
        v = check_view(g, seat)
        assert v.legal_moves == () and not v.is_my_turn
        assert v.outcome is not None and v.outcome.seats[0].bonus == 64
        # the hand is over, but the other hands stay hidden (only their pip counts show)
        assert not reachable(v)[0] & hidden_from(g, seat)
        assert [r.pips for r in v.outcome.seats] == [13, 22, 42]


def test_pickled_views_of_a_finished_hand() -> None:
    g = finished_block_hand()
    for seat in (0, 1, 2, None):
        check_pickle(g, seat, check_view(g, seat))


# ---------------------------------------------------------------- random games, every step


GAMES = [
    ("fido set=6", 3),
    ("fido set=9", 4),
    ("fido set=12 mother_theresa", 5),
    ("fido set=9 soenke_hansen direction=counterclockwise", 3),
    ("straight", 2),
    ("straight count_pips", 4),
    ("block", 4),
    ("block", 3),
    ("draw", 2),
    ("draw", 4),
    ("muggins", 3),
    ("muggins", 4),
    ("fives_and_threes", 2),
    ("fives_and_threes", 4),
    ("sebastopol", 4),
    ("sebastopol all_fives", 4),
]


@pytest.mark.parametrize(("rules", "players"), GAMES)
def test_no_view_leaks_during_random_games(rules: str, players: int) -> None:
    for seed in range(3):
        rng = random.Random(seed)
        g = Game.new(rules, players, seed=seed)
        steps = 0
        while not g.is_over:
            every_view(g, pickled=steps % 7 == 0)
            g.push(rng.choice(g.legal_moves()))
            steps += 1
        every_view(g)  # (pickling a finished view: test_pickled_views_of_a_finished_hand)
        # every drawn tile shows only in its drawer's history
        for seat in range(players):
            mine = [t.drawn for t in g.view(seat).history if t.drawn is not None]
            assert mine == [t.drawn for t in g.history() if t.seat == seat and t.drawn]


def test_random_games_do_draw() -> None:
    # the random sweep above is only worth something if draws happen in it
    assert sum(_count_draws(r, n, s) for r, n in GAMES for s in range(3)) > 50


def _count_draws(rules: str, players: int, seed: int) -> int:
    rng = random.Random(seed)
    g = Game.new(rules, players, seed=seed)
    count = 0
    while not g.is_over:
        move = rng.choice(g.legal_moves())
        count += move is DRAW
        g.push(move)
    return count


def test_table_in_view_round_trips_through_text() -> None:
    g = fido_after_draws()
    v = g.view(0)
    assert Table.from_text(v.table.text()) == g.table
