"""A game at the terminal: one person, bots in the other seats, a prompt per turn.

The person types a move's number (the moves are numbered best first) or its
notation (``12-5@0e``, or just ``12-5`` when it fits one place, ``draw``,
``pass``). Other keys: ``n`` / ``p`` turn the pages of moves, ``/12`` or
``/@3e`` filter them (``/`` alone clears), ``t`` shows the table as a
picture (scroll with w a s d or the arrows, zoom with + and -), ``l`` the
whole log, ``h`` the moves that score now and what the hint bot would play,
``?`` the keys, ``q`` or Ctrl-C asks whether to save and leave. An illegal
move is answered with the engine's reason (:func:`fido.engine.validation.explain`).
A forced draw or pass is made for her, and said (with the tile she drew).
Bots' moves come one at a time, ``delay`` seconds apart, so a person can
follow them (each is :func:`fido.bots.runner.bot_move`, the step every bot
loop shares). At the end: the record on disk, then the result.

The screen takes the whole terminal, whatever its size (80x24 and up), and
is redrawn at every prompt, so a resized terminal is used at once.

No game is lost to an error: whatever she types is answered with a message,
and should anything else go wrong the game is saved first, with a line
saying how to go on (``fido play --resume FILE``).
"""

from __future__ import annotations

import datetime as dt
import random
import re
import shutil
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console

from fido.bots import Bot, make_bot
from fido.bots.names import level_name
from fido.bots.runner import bot_move, bot_rng, new_secret
from fido.engine.game import Game, Turn
from fido.engine.moves import Draw, Move, Pass, Placement
from fido.engine.tiles import Tile
from fido.engine.views import SeatView
from fido.errors import FidoError
from fido.i18n import N_, _
from fido.layout import Layouter
from fido.record import GameRecord
from fido.rich_text import safe
from fido.safe_text import printable
from fido.terminal.picture import UNIT_COLS, UNIT_ROWS, ZOOMS
from fido.terminal.screen import (
    Frame,
    log_screen,
    numbered_moves,
    play_screen,
    results_table,
    table_screen,
    turn_text,
)

__all__ = ["KEYS_HELP", "Session", "ambiguous", "default_record_path", "not_a_move", "refusal"]

NAME_ON_SCREEN = 16  # a name is cut to this on screen
TYPED = 24  # what she typed is quoted back cut to this
LISTED = 6  # a refusal lists at most this many of the legal moves
# the prompt and the help, translated where they are shown
PROMPT = N_("Your move (key or notation, ? keys, q quit): ")
KEYS_HELP = N_(
    "keys: a number plays that move (best first); or type the notation: 12-5@3e (tile@slot), "
    "12-5 alone when it fits one place, draw, pass. n / p: next / previous page of moves. "
    "/12: only the moves with a 12; /12-5: that tile; /@3e: the moves on slot 3e; / alone: all. "
    "t: the table as a picture (w a s d or arrows scroll, + - zoom, f fit). l: the whole log. "
    "h: a hint. q or Ctrl-C: leave (save first if you like)."
)
_NUMBERS = re.compile(r"\s*(\d+)\s*[-|:]\s*(\d+)", re.ASCII)  # a tile typed, in or out of range
_ARROWS = {"\x1b[a": "w", "\x1b[b": "s", "\x1b[c": "d", "\x1b[d": "a"}


def default_record_path() -> Path:
    return Path(f"fido-game-{dt.datetime.now():%Y%m%d-%H%M%S}.json")


def terminal_size() -> tuple[int, int]:
    """(columns, lines) of the terminal now, at least 20 x 8 (80 x 24 when not a terminal)."""
    size = shutil.get_terminal_size((80, 24))
    return max(size.columns, 20), max(size.lines, 8)


def _listed(moves: Sequence[Move]) -> str:
    """A few moves in the notation (the first ``LISTED``, then "…")."""
    text = ", ".join(m.text() for m in moves[:LISTED])
    return text + (", …" if len(moves) > LISTED else "")


