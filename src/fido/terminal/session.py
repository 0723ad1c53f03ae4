"""A game at the terminal: one person, bots in the other seats, a prompt per turn.

The person types a move's short key (shown next to it) or its notation
(``12-5@0e``, or just ``12-5`` when it fits one place, ``draw``, ``pass``);
``h`` shows the moves that score now and what the hint bot would play, ``q``
or Ctrl-C asks whether to save and leave. A forced draw or pass is made for
her, and said. Bots' moves come one at a time, ``delay`` seconds apart, so a
person can follow them (each is :func:`fido.bots.runner.bot_move`, the step
every bot loop shares). At the end: the record on disk, then the result.

No game is lost to an error: whatever she types is answered with a message,
and should anything else go wrong the game is saved first, with a line
saying how to go on (``fido play --resume FILE``).
"""

from __future__ import annotations

import datetime as dt
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console

from fido.bots import Bot, make_bot
from fido.bots.runner import bot_move, bot_rng, new_secret
from fido.game import Game, Turn
from fido.moves import Draw, Pass, Placement
from fido.notation import parse_move
from fido.record import GameRecord
from fido.rich_text import safe
from fido.safe_text import printable
from fido.terminal.screen import move_keys, results_table, screen
from fido.views import SeatView

__all__ = ["Session", "default_record_path"]

NAME_ON_SCREEN = 16  # a name is cut to this on the 80-column screen


def default_record_path() -> Path:
    return Path(f"fido-game-{dt.datetime.now():%Y%m%d-%H%M%S}.json")


