"""The bots' first names at a table: the same in every language, and the same list the
web's tables take theirs from (static/js/ui.js), so a bot is "Clara" in the terminal and
"Expert Clara" (German "Clara (Profi)") on the web."""

from __future__ import annotations

__all__ = ["NAMES"]

# more than a table has seats (9), so no table repeats one
NAMES = ("Ada", "Bruno", "Clara", "Dario", "Emil", "Frida", "Greta", "Hugo", "Ida",
         "Jonas", "Kira", "Luca")
