"""Game records: a versioned JSON format and its replay with verification.

A record holds the ruleset, the players, the date, the deal (hands and the
stock in drawing order), every move with the points and sum it claims, and
the results. :meth:`GameRecord.replay` plays it again from the deal and
refuses it (:class:`~fido.errors.RecordError`) at the first move that is
illegal or that claims other points or another sum than the rules give, or
when the claimed results differ from the replayed ones.

Format (version 1)::

    {"format": "fido-record", "version": 1, "ruleset": "fido set=12",
     "players": ["Anna", "Bert", "Cora", "Dana"], "date": "2026-11-22",
     "event": null,
     "deal": {"hands": [["12-12", ...], ...], "stock": ["3-1", ...]},
     "moves": [{"move": "12-12", "seat": 1, "points": 0, "sum": 24}, ...],
     "results": {... Outcome.to_dict() ...}}

A move may also be written as its bare text (``"12-5@0n"``): then nothing
but its legality is checked. A record saved by ``fido play`` also says who
played each seat: ``"bots": [null, "expert", "search:time=0.5", "expert"]``
(null for a person), so ``fido play --resume`` can go on with the same table;
the field is left out when unknown.

Reading is bounded: a record file is at most :data:`MAX_RECORD_BYTES` (4 MiB;
the longest hand there is, double-21 with 9 players, has a few thousand
moves, well under 1 MiB as fido writes it), refused before parsing when
larger; it must be UTF-8 (a UTF-8 byte order mark is allowed); any malformed
content, at any depth and of any type, is a :class:`~fido.errors.RecordError`.
A record with more moves than its hand could ever have is replayed only as
far as needed to refuse it at its first impossible move.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, StrictInt, StrictStr, TypeAdapter, ValidationError

from fido.engine.game import Game, Turn
from fido.engine.moves import Move
from fido.engine.rules import Ruleset
from fido.engine.tiles import Tile
from fido.errors import RecordError
from fido.safe_text import printable

__all__ = ["FORMAT", "MAX_RECORD_BYTES", "VERSION", "GameRecord", "MoveEntry", "max_moves"]

FORMAT = "fido-record"
VERSION = 1
MAX_RECORD_BYTES = 4 * 1024 * 1024
_BOMS = {
    b"\xff\xfe\x00\x00": "UTF-32",
    b"\x00\x00\xfe\xff": "UTF-32",
    b"\xff\xfe": "UTF-16",
    b"\xfe\xff": "UTF-16",
}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MoveEntry(_Strict):
    move: StrictStr
    seat: StrictInt | None = None
    points: StrictInt | None = None
    sum: StrictInt | None = None


class _Deal(_Strict):
    hands: list[list[StrictStr]]
    stock: list[StrictStr]


class _Record(_Strict):
    format: Literal["fido-record"]
    version: Literal[1]
    ruleset: StrictStr
    players: list[StrictStr]
    bots: list[StrictStr | None] | None = None
    date: dt.date | None = None
    event: StrictStr | None = None
    deal: _Deal
    moves: list[Any]  # checked after the count (see _from_data)
    results: dict[str, Any] | None = None


_MOVES: TypeAdapter[list[str | MoveEntry]] = TypeAdapter(list[StrictStr | MoveEntry])


def max_moves(rules: Ruleset, players: int) -> int:
    """More moves than any hand of ``rules`` with ``players`` can have.

    Every placement and every draw uses up a tile (at most 2 per tile of the
    set), and a run of passes is shorter than ``players + 1`` (a full round
    of passes ends the hand), so a hand has fewer than
    ``(2 * tiles + 1) * (players + 1)`` moves.
    """
    return (2 * rules.dominoes.count + 1) * (players + 1)


def _short(text: object, limit: int = 40) -> str:
    """A piece of a record quoted in a message: one line, not too long."""
    return printable(text, limit)


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number a record may hold")


@dataclass(frozen=True)
class GameRecord:
    """A whole game as data; build with :meth:`from_game` or :meth:`from_json`."""

    ruleset: Ruleset
    players: tuple[str, ...]
    hands: tuple[tuple[Tile, ...], ...]
    stock: tuple[Tile, ...]
    moves: tuple[MoveEntry, ...]
    results: dict[str, Any] | None = None
    date: dt.date | None = None
    event: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    bots: tuple[str | None, ...] | None = None  # per seat: a bot spec, None for a person

    # ------------------------------------------------------------ building

    @classmethod
    def from_game(
        cls,
        game: Game,
        players: list[str] | tuple[str, ...] | None = None,
        *,
        date: dt.date | None = None,
        event: str | None = None,
        bots: list[str | None] | tuple[str | None, ...] | None = None,
    ) -> GameRecord:
        names = tuple(players) if players else tuple(f"Seat {i}" for i in range(game.players))
        if len(names) != game.players:
            raise ValueError(f"{game.players} players need {game.players} names, got {len(names)}")
        if bots is not None and len(bots) != game.players:
            raise ValueError(f"{game.players} players need {game.players} bot entries")
        moves = tuple(
            MoveEntry(move=t.move.text(), seat=t.seat, points=t.points, sum=t.ends_sum)
            for t in game.history()
        )
        return cls(
            ruleset=game.rules,
            players=names,
            hands=tuple(tuple(game.set.tiles_of(h)) for h in game.initial_hands),
            stock=game.stock,
            moves=moves,
            results=game.outcome.to_dict() if game.outcome else None,
            date=date,
            event=event,
            bots=tuple(bots) if bots is not None else None,
        )

    # ------------------------------------------------------------ JSON

    def to_dict(self) -> dict[str, Any]:
        seats: dict[str, Any] = {} if self.bots is None else {"bots": list(self.bots)}
        return {
            "format": FORMAT,
            "version": VERSION,
            "ruleset": self.ruleset.text(),
            "players": list(self.players),
            **seats,
            "date": self.date.isoformat() if self.date else None,
            "event": self.event,
            "deal": {
                "hands": [[t.text() for t in h] for h in self.hands],
                "stock": [t.text() for t in self.stock],
            },
            "moves": [m.model_dump() for m in self.moves],
            "results": self.results,
        }

    def to_json(self, indent: int | None = 1) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """Read a record file: at most :data:`MAX_RECORD_BYTES`, UTF-8, refused cleanly."""
        where = _short(path, 200)
        try:
            with Path(path).open("rb") as f:
                size = os.fstat(f.fileno()).st_size
                if size > MAX_RECORD_BYTES:
                    raise RecordError(_too_big(where, size))
                data = f.read(MAX_RECORD_BYTES + 1)  # a pipe or device has no size
        except OSError as e:
            raise RecordError(f"cannot read {where}: {e.strerror or e}") from None
        if len(data) > MAX_RECORD_BYTES:
            raise RecordError(_too_big(where, None))
        return cls.from_bytes(data)

    @classmethod
    def from_bytes(cls, data: bytes) -> GameRecord:
        """A record from a file's bytes: UTF-8 only (with or without a BOM)."""
        if len(data) > MAX_RECORD_BYTES:
            raise RecordError(_too_big("the record", len(data)))
        for bom, name in _BOMS.items():
            if data.startswith(bom):
                raise RecordError(f"the record is {name} text; fido records are UTF-8")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise RecordError(
                f"the record is not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start})"
            ) from None
        return cls.from_json(text)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Parse and check a record's JSON (its moves are checked by :meth:`steps`)."""
        if len(text) > MAX_RECORD_BYTES:
            raise RecordError(_too_big("the record", len(text)))
        if "\x00" in text:
            raise RecordError("the record holds NUL characters (UTF-16 text?); records are UTF-8")
        try:
            data = json.loads(text, parse_constant=_no_constant)
        except json.JSONDecodeError as e:
            raise RecordError(f"not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
        except RecursionError:
            raise RecordError("not a record: JSON nested too deeply") from None
        except ValueError as e:  # an integer past Python's digit limit, NaN, Infinity
            raise RecordError(f"not a record: {_short(e, 80)}") from None
        try:
            return cls._from_data(data)
        except RecursionError:
            raise RecordError("not a record: JSON nested too deeply") from None

    @classmethod
    def _from_data(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict):
            raise RecordError(f"not a record: a JSON {type(data).__name__}, not an object")
        if (
            isinstance(data, dict)
            and data.get("format") == FORMAT
            and data.get("version") != VERSION
        ):
            raise RecordError(
                f"record version {_short(repr(data.get('version')), 20)} is not supported "
                f"(this fido reads version {VERSION})"
            )
        try:
            raw = _Record.model_validate(data)
        except ValidationError as e:
            raise _malformed(e, ()) from None
        try:
            rules = Ruleset.from_text(raw.ruleset)
            hands = tuple(tuple(Tile.from_text(t) for t in h) for h in raw.deal.hands)
            stock = tuple(Tile.from_text(t) for t in raw.deal.stock)
        except ValueError as e:  # FidoError, or a tile the core refuses otherwise
            raise RecordError(f"malformed record: {_short(e, 160)}") from None
        if len(raw.players) != len(hands):
            raise RecordError(
                f"malformed record: {len(raw.players)} players but {len(hands)} hands dealt"
            )
        if raw.bots is not None and len(raw.bots) != len(hands):
            raise RecordError(
                f"malformed record: {len(raw.bots)} bot entries for {len(hands)} seats"
            )
        limit = max_moves(rules, len(hands))
        # no hand is longer: past that, the first impossible move is among the first limit + 1
        cut = raw.moves[: limit + 1]
        try:
            entries = _MOVES.validate_python(cut)
        except ValidationError as e:
            raise _malformed(e, ("moves",)) from None
        moves = tuple(m if isinstance(m, MoveEntry) else MoveEntry(move=m) for m in entries)
        record = cls(
            ruleset=rules,
            players=tuple(raw.players),
            hands=hands,
            stock=stock,
            moves=moves,
            results=raw.results,
            date=raw.date,
            event=raw.event,
            bots=tuple(raw.bots) if raw.bots is not None else None,
        )
        if len(raw.moves) > limit:
            for _step in replace(record, results=None).steps():  # refuses at the first bad move
                pass
            raise RecordError(f"{len(raw.moves)} moves: no hand of {rules.text()} has {limit}")
        return record

    # ------------------------------------------------------------ replay

    def new_game(self) -> Game:
        try:
            return Game.from_deal(self.ruleset, self.hands, self.stock)
        except ValueError as e:  # FidoError, or a deal the core refuses otherwise
            raise RecordError(f"the deal cannot be played: {_short(e, 160)}") from None

    def steps(self) -> Iterator[tuple[int, Turn, Game]]:
        """Replay move by move, verifying each; yields (number from 1, turn, game after)."""
        game = self.new_game()
        for i, entry in enumerate(self.moves, start=1):
            label = f"move {i} ({_short(entry.move, 24)})"
            if game.is_over:
                raise RecordError(f"{label}: the game was already over", i)
            if entry.seat is not None and entry.seat != game.turn:
                raise RecordError(
                    f"{label}: claims seat {_short(entry.seat, 12)}, but it is seat "
                    f"{game.turn}'s turn",
                    i,
                )
            try:
                game.push(Move.from_text(entry.move))
            except ValueError as e:  # FidoError, or text the core refuses otherwise
                raise RecordError(f"{label}: {_short(e, 160)}", i) from None
            turn = game.last_turn()
            assert turn is not None
            if entry.points is not None and entry.points != turn.points:
                raise RecordError(
                    f"{label}: claims {_short(entry.points, 12)} points, the rules give "
                    f"{turn.points}",
                    i,
                )
            if entry.sum is not None and entry.sum != turn.ends_sum:
                raise RecordError(
                    f"{label}: claims a sum of {_short(entry.sum, 12)}, the table gives "
                    f"{turn.ends_sum}",
                    i,
                )
            yield i, turn, game

    def replay(self) -> Game:
        """Replay and verify everything; return the final game."""
        game = self.new_game()
        for _i, _turn, g in self.steps():
            game = g
        self.check_results(game)
        return game

    def check_results(self, game: Game) -> None:
        """Refuse claimed results that differ from the replayed ``game``'s."""
        if self.results is None:
            return
        if game.outcome is None:
            raise RecordError(
                f"the record claims results, but after its {len(self.moves)} moves the game "
                "is not over"
            )
        replayed = game.outcome.to_dict()
        if replayed != self.results:
            raise RecordError(
                "the results do not match the replay: " + _diff(self.results, replayed)
            )


def _diff(claimed: dict[str, Any], actual: dict[str, Any]) -> str:
    for key, b in actual.items():
        a = claimed.get(key)
        if a != b:
            if isinstance(a, list) and isinstance(b, list):
                for j, (x, y) in enumerate(zip(a, b, strict=False)):
                    if x != y:
                        return (
                            f"{key}[{j}] claims {_short(x, 120)}, the replay gives {_short(y, 120)}"
                        )
            return f"{key} claims {_short(repr(a), 120)}, the replay gives {_short(repr(b), 120)}"
    extra = sorted(set(claimed) - set(actual))
    return f"unexpected fields {_short(extra, 120)}"


def _malformed(e: ValidationError, prefix: tuple[str, ...]) -> RecordError:
    first = max(e.errors(), key=lambda err: len(err["loc"]))  # a union's deepest complaint
    where = _short(".".join(str(p) for p in (*prefix, *first["loc"])) or "record", 60)
    return RecordError(
        f"malformed record: {where}: {_short(first['msg'], 80)} ({e.error_count()} problem(s))"
    )


def _too_big(where: str, size: int | None) -> str:
    bytes_ = f" ({size:,} bytes)" if size is not None else ""
    return (
        f"{where} is too large for a game record{bytes_}: records are at most "
        f"{MAX_RECORD_BYTES // (1024 * 1024)} MiB"
    )
