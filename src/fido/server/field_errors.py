"""pydantic's validation errors as sentences in the person's language.

pydantic words its errors in English ("Input should be a valid integer"); the API and the
table socket answer a person in her language, so each error is rebuilt here from what
does not depend on the wording: its ``type``, its ``loc`` (the field, named as the request
spells it) and its ``ctx`` (the limits). A ``value_error`` is one of our own validators'
sentences, already translated when it was raised (they run in the request's context);
a type not known here gets a general sentence, never pydantic's English.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from fido.i18n import N_, _, format_number, ngettext
from fido.safe_text import printable

__all__ = ["field_error", "field_errors"]

# the first element of a request's loc says where the field was: dropped from its name
_WHERE = frozenset({"body", "query", "path", "header", "cookie"})
_QUOTED = re.compile(r"'((?:[^'\\]|\\.)*)'")


def _number(value: object) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return format_number(value)
    return printable(str(value), 40)


def _choices(expected: object) -> str:
    """pydantic's "'a', 'b' or 'c'" as a plain list ("a, b, c"): its "or" is English."""
    text = str(expected)
    found = _QUOTED.findall(text)
    return printable(", ".join(found) if found else text, 200)


def _count(forms: Callable[[int], str]) -> Callable[[str, Mapping[str, Any]], str]:
    """A sentence with a count from ``ctx`` (``min_length``/``max_length``); ``forms``
    chooses its form for the count (an ngettext)."""
    def sentence(field: str, ctx: Mapping[str, Any]) -> str:
        n = ctx.get("min_length", ctx.get("max_length", 0))
        n = n if isinstance(n, int) else 0
        return forms(n).format(field=field, n=format_number(n))
    return sentence


def _limit(message: str, key: str) -> Callable[[str, Mapping[str, Any]], str]:
    def sentence(field: str, ctx: Mapping[str, Any]) -> str:
        return _(message).format(field=field, limit=_number(ctx.get(key, "?")))
    return sentence


def _plain(message: str) -> Callable[[str, Mapping[str, Any]], str]:
    def sentence(field: str, ctx: Mapping[str, Any]) -> str:
        return _(message).format(field=field)
    return sentence


def _one_of(field: str, ctx: Mapping[str, Any]) -> str:
    return _("the field '{field}' must be one of: {choices}").format(
        field=field, choices=_choices(ctx.get("expected", "")))


def _ours(field: str, ctx: Mapping[str, Any]) -> str:
    reason = ctx.get("error")
    if not isinstance(reason, ValueError | AssertionError) or not str(reason):
        return _("the field '{field}' is not valid").format(field=field)
    return _("the field '{field}' is not valid: {reason}").format(
        field=field, reason=printable(str(reason), 300))


