"""The lobby's create-table form: every ruleset with its options, and the seats.

The form's fields become the API's ``TableIn`` body; the server checks it
again (this module only turns choices into the ruleset's text).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fido.bots.names import first_name, level_name
from fido.engine.rules import FIDO_DIVISORS, RULESETS, Ruleset, ruleset
from fido.errors import FidoError
from fido.i18n import N_, format_number, gettext, ngettext, pgettext
from fido.safe_text import whole_or_none
from fido.server.schemas import MATCH_HANDS, MATCH_TARGET
from fido.server.tables.matches import DEFAULT_HANDS
from fido.server.tables.timers import turn_based

__all__ = [
    "BOT_LEVELS",
    "CLOCKS",
    "GAMES",
    "SEAT_CHOICES",
    "FormError",
    "Game",
    "bot_help",
    "bot_level",
    "bot_name",
    "clock_choices",
    "clock_label",
    "default_form",
    "game_label",
    "seat_choices",
    "set_label",
    "table_body",
    "time_left",
]

BOT_LEVELS = ("random", "greedy", "expert", "search", "champion")
# the seat kinds: the form's value and its label (translated where shown: seat_choices)
SEAT_CHOICES: tuple[tuple[str, str], ...] = (
    ("me", N_("me")),
    ("open", N_("open")),
    *((f"bot:{level}", f"bot: {level}") for level in BOT_LEVELS),
    ("reserved", N_("reserved for…")),
)
# what each level is measured to do (bench/ladder.py; figures: docs/performance.md, the
# ladder of 2026-11-23: each level's points a hand over the level below, duplicate deals;
# the champion's: bench/duel.py's runs fixed in advance, issue 45: double-18 seeds 520731
# (no clock) and 861407 (the defaults), double-12 seeds 290617 and 508813 (the
# defaults, 4,000 simulations), double-6 seed 604211;
# docs/bots.md)
BOT_HELP = {
    "random": N_("plays any legal move at random: to learn the rules against"),
    "greedy": N_("takes the move that scores most now: measured 71 points a hand better "
                 "than random on double-12 with 4 players (15 on double-6 with 3)"),
    "expert": N_("plays as the FIDO texts teach (doubles, jokers kept for later): 33 points "
                 "a hand better than greedy on double-12 (2 on double-6)"),
    "search": N_("the expert checked by simulated play-outs, under a second a move: 3 to 8 "
                 "points a hand better than expert on double-12 (2 on double-6)"),
    "champion": N_("search with the expert's advice weighed by self-play and play-outs "
                   "that play like the expert, under a second a move: 23 and 30 points "
                   "a hand better than search on double-18 with 6 players (two runs of 40 "
                   "deals fixed in advance); 7 and 8 on double-12 with 4 (two runs of 100 "
                   "deals); on double-6 with 3 a third of a point (one run of 1,500 deals, "
                   "just above zero)"),
}
# seconds per move; 0: no clock; an hour or more: a turn-based table (TURN_BASED)
CLOCKS = (0, 15, 30, 60, 120, 300, 3600, 43200, 86400, 259200)
TIMEOUT_CHOICES = (1, 2, 3, 5, 10)  # run-out clocks before the stand-in takes her seat
_FLAGS = ("count_pips", "all_fives")  # the classic games' options (probed below)
_NAMES = {
    "fido": "FIDO", "straight": N_("Straight"), "block": N_("Block"), "draw": N_("Draw"),
    "muggins": N_("Muggins (All Fives)"), "fives_and_threes": N_("Fives and Threes"),
    "sebastopol": N_("Sebastopol"),
}
# a ruleset's options as its label shows them ("divisor 5"); an option not here shows
# as it is written
_OPTIONS = {
    "divisor": N_("divisor {value}"), "hand": N_("hand {value}"),
    "mother_theresa": N_("mother theresa"), "soenke_hansen": N_("soenke hansen"),
    "count_pips": N_("count pips"), "all_fives": N_("all fives"),
    "direction=counterclockwise": N_("direction counterclockwise"),
    "opener=highest_double": N_("opener highest double"),
    "opener=lowest_double": N_("opener lowest double"),
    "opener=first_seat": N_("opener first seat"),
}


def bot_level(level: str) -> str:
    """A bot's level in the reader's language (an unknown one as it is)."""
    return level_name(level)


def bot_name(level: str, seat: int | None = None, key: str = "") -> str:
    """A bot as the pages name it: at ``seat`` of a table (``key``: its match's id, else
    its own), "Expert Ada", the name the table page gave it; else "bot (expert)"."""
    if seat is None:
        return gettext("bot ({level})").format(level=bot_level(level))
    return gettext("{level} {name}").format(level=bot_title(level),
                                            name=first_name(seat, key))


def bot_title(level: str) -> str:
    """A bot's level before its name, as a title: "Expert" (German: "Profi")."""
    titles = {"random": pgettext("bot", "Random"), "greedy": pgettext("bot", "Greedy"),
              "expert": pgettext("bot", "Expert"), "search": pgettext("bot", "Search"),
              "champion": pgettext("bot", "Champion")}
    return titles.get(level, level)


