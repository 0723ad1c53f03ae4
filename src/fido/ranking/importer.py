"""Results from files: a season of score sheets as CSV or JSON, read and checked.

:func:`read_results` turns a file into the result dicts that
:func:`fido.ranking.submission.submit_many` takes, with a label per result
(``row 7``, ``rows 7-9``, ``result 3``) for its error messages. Every fault of
the file (its encoding, a malformed row, a number out of range, JSON nested
too deeply) is a :class:`ResultError` with a one-line message; nothing here
touches the store. The format is in ``docs/ranking.md``.
"""

from __future__ import annotations

import codecs
import csv
import datetime as dt
import io
import json
import re
from collections.abc import Iterable, Iterator
from itertools import chain
from pathlib import Path
from typing import IO, Any

from fido.ranking.errors import ResultError

__all__ = [
    "CSV_COLUMNS",
    "MAX_BYTES",
    "Item",
    "decode",
    "iter_csv",
    "iter_results",
    "parse_csv",
    "parse_json",
    "parse_received",
    "read_results",
    "whole_number",
]

CSV_COLUMNS = ("game", "date", "event", "set", "divisor", "player", "points", "pips")
MAX_BYTES = 64 * 1024 * 1024  # a JSON file's limit (read whole); CSV is streamed
MAX_DIGITS = 18  # every number a result holds fits; beyond, it is out of range anyway

# UTF-32 first: its little-endian mark begins with UTF-16's
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_INT = re.compile(r"[+-]?[0-9]+", re.ASCII)
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", re.ASCII)

Results = tuple[list[dict[str, Any]], list[str]]


def clip(text: str, most: int = 40) -> str:
    """``repr(text)``, cut short: a message quoting a megabyte field stays one line."""
    return repr(text) if len(text) <= most else repr(text[:most]) + "..."


def whole_number(text: str, what: str) -> int:
    """A whole number in ASCII digits (superscript or fullwidth digits are not), at most 18."""
    if text.isdigit() and text.isascii() and len(text) <= MAX_DIGITS:
        return int(text)  # the common case, fast: a million results have five million
    t = text.strip()
    if not _INT.fullmatch(t):
        raise ResultError(f"{what}: {clip(t)} is not a whole number")
    if len(t.lstrip("+-")) > MAX_DIGITS:
        raise ResultError(f"{what}: {clip(t)} is out of range")
    return int(t)


def parse_received(
    text: str | None, *, now: dt.datetime | None = None, what: str = "--received"
) -> dt.datetime | None:
    """The day the sheets arrived (noon UTC, never later than ``now``); ``None``: now."""
    if text is None:
        return None
    now = now or dt.datetime.now(dt.UTC)
    t = text.strip() if isinstance(text, str) else text
    try:
        if not isinstance(t, str) or not _DAY.fullmatch(t):
            raise ValueError
        day = dt.date.fromisoformat(t)
    except ValueError:
        raise ResultError(f"{what} is a date, YYYY-MM-DD, not {_shown(text)}") from None
    if day > now.date():
        raise ResultError(f"{what} {day} is in the future")
    return min(dt.datetime(day.year, day.month, day.day, 12, tzinfo=dt.UTC), now)


def decode(data: bytes, name: str) -> str:
    """The file's text: UTF-8, or UTF-8/16/32 with a byte-order mark; else a clear error."""
    encoding = next((enc for bom, enc in _BOMS if data.startswith(bom)), "utf-8")
    if encoding == "utf-8" and b"\x00" in data:
        raise ResultError(
            f"{name}: holds NUL bytes (UTF-16 without a byte-order mark?); save it as UTF-8"
        )
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as e:
        label = encoding.removesuffix("-sig").upper()
        raise ResultError(
            f"{name}: not {label} text (byte 0x{data[e.start]:02x} at offset {e.start}); "
            "save it as UTF-8"
        ) from None


