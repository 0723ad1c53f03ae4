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
but its legality is checked.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from fido.errors import FidoError, RecordError
from fido.game import Game, Turn
from fido.moves import Move
from fido.rules import Ruleset
from fido.tiles import Tile

__all__ = ["FORMAT", "VERSION", "GameRecord", "MoveEntry"]

FORMAT = "fido-record"
VERSION = 1


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MoveEntry(_Strict):
    move: str
    seat: int | None = None
    points: int | None = None
    sum: int | None = None


class _Deal(_Strict):
    hands: list[list[str]]
    stock: list[str]


class _Record(_Strict):
    format: Literal["fido-record"]
    version: Literal[1]
    ruleset: str
    players: list[str]
    date: dt.date | None = None
    event: str | None = None
    deal: _Deal
    moves: list[str | MoveEntry]
    results: dict[str, Any] | None = None


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

    # ------------------------------------------------------------ building

    @classmethod
    def from_game(
        cls,
        game: Game,
        players: list[str] | tuple[str, ...] | None = None,
        *,
        date: dt.date | None = None,
        event: str | None = None,
    ) -> GameRecord:
        names = tuple(players) if players else tuple(f"Seat {i}" for i in range(game.players))
        if len(names) != game.players:
            raise ValueError(f"{game.players} players need {game.players} names, got {len(names)}")
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
        )

    # ------------------------------------------------------------ JSON

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "ruleset": self.ruleset.text(),
            "players": list(self.players),
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
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as e:
            raise RecordError(f"cannot read {path}: {e.strerror}") from None
        return cls.from_json(text)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
        if (
            isinstance(data, dict)
            and data.get("format") == FORMAT
            and data.get("version") != VERSION
        ):
            raise RecordError(
                f"record version {data.get('version')!r} is not supported (this fido reads "
                f"version {VERSION})"
            )
        try:
            raw = _Record.model_validate(data)
        except ValidationError as e:
            first = e.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "record"
            raise RecordError(
                f"malformed record: {where}: {first['msg']} ({e.error_count()} problem(s))"
            ) from None
        try:
            rules = Ruleset.from_text(raw.ruleset)
            hands = tuple(tuple(Tile.from_text(t) for t in h) for h in raw.deal.hands)
            stock = tuple(Tile.from_text(t) for t in raw.deal.stock)
        except FidoError as e:
            raise RecordError(f"malformed record: {e}") from None
        if len(raw.players) != len(hands):
            raise RecordError(
                f"malformed record: {len(raw.players)} players but {len(hands)} hands dealt"
            )
        moves = tuple(m if isinstance(m, MoveEntry) else MoveEntry(move=m) for m in raw.moves)
        return cls(
            ruleset=rules,
            players=tuple(raw.players),
            hands=hands,
            stock=stock,
            moves=moves,
            results=raw.results,
            date=raw.date,
            event=raw.event,
        )

    # ------------------------------------------------------------ replay

    def new_game(self) -> Game:
        try:
            return Game.from_deal(self.ruleset, self.hands, self.stock)
        except FidoError as e:
            raise RecordError(f"the deal cannot be played: {e}") from None

    def steps(self) -> Iterator[tuple[int, Turn, Game]]:
        """Replay move by move, verifying each; yields (number from 1, turn, game after)."""
        game = self.new_game()
        for i, entry in enumerate(self.moves, start=1):
            label = f"move {i} ({entry.move})"
            if game.is_over:
                raise RecordError(f"{label}: the game was already over", i)
            if entry.seat is not None and entry.seat != game.turn:
                raise RecordError(
                    f"{label}: claims seat {entry.seat}, but it is seat {game.turn}'s turn", i
                )
            try:
                game.push(Move.from_text(entry.move))
            except FidoError as e:
                raise RecordError(f"{label}: {e}", i) from None
            turn = game.last_turn()
            assert turn is not None
            if entry.points is not None and entry.points != turn.points:
                raise RecordError(
                    f"{label}: claims {entry.points} points, the rules give {turn.points}", i
                )
            if entry.sum is not None and entry.sum != turn.ends_sum:
                raise RecordError(
                    f"{label}: claims a sum of {entry.sum}, the table gives {turn.ends_sum}", i
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
                        return f"{key}[{j}] claims {x}, the replay gives {y}"
            return f"{key} claims {a!r}, the replay gives {b!r}"
    extra = sorted(set(claimed) - set(actual))
    return f"unexpected fields {extra}"