def bot_help() -> list[tuple[str, str]]:
    """Each bot level with what it is measured to do, in the reader's language."""
    return [(bot_level(level), gettext(BOT_HELP[level])) for level in BOT_LEVELS]


def seat_choices() -> list[tuple[str, str]]:
    """The seat kinds with their labels in the reader's language."""
    out = []
    for value, label in SEAT_CHOICES:
        if value.startswith("bot:"):
            label = gettext("bot: {level}").format(level=bot_level(value[4:]))
        else:
            label = gettext(label)
        out.append((value, label))
    return out


def clock_label(seconds: int) -> str:
    """A move clock as a person says it: "30 s", "12 hours", "3 days"."""
    if seconds >= 86400 and seconds % 86400 == 0:
        days = seconds // 86400
        return ngettext("{n} day", "{n} days", days).format(n=days)
    if seconds >= 3600 and seconds % 3600 == 0:
        hours = seconds // 3600
        return ngettext("{n} hour", "{n} hours", hours).format(n=hours)
    return gettext("{seconds} s").format(seconds=format_number(seconds))


def time_left(seconds: int) -> str:
    """The time left on a clock, as her list of games says it: "2 d 3 h", "5 h 20 min",
    "4:05"."""
    days, rest = divmod(seconds, 86400)
    hours = rest // 3600
    if days:
        return gettext("{days} d {hours} h").format(days=days, hours=hours)
    if hours:
        return gettext("{hours} h {minutes} min").format(hours=hours,
                                                         minutes=seconds % 3600 // 60)
    return f"{seconds // 60}:{seconds % 60:02d}"


def clock_choices() -> list[tuple[int, str]]:
    """The move clocks with their labels ("30 s", "1 day, turn-based", "none")."""
    out = []
    for c in CLOCKS:
        label = clock_label(c) if c else gettext("none")
        if turn_based(c):
            label = gettext("{clock}, turn-based").format(clock=label)
        out.append((c, label))
    return out


def set_label(size: int, divisor: int) -> str:
    """A FIDO set in the form's list: "double-12 (divisor 5)"."""
    return gettext("double-{size} (divisor {divisor})").format(size=size, divisor=divisor)


class FormError(ValueError):
    """A choice the form cannot turn into a table (the message is for the page: a whole
    sentence in the reader's language)."""


@dataclass(frozen=True)
class Game:
    """One ruleset as the form offers it: its player range and its on/off options."""

    name: str
    label: str  # English; ``title`` is the reader's
    min_players: int
    max_players: int
    flags: tuple[str, ...]
    target: int | None = None  # the points a match of it is played to, by its rules

    @property
    def title(self) -> str:
        """The game's name in the reader's language."""
        return gettext(self.label)


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
    return Game(name, _NAMES.get(name, name), rules.min_players, rules.max_players, tuple(flags),
                rules.match_target)


GAMES: tuple[Game, ...] = tuple(_game(name) for name in RULESETS)
_BY_NAME = {g.name: g for g in GAMES}


def default_form() -> dict[str, str]:
    """A newcomer's table: FIDO double-9, her and three expert bots, casual."""
    form = {"game": "fido", "set": "9", "players": "4", "clock": "0", "seat0": "me",
            "match": "one"}
    form |= {f"seat{i}": "bot:expert" for i in range(1, 9)}
    return form


def _ruleset(form: Mapping[str, str]) -> str:
    name = form.get("game", "fido")
    game = _BY_NAME.get(name)
    if game is None:
        raise FormError(gettext("Choose one of the games offered."))
    words = [name]
    if name == "fido":
        size = form.get("set", "12")
        set_size = whole_or_none(size)
        if set_size not in FIDO_DIVISORS:
            raise FormError(gettext("Choose one of the FIDO sets offered."))
        words.append(f"set={set_size}")
        divisor = form.get("divisor", "").strip()
        if divisor:
            number = whole_or_none(divisor)
            if number is None or not 2 <= number <= 99:
                raise FormError(gettext("The divisor must be a whole number from 2 to 99."))
            if number != FIDO_DIVISORS[set_size]:
                words.append(f"divisor={number}")
        if form.get("direction") == "counterclockwise":
            words.append("direction=counterclockwise")
    words += [flag for flag in game.flags if form.get(flag)]
    text = " ".join(words)
    try:
        return Ruleset.from_text(text).text()
    except FidoError:  # the checks above leave none; the engine's words are not the page's
        raise FormError(gettext("These choices do not make a game: change one.")) from None


def table_body(form: Mapping[str, str]) -> dict[str, Any]:
    """The API's table body (``POST /api/tables``) from the form's fields."""
    text = _ruleset(form)
    players = whole_or_none(form.get("players", "")) or 0
    if not 2 <= players <= 9:
        raise FormError(gettext("A table has 2 to 9 players."))
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
                raise FormError(gettext(
                    "Seat {seat} is reserved: for whom? Type her name.").format(seat=i + 1))
            seats.append({"kind": "reserved", "name": name})
        else:
            raise FormError(gettext(
                "Seat {seat}: choose one of the kinds offered.").format(seat=i + 1))
    body: dict[str, Any] = {
        "ruleset": text, "players": players, "seats": seats,
        "rated": bool(form.get("rated")), "private": bool(form.get("private")),
        "rates": not form.get("friendly"),  # a friendly game moves no game rating
    }
    seconds = whole_or_none(form.get("clock", "0"))
    if seconds not in CLOCKS:
        raise FormError(gettext("Choose one of the clocks offered."))
    if seconds:
        body["clock"] = seconds
    forced = form.get("forced", "auto")  # auto: on at a turn-based table (the API's None)
    if forced not in ("auto", "on", "off"):
        raise FormError(gettext("Choose one of the choices offered."))
    if forced != "auto":
        body["forced"] = forced == "on"
    timeouts = form.get("timeouts", "auto")  # auto: 3 at a turn-based table (the API's None)
    if timeouts != "auto":
        body["timeouts"] = whole_or_none(timeouts)
        if body["timeouts"] not in TIMEOUT_CHOICES:
            raise FormError(gettext("Choose one of the choices offered."))
    match = _match(form, text)
    if match is not None:
        body["match"] = match
    return body


MATCH_LENGTHS = ("one", "points", "hands")  # one hand, a match to N points, N hands


def _match(form: Mapping[str, str], text: str) -> dict[str, Any] | None:
    """The API's ``match`` from the form's length: one hand (None), a match to N points
    (empty: the game's own target), or N hands (empty: 3)."""
    length = form.get("match", "one")
    if length not in MATCH_LENGTHS:
        raise FormError(gettext("Choose one of the lengths offered."))
    if length == "one":
        return None
    if length == "points":
        given = form.get("target", "").strip()
        lo, hi = MATCH_TARGET
        if not given:
            if Ruleset.from_text(text).match_target is None:
                raise FormError(gettext(
                    "This game has no target of its own: say to how many points the match "
                    "is played."))
            return {"kind": "points"}
        target = whole_or_none(given)
        if target is None or not lo <= target <= hi:
            raise FormError(gettext(
                "A match's target is a whole number from {lo} to {hi} points.").format(
                    lo=lo, hi=hi))
        return {"kind": "points", "goal": target}
    given = form.get("hands", "").strip()
    lo, hi = MATCH_HANDS
    hands = whole_or_none(given) if given else DEFAULT_HANDS
    if hands is None or not lo <= hands <= hi:
        raise FormError(gettext(
            "The number of hands must be a whole number from {lo} to {hi}.").format(lo=lo, hi=hi))
    return {"kind": "hands", "goal": hands}


def _option(key: str, value: str) -> str:
    """One option of a ruleset's label, in the reader's language."""
    text = _OPTIONS.get(f"{key}={value}") or _OPTIONS.get(key)
    if text is None:
        return f"{key.replace('_', ' ')} {value}".strip()
    return gettext(text).format(value=value)


def game_label(text: str) -> str:
    """A ruleset as people say it: ``fido set=12`` is "FIDO double-12"."""
    try:
        rules = Ruleset.from_text(text)
    except FidoError:
        return text
    label = gettext(_NAMES.get(rules.name, rules.name))
    if rules.name == "fido":
        label = gettext("FIDO double-{size}").format(size=rules.max_pips)
    extra = [_option(k, v) for k, v in rules.options if k != "set"]
    return ", ".join([label, *extra])