def _read(path: Path) -> str:
    try:
        with path.open("rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise ResultError(f"cannot read {path}: {e.strerror or e}") from None
    if len(data) > MAX_BYTES:
        raise ResultError(f"{path.name}: larger than {MAX_BYTES // 2**20} MiB")
    return decode(data, path.name)


CHUNK = 1 << 20


def _open(path: Path) -> IO[bytes]:
    try:
        f = path.open("rb")
        if not path.is_file():
            f.close()
            raise IsADirectoryError(21, "Is a directory")
    except OSError as e:
        raise ResultError(f"cannot read {path}: {e.strerror or e}") from None
    return f


def _lines(path: Path, f: IO[bytes]) -> Iterator[str]:
    """The file's lines (ends kept, split at ``\n`` only), decoded as :func:`decode`
    would, a megabyte at a time: a file of any size in bounded memory."""
    with f:
        try:
            head = f.read(CHUNK)
        except OSError as e:
            raise ResultError(f"cannot read {path}: {e.strerror or e}") from None
        encoding = next((enc for bom, enc in _BOMS if head.startswith(bom)), "utf-8")
        if encoding == "utf-8" and b"\x00" in head:
            decode(head, path.name)  # the NUL bytes' message
        decoder = codecs.getincrementaldecoder(encoding)()
        offset, rest, data = 0, "", head
        while True:
            try:
                text = decoder.decode(data, final=not data)
            except UnicodeDecodeError as e:
                label = encoding.removesuffix("-sig").upper()
                where = f"at offset {offset + max(e.start, 0)}"
                if 0 <= e.start < len(data):
                    where = f"byte 0x{data[e.start]:02x} {where}"
                raise ResultError(
                    f"{path.name}: not {label} text ({where}); save it as UTF-8"
                ) from None
            if encoding == "utf-8" and "\x00" in text:
                raise ResultError(f"{path.name}: holds NUL bytes; save it as UTF-8")
            parts = (rest + text).split("\n")
            rest = parts.pop()
            for part in parts:
                yield part + "\n"
            if not data:
                break
            offset += len(data)
            data = f.read(CHUNK)
        if rest:
            yield rest


Item = tuple[str, dict[str, Any]]


def iter_results(path: Path, players: list[int] | None = None) -> Iterator[Item]:
    """The results of a ``.csv`` or ``.json`` file with their labels, one at a time.

    A CSV file is read as it goes (any size, bounded memory); a JSON file is
    read whole (up to :data:`MAX_BYTES`). A fault raises when it is reached.
    A game record (``fido play --save``) is one result; ``players`` gives the
    player numbers of its seats in order (a record names people, the
    federation numbers them).
    """
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".json"):  # refused at the call, before anything is read
        raise ResultError(f"import reads .csv or .json files, not {clip(path.name)}")
    if suffix == ".json":
        text = _read(path)
        if _is_record(text):
            return iter([(path.name, record_result(text, players, path.name))])
        if players is not None:
            raise ResultError("--players is for a game record (fido play --save), not results")
        results, labels = parse_json(text, path.name)
        return iter(list(zip(labels, results, strict=True)))
    if players is not None:
        raise ResultError("--players is for a game record (fido play --save), not a CSV file")
    return iter_csv(_lines(path, _open(path)), path.name)


def _is_record(text: str) -> bool:
    """Whether JSON text is one game record (it has a deal and moves), not results."""
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return False  # parse_json says what is wrong with it
    return isinstance(data, dict) and "moves" in data and "deal" in data


def parse_players(text: str) -> list[int]:
    """``--players 3,1,7``: player numbers in seat order."""
    parts = [p.strip() for p in text.split(",")]
    if not all(p.isascii() and p.isdigit() for p in parts):
        raise ResultError(
            f"--players takes player numbers in seat order, e.g. 3,1,7; not {clip(text)}"
        )
    return [int(p) for p in parts]


def record_result(text: str, players: list[int] | None, name: str = "the record") -> dict[str, Any]:
    """One finished FIDO game record as a result: the date, set and divisor from
    the record, each seat's points and pips from replaying it (the record is
    stored with it, and replayed again when it is checked)."""
    from fido.errors import FidoError  # noqa: PLC0415
    from fido.record import GameRecord  # noqa: PLC0415 (the engine: only records need it)

    try:
        record = GameRecord.from_json(text)
        game = record.new_game()
        for _i, _turn, g in record.steps():
            game = g
        record.check_results(game)
    except FidoError as e:
        raise ResultError(f"{name}: {e}") from None
    rules = record.ruleset
    if not rules.is_fido:
        raise ResultError(f"{name}: a {rules.text()} game; only FIDO games count in the ranking")
    if game.outcome is None:
        raise ResultError(
            f"{name}: the game is not over after its {len(record.moves)} moves; only a "
            "finished game is a result"
        )
    seats = ", ".join(f"seat {i + 1} {n!r}" for i, n in enumerate(record.players))
    if players is None:
        raise ResultError(
            f"{name}: a game record names its players ({seats}); give their player "
            "numbers in seat order: --players N,N,..."
        )
    if len(players) != len(record.players):
        raise ResultError(
            f"{name}: --players gives {len(players)} numbers, the game has "
            f"{len(record.players)} seats ({seats})"
        )
    if record.date is None:
        raise ResultError(f"{name}: the record has no date; a result needs the day it was played")
    return {
        "date": record.date.isoformat(),
        "event": record.event or "fido play",
        "set": rules.max_pips,
        "divisor": rules.divisor,
        "lines": [
            {"player": n, "points": res.points, "pips": res.pips}
            for n, res in zip(players, game.outcome.seats, strict=True)
        ],
        "record": record.to_dict(),
        "source": "import",
    }


