"""Stepping through a game record at the terminal, forwards and backwards.

The record is verified first (``fido replay`` refuses a bad one before this
runs); each position is shown as a spectator sees it: the table, the sum,
every hand's tile count and the scores, never a hand.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.markup import escape

from fido.game import Game
from fido.record import GameRecord
from fido.rich_text import safe
from fido.safe_text import printable
from fido.terminal.screen import arm_lines, header, seat_lines

__all__ = ["positions", "replay_rows", "step_through"]

NAME = 24  # a name is cut to this many characters on screen


def replay_rows(record: GameRecord) -> tuple[list[tuple[str, ...]], Game]:
    """The table rows of ``fido replay`` (safe to print: names are data) and the final game.

    Verifies every move on the way (a :class:`~fido.errors.RecordError` at the first bad one).
    """
    names = [safe(n, NAME) for n in record.players]
    rows: list[tuple[str, ...]] = []
    game = record.new_game()
    for i, turn, g in record.steps():
        game = g
        pts = str(turn.points) if turn.points else ""
        scores = " ".join(map(str, g.scores))
        rows.append((str(i), names[turn.seat], turn.move.text(), str(turn.ends_sum), pts, scores))
    return rows, game


def positions(record: GameRecord) -> list[tuple[str, Game]]:
    """Every position of the record with the move that led to it (the deal first)."""
    out = [("the deal", record.new_game())]
    for i, turn, game in record.steps():
        who = printable(record.players[turn.seat], NAME)
        scored = f" +{turn.points}" if turn.points else ""
        out.append((f"move {i}: {who} {turn.move.text()}{scored}", game.copy()))
    return out


def step_through(record: GameRecord, console: Console, ask: Callable[[str], str] = input) -> None:
    """n (or Enter) next, p back, a number to jump, q to stop."""
    frames = positions(record)
    names = [printable(n, NAME) for n in record.players]
    i = 0
    while True:
        label, game = frames[i]
        view = game.spectator_view()
        console.print(escape(header(view)))
        console.print(escape(f"[{i}/{len(frames) - 1}] {label}"))
        for line in [*seat_lines(view, names), "Table:", *arm_lines(view.table, 12)]:
            console.print(escape(line))
        try:
            answer = ask("n next, p back, number, q quit: ").strip().lower()
        except EOFError:
            return
        if answer in ("", "n"):
            i = min(i + 1, len(frames) - 1)
        elif answer == "p":
            i = max(i - 1, 0)
        elif answer.isascii() and answer.isdigit():  # not "²": int() refuses it
            i = min(int(answer[:9]), len(frames) - 1)
        elif answer == "q":
            return
