"""Standings of a championship: the sum of normalised finals, then the tie-breaks.

Every game's final (points - pips) is normalised to the event's table size
(:func:`fido.events.finals.normalised_final`) and a player's total is the
sum of hers. Players level on the total are ordered by, in turn:

1. **wins**: games in which she had the best final of her table (a shared
   best counts for each: equal finals share the place, docs/rules.md 3.7);
2. **best**: her best single normalised final;
3. **head-to-head**: within the group still level, +1 for every other
   member of the group she finished ahead of at a shared table, -1 for every
   one ahead of her (a single pass: not applied again to a smaller group);
4. **lot**: her draw number, the order of ``players`` (draw the lot at
   registration, e.g. ``seating.naive_draw``'s shuffle, and keep it).

Every player gets her own position; :attr:`Standing.decided_by` says which
of ``total``, ``wins``, ``best``, ``head-to-head``, ``lot`` put her below
the player above (None for the first).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from fido.engine.rules import Ruleset
from fido.errors import quote
from fido.events.errors import EventError
from fido.events.finals import as_rules, normalised_final
from fido.events.seating import MAX_TABLE, MIN_TABLE

__all__ = ["GameResult", "Line", "Standing", "standings"]

CRITERIA: Final = ("total", "wins", "best", "head-to-head", "lot")


@dataclass(frozen=True, slots=True)
class Line:
    """One player's line of one game: points scored, pips left; her final is the difference."""

    player: int
    points: int
    pips: int

    @property
    def final(self) -> int:
        return self.points - self.pips


@dataclass(frozen=True, slots=True)
class GameResult:
    """Game ``game`` (1, 2, ...) played at table ``table`` in round ``round``: one line a seat."""

    round: int
    table: int
    game: int
    lines: tuple[Line, ...]


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's place after the results given."""

    position: int  # 1, 2, ... every player her own
    player: int
    total: Fraction  # the sum of her normalised finals
    games: int
    wins: int
    best: Fraction | None  # her best normalised final (None before her first game)
    head_to_head: int  # within the group level with her on total, wins and best
    lot: int  # her draw number: 1 + her index in ``players``
    decided_by: str | None  # what put her below the player above


def _whole(value: object, what: str, low: int = 0) -> int:
    if value.__class__ is not int:
        raise EventError(f"{what} must be a whole number, not {quote(value)}")
    assert isinstance(value, int)
    if value < low:
        raise EventError(f"{what} must be at least {low}, not {value}")
    return value


def _check(
    results: Iterable[GameResult], registered: set[int], table_size: int
) -> list[GameResult]:
    out: list[GameResult] = []
    seen_tables: set[tuple[int, int, int]] = set()
    seated: dict[tuple[int, int], dict[int, int]] = {}  # (round, game) -> player -> table
    for res in results:
        if not isinstance(res, GameResult):
            raise EventError(f"a result is a GameResult, not {quote(res)}")
        where = (
            f"round {_whole(res.round, 'a round', 1)}, table {_whole(res.table, 'a table', 1)}, "
            f"game {_whole(res.game, 'a game', 1)}"
        )
        key = (res.round, res.table, res.game)
        if key in seen_tables:
            raise EventError(f"{where} is given twice")
        seen_tables.add(key)
        if not MIN_TABLE <= len(res.lines) <= min(table_size, MAX_TABLE):
            raise EventError(
                f"{where} has {len(res.lines)} lines; a table seats {MIN_TABLE} to {table_size}"
            )
        for line in res.lines:
            if not isinstance(line, Line):
                raise EventError(f"{where}: a line is a Line, not {quote(line)}")
            _whole(line.points, f"{where}: the points", 0)
            _whole(line.pips, f"{where}: the pips", 0)
            if line.player not in registered:
                raise EventError(f"{where}: player {quote(line.player)} is not registered")
            other = seated.setdefault((res.round, res.game), {}).setdefault(line.player, res.table)
            if other != res.table or sum(x.player == line.player for x in res.lines) > 1:
                raise EventError(f"{where}: player {line.player} is seated twice in that game")
        out.append(res)
    return out


def standings(
    players: Sequence[int],
    results: Iterable[GameResult],
    *,
    rules: Ruleset | str,
    table_size: int,
) -> tuple[Standing, ...]:
    """Every registered player's standing, first to last (see the module's tie-breaks).

    ``players`` are the registered players in draw-number order; ``results``
    the games played so far at tables of at most ``table_size``.
    """
    rs = as_rules(rules)
    if isinstance(players, str | bytes) or not isinstance(players, Sequence):
        raise EventError(f"the players must be a list of player numbers, not {quote(players)}")
    lot: dict[int, int] = {}
    for p in players:
        if p.__class__ is not int:
            raise EventError(f"a player is a player number, not {quote(p)}")
        if p in lot:
            raise EventError(f"player {p} is registered twice")
        lot[p] = len(lot) + 1
    if _whole(table_size, "the table size", MIN_TABLE) > MAX_TABLE:
        raise EventError(f"the table size must be {MIN_TABLE} to {MAX_TABLE}, not {table_size}")
    games = _check(results, set(lot), table_size)
    total = {p: Fraction(0) for p in lot}
    played = dict.fromkeys(lot, 0)
    wins = dict.fromkeys(lot, 0)
    best: dict[int, Fraction | None] = dict.fromkeys(lot)
    for g in games:
        top = max(line.final for line in g.lines)
        for line in g.lines:
            value = normalised_final(line.final, len(g.lines), rules=rs, table_size=table_size)
            p = line.player
            total[p] += value
            played[p] += 1
            wins[p] += line.final == top
            b = best[p]
            best[p] = value if b is None or value > b else b

    def level(p: int) -> tuple[Fraction, int, Fraction | None]:
        return total[p], wins[p], best[p]

    groups: dict[tuple[Fraction, int, Fraction | None], list[int]] = {}
    for p in lot:
        groups.setdefault(level(p), []).append(p)
    h2h = dict.fromkeys(lot, 0)
    for members in groups.values():
        if len(members) < 2:
            continue
        group = set(members)
        for g in games:
            at = [line for line in g.lines if line.player in group]
            for i, one in enumerate(at):
                for two in at[i + 1 :]:
                    sign = (one.final > two.final) - (one.final < two.final)
                    h2h[one.player] += sign
                    h2h[two.player] -= sign

    def key(p: int) -> tuple[Fraction, int, Fraction, int, int]:
        b = best[p]
        lowest = Fraction(-(10**18))  # before any game: below every best final
        return -total[p], -wins[p], -(b if b is not None else lowest), -h2h[p], lot[p]

    order = sorted(lot, key=key)
    out: list[Standing] = []
    for i, p in enumerate(order):
        decided: str | None = None
        if i:
            above = key(order[i - 1])
            decided = next(c for c, x, y in zip(CRITERIA, above, key(p), strict=True) if x != y)
        out.append(
            Standing(i + 1, p, total[p], played[p], wins[p], best[p], h2h[p], lot[p], decided)
        )
    return tuple(out)
