"""``fido learn``: the first lesson at the terminal (:mod:`fido.lessons`), then a first game.

Each step shows its text, the table as ``fido play`` draws it and her hand in rows, then
her moves numbered in the engine's order, without their points (the step asks her to
find them); a move she types is judged by :func:`fido.lessons.tries`, and a wrong one is
answered with why, as the web page does.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.markup import escape

from fido.i18n import _
from fido.lessons import LESSON, Step, tries, where
from fido.terminal.asking import ask_move
from fido.terminal.options import DEFAULT_NAME
from fido.terminal.screen import Frame, play_screen, wrap
from fido.terminal.session import terminal_size

__all__ = ["Lesson"]

class Lesson:
    """The lesson's steps in order; :meth:`run` returns True when she finished them all."""

    def __init__(self, console: Console | None = None, ask: Callable[[str], str] = input,
                 size: Callable[[], tuple[int, int]] = terminal_size) -> None:
        self.console = console or Console(highlight=False)
        self.ask = ask
        self.size = size

    def run(self) -> bool:
        for i, step in enumerate(LESSON):
            if not self._step(i, step):
                return False
        self.console.print()
        self.console.print(f"[bold]{escape(_('You know how FIDO scores'))}[/]")
        return True

    def _say(self, text: str) -> None:
        width = max(self.size()[0], 20)
        for line in wrap(text, width, indent=""):
            self.console.print(escape(line))

    def _step(self, i: int, step: Step) -> bool:
        """One step until she makes a right move (False: she left)."""
        view = step.view()
        judged = tries(step)
        names = [_("Player {number}").format(number=s + 1) for s in range(view.players)]
        names[step.seat] = _(DEFAULT_NAME)
        width, height = self.size()
        self.console.print()
        self.console.print("[bold]" + escape(_("Step {n} of {total}").format(
            n=i + 1, total=len(LESSON)) + " · " + _(step.title)) + "[/]")
        self._say(_(step.text))
        shown = play_screen(view, names, Frame(width=max(width, 20), height=max(height, 24)),
                            with_moves=False)
        for line in shown.lines:
            self.console.print(escape(line))
        for n, t in enumerate(judged, start=1):
            self.console.print(f"  {n:>2}  {t.move.text():<10} {escape(where(t.move, view.table))}")
        moves = [t.move for t in judged]
        while True:
            move = ask_move(self.ask, self.console, view, moves)
            if move is None:
                return False
            found = judged[moves.index(move)]
            verdict = _("Right.") if found.right else _("Not this one.")
            colour = "green" if found.right else "yellow"
            self.console.print(f"[bold {colour}]{escape(verdict)}[/] {escape(found.said)}")
            if found.right:
                try:
                    more = self.ask(_("Enter: the next step, q to leave: ")).strip()
                except (EOFError, KeyboardInterrupt):
                    return False
                return more.lower() not in {"q", "quit"}