_SENTENCES: dict[str, Callable[[str, Mapping[str, Any]], str]] = {
    "missing": _plain(N_("the field '{field}' is missing")),
    "extra_forbidden": _plain(N_("the field '{field}' is not expected here")),
    "int_type": _plain(N_("the field '{field}' must be a whole number")),
    "int_parsing": _plain(N_("the field '{field}' must be a whole number")),
    "int_from_float": _plain(N_("the field '{field}' must be a whole number, without a "
                                "fraction")),
    "int_parsing_size": _plain(N_("the field '{field}' holds a number that is too large")),
    "float_type": _plain(N_("the field '{field}' must be a number")),
    "float_parsing": _plain(N_("the field '{field}' must be a number")),
    "finite_number": _plain(N_("the field '{field}' must be a finite number")),
    "bool_type": _plain(N_("the field '{field}' must be true or false")),
    "bool_parsing": _plain(N_("the field '{field}' must be true or false")),
    "string_type": _plain(N_("the field '{field}' must be text")),
    "string_unicode": _plain(N_("the field '{field}' must be text")),
    "string_pattern_mismatch": _plain(N_("the field '{field}' does not have the form it "
                                         "needs")),
    "list_type": _plain(N_("the field '{field}' must be a list")),
    "tuple_type": _plain(N_("the field '{field}' must be a list")),
    "dict_type": _plain(N_("the field '{field}' must be an object")),
    "model_type": _plain(N_("the field '{field}' must be an object")),
    "model_attributes_type": _plain(N_("the field '{field}' must be an object")),
    "date_type": _plain(N_("the field '{field}' must be a date (YYYY-MM-DD)")),
    "date_parsing": _plain(N_("the field '{field}' must be a date (YYYY-MM-DD)")),
    "date_from_datetime_parsing": _plain(N_("the field '{field}' must be a date "
                                            "(YYYY-MM-DD)")),
    "date_from_datetime_inexact": _plain(N_("the field '{field}' must be a date "
                                            "(YYYY-MM-DD)")),
    "datetime_type": _plain(N_("the field '{field}' must be a date and time")),
    "datetime_parsing": _plain(N_("the field '{field}' must be a date and time")),
    "datetime_from_date_parsing": _plain(N_("the field '{field}' must be a date and time")),
    "greater_than_equal": _limit(N_("the field '{field}' must be at least {limit}"), "ge"),
    "greater_than": _limit(N_("the field '{field}' must be greater than {limit}"), "gt"),
    "less_than_equal": _limit(N_("the field '{field}' must be at most {limit}"), "le"),
    "less_than": _limit(N_("the field '{field}' must be less than {limit}"), "lt"),
    "string_too_short": _count(lambda n: ngettext(
        "the field '{field}' must have at least {n} character",
        "the field '{field}' must have at least {n} characters", n)),
    "string_too_long": _count(lambda n: ngettext(
        "the field '{field}' must have at most {n} character",
        "the field '{field}' must have at most {n} characters", n)),
    "too_short": _count(lambda n: ngettext(
        "the field '{field}' must hold at least {n} entry",
        "the field '{field}' must hold at least {n} entries", n)),
    "too_long": _count(lambda n: ngettext(
        "the field '{field}' must hold at most {n} entry",
        "the field '{field}' must hold at most {n} entries", n)),
    "literal_error": _one_of,
    "enum": _one_of,
    "value_error": _ours,
    "assertion_error": _ours,
}

def _whole(kind: str, frame: bool) -> str:
    """An error of the whole body or frame (no field to name)."""
    if kind == "json_invalid":
        return _("the message is not valid JSON") if frame else _(
            "the request's body is not valid JSON")
    if kind in ("model_attributes_type", "model_type", "dict_type", "missing"):
        return _("a message is a JSON object") if frame else _(
            "the request's body must be a JSON object")
    return _("the message is not valid") if frame else _("the request is not valid")


def field_error(error: Mapping[str, Any], *, frame: bool = False) -> str:
    """One of pydantic's ``errors()`` as a sentence (``frame``: a table socket's message,
    else a request)."""
    kind = str(error.get("type", ""))
    ctx: Mapping[str, Any] = error.get("ctx") or {}
    loc = [str(p) for p in error.get("loc", ()) if not str(p).startswith("function")]
    if loc and loc[0] in _WHERE:
        loc = loc[1:]
    if kind == "union_tag_invalid":  # a frame's "type" that the protocol does not know
        return _("the field '{field}' must be one of: {choices}").format(
            field=printable(str(ctx.get("discriminator", "type")).strip("'"), 40),
            choices=_choices(ctx.get("expected_tags", "")))
    if kind == "union_tag_not_found":
        return _("the field '{field}' is missing").format(
            field=printable(str(ctx.get("discriminator", "type")).strip("'"), 40))
    if not loc and kind in ("value_error", "assertion_error") and ctx.get("error"):
        return printable(str(ctx["error"]), 300)  # a model's own check: our sentence
    if not loc or kind == "json_invalid":
        return _whole(kind, frame)
    field = printable(".".join(loc), 80)
    sentence = _SENTENCES.get(kind)
    if sentence is None:
        return _("the field '{field}' is not valid").format(field=field)
    return sentence(field, ctx)


def field_errors(errors: Iterable[Mapping[str, Any]], *, limit: int = 5,
                 frame: bool = False) -> str:
    """The first ``limit`` errors, each a sentence, one after the other."""
    parts = list(dict.fromkeys(field_error(e, frame=frame) for e in list(errors)[:limit]))
    return printable("; ".join(parts), 500)
