"""The score sheet form: what was typed becomes the ranking API's result, and the
API's refusals go back to the fields they are about.

Nothing here checks a result: the typed text goes to :class:`ResultIn` as it
is (pydantic reads "12" as 12 and says why "twelve" is not a number) and then
to :func:`fido.ranking.submit`; this module only resolves a player typed by
account name to her number and finds the field an error names.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from fido.accounts.roles import RoleError, find_account
from fido.engine.rules import FIDO_DIVISORS
from fido.i18n import N_, _
from fido.ranking import ResultError, ResultIn
from fido.ranking.fields import error_text
from fido.ranking.players import players_named
from fido.safe_text import control_chars, whole_or_none

if TYPE_CHECKING:  # a session of the caller's: named in annotations only
    from sqlalchemy.orm import Session

__all__ = [
    "MAX_ROWS",
    "MIN_ROWS",
    "SheetForm",
    "api_errors",
    "field_of",
    "parse_form",
    "resolve_player",
    "result_data",
]

MIN_ROWS = 4  # lines the form shows at first (blank ones are ignored)
MAX_ROWS = 9  # the most players a FIDO game has
GENERAL = "form"  # the key of an error about the whole sheet
LINES = "lines"  # ... about its lines together (how many, the pips of all)
_LINE_FIELDS = ("player", "points", "pips")
# a line's field as its error names it
_LABELS = {"player": N_("player"), "points": N_("points"), "pips": N_("pips")}


@dataclass
class SheetForm:
    """What was typed (kept to show again) and the errors by field name."""

    values: dict[str, str]
    rows: int
    errors: dict[str, str] = field(default_factory=dict)
    numbers: dict[int, int] = field(default_factory=dict)  # row -> the player number

    def used_rows(self) -> list[int]:
        """The rows with anything typed in them."""
        return [i for i in range(self.rows)
                if any(self.values.get(f"{k}{i}", "").strip() for k in _LINE_FIELDS)]

    def final(self, row: int) -> int | None:
        """points - pips of a row, when both are whole numbers (shown beside them)."""
        try:
            return int(self.values.get(f"points{row}", "")) - int(self.values.get(f"pips{row}", ""))
        except ValueError:
            return None

    def error(self, name: str, message: str) -> None:
        self.errors.setdefault(name, message)


def blank_form(today: dt.date) -> SheetForm:
    return SheetForm({"date": today.isoformat(), "set": "12", "event": "", "divisor": ""},
                     MIN_ROWS)


def parse_form(form: Mapping[str, str]) -> SheetForm:
    """The posted fields, as typed; rows: how many line rows the form shows."""
    keys = ("date", "event", "set", "divisor", "event_table",
            *(f"{k}{i}" for i in range(MAX_ROWS) for k in ("player", "points", "pips")))
    values = {k: form.get(k, "")[:400] for k in keys}
    try:
        rows = int(form.get("rows", str(MIN_ROWS)))
    except ValueError:
        rows = MIN_ROWS
    rows = max(MIN_ROWS, min(MAX_ROWS, rows))
    last = max((i + 1 for i in range(MAX_ROWS)
                if any(values[f"{k}{i}"].strip() for k in ("player", "points", "pips"))),
               default=0)
    return SheetForm(values, max(rows, last))


def resolve_player(s: Session, typed: str) -> int:
    """A line's player as typed: her player number, or the name of an account linked
    to a ranking player, or a ranking player's name if only one has it."""
    text = typed.strip()
    if not text:
        raise ValueError(_("whose line is this? type a player number or an account name"))
    if (number := whole_or_none(text)) is not None:
        return number
    if control_chars(text):
        raise ValueError(_("a name holds no control characters"))
    try:
        account = find_account(s, text)
    except RoleError:  # no account of that name: perhaps a ranking player's
        pass
    else:
        if account.player is None:
            raise ValueError(_("the account {name} is not linked to a ranking player: "
                               "type her player number").format(name=text))
        return account.player.number
    named = players_named(s, text)
    if len(named) == 1:
        return named[0].number
    if named:
        raise ValueError(_("several players are called {name}: type the player "
                           "number").format(name=text))
    raise ValueError(_("no account and no ranking player is called {name}: type a player "
                       "number, or find her by name below").format(name=text))


def result_data(s: Session, sheet: SheetForm, submitted_by: int | None) -> dict[str, Any]:
    """The API's result body from the form: the text as typed, players resolved.

    A player that cannot be resolved gets its error on the form and stays text
    (so the API still checks the other fields).
    """
    v = sheet.values
    lines: list[dict[str, Any]] = []
    for row in sheet.used_rows():
        player: Any = v[f"player{row}"]
        try:
            player = resolve_player(s, player)
            sheet.numbers[row] = player
        except ValueError as e:
            sheet.error(f"player{row}", str(e))
        lines.append({"player": player, "points": v[f"points{row}"].strip(),
                      "pips": v[f"pips{row}"].strip()})
    data: dict[str, Any] = {
        "date": v["date"].strip(), "event": v["event"], "set": v["set"].strip(),
        "divisor": v["divisor"].strip() or None, "lines": lines, "source": "sheet",
    }
    if submitted_by is not None:
        data["submitted_by"] = submitted_by
    return data


def api_errors(sheet: SheetForm, e: ValidationError) -> None:
    """pydantic's complaints about the result, each on its field."""
    rows = sheet.used_rows()
    for err in e.errors():
        loc = err.get("loc", ())
        msg = error_text(err)
        name = GENERAL
        if loc and loc[0] in ("date", "event", "set", "divisor"):
            name = str(loc[0])
        elif loc and loc[0] == "lines":
            name = LINES
            if len(loc) > 1 and isinstance(loc[1], int) and loc[1] < len(rows):
                part = loc[2] if len(loc) > 2 else "points"
                name = f"{part if part in ('player', 'points', 'pips') else 'points'}{rows[loc[1]]}"
        if name.startswith("player") and name in sheet.errors:
            continue  # our own word on an unresolved name says more than "not an integer"
        label = re.sub(r"\d+$", "", name)
        sheet.error(name, f"{_(_LABELS[label])}: {msg}" if label in _LABELS else msg)


def field_of(sheet: SheetForm, e: ResultError) -> str:
    """The field a :class:`~fido.ranking.ResultError` from :func:`fido.ranking.submit`
    is about (it says: a player's line, the date, the set...), else the whole form."""
    rows = [row for row, n in sorted(sheet.numbers.items()) if n == e.player]
    if rows and e.field == "twice":
        return f"player{rows[-1]}"
    if rows and e.field == "points":
        return f"points{rows[0]}"
    if rows and e.field in ("player", "twice"):
        return f"player{rows[0]}"
    if e.field in ("date", "set", "divisor"):
        return e.field
    if e.field == "lines":
        return LINES
    return GENERAL


def sets() -> dict[int, int]:
    """The FIDO sets and each one's divisor (the form's choices and their default)."""
    return dict(FIDO_DIVISORS)


def validate(data: dict[str, Any]) -> ResultIn:
    """The API's own model (raises pydantic's ValidationError)."""
    return ResultIn.model_validate(data)
