"""``fido play``'s options, all checked before the deal: a new game or a resumed one.

Everything that could go wrong later is tried now: the ruleset and the number
of players, every bot spec and the hint bot's (built once), the seat, the
delay (finite, 0 to 60 s), the name (no control characters), and the save
path (its directory exists and takes a file). Any problem is a
:class:`~fido.errors.FidoError` with one line, and no game has started.

``--resume FILE`` goes on with a game saved by ``fido play``: the record
holds the deal, so the game is rebuilt by replaying (and verifying) its
moves; the seats' bots come from the record (``--seat``, ``--bots`` and
``--name`` override it, and are needed for a record that does not say who
played), and the game is saved back to FILE unless ``--save`` says otherwise.

``--match`` plays hands until a side reaches the ruleset's target (or
``--target``), each hand saved next to ``--save`` (``NAME-hand1.json``, ...).
``--match --resume NAME.json`` goes on with such a match: its finished hands
count, its last hand goes on where it stopped (or the next is dealt).
"""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass, replace
from pathlib import Path

from fido.bots.names import NAMES
from fido.bots.registry import make_bot
from fido.engine.game import Game
from fido.engine.match import Match
from fido.engine.rules import Ruleset
from fido.errors import ConfigurationError
from fido.i18n import N_, _
from fido.options import check_name, check_output_file, check_seconds, split_specs
from fido.record import GameRecord
from fido.safe_text import printable
from fido.terminal.match_play import MatchPlay, hand_path
from fido.terminal.session import Session, default_record_path

__all__ = ["PlayOptions", "prepare"]

DEFAULT_RULES = "fido set=12"
DEFAULT_PLAYERS = 4
DEFAULT_BOTS = "expert"
DEFAULT_NAME = N_("You")  # in the language she plays in: the record keeps it as shown


@dataclass(frozen=True)
class PlayOptions:
    """The options as typed; None means not given (a resumed game keeps the record's)."""

    rules: str | None = None
    players: int | None = None
    bots: str | None = None
    seat: int | None = None
    name: str | None = None
    seed: int | None = None
    delay: float = 0.6
    hint: str = "search:time=0.5"
    save: Path | None = None
    resume: Path | None = None
    match: bool = False
    target: int | None = None


def _levels(bots: str, players: int, seat: int) -> list[str | None]:
    """One spec per seat (None at hers) from ``--bots``: one level for all, or one per seat."""
    specs = split_specs(bots)
    if len(specs) == 1:
        specs *= players - 1
    if len(specs) != players - 1:
        raise ConfigurationError(
            _("--bots names {levels} levels for {seats} bot seats").format(
                levels=len(specs), seats=players - 1
            )
        )
    for spec in dict.fromkeys(specs):
        make_bot(spec)  # unknown bots and bad options fail now, not at their first move
    levels: list[str | None] = list(specs)
    levels.insert(seat, None)
    return levels


def _seat(seat: int, players: int) -> int:
    if not 0 <= seat < players:
        raise ConfigurationError(
            _("--seat is 0 .. {last} at {players} players, not {seat}").format(
                last=players - 1, players=players, seat=seat
            )
        )
    return seat


def _bot_name(spec: str, seat: int) -> str:
    """A bot's name at the terminal's table: a first name, the same in every language
    (the web's "Expert Ada" is too wide for a terminal's seat lines two a line)."""
    return NAMES[seat % len(NAMES)]


def prepare(opts: PlayOptions) -> Session | MatchPlay:
    """Check everything, deal (or rebuild the saved game), and seat everyone."""
    delay = check_seconds(opts.delay, "--delay")
    make_bot(opts.hint)  # --hint is asked only later: its spec is checked now
    if opts.target is not None and not opts.match:
        raise ConfigurationError(_("--target is the target of a --match"))
    if opts.resume is not None:
        if opts.match:
            return _resume_match(opts, delay)
        return _resume(opts, delay)
    name = check_name(opts.name if opts.name is not None else _(DEFAULT_NAME))
    rules = Ruleset.from_text(opts.rules if opts.rules is not None else DEFAULT_RULES)
    players = opts.players if opts.players is not None else DEFAULT_PLAYERS
    rules.check_players(players)
    rules.hand_size(players)
    seat_no = _seat(opts.seat if opts.seat is not None else 0, players)
    levels = _levels(opts.bots if opts.bots is not None else DEFAULT_BOTS, players, seat_no)
    save = check_output_file(opts.save or default_record_path(), "--save")
    seed = opts.seed if opts.seed is not None else random.SystemRandom().getrandbits(64)
    names = [name if s == seat_no else _bot_name(lv or "", s) for s, lv in enumerate(levels)]
    if opts.match:
        if opts.target is None and rules.match_target is None:
            raise ConfigurationError(
                _("{rules} has no match target: give one, e.g. --target 100").format(
                    rules=rules.name
                )
            )
        if opts.target is not None:
            _check_target(opts.target, "--target")
        match = Match(rules, players, target=opts.target, seed=seed)

        def seated(game: Game, path: Path) -> Session:
            return Session(game, levels, seat_no, names, save=path, delay=delay, hint_bot=opts.hint)

        return MatchPlay(match, names, seated, save)
    game = Game.new(rules, players, seed=seed)
    return Session(game, levels, seat_no, names, save=save, delay=delay, hint_bot=opts.hint)