def not_a_move(view: SeatView, typed: str, text: str) -> str:
    """Why ``text`` (quoted back as ``typed``) is no move at all: the notation refused it."""
    found = _NUMBERS.match(text)
    if found is not None and max(int(found[1]), int(found[2])) > view.rules.max_pips:
        return _not_in_set(view, typed)
    return _("'{typed}': not a move (? shows the keys)").format(typed=typed)


def _not_in_set(view: SeatView, typed: str) -> str:
    return _("'{typed}': not a tile of this game: the numbers go up to {max}").format(
        typed=typed, max=view.rules.max_pips
    )


def _not_held(view: SeatView, typed: str, tile: Tile) -> str:
    if tile.high > view.rules.max_pips:
        return _not_in_set(view, typed)
    return _("'{typed}': you do not hold {tile}").format(typed=typed, tile=tile.text())


def refusal(view: SeatView, typed: str, move: Move) -> str:
    """Why ``move`` (typed as ``typed``) is not legal now, in the terminal's own words.

    The engine's reasons are English (:mod:`fido.engine.validation`); the terminal finds its
    own from the move, her hand, the table and the legal moves, which it can list.
    """
    legal = [m for _n, m in numbered_moves(view)]
    table = view.table
    if isinstance(move, Placement):
        tile = move.tile
        if tile not in view.hand:
            return _not_held(view, typed, tile)
        placed = len(table.placements)
        if placed and move.anchor >= placed:
            return _(
                "'{typed}': no tile #{number} on the table (the tiles are numbered 0 to {last})"
            ).format(typed=typed, number=move.anchor, last=placed - 1)
        slot = table.open.get(move.slot) if placed else None
        if placed and slot is None:
            return _("'{typed}': {slot} is not an open slot (open: {slots})").format(
                typed=typed, slot=table.slot_name(move.slot),
                slots=" ".join(table.slot_name(c) for c in table.open),
            )  # fmt: skip
        if slot is not None and slot[0] not in (tile.high, tile.low):
            return _("'{typed}': {tile} does not show {value}, the number at {slot}").format(
                typed=typed, tile=tile.text(), value=slot[0], slot=table.slot_name(move.slot)
            )
        fits = [m for m in legal if isinstance(m, Placement) and m.tile == tile]
        if fits:
            return _("'{typed}': {tile} does not go there now. It fits: {moves}").format(
                typed=typed, tile=tile.text(), moves=_listed(fits)
            )
        return _("'{typed}': {tile} does not fit now. Possible moves: {moves}").format(
            typed=typed, tile=tile.text(), moves=_listed(legal)
        )
    if isinstance(move, Draw):
        return _("'{typed}': you cannot draw now. Possible moves: {moves}").format(
            typed=typed, moves=_listed(legal)
        )
    return _("'{typed}': you cannot pass now. Possible moves: {moves}").format(
        typed=typed, moves=_listed(legal)
    )


def ambiguous(view: SeatView, typed: str, tile: Tile) -> str | None:
    """Why a tile typed alone (no slot) is not one move now; None when it is one."""
    fits = [m for m in view.legal_moves if isinstance(m, Placement) and m.tile == tile]
    if len(fits) == 1:
        return None
    if fits:
        return _("'{typed}': {tile} fits several places: {moves}").format(
            typed=typed, tile=tile.text(), moves=", ".join(m.text() for m in fits)
        )
    if tile not in view.hand:
        return _not_held(view, typed, tile)
    return _("'{typed}': {tile} matches no open slot you may play now").format(
        typed=typed, tile=tile.text()
    )


