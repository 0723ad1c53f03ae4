"""Seat draws for championships: who sits at which table, in which seat, every round.

A draw spreads meetings (no two players share a table twice while that is
possible), balances every player's seat numbers over the rounds, and may
seed a round by the standings (players of similar standing together).
Uneven numbers of players sit at tables of neighbouring sizes
(:func:`table_sizes`). docs/events.md explains the rules and the bounds.

>>> rounds = draw(range(1, 16), 3, table_size=5, seed=1)
>>> [len(t.seats) for t in rounds[0].tables]
[5, 5, 5]
>>> repeat_meetings(rounds) >= repeat_lower_bound(15, 5, 3)
True

How: every round to draw starts from a greedy draw (each player, in a
shuffled order, joins the table where she meets the fewest earlier
opponents), then a local search swaps players between tables while that
lowers the cost (repeat meetings first, then the seeding's spread, then
who sits at the smaller tables too often), with restarts while it stays
above the lower bound (docs/events.md: CP-SAT on the exact model found
nothing better). Seats come last: at each table a linear assignment
(scipy's ``linear_sum_assignment``) gives every
player the seat she has had least often. Everything follows from ``seed``:
the same call draws the same tables on every machine.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from math import ceil, exp
from typing import Final

from fido.errors import quote
from fido.events.errors import EventError
from fido.i18n import _

__all__ = [
    "MAX_ROUNDS",
    "MAX_TABLE",
    "MIN_TABLE",
    "Round",
    "TableSeating",
    "draw",
    "meetings",
    "naive_draw",
    "repeat_lower_bound",
    "repeat_meetings",
    "seat_counts",
    "seat_spread",
    "table_sizes",
]

MIN_TABLE: Final = 3  # FIDO is played by 3-9 players (docs/rules.md, section 1)
MAX_TABLE: Final = 9
MAX_ROUNDS: Final = 60
MAX_PLAYERS: Final = 20_000
SAMPLES: Final = 12  # partners tried for a player in one step of the search
RESTARTS: Final = 4  # small events: the search starts again while above the bound...
RESTART_WORK: Final = 200_000  # ... while the restarts together take at most this many steps


@dataclass(frozen=True, slots=True)
class TableSeating:
    """One table of a round: ``seats[k]`` is the player in seat k (play goes round 0, 1, ...).

    Seat k is also the k-th hand of a duplicate deal (:mod:`fido.events.deals`).
    """

    number: int  # 1, 2, ... within the round
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Round:
    """The tables of one round, numbered 1, 2, ..."""

    number: int
    tables: tuple[TableSeating, ...]

    def players(self) -> tuple[int, ...]:
        """Everyone seated this round, table by table."""
        return tuple(p for t in self.tables for p in t.seats)


def table_sizes(players: int, table_size: int = 5) -> tuple[int, ...]:
    """The tables of a round: as few as seat everyone, their sizes differing by one at most.

    ``ceil(players / table_size)`` tables, the larger first, none above
    ``table_size`` and none below 3. 17 players at tables of 5 sit 5, 4, 4, 4;
    11 sit 4, 4, 3; 4 players at tables of 3 cannot sit (a table of 4 is above
    the size, 3 + 1 below the minimum) and are refused.

    >>> table_sizes(17), table_sizes(500, 5)[:2], table_sizes(11)
    ((5, 4, 4, 4), (5, 5), (4, 4, 3))
    """
    _check_table_size(table_size)
    if players.__class__ is not int:
        raise EventError(f"the number of players must be a whole number, not {quote(players)}")
    if players < MIN_TABLE:
        raise EventError(_("a championship needs at least {least} players, not {n}")
                         .format(least=MIN_TABLE, n=players))
    if players > MAX_PLAYERS:
        raise EventError(_("at most {most} players can be drawn, not {n}")
                         .format(most=MAX_PLAYERS, n=players))
    count = ceil(players / table_size)
    small, larger = divmod(players, count)
    if small < MIN_TABLE:
        raise EventError(
            _("{n} players cannot sit at tables of {least} to {size}: choose another table "
              "size or another number of players").format(
                  n=players, least=MIN_TABLE, size=table_size))
    return (small + 1,) * larger + (small,) * (count - larger)


def _check_table_size(table_size: object) -> None:
    if table_size.__class__ is not int:
        raise EventError(f"the table size must be a whole number, not {quote(table_size)}")
    assert isinstance(table_size, int)
    if not MIN_TABLE <= table_size <= MAX_TABLE:
        raise EventError(_("the table size must be {least} to {most} players, not {n}")
                         .format(least=MIN_TABLE, most=MAX_TABLE, n=table_size))


def _players(players: Iterable[int]) -> list[int]:
    if isinstance(players, str | bytes) or not isinstance(players, Iterable):
        raise EventError(f"the players must be a list of player numbers, not {quote(players)}")
    out = list(players)
    seen: set[int] = set()
    for p in out:
        if p.__class__ is not int:
            raise EventError(f"a player is a player number, not {quote(p)}")
        if p in seen:
            raise EventError(_("player {number} is registered twice").format(number=p))
        seen.add(p)
    return out


def _check_rounds(earlier: Sequence[Round]) -> list[Round]:
    if isinstance(earlier, str | bytes) or not isinstance(earlier, Sequence):
        raise EventError(f"the earlier rounds must be a list of rounds, not {quote(earlier)}")
    for i, r in enumerate(earlier):
        if not isinstance(r, Round):
            raise EventError(f"earlier round {i + 1} is {quote(r)}, not a Round")
        seen: set[int] = set()
        for t in r.tables:
            for p in t.seats:
                if p in seen:
                    raise EventError(f"round {r.number} seats player {p} twice")
                seen.add(p)
    return list(earlier)


def meetings(rounds: Iterable[Round]) -> dict[tuple[int, int], int]:
    """How often each pair of players (the lower number first) shared a table."""
    met: dict[tuple[int, int], int] = {}
    for r in rounds:
        for t in r.tables:
            s = sorted(t.seats)
            for i, a in enumerate(s):
                for b in s[i + 1 :]:
                    met[a, b] = met.get((a, b), 0) + 1
    return met


def repeat_meetings(rounds: Iterable[Round]) -> int:
    """Meetings beyond the first: a pair that shared a table m times adds m - 1."""
    return sum(m - 1 for m in meetings(rounds).values())


def seat_counts(rounds: Iterable[Round], table_size: int) -> dict[int, tuple[int, ...]]:
    """For every player, how often she sat in seat 0, 1, ..., ``table_size - 1``."""
    counts: dict[int, list[int]] = {}
    for r in rounds:
        for t in r.tables:
            for k, p in enumerate(t.seats):
                counts.setdefault(p, [0] * table_size)[k] += 1
    return {p: tuple(c) for p, c in counts.items()}


def seat_spread(rounds: Iterable[Round], table_size: int) -> int:
    """The largest (most - fewest times in one seat number) over the players: 0 or 1 is fair."""
    counts = seat_counts(rounds, table_size)
    return max((max(c) - min(c) for c in counts.values()), default=0)


def _least_in_pairs(take: int, sizes: Sequence[int]) -> int:
    """The fewest pairs among ``take`` players drawn from groups of ``sizes`` (pigeonhole)."""
    left = take
    parts = [0] * len(sizes)
    while left:  # one at a time into the group holding fewest so far, while it has room
        k = min((i for i in range(len(sizes)) if parts[i] < sizes[i]), key=lambda i: parts[i])
        parts[k] += 1
        left -= 1
    return sum(x * (x - 1) // 2 for x in parts)


def repeat_lower_bound(players: int, table_size: int, rounds: int) -> int:
    """No draw of ``rounds`` rounds from scratch has fewer repeat meetings than this.

    The largest of three counting arguments (docs/events.md): the pairs seated
    in all rounds against the pairs there are; each player's co-players
    against the ``players - 1`` others; and, round after round, the pairs
    that a table must take from the previous round's tables (pigeonhole: 5
    players drawn from 3 tables bring at least 2 pairs that have met).

    >>> repeat_lower_bound(15, 5, 3), repeat_lower_bound(25, 5, 6), repeat_lower_bound(500, 5, 7)
    (12, 0, 0)
    """
    sizes = table_sizes(players, table_size)
    if rounds.__class__ is not int or not 0 <= rounds <= MAX_ROUNDS:
        raise EventError(f"the number of rounds must be 0 to {MAX_ROUNDS}, not {quote(rounds)}")
    pairs_seated = rounds * sum(s * (s - 1) // 2 for s in sizes)
    total = pairs_seated - players * (players - 1) // 2
    least = min(sizes) - 1
    per_player = ceil(players * max(0, rounds * least - (players - 1)) / 2)
    pigeon = max(0, rounds - 1) * sum(_least_in_pairs(s, sizes) for s in sizes)
    return max(0, total, per_player, pigeon)


def naive_draw(
    players: Iterable[int], rounds: int, *, table_size: int = 5, seed: int | str = 0
) -> tuple[Round, ...]:
    """A shuffle per round, seats in the shuffled order: the peer a draw is measured against."""
    ids = _players(players)
    sizes = table_sizes(len(ids), table_size)
    rng = random.Random(seed)
    out: list[Round] = []
    for r in range(rounds):
        order = ids[:]
        rng.shuffle(order)
        out.append(_round(r + 1, _cut(order, sizes)))
    return tuple(out)


def _cut(order: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    tables: list[list[int]] = []
    at = 0
    for s in sizes:
        tables.append(list(order[at : at + s]))
        at += s
    return tables


def _round(number: int, tables: Sequence[Sequence[int]]) -> Round:
    return Round(number, tuple(TableSeating(i + 1, tuple(t)) for i, t in enumerate(tables)))


def draw(
    players: Iterable[int],
    rounds: int,
    *,
    table_size: int = 5,
    seed: int | str = 0,
    earlier: Sequence[Round] = (),
    seeding: Sequence[int] | None = None,
) -> tuple[Round, ...]:
    """Draw ``rounds`` more rounds for ``players`` (player numbers), after ``earlier``.

    The rounds drawn are numbered on from the earlier ones. Meetings and seats
    of the earlier rounds count (players who have left are ignored, new ones
    start afresh). ``seeding`` lists every player, best standing first: the
    rounds drawn then seat players of similar standing together, as far as
    that adds no repeat meeting (draw one round at a time when seeding, after
    the standings of the last round are known). The same arguments draw the
    same rounds.
    """
    ids = _players(players)
    sizes = table_sizes(len(ids), table_size)
    if rounds.__class__ is not int or not 1 <= rounds <= MAX_ROUNDS:
        raise EventError(f"the number of rounds must be 1 to {MAX_ROUNDS}, not {quote(rounds)}")
    if seed.__class__ is not int and seed.__class__ is not str:
        raise EventError(f"a seed is a whole number or text, not {quote(seed)}")
    past = _check_rounds(earlier)
    if len(past) + rounds > MAX_ROUNDS:
        raise EventError(_("an event has at most {n} rounds").format(n=MAX_ROUNDS))
    index = {p: i for i, p in enumerate(ids)}
    rank: list[int] | None = None
    if seeding is not None:
        order = _players(seeding)
        if sorted(order) != sorted(ids):
            raise EventError(_("the seeding must list every registered player once, and no one "
                                "else"))
        rank = [0] * len(ids)
        for k, p in enumerate(order):
            rank[index[p]] = k
    if past:  # the earlier rounds' repeats stay: a draw adding none is the best there is
        target = repeat_meetings(
            Round(
                r.number,
                tuple(TableSeating(t.number, tuple(p for p in t.seats if p in index))
                      for t in r.tables),
            )
            for r in past
        )
    else:
        target = repeat_lower_bound(len(ids), table_size, rounds)
    smaller = sum(s for s in sizes if s < sizes[0])
    fair_small = ceil((len(past) + rounds) * smaller / len(ids))
    work = 80 * len(ids) * rounds + 40_000
    best: _Search | None = None
    for attempt in range(max(1, min(RESTARTS, RESTART_WORK // work))):
        rng = random.Random(f"fido.events.seating {seed!r} {attempt}")
        search = _Search(len(ids), sizes, rounds, rank, rng)
        search.target, search.fair_small = target, fair_small
        for r in past:
            for t in r.tables:
                members = [index[p] for p in t.seats if p in index]
                search._table(members, len(t.seats) < sizes[0], +1)
        search.run()
        if best is None or search.score() < best.score():
            best = search
        if rank is None and best._balanced():
            break
    assert best is not None
    grouping = best.tables
    if rank is not None:  # seeded: table 1 holds the leaders
        for tables in grouping:
            tables.sort(key=lambda t: min(rank[a] for a in t))
    seats = _assign_seats(len(ids), sizes[0], past, index, grouping)
    first = len(past) + 1
    return tuple(
        _round(first + r, [[ids[i] for i in t] for t in tables]) for r, tables in enumerate(seats)
    )


class _Search:
    """The local search over the rounds to draw; players are 0 .. n-1 here.

    ``met[a][b]`` counts the meetings of a and b in the earlier rounds and in
    the current draw. The cost of a pair met m times is
    ``K·(m - 1) + (m - 1)²`` (nothing for 0 or 1): K makes one repeat meeting
    outweigh any seeding change of one swap; the square spreads repeats over
    pairs rather than seating one pair a third time.
    """

    def __init__(
        self,
        n: int,
        sizes: tuple[int, ...],
        rounds: int,
        rank: list[int] | None,
        rng: random.Random,
    ) -> None:
        self.n = n
        self.sizes = sizes
        self.rounds = rounds
        self.rank = rank
        self.rng = rng
        self.met = [[0] * n for _ in range(n)]
        self.small = [0] * n  # rounds spent at a smaller table
        self.k = 2 * max(sizes) * n * n + 1 if rank is not None else 2 * max(sizes) + 1
        self.big = sizes[0]
        self.tables: list[list[list[int]]] = []
        self.where: list[list[int]] = []
        self.target = 0  # stop searching at this many repeat meetings (a lower bound)
        self.fair_small = 0  # rounds at a smaller table that nobody need exceed

    def score(self) -> tuple[int, int, int]:
        """What a draw is judged by: repeat meetings, then the seeding's spread, then fairness."""
        spread = 0
        if self.rank is not None:
            rank = self.rank
            spread = sum(
                abs(rank[a] - rank[b])
                for tables in self.tables
                for t in tables
                for i, a in enumerate(t)
                for b in t[i + 1 :]
            )
        return self.repeats(), spread, sum(s * s for s in self.small)

    def _pair(self, a: int, b: int, m: int) -> int:
        """The cost of adding a meeting to a pair that has met m times (with seeding)."""
        add = 0 if m == 0 else self.k + 2 * m - 1
        if self.rank is not None:
            add += abs(self.rank[a] - self.rank[b])
        return add

    def _join(self, a: int, table: list[int]) -> int:
        met = self.met[a]
        return sum(self._pair(a, x, met[x]) for x in table)

    def _leave(self, a: int, table: list[int]) -> int:
        met = self.met[a]
        return sum(self._pair(a, x, met[x] - 1) for x in table if x != a)

    def _small_cost(self, a: int, delta: int) -> int:
        s = self.small[a]
        return (s + delta) ** 2 - s**2

    def _seat(self, a: int, table: list[int], small: bool, sign: int) -> None:
        for x in table:
            if x != a:
                self.met[a][x] += sign
                self.met[x][a] += sign
        if small:
            self.small[a] += sign

    def run(self) -> list[list[list[int]]]:
        n, rng = self.n, self.rng
        for _round in range(self.rounds):
            order = list(range(n))
            rng.shuffle(order)
            tables: list[list[int]] = [[] for _ in self.sizes]
            where = [0] * n
            if self.rank is not None:  # seeded: the standings cut into tables, best first
                rank = self.rank
                order.sort(key=lambda a: rank[a])
                at = 0
                for t, size in enumerate(self.sizes):
                    for a in order[at : at + size]:
                        self._table_join(a, tables[t], size < self.big)
                        where[a] = t
                    at += size
                order = []
            for a in order:
                best, best_cost = -1, 0
                for t, members in enumerate(tables):
                    if len(members) < self.sizes[t]:
                        c = self._join(a, members) + self._small_cost(a, self.sizes[t] < self.big)
                        if best < 0 or c < best_cost:
                            best, best_cost = t, c
                for x in tables[best]:
                    self.met[a][x] += 1
                    self.met[x][a] += 1
                if self.sizes[best] < self.big:
                    self.small[a] += 1
                tables[best].append(a)
                where[a] = best
            self.tables.append(tables)
            self.where.append(where)
        self._improve()
        return self.tables

    def _interesting(self, a: int, home: list[int], small: bool) -> bool:
        """Whether moving ``a`` out of ``home`` can pay.

        It can if she meets someone there again, if the round is seeded, or if
        she sits at a smaller table more often than her share.
        """
        if self.rank is not None:
            return True
        met = self.met[a]
        if any(met[x] > 1 for x in home if x != a):
            return True
        return small and self.small[a] > self.fair_small

    def _balanced(self) -> bool:
        return self.repeats() <= self.target and max(self.small) <= self.fair_small

    def _improve(self) -> None:
        """Simulated annealing: swap two players of one round between tables.

        The best of a few random partners is taken; a swap that raises the
        cost by d is taken with probability exp(-d / T), T falling to 0 over
        the budget; the best draw seen is kept.
        """
        n, rng = self.n, self.rng
        budget = 80 * n * self.rounds + 40_000
        samples = min(n, SAMPLES)
        start = 0.4 * self.k
        cost, best_cost = 0, 0
        best = [[t[:] for t in tables] for tables in self.tables]
        quiet = 0
        for step in range(budget):
            if step % 2048 == 0 and self.rank is None and self._balanced():
                break
            r = rng.randrange(self.rounds)
            a = rng.randrange(n)
            tables, where = self.tables[r], self.where[r]
            ta = where[a]
            home = tables[ta]
            if not self._interesting(a, home, self.sizes[ta] < self.big):
                quiet += 1
                if quiet > 50 * n:
                    break
                continue
            quiet = 0
            out_a = self._leave(a, home)
            best_b, best_delta = -1, 0
            for _sample in range(samples):
                b = rng.randrange(n)
                tb = where[b]
                if tb == ta:
                    continue
                delta = self._swap_delta(r, a, b, out_a)
                if best_b < 0 or delta < best_delta or (delta == best_delta and rng.random() < 0.5):
                    best_b, best_delta = b, delta
            if best_b < 0:
                continue
            heat = start * (1 - step / budget) ** 2
            if best_delta <= 0 or (heat > 0.01 and rng.random() < exp(-best_delta / heat)):
                self._swap(r, a, best_b)
                cost += best_delta
                if cost < best_cost:
                    best_cost = cost
                    best = [[t[:] for t in tables] for tables in self.tables]
        if cost > best_cost:  # back to the best draw seen
            self._restore(best)

    def _restore(self, grouping: list[list[list[int]]]) -> None:
        """Put the draw back to ``grouping`` (meetings and small tables recounted)."""
        for r, tables in enumerate(self.tables):
            for t, members in enumerate(tables):
                self._table(members, self.sizes[t] < self.big, -1)
            for t, members in enumerate(grouping[r]):
                tables[t] = members[:]
                self._table(members, self.sizes[t] < self.big, +1)
                for a in members:
                    self.where[r][a] = t

    def _table_join(self, a: int, members: list[int], small: bool) -> None:
        for x in members:
            self.met[a][x] += 1
            self.met[x][a] += 1
        if small:
            self.small[a] += 1
        members.append(a)

    def _table(self, members: list[int], small: bool, sign: int) -> None:
        for i, a in enumerate(members):
            if small:
                self.small[a] += sign
            for x in members[i + 1 :]:
                self.met[a][x] += sign
                self.met[x][a] += sign

    def _swap_delta(self, r: int, a: int, b: int, out_a: int) -> int:
        """The change of cost if a and b of round r swap tables (``out_a``: a leaving hers)."""
        # a leaves home for away, b leaves away for home; a and b do not meet either way
        ta, tb = self.where[r][a], self.where[r][b]
        home, away = self.tables[r][ta], self.tables[r][tb]
        met_a, met_b = self.met[a], self.met[b]
        out_b = self._leave(b, away)
        in_a = sum(self._pair(a, x, met_a[x]) for x in away if x != b)
        in_b = sum(self._pair(b, x, met_b[x]) for x in home if x != a)
        delta = in_a + in_b - out_a - out_b
        small_a, small_b = self.sizes[ta] < self.big, self.sizes[tb] < self.big
        if small_a != small_b:
            move = 1 if small_b else -1
            delta += self._small_cost(a, move) + self._small_cost(b, -move)
        return delta

    def _swap(self, r: int, a: int, b: int) -> None:
        tables, where = self.tables[r], self.where[r]
        ta, tb = where[a], where[b]
        self._seat(a, tables[ta], self.sizes[ta] < self.big, -1)
        self._seat(b, tables[tb], self.sizes[tb] < self.big, -1)
        tables[ta][tables[ta].index(a)] = b
        tables[tb][tables[tb].index(b)] = a
        where[a], where[b] = tb, ta
        self._seat(a, tables[tb], self.sizes[tb] < self.big, +1)
        self._seat(b, tables[ta], self.sizes[ta] < self.big, +1)

    def repeats(self) -> int:
        """Repeat meetings over the earlier rounds and the draw."""
        return sum(m - 1 for row in self.met for m in row if m > 1) // 2


