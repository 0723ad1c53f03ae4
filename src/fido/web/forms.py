"""The lobby's create-table form: every ruleset with its options, and the seats.

The form's fields become the API's ``TableIn`` body; the server checks it
again (this module only turns choices into the ruleset's text).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fido.errors import FidoError
from fido.rules import FIDO_DIVISORS, RULESETS, Ruleset, ruleset
from fido.safe_text import whole_or_none

__all__ = [
    "BOT_LEVELS",
    "CLOCKS",
    "GAMES",
    "SEAT_CHOICES",
    "FormError",
    "Game",
    "default_form",
    "game_label",
    "table_body",
]

BOT_LEVELS = ("random", "greedy", "expert", "search")
SEAT_CHOICES: tuple[tuple[str, str], ...] = (
    ("me", "me"),
    ("open", "open"),
    *((f"bot:{level}", f"bot: {level}") for level in BOT_LEVELS),
    ("reserved", "reserved for…"),
)
CLOCKS = (0, 15, 30, 60, 120, 300)  # seconds per move; 0: no clock
_FLAGS = ("count_pips", "all_fives")  # the classic games' options (probed below)
_NAMES = {
    "fido": "FIDO", "straight": "Straight", "block": "Block", "draw": "Draw",
    "muggins": "Muggins (All Fives)", "fives_and_threes": "Fives and Threes",
    "sebastopol": "Sebastopol",
}


class FormError(ValueError):
    """A choice the form cannot turn into a table (the message is for the page)."""


@dataclass(frozen=True)
class Game:
    """One ruleset as the form offers it: its player range and its on/off options."""

    name: str
    label: str
    min_players: int
    max_players: int
    flags: tuple[str, ...]


def _game(name: str) -> Game:
    rules = ruleset(name)
    flags = []
    for flag in _FLAGS:
        try:
            ruleset(name, **{flag: True})
        except FidoError:
            continue
        flags.append(flag)
    if name == "fido":
        flags = ["mother_theresa", "soenke_hansen"]
    return Game(name, _NAMES.get(name, name), rules.min_players, rules.max_players, tuple(flags))


GAMES: tuple[Game, ...] = tuple(_game(name) for name in RULESETS)
_BY_NAME = {g.name: g for g in GAMES}


def default_form() -> dict[str, str]:
    """A newcomer's table: FIDO double-9, her and three expert bots, casual."""
    form = {"game": "fido", "set": "9", "players": "4", "clock": "0", "seat0": "me"}
    form |= {f"seat{i}": "bot:expert" for i in range(1, 9)}
    return form


def _ruleset(form: Mapping[str, str]) -> str:
    name = form.get("game", "fido")
    game = _BY_NAME.get(name)
    if game is None:
        raise FormError("choose one of the games offered")
    words = [name]
    if name == "fido":
        size = form.get("set", "12")
        set_size = whole_or_none(size)
        if set_size not in FIDO_DIVISORS:
            raise FormError("choose one of the FIDO sets offered")
        words.append(f"set={set_size}")
        divisor = form.get("divisor", "").strip()
        if divisor:
            number = whole_or_none(divisor)
            if number is None or not 2 <= number <= 99:
                raise FormError("the divisor is a whole number from 2 to 99")
            if number != FIDO_DIVISORS[set_size]:
                words.append(f"divisor={number}")
        if form.get("direction") == "counterclockwise":
            words.append("direction=counterclockwise")
    words += [flag for flag in game.flags if form.get(flag)]
    text = " ".join(words)
    try:
        return Ruleset.from_text(text).text()
    except FidoError as e:
        raise FormError(str(e)) from None


def table_body(form: Mapping[str, str]) -> dict[str, Any]:
    """The API's table body (``POST /api/tables``) from the form's fields."""
    text = _ruleset(form)
    players = whole_or_none(form.get("players", "")) or 0
    if not 2 <= players <= 9:
        raise FormError("a table has 2 to 9 players")
    seats: list[dict[str, Any]] = []
    for i in range(players):
        choice = form.get(f"seat{i}", "open")
        if choice in ("me", "open"):
            seats.append({"kind": choice})
        elif choice.startswith("bot:") and choice[4:] in BOT_LEVELS:
            seats.append({"kind": "bot", "level": choice[4:]})
        elif choice == "reserved":
            name = form.get(f"name{i}", "").strip()
            if not name:
                raise FormError(f"seat {i + 1} is reserved: for whom? type her name")
            seats.append({"kind": "reserved", "name": name})
        else:
            raise FormError(f"seat {i + 1}: choose one of the kinds offered")
    body: dict[str, Any] = {
        "ruleset": text, "players": players, "seats": seats,
        "rated": bool(form.get("rated")), "private": bool(form.get("private")),
    }
    seconds = whole_or_none(form.get("clock", "0"))
    if seconds not in CLOCKS:
        raise FormError("choose one of the clocks offered")
    if seconds:
        body["clock"] = seconds
    return body


def game_label(text: str) -> str:
    """A ruleset as people say it: ``fido set=12`` is "FIDO double-12"."""
    try:
        rules = Ruleset.from_text(text)
    except FidoError:
        return text
    label = _NAMES.get(rules.name, rules.name)
    if rules.name == "fido":
        label = f"FIDO double-{rules.max_pips}"
    extra = [f"{k.replace('_', ' ')} {v}".strip() for k, v in rules.options if k != "set"]
    return ", ".join([label, *extra])
