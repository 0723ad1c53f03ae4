"""Input field types shared by players, results and reviews.

A number or id beyond what the store's Integer columns hold is refused here,
not by the database; text with control characters (see :mod:`fido.safe_text`)
is refused so that no one's terminal shows it later.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import AfterValidator, Field

from fido.i18n import N_, _, ngettext
from fido.ranking.errors import ResultError
from fido.safe_text import control_chars
from fido.store.models import INT_MAX

__all__ = ["INT_MAX", "Number", "Text", "check_number", "check_text", "error_text"]


def check_text(text: str, what: str = "") -> str:
    """``text`` if it holds no control character, else an error naming them.

    :class:`ResultError` is a ``ValueError``: pydantic reports it as a field's error.
    """
    bad = control_chars(text)
    if bad:
        chars = ", ".join(dict.fromkeys(bad))
        if what:
            raise ResultError(_("{what} holds control characters ({chars})").format(
                what=what, chars=chars))
        raise ResultError(_("holds control characters ({chars})").format(chars=chars))
    return text


def check_number(n: int, what: str) -> int:
    """``n`` if it is a possible player number or id (1 .. INT_MAX), else an error."""
    if not 1 <= n <= INT_MAX:
        raise ResultError(_("{what} must be from 1 to {most}, not {n}").format(
            what=what, most=INT_MAX, n=n))
    return n


Text = Annotated[str, AfterValidator(check_text)]
Number = Annotated[int, Field(ge=1, le=INT_MAX)]


# pydantic's messages, in its own English words (so English reads as before), for the
# catalogs; a type not here keeps pydantic's text
_PYDANTIC: dict[str, str] = {
    "missing": N_("Field required"),
    "extra_forbidden": N_("Extra inputs are not permitted"),
    "greater_than": N_("Input should be greater than {gt}"),
    "greater_than_equal": N_("Input should be greater than or equal to {ge}"),
    "less_than": N_("Input should be less than {lt}"),
    "less_than_equal": N_("Input should be less than or equal to {le}"),
    "string_type": N_("Input should be a valid string"),
    "dict_type": N_("Input should be a valid dictionary"),
    "list_type": N_("Input should be a valid list"),
    "model_attributes_type": N_("Input should be a valid dictionary or object to extract "
                                "fields from"),
    "int_type": N_("Input should be a valid integer"),
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer"),
    "int_parsing_size": N_("Unable to parse input string as an integer, exceeded maximum size"),
    "int_from_float": N_("Input should be a valid integer, got a number with a fractional "
                         "part"),
    "bool_parsing": N_("Input should be a valid boolean, unable to interpret input"),
    "date_type": N_("Input should be a valid date"),
    "date_parsing": N_("Input should be a valid date in the format YYYY-MM-DD, {error}"),
    "date_from_datetime_parsing": N_("Input should be a valid date or datetime, {error}"),
    "date_from_datetime_inexact": N_("Datetimes provided to dates should have zero time - "
                                     "e.g. be exact dates"),
    "recursion_loop": N_("Recursion error - cyclic reference detected"),
}
# the date parser's details (speedate), the common ones
_DATE_DETAILS = frozenset((
    N_("input is too short"), N_("input is too long"), N_("invalid character in year"),
    N_("invalid character in month"), N_("invalid character in day"),
    N_("invalid date separator, expected `-`"), N_("day value is outside expected range"),
    N_("month value is outside expected range of 1-12"),
    N_("invalid datetime separator, expected `T`, `t`, `_` or space"),
))


def error_text(err: Mapping[str, Any]) -> str:
    """One of pydantic's errors (``e.errors()``) as a sentence in the current language:
    our own validators' sentences as they are (made in the language already), pydantic's
    own ones through the catalog."""
    kind = str(err.get("type", ""))
    ctx: dict[str, Any] = dict(err.get("ctx") or {})
    msg = str(err.get("msg", "")).removeprefix("Value error, ")
    if kind == "value_error":
        return msg
    if kind in ("string_too_short", "string_too_long"):
        n = int(ctx.get("min_length" if kind == "string_too_short" else "max_length", 0))
        if kind == "string_too_short":
            return ngettext("String should have at least {n} character",
                            "String should have at least {n} characters", n).format(n=n)
        return ngettext("String should have at most {n} character",
                        "String should have at most {n} characters", n).format(n=n)
    if kind in ("too_short", "too_long"):
        n = int(ctx.get("min_length" if kind == "too_short" else "max_length", 0))
        actual = ctx.get("actual_length", "")
        if kind == "too_short":
            text = ngettext("List should have at least {n} item after validation, not {actual}",
                            "List should have at least {n} items after validation, not {actual}",
                            n)
        else:
            text = ngettext("List should have at most {n} item after validation, not {actual}",
                            "List should have at most {n} items after validation, not {actual}",
                            n)
        if ctx.get("field_type", "List") != "List":
            return msg
        return text.format(n=n, actual=actual)
    template = _PYDANTIC.get(kind)
    if template is None:
        return msg
    if "error" in ctx:
        detail = str(ctx["error"])
        ctx["error"] = _(detail) if detail in _DATE_DETAILS else detail
    try:
        return _(template).format(**ctx)
    except (KeyError, IndexError, ValueError):
        return msg
