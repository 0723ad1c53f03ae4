"""``fido puzzle``: a puzzle at the terminal (:mod:`fido.puzzles`), and her puzzle rating
kept in a file of hers (``$XDG_DATA_HOME/fido/puzzles.json``; the web app keeps it with
her account instead).

The position is shown as ``fido play`` draws it, her moves numbered in the engine's order
without their points; her first answer to a puzzle moves her rating by the rule the
server uses (:func:`fido.puzzles.rated`), a later one nothing.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from fido import puzzles
from fido.engine.moves import Move, Placement
from fido.i18n import _
from fido.puzzles import Puzzle, same_move
from fido.terminal.asking import ask_move
from fido.terminal.options import DEFAULT_NAME
from fido.terminal.screen import Frame, play_screen
from fido.terminal.session import terminal_size

__all__ = ["Solver", "Standing", "standing_file"]

def standing_file() -> Path:
    """Where her terminal puzzle rating is kept."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "fido" / "puzzles.json"


@dataclass
class Standing:
    """Her puzzle rating at the terminal and the puzzles she answered."""

    rating: float = puzzles.START
    answered: dict[str, bool] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path) -> Standing:
        """Hers, or a newcomer's where the file is missing or not hers to trust."""
        try:
            data = json.loads(path.read_text(encoding="utf-8")[:1_000_000])
            rating = float(data["rating"])
            answered = {str(k)[:16]: bool(v) for k, v in dict(data["answered"]).items()}
            if not 0 < rating < 5000:
                raise ValueError(rating)
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return cls()
        return cls(rating, answered)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"rating": round(self.rating, 2), "answered": self.answered}),
                       encoding="utf-8")
        tmp.replace(path)


class Solver:
    """One puzzle at the terminal: :meth:`run` returns False when she left without an
    answer."""

    def __init__(self, standing: Standing, console: Console | None = None,
                 ask: Callable[[str], str] = input,
                 size: Callable[[], tuple[int, int]] = terminal_size) -> None:
        self.standing = standing
        self.console = console or Console(highlight=False)
        self.ask = ask
        self.size = size

    def run(self, puzzle: Puzzle, day: dt.date | None = None) -> bool:
        view = puzzle.seat_view()
        assert view.seat is not None
        names = [_("Player {number}").format(number=s + 1) for s in range(view.players)]
        names[view.seat] = _(DEFAULT_NAME)
        title = (_("Puzzle of the day, {date}").format(date=day.isoformat()) if day
                 else _("Puzzle {id}").format(id=puzzle.id))
        self.console.print(f"[bold]{escape(title)}[/] · " + escape(
            _("puzzle rating {rating}, yours {mine}").format(
                rating=puzzle.rating, mine=round(self.standing.rating))))
        self.console.print(escape(_("Find the best move: the analysis played the hand on over "
                                    "many deals of the tiles you cannot see.")))
        width, height = self.size()
        shown = play_screen(view, names, Frame(width=max(width, 20), height=max(height, 24)),
                            with_moves=False)
        for line in shown.lines:
            self.console.print(escape(line))
        moves = [m for m in view.legal_moves if isinstance(m, Placement)]
        for n, m in enumerate(moves, start=1):
            self.console.print(f"  {n:>2}  {m.text()}")
        move = ask_move(self.ask, self.console, view, moves)
        if move is None:
            return False
        solved = same_move(view, move, Move.from_text(puzzle.best[0]))
        head = (_("Right.") if solved else
                _("Not this one: the best move is {move}.").format(move=puzzle.best[0]))
        colour = "green" if solved else "yellow"
        why = puzzles.explanation(puzzle)
        self.console.print(f"[bold {colour}]{escape(head)}[/] {escape(why)}")
        if puzzle.id in self.standing.answered:
            self.console.print(escape(_("You had answered this puzzle before: your rating stays "
                                        "{rating}.").format(rating=round(self.standing.rating))))
            return True
        before = self.standing.rating
        self.standing.rating = puzzles.rated(before, len(self.standing.answered), puzzle.rating,
                                             solved)
        self.standing.answered[puzzle.id] = solved
        self.console.print(escape(_("Your puzzle rating: {before} → {after}.").format(
            before=round(before), after=round(self.standing.rating))))
        return True
