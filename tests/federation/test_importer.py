"""The results importer and the ranking's parsers: any text gives results or a ResultError.

The fuzz tests feed arbitrary text (unicode digits: superscript and fullwidth ones,
whitespace, controls, numbers of thousands of digits) and allow nothing but a
:class:`ResultError` out; the unit tests pin each file fault to its message.
"""

from __future__ import annotations

import codecs
import csv
import datetime as dt
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from fido.errors import FidoError
from fido.ranking import ResultError
from fido.ranking.importer import (
    CSV_COLUMNS,
    decode,
    parse_csv,
    parse_json,
    parse_received,
    read_results,
    whole_number,
)
from fido.ranking.snapshot import month_bounds

HEADER = ",".join(CSV_COLUMNS)
GOOD = HEADER + "\na,2026-10-03,Rostock,12,,1,31,4\na,2026-10-03,Rostock,12,,2,12,0\n"
NOW = dt.datetime(2026, 11, 20, 15, tzinfo=dt.UTC)

# characters that trip parsers: unicode digits, signs, separators, controls, brackets
TRICKY = "0123456789²２٣+-_ ,.\"'\n\r\t\x00\x1b\x85\u2028[]{}:e"
tricky_text = st.text(alphabet=st.sampled_from(TRICKY), max_size=40) | st.text(max_size=40)
huge = st.integers(min_value=-(10**40), max_value=10**40).map(str) | st.just("9" * 5000)


def test_a_good_csv_becomes_one_result_with_its_rows_label() -> None:
    results, labels = parse_csv(GOOD)
    assert labels == ["rows 2-3"]
    assert results[0]["lines"] == [
        {"player": 1, "points": 31, "pips": 4},
        {"player": 2, "points": 12, "pips": 0},
    ]
    assert results[0]["divisor"] is None and results[0]["set"] == 12


@pytest.mark.parametrize(
    ("text", "number"),
    [("7", 7), (" +7 ", 7), ("-3", -3), ("0", 0), ("9" * 18, int("9" * 18))],
)
def test_whole_numbers(text: str, number: int) -> None:
    assert whole_number(text, "x") == number


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("²", "is not a whole number"),  # int() refuses it
        ("２", "is not a whole number"),  # int() would take it: fido does not
        ("1_000", "is not a whole number"),  # int() would take it too
        ("1e3", "is not a whole number"),
        ("9" * 19, "is out of range"),
        ("9" * 5000, "is out of range"),  # past int()'s 4300-digit limit: no ValueError
    ],
)
def test_not_whole_numbers(text: str, message: str) -> None:
    with pytest.raises(ResultError, match=message) as e:
        whole_number(text, "row 2: pips")
    assert len(str(e.value)) < 120  # a 5000-digit number is not quoted whole


def test_a_row_splits_only_at_line_ends() -> None:
    # str.splitlines() would also split at \x0b, \x1c, \x85, \u2028 inside a field
    text = GOOD.replace("Rostock,12,,2", "Rostock\u2028x,12,,2")
    with pytest.raises(ResultError, match="row 3: game 'a' has event"):
        parse_csv(text)


def test_an_oversized_field_is_a_clean_error() -> None:
    text = GOOD + "b,2026-10-04," + "x" * (csv.field_size_limit() + 1) + ",12,,1,1,0\n"
    with pytest.raises(ResultError, match=r"line \d+: field larger than field limit"):
        parse_csv(text, "big.csv")


def test_a_quoted_field_left_open_is_a_clean_error() -> None:
    with pytest.raises(ResultError, match=r"row 2: expected 8 fields"):
        parse_csv(HEADER + '\na,2026-10-03,"Rostock,12,,1,31,4\n', "open.csv")


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000,  # RecursionError inside json
        '[{"a": ' * 5_000 + "1" + "}]" * 5_000,
    ],
)
def test_json_nested_too_deeply(text: str) -> None:
    with pytest.raises(ResultError, match=r"deep.json: (nested too deeply|not JSON)"):
        parse_json(text, "deep.json")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[{"set": ' + "1" * 5000 + "}]", "not JSON: Exceeds the limit"),
        ('[{"set": NaN}]', "NaN is not a number JSON allows"),
        ('[{"set": -Infinity}]', "-Infinity is not a number JSON allows"),
        ("[1, 2]", "expected a list of results"),
        ("[]", "no results"),
        ("{", "not JSON"),
    ],
)
def test_bad_json(text: str, message: str) -> None:
    with pytest.raises(ResultError, match=message):
        parse_json(text, "r.json")


def test_one_json_result_alone_is_a_list_of_one() -> None:
    results, labels = parse_json('{"event": "Kiel"}')
    assert results == [{"source": "import", "event": "Kiel"}] and labels == ["result 1"]