def _assign_seats(
    n: int,
    positions: int,
    past: Sequence[Round],
    index: dict[int, int],
    grouping: list[list[list[int]]],
) -> list[list[list[int]]]:
    """Order every table's players by seat: each takes the seat she has had least often."""
    from scipy.optimize import linear_sum_assignment  # noqa: PLC0415 (a heavy import)

    base = [[0] * positions for _ in range(n)]
    for r in past:
        for t in r.tables:
            for k, p in enumerate(t.seats):
                if p in index and k < positions:
                    base[index[p]][k] += 1
    rng = random.Random(0)  # the tie-breaks of the later tries: the same on every machine
    best: tuple[tuple[int, int], list[list[list[int]]]] | None = None
    for attempt in range(6):
        noise = 0.0 if attempt == 0 else 0.3
        counts = [row[:] for row in base]
        out = [[list(t) for t in tables] for tables in grouping]

        def place(table: list[int], sign: int, counts: list[list[int]] = counts) -> None:
            for k, a in enumerate(table):
                counts[a][k] += sign

        def solve(table: list[int], counts: list[list[int]] = counts,
                  noise: float = noise) -> list[int]:
            cost = [[2 * counts[a][k] + 1 + noise * rng.random()  # (c + 1)² - c²
                     for k in range(len(table))] for a in table]
            rows, cols = linear_sum_assignment(cost)
            seated = [0] * len(table)
            for i, k in zip(rows, cols, strict=True):
                seated[int(k)] = table[int(i)]
            return seated

        for tables in out:
            for i, members in enumerate(tables):
                tables[i] = solve(members)
                place(tables[i], +1)
        for _pass in range(3):  # each table again, the others' seats fixed: never worse
            for tables in out:
                for i, members in enumerate(tables):
                    place(members, -1)
                    tables[i] = solve(members)
                    place(tables[i], +1)
        # a local optimum depends on the ties broken: keep the best of a few tries
        score = (max(max(row) - min(row) for row in counts),
                 sum(c * c for row in counts for c in row))
        if best is None or score < best[0]:
            best = (score, out)
        if score[0] <= 1:
            break
    assert best is not None
    return best[1]
