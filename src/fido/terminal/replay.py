"""Stepping through a game record at the terminal, forwards and backwards.

The record is verified first (``fido replay`` refuses a bad one before this
runs); each position is shown as a spectator sees it (the table, the sum,
every hand's tile count and the scores, never a hand), or as one seat saw it
(``--seat``: her hand too); the last step shows the result.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.markup import escape

from fido.engine.game import Game
from fido.i18n import _
from fido.record import GameRecord
from fido.rich_text import safe
from fido.safe_text import printable
from fido.terminal.screen import Frame, play_screen, results_table
from fido.terminal.session import terminal_size

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
    out = [(_("the deal"), record.new_game())]
    for i, turn, game in record.steps():
        who = printable(record.players[turn.seat], NAME)
        scored = f" +{turn.points}" if turn.points else ""
        label = _("move {number}: {name} {move}").format(
            number=i, name=who, move=f"{turn.move.text()}{scored}"
        )
        out.append((label, game.copy()))
    return out


def step_through(
    record: GameRecord,
    console: Console,
    ask: Callable[[str], str] = input,
    *,
    seat: int | None = None,
    size: Callable[[], tuple[int, int]] = terminal_size,
) -> None:
    """n (or Enter) next, p back, a number to jump, q to stop; anything else is answered.

    ``seat`` None shows the table as a spectator sees it (tile counts only);
    a seat shows her hand at every step too, as she saw it (the tiles the
    others drew stay hidden). The last step ends with the result.
    """
    frames = positions(record)
    names = [printable(n, NAME) for n in record.players]
    last = len(frames) - 1
    i = 0
    message = ""
    while True:
        label, game = frames[i]
        view = game.view(seat) if seat is not None else game.spectator_view()
        width, height = size()
        frame = Frame(width, height - 1, message=message)
        lines = play_screen(view, names, frame, with_moves=False).lines
        lines.insert(1, f"[{i}/{last}] {label}")
        if console.is_terminal:
            console.clear()
        for line in lines:
            console.print(escape(line), soft_wrap=True)
        if i == last and game.outcome is not None:
            console.print(results_table(game.outcome, names))
        message = ""
        try:
            answer = ask(_("n next, p back, number, q quit: ")).strip().lower()
        except EOFError:
            return
        if answer in ("", "n"):
            i = min(i + 1, last)
        elif answer == "p":
            i = max(i - 1, 0)
        elif answer.isascii() and answer.isdigit():  # not "²": int() refuses it
            i = min(int(answer[:9]), last)
        elif answer == "q":
            return
        else:
            message = _(
                "'{typed}' is not a key here: n or Enter next, p back, a step number 0 to {last}, "
                "q quit"
            ).format(typed=printable(answer, 24), last=last)