def _not_with_resume(opts: PlayOptions) -> None:
    given = [
        flag
        for flag, value in (
            ("--rules", opts.rules),
            ("--players", opts.players),
            ("--seed", opts.seed),
            ("--target", opts.target),
        )
        if value is not None
    ]
    if given:
        raise ConfigurationError(
            _("--resume goes on with the record's deal; drop {options}").format(
                options=", ".join(given)
            )
        )


def _replayed(record: GameRecord) -> Game:
    game = record.new_game()
    for _i, _turn, g in record.steps():  # verifies every move
        game = g
    record.check_results(game)  # claimed results must be the replay's
    return game


_MATCH_EVENT = re.compile(r"match to (\d+), hand (\d+)")


MAX_TARGET = 100_000


def _check_target(target: int, what: str) -> None:
    if not 1 <= target <= MAX_TARGET:
        raise ConfigurationError(
            _("{option} is 1 to {max} points, not {target}").format(
                option=what, max=MAX_TARGET, target=target
            )
        )


def _resume_match(opts: PlayOptions, delay: float) -> MatchPlay:
    """Go on with a match saved by ``fido play --match --save BASE``: its hands are
    BASE-hand1.json, ...; the finished ones count, the last one goes on if unfinished."""
    assert opts.resume is not None
    _not_with_resume(opts)
    if opts.save is not None:
        raise ConfigurationError(_("a resumed match saves its hands where they are; drop --save"))
    base = opts.resume
    paths = list(itertools.takewhile(Path.exists, (hand_path(base, k) for k in itertools.count(1))))
    if not paths:
        raise ConfigurationError(
            _("no match saved as {path}: its first hand would be {first}").format(
                path=printable(base, 200), first=printable(hand_path(base, 1), 200)
            )
        )
    records = [GameRecord.load(p) for p in paths]
    found = _MATCH_EVENT.fullmatch(records[-1].event or "")
    if found is None or int(found[2]) != len(records):
        raise ConfigurationError(
            _("{path} is not hand {hand} of a match saved by fido play --match").format(
                path=printable(paths[-1], 200), hand=len(records)
            )
        )
    target = int(found[1])
    _check_target(
        target, _("the target of the match in {path}").format(path=printable(paths[-1], 200))
    )
    first = _replayed(records[0])
    match = Match(first.rules, first.players, target=target,
                  seed=random.SystemRandom().getrandbits(64))
    games = [first, *(_replayed(r) for r in records[1:])]
    for path, game in zip(paths[:-1], games[:-1], strict=True):
        if not game.is_over or game.rules != first.rules or game.players != first.players:
            raise ConfigurationError(
                _("{path} is not a finished hand of this match").format(path=printable(path, 200))
            )
        match.add(game)
    last = games[-1]
    current = None
    if last.is_over:
        match.add(last)
    else:
        current = _resume(replace(opts, resume=paths[-1], match=False), delay)
    if match.is_over:
        raise ConfigurationError(
            _("the match saved as {path} is over").format(path=printable(base, 200))
        )
    levels, seat, names = _seating(opts, records[-1], paths[-1], last.players)

    def seated(game: Game, path: Path) -> Session:
        return Session(game, levels, seat, names, save=path, delay=delay, hint_bot=opts.hint)

    return MatchPlay(match, names, seated, base, current=current)


def _resume(opts: PlayOptions, delay: float) -> Session:
    assert opts.resume is not None
    _not_with_resume(opts)
    path = opts.resume
    record = GameRecord.load(path)
    game = _replayed(record)
    if game.is_over:
        raise ConfigurationError(
            _("the game in {path} is finished; replay it with: fido replay {path}").format(
                path=printable(path, 200)
            )
        )
    levels, seat, names = _seating(opts, record, path, game.players)
    save = check_output_file(opts.save or path, "--save")
    return Session(
        game,
        levels,
        seat,
        names,
        save=save,
        delay=delay,
        hint_bot=opts.hint,
        date=record.date,
        event=record.event,
    )


def _seating(opts: PlayOptions, record: GameRecord, path: Path,
             players: int) -> tuple[list[str | None], int, list[str]]:
    """Who sits where in a resumed game: the record's bots and seats unless the options
    say otherwise."""
    if opts.bots is not None or record.bots is None:
        if opts.seat is None and record.bots is not None:
            seat = _person_seat(record.bots, path)
        else:
            seat = _seat(opts.seat if opts.seat is not None else 0, players)
        levels = _levels(opts.bots if opts.bots is not None else DEFAULT_BOTS, players, seat)
    else:
        levels = list(record.bots)
        seat = _person_seat(record.bots, path) if opts.seat is None else _seat(opts.seat, players)
        if levels[seat] is not None:  # she takes a bot's seat: that bot sits in hers
            levels[_person_seat(record.bots, path)] = levels[seat]
            levels[seat] = None
        for spec in dict.fromkeys(lv for lv in levels if lv is not None):
            make_bot(spec)  # a record is data: its specs are checked like options
    names = list(record.players)
    if opts.name is not None:
        names[seat] = check_name(opts.name)
    return levels, seat, names


def _person_seat(bots: tuple[str | None, ...], path: Path) -> int:
    people = [s for s, b in enumerate(bots) if b is None]
    if len(people) != 1:
        raise ConfigurationError(
            _("{path} has {count} people's seats; say which is yours with --seat").format(
                path=printable(path, 200), count=len(people)
            )
        )
    return people[0]
