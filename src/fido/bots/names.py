"""The bots' first names at a table: the same in every language, and the same list the
web's tables take theirs from (static/js/ui.js), so a bot is "Clara" in the terminal and
"Expert Clara" (German "Clara (Profi)") on the web."""

from __future__ import annotations

from fido.i18n import N_, _

__all__ = ["LEVELS", "NAMES", "first_name", "level_name"]

# more than a table has seats (9), so no table repeats one
NAMES = ("Ada", "Bruno", "Clara", "Dario", "Emil", "Frida", "Greta", "Hugo", "Ida",
         "Jonas", "Kira", "Luca")

# a bot's level as people read it (the level's code stays the programs' word)
LEVELS = {"random": N_("random"), "greedy": N_("greedy"), "expert": N_("expert"),
          "search": N_("search"), "champion": N_("champion")}


def first_name(seat: int, key: str) -> str:
    """A bot's first name at ``seat``: seats in a row take names in a row, from a place
    ``key`` picks (a match's id, so its bots keep their names from hand to hand; else the
    table's), the same as the page scripts' ``botName`` (static/js/ui.js)."""
    start = 0
    for c in key:
        start = (start * 31 + ord(c)) % len(NAMES)
    return NAMES[(start + seat) % len(NAMES)]


def level_name(level: str) -> str:
    """A bot's level in the reader's language ("expert": Profi); an unknown one as it is."""
    return _(LEVELS[level]) if level in LEVELS else level
