"""Big tables at the terminal: at every turn of whole games, at 80x24 and 200x50, every legal
move can be reached (by its pages, and by a filter on its tile) and the screen shows the sum,
the whole hand and the last move of every other seat, within the terminal; in English and in
German (longer words, the same room)."""

from __future__ import annotations

import random
import re

import pytest

from fido import Game
from fido.bots import make_bot
from fido.engine.moves import Placement
from fido.i18n import use
from fido.layout import Layouter
from fido.terminal.screen import Frame, numbered_moves, play_screen, turn_text

SIZES = [(80, 24), (200, 50)]
SMALL = (60, 14)  # a small window (up to 4 players): the pages are needed
TABLES = [("fido set=6", 3), ("fido set=12", 4), ("fido set=18", 6), ("fido set=18", 9)]
# the labels the checks find, per language
MOVES = {"en": "Moves", "de": "Züge"}
SUM = {"en": "sum of the ends", "de": "Summe der Enden"}
CELL = re.compile(r"(?:^|\s)(\d+) (\d+-\d+(?:@\d+[nesw])?|draw|pass)(?: \+\d+)?(?=\s|$)")


def moves_on(lines: list[str], lang: str = "en") -> dict[int, str]:
    """The numbered moves as printed (the lines after the moves' header)."""
    start = next(i for i, line in enumerate(lines) if line.startswith(MOVES[lang]))
    found: dict[int, str] = {}
    for line in lines[start + 1 :]:
        for m in CELL.finditer(line):
            found[int(m[1])] = m[2]
    return found


def seat_cell(lines: list[str], seat: int) -> str:
    """The text of a seat's cell (one seat a line, or two when the table is crowded)."""
    for line in lines:
        m = re.search(rf"(?:^| )[ ▶]Seat{seat}\b(.*?)(?=[ ▶]Seat\d|$)", line)
        if m:
            return m[1]
    raise AssertionError(f"seat {seat} is not on screen")


def check_turn(game: Game, lay: Layouter, width: int, height: int, lang: str = "en") -> int:
    """Every check at one turn, from the seat to move; returns the pages it took."""
    seat = game.turn
    view = game.view(seat)
    names = [f"Seat{s}" for s in range(game.players)]
    numbered = dict(numbered_moves(view))
    reached: dict[int, str] = {}
    page, pages = 0, 1
    while page < pages:
        shown = play_screen(view, names, Frame(width, height, page=page), lay)
        lines = shown.lines
        assert len(lines) <= height - 1, len(lines)
        assert all(len(line) <= width for line in lines), max(map(len, lines))
        text = "\n".join(lines)
        assert f"{SUM[lang]} {view.table.ends_sum}" in lines[0]
        assert all(t.text() in text for t in view.hand), "the whole hand is on screen"
        for other in range(game.players):
            mine = [t for t in view.history if t.seat == other]
            if other != seat and mine:
                cell = seat_cell(lines, other)
                assert turn_text(mine[-1], drawn=False) in cell, (cell, mine[-1])
        on_page = moves_on(lines, lang)
        if page == 0:  # the best-scoring moves come first, never hidden behind a page
            best = max(view.points_for(m) for m in view.legal_moves)
            assert any(view.points_for(numbered[n]) == best for n in on_page)
        reached.update(on_page)
        pages = shown.pages
        page += 1
    assert reached == {n: m.text() for n, m in numbered.items()}
    # and each one by the filter of its tile, on one page (one screen a tile: the moves
    # of a tile that fits several ends are all on its filter's screen)
    by_tile: dict[str, set[str]] = {}
    for move in view.legal_moves:
        if isinstance(move, Placement):
            by_tile.setdefault(move.tile.text(), set()).add(move.text())
    for tile, texts in by_tile.items():
        shown = play_screen(view, names, Frame(width, height, query=tile), lay)
        assert texts <= set(moves_on(shown.lines, lang).values()), (tile, texts)
    return pages


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize(
    ("rules", "players", "width", "height"),
    [(r, p, w, h) for r, p in TABLES for w, h in SIZES]
    + [(r, p, *SMALL) for r, p in TABLES if p <= 4],
)
def test_every_move_reachable_and_the_table_on_screen_at_every_turn(
    rules: str, players: int, width: int, height: int, lang: str
) -> None:
    game = Game.new(rules, players, seed=players * 7 + len(rules))
    lay = Layouter(game.rules.layout, game.rules.max_pips)
    bot, rng = make_bot("greedy"), random.Random(1)
    turns = paged = 0
    while not game.is_over:
        lay.extend(game.table.placements[len(lay) :])
        with use(lang):
            paged += check_turn(game, lay, width, height, lang) > 1
        game.push(bot.choose(game.view(game.turn), rng))
        turns += 1
    assert turns > 10
    if (width, height) == (200, 50) and players <= 4:
        assert paged == 0  # a big terminal shows every move at once on the smaller tables
    if (width, height) == SMALL and players >= 4:
        assert paged > 0  # (so the pages are tested)