class Session:
    """One hand: the person at ``seat``, a bot (its spec in ``levels``) in every other seat.

    ``game`` is a fresh deal or a saved game rebuilt from its record; the
    options are checked before (:mod:`fido.terminal.options`), so nothing
    here should fail on them.
    """

    def __init__(
        self,
        game: Game,
        levels: Sequence[str | None],
        seat: int,
        names: Sequence[str],
        *,
        save: Path,
        delay: float = 0.6,
        hint_bot: str = "search:time=0.5",
        date: dt.date | None = None,
        event: str | None = None,
        console: Console | None = None,
        ask: Callable[[str], str] = input,
    ) -> None:
        if not 0 <= seat < game.players or len(levels) != game.players:
            raise ValueError(f"{game.players} seats need {game.players} levels and a seat")
        self.game = game
        self.seat = seat
        self.levels = [None if s == seat else levels[s] for s in range(game.players)]
        self.bots: list[Bot | None] = [make_bot(lv) if lv else None for lv in self.levels]
        if any(b is None for s, b in enumerate(self.bots) if s != seat):
            raise ValueError("every seat but hers needs a bot")
        secret = new_secret()  # the bots' dice: never derived from the deal's seed
        self.rngs = [bot_rng(secret, "play", s) for s in range(game.players)]
        self.names = list(names)
        self.shown = [printable(n, NAME_ON_SCREEN) for n in self.names]  # names are data
        self.save = save
        self.delay = delay
        self.hint_name = hint_bot.split(":", maxsplit=1)[0]
        self.hint = make_bot(hint_bot)
        self.date = date or dt.date.today()
        self.event = event
        self.console = console or Console(width=80, highlight=False)
        self.ask = ask
        self.log: list[str] = []
        for turn in game.history():  # a resumed game: the last moves as she left them
            self._note_turn(turn)
        self.message = ""
        self.saved = False

    # ----------------------------------------------------------------- the loop

    def run(self) -> int:
        """Play to the end (or until she leaves); the exit code: 0, or 1 after an error."""
        try:
            return self._run()
        except Exception as e:
            return self._crash(e)

    def _run(self) -> int:
        game = self.game
        while not game.is_over:
            try:
                if game.turn != self.seat:
                    self._bot_turn()
                elif not self._person_turn():
                    return 0
            except KeyboardInterrupt:
                if not self._leave():
                    return 0
        self._show(game.view(self.seat))
        assert game.outcome is not None
        path = self._save()  # the record first: nothing after it can lose the game
        self.console.print(results_table(game.outcome, self.names))
        self.console.print(f"game record saved to {safe(path)}")
        return 0

    def _bot_turn(self) -> None:
        seat = self.game.turn
        bot = self.bots[seat]
        assert bot is not None
        bot_move(self.game, bot, self.rngs[seat])
        self._note(seat)
        if self.delay:
            self._show(self.game.view(self.seat))
            time.sleep(self.delay)

    def _person_turn(self) -> bool:
        """Ask until she gives a legal move; False when she chose to leave."""
        game = self.game
        view = game.view(self.seat)
        legal = view.legal_moves
        if len(legal) == 1 and isinstance(legal[0], Draw | Pass):
            game.push(legal[0])
            self._note(self.seat)
            self.message = (
                f"you could not place: you {'drew' if isinstance(legal[0], Draw) else 'passed'}"
            )
            return True
        self._show(view)
        self.message = ""
        try:
            text = self.ask("Your move (key or notation, h hint, q quit): ").strip()
        except EOFError:
            self.console.print("input ended")
            self._save_and_say()
            return False
        if text.lower() in ("h", "?", "hint"):
            self.message = self._hint(view)
            return True
        if text.lower() in ("q", "quit"):
            return self._leave()
        move = dict(move_keys(view)).get(text)
        if move is None:
            try:
                move = parse_move(list(legal), text)
            except ValueError as e:  # FidoError, or text the parser refuses otherwise
                self.message = f"'{printable(text, 24)}': {printable(e)}"
                return True
        game.push(move)
        self._note(self.seat)
        return True

    def _leave(self) -> bool:
        """Ctrl-C or q: save and quit, quit, or go on. True means go on."""
        while True:
            try:
                answer = self.ask("Leave the game? s = save and quit, q = quit, c = continue: ")
            except (EOFError, KeyboardInterrupt):
                answer = "s"
            answer = answer.strip().lower()[:1]
            if answer == "c":
                return True
            if answer == "s":
                self._save_and_say()
                return False
            if answer == "q":
                self.console.print("left without saving")
                return False

    def _crash(self, error: Exception) -> int:
        """Something unexpected: save the game where she asked, then say what happened."""
        what = f"{type(error).__name__}: {printable(error, 200)}"
        try:
            path = self._save()
        except Exception as e:
            self.console.print(
                f"[bold red]error:[/] fido play stopped on an internal error ({safe(what)}), "
                f"and the game could not be saved ({safe(type(e).__name__)}: {safe(e, 200)})"
            )
            return 1
        self.console.print(
            f"[bold red]error:[/] fido play stopped on an internal error ({safe(what)}). "
            f"The game is saved in {safe(path)}: go on with fido play --resume {safe(path)}"
        )
        return 1

    # ------------------------------------------------------------------ helpers

    def record(self) -> GameRecord:
        """The game so far, with who sits where (so ``--resume`` can go on)."""
        return GameRecord.from_game(
            self.game, self.names, date=self.date, event=self.event, bots=self.levels
        )

    def _note(self, seat: int) -> None:
        turn = self.game.last_turn()
        assert turn is not None and turn.seat == seat
        self._note_turn(turn)

    def _note_turn(self, turn: Turn) -> None:
        text = turn.move.text()
        if isinstance(turn.move, Draw) and turn.seat == self.seat and turn.drawn is not None:
            text += f" ({turn.drawn.text()})"  # only she sees what she drew
        scored = f"  +{turn.points}" if turn.points else ""
        self.log.append(f"{self.shown[turn.seat]}: {text}{scored}  (sum {turn.ends_sum})")

    def _hint(self, view: SeatView) -> str:
        scoring = [
            f"{m.text()} +{view.points_for(m)}"
            for m in view.legal_moves
            if isinstance(m, Placement) and view.points_for(m)
        ]
        best = self.hint.choose(view, random.Random())
        now = ", ".join(scoring) if scoring else "nothing scores now"
        return f"hint: scoring now: {now}; {self.hint_name} plays {best.text()}"

    def _show(self, view: SeatView) -> None:
        if self.console.is_terminal:
            self.console.clear()  # a fresh 80x24 screen each time, not a scrolling log
        for line in screen(view, self.shown, self.log, self.message):
            self.console.print(safe(line))

    def _save(self) -> Path:
        self.record().save(self.save)
        self.saved = True
        return self.save

    def _save_and_say(self) -> None:
        path = self._save()
        self.console.print(
            f"game saved to {safe(path)} (go on with: fido play --resume {safe(path)}; "
            f"replay it with: fido replay {safe(path)})"
        )
