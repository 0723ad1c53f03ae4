"""Fuzzing what comes from outside: bot specs and record files. Only FidoErrors escape."""

from __future__ import annotations

import contextlib
import json
import math
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fido import ConfigurationError, Game, RecordError
from fido.bots import make_bot
from fido.bots.registry import OPTIONS, parse_spec
from fido.options import split_specs
from fido.record import GameRecord

# the characters people and files get wrong: other digits, other spaces, signs, markup
ODD = "0123456789²³¹２０٣৩.eE+-_ ,:;=\t\n\u00a0\u2009\u202e\x1b[]/nNaAiIfF"
NUMBERS = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.sampled_from(["nan", "-inf", "Infinity", "1e9", "1e400", "9" * 400, "0x10", "1_000", "²"]),
    st.text(alphabet=ODD, max_size=12),
)


@st.composite
def specs(draw: st.DrawFn) -> str:
    """A spec that often looks right: a known name, known keys, hostile values."""
    name = draw(st.sampled_from([*OPTIONS, "wizard", "", " search ", "SEARCH"]))
    keys = [*OPTIONS.get(name.strip(), {}), "depth", "", "sims "]
    items = draw(
        st.lists(
            st.tuples(st.sampled_from(keys or ["x"]), st.sampled_from(["=", "", "=="]), NUMBERS),
            max_size=4,
        )
    )
    return name + (":" + ",".join(k + eq + v for k, eq, v in items) if items else "")


@settings(max_examples=400, deadline=None)
@given(st.one_of(specs(), st.text(max_size=60), st.text(alphabet=ODD, max_size=40)))
def test_a_bot_spec_is_a_bot_or_a_configuration_error(spec: str) -> None:
    try:
        name, options = parse_spec(spec)
    except ConfigurationError as e:
        assert "\n" not in str(e) or "\n" in spec  # one line, unless it quotes her newline
        return
    for value in options.values():
        assert not isinstance(value, float) or math.isfinite(value)
        if name in OPTIONS and isinstance(value, int | float):
            assert abs(value) <= 100_000_000  # every built-in option is bounded
    try:
        bot = make_bot(spec)
    except ConfigurationError:
        return
    assert hasattr(bot, "choose")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=ODD + "searchxpt", max_size=40))
def test_splitting_bot_lists_only_raises_configuration_errors(text: str) -> None:
    try:
        parts = split_specs(text)
    except ConfigurationError:
        return
    assert all(parts)


def _record_dict() -> dict[str, Any]:
    rng = random.Random(3)
    g = Game.new("fido set=6", 3, rng=rng)
    while not g.is_over:
        g.push(rng.choice(g.legal_moves()))
    return GameRecord.from_game(g, ["A", "B", "C"]).to_dict()


RECORD = _record_dict()
JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=False),
    st.text(alphabet=ODD + "pasdrw@", max_size=12),
    st.sampled_from(["100-1", "999-9", "12-12", "pass", "draw", "6-6@0e", "fido set=6", "２-1"]),
)
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:4]):
            out += _paths(v, (*prefix, i))
    return out


PATHS = [p for p in _paths(RECORD) if p]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(PATHS), JSON_VALUES), min_size=1, max_size=3))
def test_a_record_with_any_part_replaced_is_a_game_or_a_record_error(
    changes: list[tuple[tuple[Any, ...], Any]],
) -> None:
    data = json.loads(json.dumps(RECORD))
    for path, value in changes:
        node = data
        for key in path[:-1]:
            try:
                node = node[key]
            except (KeyError, IndexError, TypeError):
                break
        else:
            if isinstance(node, dict | list):
                with contextlib.suppress(IndexError, TypeError):
                    node[path[-1]] = value
    try:
        GameRecord.from_json(json.dumps(data)).replay()
    except RecordError as e:
        assert str(e) and len(str(e)) < 400
        assert "\n" not in str(e)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_are_a_record_or_a_record_error(data: bytes) -> None:
    with contextlib.suppress(RecordError):
        GameRecord.from_bytes(data)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_any_text_is_a_record_or_a_record_error(text: str) -> None:
    with contextlib.suppress(RecordError):
        GameRecord.from_json(text)


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=1, max_value=3000), st.sampled_from(["[", '{"a":', '[{"b":']))
def test_deep_nesting_is_a_record_error(depth: int, opener: str) -> None:
    with contextlib.suppress(RecordError):
        GameRecord.from_json(opener * depth)
    text = json.dumps(
        {**RECORD, "results": json.loads("[" * min(depth, 900) + "]" * min(depth, 900))}
    )
    with contextlib.suppress(RecordError):
        GameRecord.from_json(text).replay()


def test_claimed_results_that_differ_are_refused_in_one_short_line() -> None:
    """Found by the fuzz test above on a fresh clone: claimed seats of nested junk made
    a message of every replayed seat, far over a line."""
    data = json.loads(json.dumps(RECORD))
    junk = {f"k{i}" * 9: None for i in range(40)}
    data["results"]["seats"] = {"00\x1f\U00018cd6": None, "": junk}
    try:
        GameRecord.from_json(json.dumps(data)).replay()
    except RecordError as e:
        assert "do not match" in str(e) or "malformed" in str(e)
        assert len(str(e)) < 400 and "\n" not in str(e) and "\x1f" not in str(e)
    else:
        raise AssertionError("junk results accepted")