@pytest.mark.parametrize(
    ("codec", "bom"),
    [
        ("utf-8", codecs.BOM_UTF8),
        ("utf-16-le", codecs.BOM_UTF16_LE),
        ("utf-16-be", codecs.BOM_UTF16_BE),
        ("utf-32-le", codecs.BOM_UTF32_LE),
        ("utf-32-be", codecs.BOM_UTF32_BE),
    ],
)
def test_a_byte_order_mark_names_the_encoding(codec: str, bom: bytes, tmp_path: Path) -> None:
    f = tmp_path / "season.csv"
    f.write_bytes(bom + GOOD.replace("Rostock", "Rostock Köln").encode(codec))
    results, _ = read_results(f)
    assert results[0]["event"] == "Rostock Köln"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (GOOD.replace("Rostock", "Köln").encode("latin-1"), r"not UTF-8 text \(byte 0xf6"),
        (GOOD.encode("utf-16-le"), "NUL bytes .UTF-16 without a byte-order mark"),
        (codecs.BOM_UTF16_LE + b"\x00\xd8", "not UTF-16 text"),  # a lone surrogate
    ],
)
def test_an_encoding_that_is_not_read_is_named(data: bytes, message: str) -> None:
    with pytest.raises(ResultError, match=message):
        decode(data, "season.csv")


def test_read_results_refuses_other_files_and_missing_ones(tmp_path: Path) -> None:
    with pytest.raises(ResultError, match=r"reads \.csv or \.json files"):
        read_results(tmp_path / "season.xlsx")
    with pytest.raises(ResultError, match=r"cannot read .*No such file"):
        read_results(tmp_path / "missing.csv")
    (tmp_path / "dir.csv").mkdir()
    with pytest.raises(ResultError, match="cannot read"):
        read_results(tmp_path / "dir.csv")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2026-13-01", "is a date, YYYY-MM-DD"),
        ("２０２６-１１-01", "is a date, YYYY-MM-DD"),
        ("20261101", "is a date, YYYY-MM-DD"),  # fromisoformat would take it
        ("2026-11-21", "is in the future"),
    ],
)
def test_received_dates(text: str, message: str) -> None:
    with pytest.raises(ResultError, match=message):
        parse_received(text, now=NOW)


def test_received_is_noon_of_that_day_or_now() -> None:
    assert parse_received(" 2026-11-01 ", now=NOW) == dt.datetime(2026, 11, 1, 12, tzinfo=dt.UTC)
    assert parse_received("2026-11-20", now=NOW.replace(hour=9)) == NOW.replace(hour=9)
    assert parse_received(None) is None


@pytest.mark.parametrize(
    ("month", "message"),
    [
        ("２０２６-１１", "is written YYYY-MM"),
        ("2026-1", "is written YYYY-MM"),
        ("0000-01", "year is from 0001 to 9998"),
        ("9999-12", "year is from 0001 to 9998"),  # its cutoff would be in year 10000
    ],
)
def test_months(month: str, message: str) -> None:
    with pytest.raises(ResultError, match=message):
        month_bounds(month)


# ---------------------------------------------------------------- fuzz


def _only_result_errors(fn: object, *args: object) -> None:
    try:
        fn(*args)  # type: ignore[operator]
    except ResultError as e:
        assert "\n" not in str(e), "a message is one line"
    except FidoError as e:  # pragma: no cover - a wrong error type is a failure too
        raise AssertionError(f"{type(e).__name__}, not ResultError: {e}") from e


csv_cell = tricky_text | huge
csv_row = st.lists(csv_cell, min_size=0, max_size=10).map(
    lambda cells: ",".join(c.replace('"', "") for c in cells)
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.lists(csv_row, max_size=5), header=st.booleans())
@example(rows=["a,2026-10-03,K,12,,²,1,0"], header=True)
@example(rows=["a,2026-10-03,K,12,,２,1,0"], header=True)
@example(rows=["a,2026-10-03,K," + "9" * 5000 + ",,1,1,0"], header=True)
def test_fuzz_csv(rows: list[str], header: bool) -> None:
    text = "\n".join([HEADER] * header + rows)
    _only_result_errors(parse_csv, text, "fuzz.csv")


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=200))
def test_fuzz_csv_any_text(text: str) -> None:
    _only_result_errors(parse_csv, text, "fuzz.csv")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | tricky_text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(tricky_text, inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(value=json_values)
def test_fuzz_json_values(value: object) -> None:
    _only_result_errors(parse_json, json.dumps(value), "fuzz.json")


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(TRICKY + "[]{}nulltrueNaN"), max_size=100))
@example(text="[" * 50_000)
def test_fuzz_json_text(text: str) -> None:
    _only_result_errors(parse_json, text, "fuzz.json")


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=200))
@example(data=codecs.BOM_UTF16_LE + b"\x00")
@example(data=codecs.BOM_UTF32_BE + b"\x00\x00\x00")
def test_fuzz_decode(data: bytes) -> None:
    _only_result_errors(decode, data, "fuzz.csv")


@settings(max_examples=300, deadline=None)
@given(text=tricky_text | huge)
def test_fuzz_whole_number(text: str) -> None:
    _only_result_errors(whole_number, text, "x")


@settings(max_examples=300, deadline=None)
@given(text=tricky_text | st.dates().map(str) | st.just("9999-12-31"))
def test_fuzz_received(text: str) -> None:
    _only_result_errors(parse_received, text)


@settings(max_examples=300, deadline=None)
@given(
    text=tricky_text
    | st.from_regex(r"\A[0-9]{4}-[0-9]{2}\Z")
    | st.from_regex(r"\A\d{4}-\d{2}\Z")  # unicode digits too
)
def test_fuzz_month(text: str) -> None:
    _only_result_errors(month_bounds, text)