class Session:
    """One hand: the person at ``seat``, a bot (its spec in ``levels``) in every other seat.

    ``game`` is a fresh deal or a saved game rebuilt from its record; the
    options are checked before (:mod:`fido.terminal.options`), so nothing
    here should fail on them. ``size`` gives the terminal's (columns, lines).
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
        size: Callable[[], tuple[int, int]] = terminal_size,
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
        self.console = console or Console(highlight=False)
        self.ask = ask
        self.size = size
        self.lay = Layouter(game.rules.layout, game.rules.max_pips)
        self.log: list[str] = []
        for turn in game.history():  # a resumed game: the moves so far
            self._note_turn(turn)
        self.message = ""
        self.page = 0
        self.query = ""
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
        self.console.print(_("game record saved to {path}").format(path=safe(path)))
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
            turn = self._note(self.seat)
            if isinstance(legal[0], Draw) and turn.drawn is not None:
                self.message = _("you could not place: you drew {tile}").format(
                    tile=turn.drawn.text()
                )
            elif isinstance(legal[0], Draw):
                self.message = _("you could not place: you drew")
            else:
                self.message = _("you could not place: you passed")
            return True
        self._show(view)
        self.message = ""
        try:
            text = self.ask(_(PROMPT)).strip()
        except EOFError:
            self.console.print(_("input ended"))
            self._save_and_say()
            return False
        return self._answer(view, text)

    def _answer(self, view: SeatView, text: str) -> bool:
        """One line she typed: a key or a move. False when she chose to leave."""
        key = text.lower()
        if key in ("h", "hint"):
            self.message = self._hint(view)
        elif key in ("?", "help"):
            self.message = _(KEYS_HELP)
        elif key in ("q", "quit"):
            return self._leave()
        elif key in ("n", ">"):
            self.page += 1
        elif key in ("p", "<"):
            self.page = max(self.page - 1, 0)
        elif key.startswith("/"):
            self.query, self.page = key[1:].strip()[:12], 0
        elif key == "t":
            self._table_view()
        elif key == "l":
            self._log_view()
        elif key == "":
            pass
        else:
            move = self._move(view, text)
            if move is not None:
                self.game.push(move)
                self._note(self.seat)
                self.page, self.query = 0, ""
        return True

    def _move(self, view: SeatView, text: str) -> Move | None:
        """The move ``text`` names, or None with the reason in the message."""
        numbered = dict(numbered_moves(view))
        typed = printable(text, TYPED)
        if text.isascii() and text.isdigit():
            move = numbered.get(int(text[:6]))
            if move is None:
                self.message = _("'{typed}': the moves are numbered 1 to {count}").format(
                    typed=typed, count=len(numbered)
                )
            return move
        try:
            move = Move.from_text(text)
        except FidoError:  # the notation's reason is English: the terminal says its own
            self.message = not_a_move(view, typed, text)
            return None
        if move in view.legal_moves:
            return move
        if isinstance(move, Placement) and move.is_opening and view.table.placements:
            why = ambiguous(view, typed, move.tile)
            if why is None:  # the tile alone, where it fits one place
                return next(m for m in view.legal_moves
                            if isinstance(m, Placement) and m.tile == move.tile)  # fmt: skip
            self.message = why
            return None
        self.message = refusal(view, typed, move)
        return None

    # ------------------------------------------------------------ other screens

    def _table_view(self) -> None:
        """The table as a picture: scroll with w a s d (or the arrows), zoom with + and -."""
        zoom, centre = 1, None
        while True:
            width, height = self.size()
            lines, centre = table_screen(self._layout(), width, height, zoom, centre)
            self._print(lines)
            try:
                answer = self.ask(_("Table: w a s d scroll, + - zoom, f fit, Enter back: "))
            except EOFError:
                return
            answer = answer.strip().lower()
            answer = _ARROWS.get(answer, answer)
            if answer in ("", "b", "q", "x"):
                return
            dx = width / 2 / UNIT_COLS[zoom]
            dy = max(height - 3, 2) / 2 / UNIT_ROWS[zoom]
            for ch in answer[:20]:
                x, y = centre
                if ch in "wasd":
                    centre = (x + dx * {"a": -1, "d": 1}.get(ch, 0),
                              y + dy * {"w": -1, "s": 1}.get(ch, 0))  # fmt: skip
                elif ch == "+":
                    zoom = min(zoom + 1, ZOOMS[-1])
                elif ch == "-":
                    zoom = max(zoom - 1, ZOOMS[0])
                elif ch == "f":
                    zoom, centre = 0, None
                    break

    def _log_view(self) -> None:
        """The whole log, the latest page first; n / p turn the pages."""
        width, height = self.size()
        page = 10**9
        while True:
            lines, pages = log_screen(self.log, width, height, page)
            page = min(page, pages - 1)
            self._print(lines)
            try:
                answer = self.ask(_("Log: n next, p back, Enter back: ")).strip().lower()
            except EOFError:
                return
            if answer in ("n", ">"):
                page = min(page + 1, pages - 1)
            elif answer in ("p", "<"):
                page = max(page - 1, 0)
            else:
                return

    def _leave(self) -> bool:
        """Ctrl-C or q: save and quit, quit, or go on. True means go on."""
        while True:
            try:
                answer = self.ask(
                    _("Leave the game? s = save and quit, q = quit, c = continue: ")
                )
            except (EOFError, KeyboardInterrupt):
                answer = "s"
            answer = answer.strip().lower()[:1]
            if answer == "c":
                return True
            if answer == "s":
                self._save_and_say()
                return False
            if answer == "q":
                self.console.print(_("left without saving"))
                return False

    def _crash(self, error: Exception) -> int:
        """Something unexpected: save the game where she asked, then say what happened."""
        what = f"{type(error).__name__}: {printable(error, 200)}"
        label = _("error:")
        try:
            path = self._save()
        except Exception as e:
            why = _(
                "fido play stopped on an internal error ({error}), and the game could not "
                "be saved ({reason})"
            ).format(error=safe(what), reason=f"{safe(type(e).__name__)}: {safe(e, 200)}")
            self.console.print(f"[bold red]{label}[/] {why}")
            return 1
        why = _(
            "fido play stopped on an internal error ({error}). The game is saved in {path}: "
            "go on with fido play --resume {path}"
        ).format(error=safe(what), path=safe(path))
        self.console.print(f"[bold red]{label}[/] {why}")
        return 1

    # ------------------------------------------------------------------ helpers

    def record(self) -> GameRecord:
        """The game so far, with who sits where (so ``--resume`` can go on)."""
        return GameRecord.from_game(
            self.game, self.names, date=self.date, event=self.event, bots=self.levels
        )

    def _note(self, seat: int) -> Turn:
        turn = self.game.last_turn()
        assert turn is not None and turn.seat == seat
        self._note_turn(turn)
        return turn

    def _note_turn(self, turn: Turn) -> None:
        text = turn_text(turn, drawn=turn.seat == self.seat)  # only she sees what she drew
        number = len(self.log) + 1
        total = _("(sum {sum})").format(sum=turn.ends_sum)
        self.log.append(f"{number:>3}. {self.shown[turn.seat]}: {text}  {total}")

    def _layout(self) -> Layouter:
        """The table's layout, extended move by move (fido.layout: the web's geometry)."""
        placements = self.game.table.placements
        if len(self.lay) < len(placements):
            self.lay.extend(placements[len(self.lay) :])
        return self.lay

    def _hint(self, view: SeatView) -> str:
        numbered = {m: n for n, m in numbered_moves(view)}
        scoring = [
            f"{numbered[m]}: {m.text()} +{view.points_for(m)}"
            for m in view.legal_moves
            if isinstance(m, Placement) and view.points_for(m)
        ]
        best = self.hint.choose(view, random.Random())
        if scoring:
            now = _("scoring now: {moves}").format(moves=", ".join(scoring))
        else:
            now = _("nothing scores now")
        return _("hint: {scoring}; {bot} plays {number}: {move}").format(
            scoring=now, bot=level_name(self.hint_name), number=numbered[best],
            move=best.text()
        )

    def _show(self, view: SeatView) -> None:
        width, height = self.size()
        frame = Frame(width, height, self.page, self.query, self.message)
        shown = play_screen(view, self.shown, frame, self._layout())
        self.page = shown.page  # past the last page: stays on it
        self._print(shown.lines)

    def _print(self, lines: Sequence[str]) -> None:
        if self.console.is_terminal:
            self.console.clear()  # a fresh screen each time, not a scrolling log
        for line in lines:
            self.console.print(safe(line), soft_wrap=True)

    def _save(self) -> Path:
        self.record().save(self.save)
        self.saved = True
        return self.save

    def _save_and_say(self) -> None:
        path = self._save()
        self.console.print(
            _(
                "game saved to {path} (go on with: fido play --resume {path}; "
                "replay it with: fido replay {path})"
            ).format(path=safe(path))
        )