def read_results(path: Path) -> Results:
    """The results in a ``.csv`` or ``.json`` file and their labels, all at once."""
    items = list(iter_results(path))
    return [r for _, r in items], [label for label, _ in items]


def parse_csv(text: str, name: str = "the file") -> Results:
    """Results from CSV text: one row per player line, a game's rows together."""
    items = list(iter_csv(io.StringIO(text, newline=""), name))
    return [r for _, r in items], [label for label, _ in items]


def _delimiter(header: str) -> str:
    """The header line's delimiter: ``,``, else ``;`` (a German spreadsheet's default)
    or a tab; the missing-columns message then names the one read."""
    return next((d for d in ",;\t" if d in header), ",")


def iter_csv(lines: Iterable[str], name: str = "the file") -> Iterator[Item]:
    """Results from CSV lines, a game as soon as its last row has been read."""
    it = iter(lines)
    first = next(it, "")
    delimiter = _delimiter(first)
    reader = csv.reader(chain([first], it), delimiter=delimiter)
    try:
        yield from _csv_items(reader, name, delimiter)
    except csv.Error as e:
        raise ResultError(f"{name}: line {reader.line_num}: {e}") from None


def _csv_items(reader: Any, name: str, delimiter: str) -> Iterator[Item]:
    fields = [f.strip().lower() for f in next(reader, [])]
    missing = [c for c in CSV_COLUMNS if c not in fields]
    if missing:
        sep = "semicolons" if delimiter == ";" else "tabs" if delimiter == "\t" else "commas"
        raise ResultError(
            f"{name}: missing column(s) {', '.join(missing)} (columns read separated by {sep})"
        )
    current: dict[str, Any] | None = None
    label = ""
    game_id: str | None = None
    first_row = 0
    receipts: dict[str, dt.datetime | None] = {}  # a file holds few receipt days
    for rowno, values in enumerate(reader, start=2):
        where = f"row {rowno}"
        if not values:
            continue  # a blank line
        if len(values) != len(fields):
            raise ResultError(f"{where}: expected {len(fields)} fields")
        row = dict(zip(fields, values, strict=True))
        line: dict[str, Any] = {
            "player": whole_number(row["player"], f"{where}: player"),
            "points": whole_number(row["points"], f"{where}: points"),
            "pips": whole_number(row["pips"], f"{where}: pips"),
        }
        if (row.get("final") or "").strip():
            line["final"] = whole_number(row["final"], f"{where}: final")
        game: dict[str, Any] = {
            "date": row["date"].strip(),
            "event": row["event"],
            "set": whole_number(row["set"], f"{where}: set"),
            "divisor": whole_number(row["divisor"], f"{where}: divisor")
            if row["divisor"].strip()
            else None,
            "source": "import",
        }
        got = (row.get("received") or "").strip()
        if got:
            if got not in receipts:
                receipts[got] = parse_received(got, what=f"{where}: received")
            game["received"] = receipts[got]
        if current is None or row["game"] != game_id:
            if current is not None:
                yield label, current
            game_id, first_row = row["game"], rowno
            current = {**game, "lines": [line]}
            label = f"row {rowno}"
            continue
        head = {k: current.get(k) for k in game}
        if head != game or ("received" in current) != ("received" in game):
            diff = next((k for k in game if game[k] != head[k]), "received")
            raise ResultError(
                f"{where}: game {_shown(game_id)} has {diff} {_shown(head.get(diff))} in row "
                f"{first_row}, {_shown(game.get(diff))} here"
            )
        current["lines"].append(line)
        label = f"rows {first_row}-{rowno}"
    if current is None:
        raise ResultError(f"{name}: no results")
    yield label, current


def _shown(value: object) -> str:
    return clip(value) if isinstance(value, str) else repr(value)


def _no_constant(text: str) -> Any:
    raise ValueError(f"{text} is not a number JSON allows")


def parse_json(text: str, name: str = "the file") -> Results:
    """Results from JSON text: a list of results as the API takes them (or one result)."""
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise ResultError(f"{name}: not JSON: {e.msg} at line {e.lineno}") from None
    except RecursionError:
        raise ResultError(f"{name}: nested too deeply") from None
    except ValueError as e:  # a number of more than 4300 digits, NaN, Infinity
        raise ResultError(f"{name}: not JSON: {str(e).split(':')[0]}") from None
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise ResultError(f"{name}: expected a list of results")
    if not data:
        raise ResultError(f"{name}: no results")
    results = [{"source": "import", **r} for r in data]
    for i, r in enumerate(results, 1):
        if r.get("received") is not None:
            r["received"] = parse_received(r["received"], what=f"result {i}: received")
    return results, [f"result {i}" for i in range(1, len(results) + 1)]
