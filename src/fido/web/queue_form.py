"""The lobby's "Play with people" form: the games it offers (FIDO on each set, the classic
games), the table sizes and the waits before bots, and the queue's state as the lobby
shows it. The form's fields become the API's body (``POST /api/queue``), which the server
checks again."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fido.engine.rules import FIDO_DIVISORS, RULESETS, Ruleset
from fido.i18n import gettext
from fido.safe_text import whole_or_none
from fido.server.queue import sizes
from fido.server.tables.timers import turn_based
from fido.web.forms import CLOCKS, FormError, clock_label, game_label

__all__ = ["BOT_WAITS", "QUEUE_FORM", "QueueGame", "queue_body", "queue_clocks", "queue_games",
           "queue_view"]

BOT_WAITS = (30, 60, 120)  # seconds before bots fill her table; or never
# the form's choice until she makes another: a newcomer alone does not wait without end
QUEUE_FORM = {"bots_after": "60"}
QUEUE_DEFAULT = "fido:9"  # the newcomer's game: FIDO double-9


@dataclass(frozen=True)
class QueueGame:
    """One game the form offers: its value ("fido:9", "muggins"), its ruleset's text, the
    sizes it is played at."""

    value: str
    ruleset: str
    min_players: int
    max_players: int

    @property
    def label(self) -> str:
        return game_label(self.ruleset)


def queue_games() -> list[QueueGame]:
    out = []
    for name in RULESETS:
        texts = ([(f"fido:{n}", f"fido set={n}") for n in FIDO_DIVISORS] if name == "fido"
                 else [(name, name)])
        for value, text in texts:
            can = sizes(text)
            out.append(QueueGame(value, Ruleset.from_text(text).text(), can[0], can[-1]))
    return out


def queue_clocks() -> list[tuple[str, str]]:
    """The move clocks the form offers: real time (the default), or a turn-based table's
    hour to three days ("1 day, turn-based", as the form that opens a table says it)."""
    return [("live", gettext("real time"))] + [
        (str(c), gettext("{clock}, turn-based").format(clock=clock_label(c)))
        for c in CLOCKS if turn_based(c)]


def waiting_label(ruleset: str, clock: int | None) -> str:
    """A game as the queue's counts name it: "FIDO double-9" or "FIDO double-9, 1 day a
    move"."""
    label = game_label(ruleset)
    if clock is None:
        return label
    return gettext("{game}, {clock} a move").format(game=label, clock=clock_label(clock))


def queue_body(form: Mapping[str, str]) -> dict[str, Any]:
    """The API's queue body from the form's fields (FormError: a choice not offered)."""
    game, _colon, size = form.get("qgame", QUEUE_DEFAULT).partition(":")
    if game not in RULESETS:
        raise FormError(gettext("Choose one of the games offered."))
    body: dict[str, Any] = {"game": game, "players": None, "bots_after": None}
    if game == "fido":
        set_size = whole_or_none(size)
        if set_size not in FIDO_DIVISORS:
            raise FormError(gettext("Choose one of the FIDO sets offered."))
        body["set"] = set_size
    players = form.get("qplayers", "any")
    if players != "any":
        body["players"] = whole_or_none(players)
        if body["players"] is None:
            raise FormError(gettext("A table has 2 to 9 players."))
    clock = form.get("qclock", "live")
    if clock != "live":
        body["clock"] = whole_or_none(clock)
        if body["clock"] is None or not turn_based(body["clock"]):
            raise FormError(gettext("Choose one of the times per move offered."))
    wait = form.get("bots_after", "never")
    if wait != "never":
        # the form offers BOT_WAITS; the API takes any wait from 1 s (a test's)
        body["bots_after"] = whole_or_none(wait)
        if body["bots_after"] is None:
            raise FormError(gettext("Choose one of the waits offered."))
    return body


def queue_view(state: Mapping[str, Any] | None) -> dict[str, Any]:
    """The queue's state (``GET /api/queue``) as the lobby shows it."""
    state = state or {}
    entry = state.get("entry")
    games = [{"ruleset": g["ruleset"], "clock": g.get("clock"),
              "label": waiting_label(g["ruleset"], g.get("clock")),
              "waiting": g["waiting"]} for g in state.get("games", [])]
    # the page script's names of games, each time per move: "ruleset|clock" ("…|" real time)
    clocks = [None, *(c for c in CLOCKS if turn_based(c))]
    labels = {f"{g.ruleset}|{c or ''}": waiting_label(g.ruleset, c)
              for g in queue_games() for c in clocks}
    return {"entry": entry, "games": games, "online": state.get("online", 0),
            "label": waiting_label(entry["ruleset"], entry.get("clock")) if entry else "",
            "labels": labels}
