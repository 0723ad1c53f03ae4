"""Rulesets: the one place that says how a game is dealt, played and scored.

A :class:`Ruleset` is a frozen, named, versioned value built by
:func:`ruleset` and written as one line of text that round-trips:

>>> r = ruleset("fido", set=18)
>>> r.text(), r.divisor, r.hand_size(4)
('fido set=18', 11, 38)
>>> Ruleset.from_text("fido set=12 mother_theresa") == ruleset("fido", mother_theresa=True)
True

See ``docs/rules.md`` for every variant and option (the rule book).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import Final

from fido.engine.tiles import DominoSet
from fido.errors import ConfigurationError, NotationError, quote

__all__ = [
    "ALIASES",
    "CLASSICS",
    "FIDO_DIVISORS",
    "RULESETS",
    "Classic",
    "EndScoring",
    "Layout",
    "Opener",
    "Ruleset",
    "Stuck",
    "fido_hand_size",
    "ruleset",
]

RULES_VERSION: Final = 1

# fido-rules-de.txt "Spielvorbereitung"; double-21 per docs/rules.md's decision (2n/3 - 1).
FIDO_DIVISORS: Final[dict[int, int]] = {6: 3, 9: 5, 12: 7, 15: 9, 18: 11, 21: 13}


class Layout(StrEnum):
    """How tiles form the table (docs/rules.md sections 2 and 4)."""

    CROSS = "cross"  # FIDO: every double crosswise, two ends and a free side
    INLINE = "inline"  # FIDO with soenke_hansen: doubles in line, no sides
    LINE = "line"  # classic: two ends; a double at an end counts both halves
    SPINNER = "spinner"  # sebastopol: the opening double has four arms


class Stuck(StrEnum):
    """What a player who cannot place does."""

    DRAW_ONE = "draw_one"  # FIDO: draw one tile, turn ends; empty stock: pass
    DRAW_UNTIL = "draw_until"  # muggins: draw until she can place; empty: pass
    DRAW_FREE = "draw_free"  # draw game: may draw before placing; last two stay
    PASS = "pass"  # straight, block, sebastopol


class Opener(StrEnum):
    HIGHEST_DOUBLE = "highest_double"
    LOWEST_DOUBLE = "lowest_double"
    FIRST_SEAT = "first_seat"  # draw game: seat 0 opens with any tile


class EndScoring(StrEnum):
    FIDO = "fido"  # points - pips left
    STRAIGHT = "straight"  # 1 point, or (count_pips) the others' pips - the winner's
    BLOCK = "block"  # the winner wins the opponents' pips
    MUGGINS = "muggins"  # going out: opponents' pips / 5 rounded up
    FIVES_AND_THREES = "fives_and_threes"  # going out: 1 more point


class Scoring(StrEnum):
    """Points during play from the sum S of the ends."""

    NONE = "none"
    DIVISOR = "divisor"  # S % d == 0: S // d (FIDO, and muggins with d = 5)
    FIVES_AND_THREES = "fives_and_threes"  # S / 5 if S % 5 == 0, plus S / 3 if S % 3 == 0


_FIVES_AND_THREES = (5, 3)  # the divisors of fives and threes' scoring
def fido_hand_size(tiles: int, players: int) -> int:
    """FIDO's formula: floor(tiles / (players + 1)); reproduces fido-rules-de.txt's table."""
    return tiles // (players + 1)


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Everything that decides how a game runs. Build with :func:`ruleset`."""

    name: str
    max_pips: int
    divisor: int
    min_players: int
    max_players: int
    official_players: tuple[int, int]
    layout: Layout
    stuck: Stuck
    opener: Opener
    scoring: Scoring
    end_scoring: EndScoring
    team_play: bool  # with 4 players, seats 0+2 play against 1+3
    clockwise: bool = True
    mother_theresa: bool = False
    count_pips: bool = False  # straight: score pips instead of 1 point
    match_target: int | None = None
    keep_in_stock: int = 0  # draw game: tiles that always stay in the pile
    hand_table: tuple[tuple[int, int], ...] = ()  # (players, hand size); empty = FIDO formula
    options: tuple[tuple[str, str], ...] = field(default=())
    version: int = RULES_VERSION

    @property
    def dominoes(self) -> DominoSet:
        return DominoSet(self.max_pips)

    @property
    def is_fido(self) -> bool:
        return self.end_scoring is EndScoring.FIDO

    def text(self) -> str:
        """One line: the name and the options that differ from the defaults."""
        parts = [self.name] + [k if v == "" else f"{k}={v}" for k, v in self.options]
        return " ".join(parts)

    def __str__(self) -> str:
        return self.text()

    @classmethod
    def from_text(cls, text: str) -> Ruleset:
        if not isinstance(text, str):
            raise NotationError(f"a ruleset is text such as 'fido set=12', not {quote(text)}")
        if len(text) > 200 or not text.isprintable():
            raise NotationError(f"not a ruleset: {quote(text)} (write e.g. 'fido set=12')")
        return _parse_ruleset(text)

    def check_players(self, players: int) -> None:
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise ConfigurationError(
                f"{self.name} is played by {self.min_players} to {self.max_players} players, "
                f"not {players}"
            )

    def is_official(self, players: int) -> bool:
        lo, hi = self.official_players
        return lo <= players <= hi

    def hand_size(self, players: int) -> int:
        self.check_players(players)
        if not self.hand_table:
            size = fido_hand_size(self.dominoes.count, players)
        else:
            size = dict(self.hand_table)[players]
        if size < 1:
            raise ConfigurationError(
                f"double-{self.max_pips} has too few tiles for {players} players; "
                "use a bigger set or fewer players"
            )
        if size * players + self.keep_in_stock > self.dominoes.count:
            kept = f" and {self.keep_in_stock} kept in the pile" if self.keep_in_stock else ""
            raise ConfigurationError(
                f"{players} hands of {size}{kept} need more than the {self.dominoes.count} "
                f"tiles of double-{self.max_pips}; deal fewer tiles or seat fewer players"
            )
        return size

    def teams(self, players: int) -> tuple[tuple[int, ...], ...] | None:
        """Team seats, or None when everyone plays for herself."""
        if self.team_play and players == 4:
            return ((0, 2), (1, 3))
        return None

    def next_seat(self, seat: int, players: int) -> int:
        return (seat + 1) % players if self.clockwise else (seat - 1) % players

    def points(self, ends_sum: int) -> int:
        """Points for making the sum of the ends ``ends_sum``: each of
        :attr:`scoring_divisors` that divides it scores its quotient."""
        sc = self.scoring
        if sc is Scoring.DIVISOR:  # the engine's every move: no loop
            return ends_sum // self.divisor if ends_sum % self.divisor == 0 else 0
        return sum(ends_sum // d for d in self.scoring_divisors if ends_sum % d == 0)

    @property
    def scoring_divisors(self) -> tuple[int, ...]:
        """The divisors whose multiples score during play (none in a blocking game)."""
        sc = self.scoring
        if sc is Scoring.DIVISOR:
            return (self.divisor,)
        return _FIVES_AND_THREES if sc is Scoring.FIVES_AND_THREES else ()


@lru_cache(maxsize=256)
def _parse_ruleset(text: str) -> Ruleset:
    """Cached: rulesets are immutable, and games are often created from text."""
    words = text.split()
    if not words:
        raise NotationError("empty ruleset text (write e.g. 'fido set=12')")
    opts: dict[str, object] = {}
    for w in words[1:]:
        key, eq, value = w.partition("=")
        key = key.replace("-", "_")
        if not eq:
            opts[key] = True
        elif value.isascii() and value.isdigit():
            if len(value) > 6:
                raise NotationError(f"option {quote(key)}: {quote(value)} is far too large")
            opts[key] = int(value)
        elif value.lower() in ("true", "false"):
            opts[key] = value.lower() == "true"
        else:
            opts[key] = value
    return ruleset(words[0], **opts)


# ---------------------------------------------------------------- constructors


def _flag(opts: dict[str, object], key: str, default: bool = False) -> bool:
    v = opts.pop(key, default)
    if not isinstance(v, bool):
        raise ConfigurationError(f"option {key} is on or off (true/false), not {quote(v)}")
    return v


def _check_empty(name: str, opts: dict[str, object], known: list[str]) -> None:
    if opts:
        bad = ", ".join(k if k.isprintable() and len(k) < 40 else quote(k) for k in sorted(opts))
        allowed = ", ".join(known) if known else "none"
        raise ConfigurationError(f"unknown option for {name}: {bad} (options: {allowed})")


def _fido(opts: dict[str, object]) -> Ruleset:
    n = opts.pop("set", 12)
    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 99:
        raise ConfigurationError(f"set must be a number such as 12 (double-12), not {quote(n)}")
    div = opts.pop("divisor", FIDO_DIVISORS.get(n))
    if div is None:
        raise ConfigurationError(
            f"double-{n} is not a FIDO set ({', '.join(map(str, FIDO_DIVISORS))}); "
            "give a divisor too, e.g. divisor=5"
        )
    if not isinstance(div, int) or isinstance(div, bool) or div < 2:
        raise ConfigurationError(f"the divisor is a whole number of at least 2, not {quote(div)}")
    direction = opts.pop("direction", "clockwise")
    if direction not in ("clockwise", "counterclockwise"):
        raise ConfigurationError(f"clockwise or counterclockwise, not {quote(direction)}")
    mt = _flag(opts, "mother_theresa")
    sh = _flag(opts, "soenke_hansen")
    _check_empty("fido", opts, ["set", "divisor", "direction", "mother_theresa", "soenke_hansen"])
    options: list[tuple[str, str]] = [("set", str(n))]
    if div != FIDO_DIVISORS.get(n):
        options.append(("divisor", str(div)))
    if direction != "clockwise":
        options.append(("direction", str(direction)))
    if mt:
        options.append(("mother_theresa", ""))
    if sh:
        options.append(("soenke_hansen", ""))
    return Ruleset(
        name="fido",
        max_pips=n,
        divisor=div,
        min_players=2,
        max_players=9,
        official_players=(3, 9),
        layout=Layout.INLINE if sh else Layout.CROSS,
        stuck=Stuck.DRAW_ONE,
        opener=Opener.HIGHEST_DOUBLE,
        scoring=Scoring.DIVISOR,
        end_scoring=EndScoring.FIDO,
        team_play=False,
        clockwise=direction == "clockwise",
        mother_theresa=mt,
        options=tuple(options),
    )


@dataclass(frozen=True)
class Classic:
    """A classic game as the registry holds it: its players, hands, rules when stuck,
    opener, scoring, teams and layout, its match target, tiles kept in the pile, and
    its own yes/no options (``extra``)."""

    players: tuple[int, int]
    hands: tuple[tuple[int, int], ...]  # (players, tiles each)
    stuck: Stuck
    opener: Opener
    scoring: Scoring
    end: EndScoring
    teams: bool
    layout: Layout = Layout.LINE
    target: int | None = None
    keep: int = 0
    extra: tuple[str, ...] = ()


def _classic(name: str, opts: dict[str, object], spec: Classic) -> Ruleset:
    """The classic game ``name`` (``spec``) with the options asked for, checked."""
    players, layout, opener, scoring = spec.players, spec.layout, spec.opener, spec.scoring
    hands = dict(spec.hands)
    extra = spec.extra
    n = opts.pop("set", 6)
    if n != 6:
        raise ConfigurationError(f"{name} is played with the double-six set, not double-{n}")
    flags = {k: _flag(opts, k) for k in extra}
    hand = opts.pop("hand", None)
    open_with = opts.pop("opener", None)
    _check_empty(name, opts, ["set", "hand", "opener", *extra])
    options = [(k, "") for k, on in flags.items() if on]
    if open_with is not None:
        # a house rule: who opens (the dominoes package and OpenSpiel let the
        # first seat open with any tile)
        choices = ", ".join(o.value for o in Opener)
        if not isinstance(open_with, str) or open_with not in {o.value for o in Opener}:
            raise ConfigurationError(f"opener is one of {choices}, not {quote(open_with)}")
        if layout is not Layout.LINE and open_with == Opener.FIRST_SEAT.value:
            raise ConfigurationError(f"{name} opens with a double; opener=first_seat needs a line")
        if open_with != opener.value:
            opener = Opener(open_with)
            options.append(("opener", open_with))
    if hand is not None:
        # a house rule: the same hand size for every player count (e.g. the
        # dominoes package's Block deals 7 to each of 4 players)
        if not isinstance(hand, int) or isinstance(hand, bool) or hand < 1:
            raise ConfigurationError(f"hand must be a number of tiles such as 7, not {quote(hand)}")
        hands = dict.fromkeys(hands, hand)
        options.append(("hand", str(hand)))
    if flags.get("all_fives"):
        scoring = Scoring.DIVISOR
    return Ruleset(
        name=name,
        max_pips=6,
        divisor=5,
        min_players=players[0],
        max_players=players[1],
        official_players=players,
        layout=layout,
        stuck=spec.stuck,
        opener=opener,
        scoring=scoring,
        end_scoring=spec.end,
        team_play=spec.teams,
        count_pips=flags.get("count_pips", False),
        match_target=spec.target,
        keep_in_stock=spec.keep,
        hand_table=tuple(sorted(hands.items())),
        options=tuple(options),
    )


BLOCK_HANDS: Final = ((2, 7), (3, 5), (4, 5))

# every classic game fido plays, by name (python-chess's chess.variant.VARIANTS): FIDO,
# with its sets and divisors, is built by its own function
CLASSICS: Final[dict[str, Classic]] = {
    "straight": Classic(
        players=(2, 4), hands=((2, 8), (3, 6), (4, 5)), stuck=Stuck.PASS,
        opener=Opener.HIGHEST_DOUBLE, scoring=Scoring.NONE, end=EndScoring.STRAIGHT,
        teams=False, target=100, extra=("count_pips",)),
    "block": Classic(
        players=(2, 4), hands=BLOCK_HANDS, stuck=Stuck.PASS, opener=Opener.HIGHEST_DOUBLE,
        scoring=Scoring.NONE, end=EndScoring.BLOCK, teams=True),
    "draw": Classic(
        players=(2, 4), hands=((2, 7), (3, 5), (4, 6)), stuck=Stuck.DRAW_FREE,
        opener=Opener.FIRST_SEAT, scoring=Scoring.NONE, end=EndScoring.BLOCK, teams=True,
        keep=2),
    "muggins": Classic(
        players=(2, 4), hands=BLOCK_HANDS, stuck=Stuck.DRAW_UNTIL,
        opener=Opener.HIGHEST_DOUBLE, scoring=Scoring.DIVISOR, end=EndScoring.MUGGINS,
        teams=True, target=61),
    "fives_and_threes": Classic(
        players=(2, 4), hands=((2, 7), (3, 7), (4, 7)), stuck=Stuck.DRAW_UNTIL,
        opener=Opener.LOWEST_DOUBLE, scoring=Scoring.FIVES_AND_THREES,
        end=EndScoring.FIVES_AND_THREES, teams=True, target=31),
    "sebastopol": Classic(
        players=(4, 4), hands=((4, 7),), stuck=Stuck.PASS, opener=Opener.HIGHEST_DOUBLE,
        scoring=Scoring.NONE, end=EndScoring.BLOCK, teams=True, layout=Layout.SPINNER,
        extra=("all_fives",)),
}
# other names players use for a game (lower case, ``_`` for ``-``)
ALIASES: Final[dict[str, str]] = {
    "all_fives": "muggins",
    "all_fives_and_threes": "fives_and_threes",
}
RULESETS: Final = ("fido", *CLASSICS)


def ruleset(name: str, **options: object) -> Ruleset:
    """Build a named ruleset: fido, straight, block, draw, muggins, fives_and_threes, sebastopol.

    FIDO options: ``set`` (6, 9, 12, 15, 18, 21 or any n with ``divisor``),
    ``direction`` (clockwise, counterclockwise), ``mother_theresa``,
    ``soenke_hansen``. Straight: ``count_pips``. Sebastopol: ``all_fives``.
    Every classic game: ``hand`` (a house rule: this many tiles for any player
    count, if the set has enough) and ``opener`` (a house rule: highest_double,
    lowest_double, or first_seat: seat 0 opens with any tile).
    """
    if not isinstance(name, str):
        raise ConfigurationError(f"a ruleset's name is text, not {quote(name)}")
    opts = dict(options)
    key = name.lower().replace("-", "_")
    key = ALIASES.get(key, key)
    if key == "fido":
        return _fido(opts)
    spec = CLASSICS.get(key)
    if spec is None:
        raise ConfigurationError(f"unknown ruleset {quote(name)} (one of: {', '.join(RULESETS)})")
    return _classic(key, opts, spec)
