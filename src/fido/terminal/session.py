"""A game at the terminal: one person, bots in the other seats, a prompt per turn.

The person types a move's short key (shown next to it) or its notation
(``12-5@0e``, or just ``12-5`` when it fits one place, ``draw``, ``pass``);
``h`` shows the moves that score now and what the hint bot would play, ``q``
or Ctrl-C asks whether to save and leave. A forced draw or pass is made for
her, and said. Bots' moves come one at a time, ``delay`` seconds apart, so a
person can follow them. At the end: the result and the game record on disk.
"""

from __future__ import annotations

import datetime as dt
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from fido.bots import Bot, make_bot
from fido.errors import FidoError
from fido.game import Game
from fido.moves import Draw, Pass, Placement
from fido.notation import parse_move
from fido.record import GameRecord
from fido.rules import Ruleset
from fido.terminal.screen import move_keys, results_table, screen
from fido.views import SeatView

__all__ = ["Session", "default_record_path"]


def default_record_path() -> Path:
    return Path(f"fido-game-{dt.datetime.now():%Y%m%d-%H%M%S}.json")


@dataclass
class Session:
    """One hand: the person at ``seat``, ``bots`` (a level per other seat) elsewhere."""

    rules: Ruleset
    bots: Sequence[str]
    seat: int = 0
    name: str = "You"
    seed: int | None = None
    delay: float = 0.6
    save: Path | None = None
    hint_bot: str = "search:time=0.5"
    console: Console = field(default_factory=lambda: Console(width=80, highlight=False))
    ask: Callable[[str], str] = input

    def __post_init__(self) -> None:
        players = len(self.bots) + 1
        if not 0 <= self.seat < players:
            raise ValueError(f"your seat is 0 .. {players - 1}, not {self.seat}")
        seed = self.seed if self.seed is not None else random.SystemRandom().getrandbits(64)
        self.game = Game.new(self.rules, players, seed=seed)
        levels = list(self.bots)
        levels.insert(self.seat, "")
        self.players: list[Bot | None] = [make_bot(lv) if lv else None for lv in levels]
        self.rngs = [random.Random(f"fido-play:{seed}:{s}") for s in range(players)]
        self.names = [
            self.name if s == self.seat else f"{levels[s].split(':')[0]} {s + 1}"
            for s in range(players)
        ]
        self.log: list[str] = []
        self.message = ""

    # ----------------------------------------------------------------- the loop

    def run(self) -> Game:
        """Play the hand to its end (or until she leaves); returns the game."""
        game = self.game
        while not game.is_over:
            try:
                if game.turn != self.seat:
                    self._bot_turn()
                elif not self._person_turn():
                    return game
            except KeyboardInterrupt:
                if not self._leave():
                    return game
        self._show(self.game.view(self.seat))
        assert game.outcome is not None
        self.console.print(results_table(game.outcome, self.names))
        path = self._save()
        self.console.print(f"game record saved to {path}")
        return game

    def _bot_turn(self) -> None:
        game = self.game
        seat = game.turn
        bot = self.players[seat]
        assert bot is not None
        move = bot.choose(game.view(seat), self.rngs[seat])
        game.push(move)
        self._note(seat)
        if self.delay:
            self._show(game.view(self.seat))
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
        keys = dict(move_keys(view))
        move = keys.get(text)
        if move is None:
            try:
                move = parse_move(list(legal), text)
            except FidoError as e:
                self.message = f"'{text}': {e}"
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

    # ------------------------------------------------------------------ helpers

    def _note(self, seat: int) -> None:
        turn = self.game.last_turn()
        assert turn is not None
        who = self.names[seat]
        text = turn.move.text()
        if isinstance(turn.move, Draw) and seat == self.seat and turn.drawn is not None:
            text += f" ({turn.drawn.text()})"  # only she sees what she drew
        scored = f"  +{turn.points}" if turn.points else ""
        self.log.append(f"{who}: {text}{scored}  (sum {turn.ends_sum})")

    def _hint(self, view: SeatView) -> str:
        scoring = [
            f"{m.text()} +{view.points_for(m)}"
            for m in view.legal_moves
            if isinstance(m, Placement) and view.points_for(m)
        ]
        bot = make_bot(self.hint_bot)
        best = bot.choose(view, random.Random())
        now = ", ".join(scoring) if scoring else "nothing scores now"
        return f"hint: scoring now: {now}; {self.hint_bot.split(':')[0]} plays {best.text()}"

    def _show(self, view: SeatView) -> None:
        if self.console.is_terminal:
            self.console.clear()  # a fresh 80x24 screen each time, not a scrolling log
        for line in screen(view, self.names, self.log, self.message):
            self.console.print(escape(line))

    def _save(self) -> Path:
        path = self.save or default_record_path()
        GameRecord.from_game(self.game, self.names, date=dt.date.today()).save(path)
        return path

    def _save_and_say(self) -> None:
        path = self._save()
        self.console.print(f"game saved to {path} (replay it with: fido replay {path})")
