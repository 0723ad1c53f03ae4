"""``fido play --match``: hands at the terminal until a side reaches the target.

The scoring is :class:`fido.engine.match.Match`'s (each hand's ``match_points`` per
side, a team or a player); this module only plays the hands one after the
other with :class:`~fido.terminal.session.Session`, saves each hand's record
(``NAME-hand1.json``, ...) and shows the running score between hands.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.table import Table as RichTable

from fido.engine.game import Game
from fido.engine.match import Match
from fido.i18n import _, ngettext, pgettext
from fido.rich_text import safe
from fido.terminal.session import Session

__all__ = ["MatchPlay", "hand_path"]


def hand_path(save: Path, hand: int) -> Path:
    """Where hand ``hand`` of a match saved to ``save`` goes."""
    return save.with_name(f"{save.stem}-hand{hand}{save.suffix or '.json'}")


class MatchPlay:
    """The hands of one match; ``seat_session`` seats everyone at a new hand's game."""

    def __init__(
        self,
        match: Match,
        names: list[str],
        seat_session: Callable[[Game, Path], Session],
        save: Path,
        *,
        console: Console | None = None,
        ask: Callable[[str], str] = input,
        current: Session | None = None,
    ) -> None:
        self.current = current  # a resumed hand, played first (--match --resume)
        self.match = match
        self.names = names
        self.seat_session = seat_session
        self.save = save
        self.console = console or Console(highlight=False)
        self.ask = ask

    def side_name(self, side: tuple[int, ...]) -> str:
        return " + ".join(safe(self.names[s], 24) for s in side)

    def score_table(self, last: tuple[int, ...] | None) -> RichTable:
        """The running score: each side's points in the last hand and in all."""
        m = self.match
        t = RichTable(
            title=_("Match to {target}: after hand {hand}").format(
                target=m.target, hand=len(m.hands)
            )
        )
        t.add_column(pgettext("match", "side"))  # a player or team: Partei
        t.add_column(_("this hand"), justify="right")
        t.add_column(_("total"), justify="right")
        for i, side in enumerate(m.sides):
            t.add_row(
                self.side_name(side), str(last[i]) if last else "", str(m.totals[i]),
                style="bold" if m.is_over and side == m.winner else "",
            )  # fmt: skip
        return t

    def run(self) -> int:
        """Play hands until the match is over or she stops; the exit code (1: an error)."""
        m = self.match
        while not m.is_over:
            hand = len(m.hands) + 1
            if self.current is not None:
                session, self.current = self.current, None
                game = session.game
                self.console.print(
                    _("match to {target}: hand {hand} goes on").format(target=m.target, hand=hand)
                )
            else:
                game = m.new_hand()
                session = self.seat_session(game, hand_path(self.save, hand))
            session.event = f"match to {m.target}, hand {hand}"
            code = session.run()
            if code or not game.is_over:
                return code
            m.add(game)
            assert game.outcome is not None
            self.console.print(self.score_table(game.outcome.match_points))
            if m.is_over:
                break
            try:
                answer = self.ask(_("Enter: the next hand, q: stop the match: ")).strip().lower()
            except EOFError:
                answer = "q"
            if answer.startswith("q"):
                self.console.print(
                    ngettext(
                        "match stopped after {count} hand", "match stopped after {count} hands",
                        hand,
                    ).format(count=hand)
                )
                return 0
        assert m.winner is not None
        self.console.print(
            _("{side} won the match, {points} points").format(
                side=self.side_name(m.winner), points=max(m.totals)
            )
        )
        return 0
