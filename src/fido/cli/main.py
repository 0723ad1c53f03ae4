"""The ``fido`` command line: replay and verify records, watch a demo game, list rules."""

from __future__ import annotations

import datetime as dt
import json
import os
import random
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable
from rich.text import Text

from fido.cli.lazy import LazyApp, lazy_group
from fido.engine.game import Game
from fido.engine.moves import Placement
from fido.engine.rules import RULESETS, Ruleset, ruleset
from fido.errors import FidoError
from fido.i18n import (
    LANGUAGES,
    _,
    from_environment,
    language_or_none,
    ngettext,
    set_language,
    use,
)
from fido.record import GameRecord
from fido.safe_text import printable
from fido.terminal.screen import results_table

if TYPE_CHECKING:
    from fido.terminal.options import PlayOptions

# the federation's commands need the database and ranking stack (SQLAlchemy,
# Alembic, numpy): imported only when one of them runs, so that `fido play`,
# `replay` and `rules` start fast (tests/cli/test_cli_startup.py)
_FEDERATION = {
    "players": LazyApp("fido.cli.ranking", "players_app", "Register and list players."),
    "results": LazyApp("fido.cli.ranking", "results_app", "Enter, import and review game results."),
    "ranking": LazyApp(
        "fido.cli.ranking", "ranking_app", "The monthly FIDO world ranking (FLADUB)."
    ),
    "accounts": LazyApp(
        "fido.cli.accounts",
        "accounts_app",
        "Server accounts: roles (organiser, federation), player links.",
    ),
    "legal": LazyApp(
        "fido.cli.legal", "legal_app", "The Impressum and privacy statement the site shows."
    ),
    "backup": LazyApp(
        "fido.cli.backup", "backup_app", "Back up the database into a file, while the server runs."
    ),
    "restore": LazyApp(
        "fido.cli.backup", "restore_app", "Restore a backup file into an empty database."
    ),
    # FastAPI, uvicorn and argon2 as well: imported only by `fido serve`
    "serve": LazyApp("fido.cli.serve", "serve_app", "Run the multiplayer server (HTTP API)."),
    "doctor": LazyApp(
        "fido.cli.doctor", "doctor_app", "Check the server's configuration and say what to fix."
    ),
}

# Typer reads a command's --help when the command is defined, before --lang is
# read: the player's commands (play, replay, rules, demo) write theirs in the
# terminal's language (LANGUAGE, LC_ALL, LC_MESSAGES, LANG); the organisers'
# commands stay English, as their documentation does
_HELP_LANG = from_environment(dict(os.environ))


def _h(text: str) -> str:
    """``text`` in the terminal's language, for a --help that Typer reads at import."""
    with use(_HELP_LANG):
        return _(text)


app = typer.Typer(
    cls=lazy_group(_FEDERATION),
    add_completion=False,
    no_args_is_help=True,
    help=_h("fido: FIDO dominoes and the classic domino games."),
)
console = Console()
err = Console(stderr=True)


def _fail(message: str) -> typer.Exit:
    # a message may quote [brackets] or control characters: never read as markup
    err.print(Text.assemble((_("error:"), "bold red"), " ", printable(message)), soft_wrap=True)
    return typer.Exit(code=1)


# the game's commands (play, replay, rules) speak the player's language; the
# organisers' commands stay English
LangOption = Annotated[
    str | None,
    typer.Option(
        "--lang",
        help=_h(
            "the language: {languages} (default: the environment's LANGUAGE, "
            "LC_ALL, LC_MESSAGES or LANG, else English)"
        ).format(languages=", ".join(LANGUAGES)),
    ),
]


def _speak(lang: str | None) -> None:
    """Speak --lang from here on, else the terminal's language, else English."""
    if lang is None:
        set_language(from_environment(dict(os.environ)))
        return
    code = language_or_none(lang)
    if code is None:
        raise _fail(
            _("--lang is one of {languages}, not {lang}").format(
                languages=", ".join(LANGUAGES), lang=lang
            )
        )
    set_language(code)


@app.command(help=_h("Replay a game record, print its sums and scores, and verify it."))
def replay(  # noqa: PLR0917 (a Typer command: every option is a parameter)
    file: Annotated[Path, typer.Argument(help=_h("a game record (JSON, at most 4 MiB)"))],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=_h("only verify"))] = False,
    step: Annotated[
        bool, typer.Option("--step", help=_h("step through it: n next, p back, a number, q"))
    ] = False,
    seat: Annotated[
        int | None,
        typer.Option(
            help=_h("with --step: show this seat's hand at every step (0 = the first)")
        ),
    ] = None,
    analysis: Annotated[
        Path | None,
        typer.Option(help=_h("an analysis of it (fido analyze --json), beside each move")),
    ] = None,
    analyse: Annotated[
        bool,
        typer.Option(
            "--analyse", help=_h("analyse every seat now and show it beside each move")
        ),
    ] = False,
    lang: LangOption = None,
) -> None:
    from fido.rich_text import safe  # noqa: PLC0415
    from fido.terminal.replay import replay_rows  # noqa: PLC0415 (names are shown safely)

    _speak(lang)

    try:
        record = GameRecord.load(file)
        rows, game = replay_rows(record)
        record.check_results(game)
        if analysis is not None and analyse:
            raise _fail(_("give --analysis FILE or --analyse, not both"))
        if analysis is not None or analyse:
            from fido.analysis.replay import live_notes, replay_notes  # noqa: PLC0415

            notes = live_notes(record, err) if analysis is None else replay_notes(analysis, record)
            rows = [(*row, notes.get(int(row[0]), "")) for row in rows]
    except FidoError as e:
        raise _fail(_("record refused: {reason}").format(reason=printable(e))) from None
    if seat is not None and not 0 <= seat < len(record.players):
        raise _fail(
            _("--seat is 0 .. {last} in this record, not {seat}").format(
                last=len(record.players) - 1, seat=seat
            )
        )
    if step:
        from fido.terminal.replay import step_through  # noqa: PLC0415 (interactive only)

        step_through(record, console, seat=seat)
        return
    if not quiet:
        event = f" ({safe(record.event, 60)})" if record.event else ""
        t = RichTable(title=f"{safe(file.name, 60)}: {safe(record.ruleset.text())}{event}")
        cols = ["#", _("player"), _("move"), _("sum"), _("points"), _("scores")]
        if analysis is not None or analyse:
            cols.append(_("analysis"))
        for i, col in enumerate(cols):
            t.add_column(col, justify="right" if i in (0, 3, 4) else "left")
        for row in rows:
            t.add_row(*row)
        console.print(t)
        if game.outcome is not None:  # the names are read as markup there: escaped
            names = [escape(printable(p)) for p in record.players]
            console.print(results_table(game.outcome, names))
    moves = len(record.moves)
    if game.outcome:
        done = ngettext("{count} move, game finished", "{count} moves, game finished", moves)
    else:
        done = ngettext("{count} move, game unfinished", "{count} moves, game unfinished", moves)
    verified = _("verified")
    console.print(f"[green]{verified}[/]: {done.format(count=moves)}")


def _run_play(options: PlayOptions) -> None:
    """Check the options, deal and play (``fido play``, and ``fido learn``'s first game)."""
    from fido.terminal.options import prepare  # noqa: PLC0415 (keeps `rules` fast)

    try:
        session = prepare(options)
    except FidoError as e:
        raise _fail(printable(e)) from None
    code = session.run()
    if code:
        raise typer.Exit(code=code)


@app.command(
    help=_h("Play a hand at the terminal against bots (default: FIDO double-12, three experts).")
)
def play(  # noqa: PLR0917 (a Typer command: every option is a parameter)
    rules: Annotated[
        str | None,
        typer.Option(help=_h("ruleset text with its options (default: 'fido set=12')")),
    ] = None,
    players: Annotated[
        int | None, typer.Option(help=_h("players at the table, you included (default: 4)"))
    ] = None,
    bots: Annotated[
        str | None,
        typer.Option(
            help=_h(
                "bot level for every other seat, or one per seat: 'expert,search' "
                "(random, greedy, expert, search, champion; default: expert)"
            )
        ),
    ] = None,
    seat: Annotated[
        int | None, typer.Option(help=_h("your seat, 0 .. players - 1 (default: 0)"))
    ] = None,
    name: Annotated[
        str | None, typer.Option(help=_h("your name in the record (default: You)"))
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help=_h("seed of the deal (for replaying a deal)"))
    ] = None,
    delay: Annotated[float, typer.Option(help=_h("seconds between bot moves, 0 to 60"))] = 0.6,
    hint: Annotated[str, typer.Option(help=_h("the bot the hint key asks"))] = "search:time=0.5",
    save: Annotated[
        Path | None,
        typer.Option(help=_h("game record file (default: a dated name, or the resumed file)")),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            help=_h(
                "go on with a game saved by fido play, with its bots and seats "
                "(with --match: the match saved as --save NAME)"
            )
        ),
    ] = None,
    match: Annotated[
        bool,
        typer.Option(
            "--match",
            help=_h("play hands until a side reaches the target, the score between hands"),
        ),
    ] = False,
    target: Annotated[
        int | None,
        typer.Option(help=_h("the match's target (default: the ruleset's: 61, 31, 100)")),
    ] = None,
    lang: LangOption = None,
) -> None:
    from fido.terminal.options import PlayOptions  # noqa: PLC0415 (keeps `rules` fast)

    _speak(lang)

    options = PlayOptions(
        rules, players, bots, seat, name, seed, delay, hint, save, resume, match, target
    )
    _run_play(options)


@app.command(help=_h("Learn FIDO in seven steps at the table, then play a first game."))
def learn(
    play_after: Annotated[
        bool | None,
        typer.Option("--play/--no-play",
                     help=_h("play the first game after the lesson (default: ask)")),
    ] = None,
    lang: LangOption = None,
) -> None:
    from fido.lessons import FIRST_GAME  # noqa: PLC0415 (keeps the other commands fast)
    from fido.terminal.lesson import Lesson  # noqa: PLC0415
    from fido.terminal.options import PlayOptions  # noqa: PLC0415

    _speak(lang)
    if not Lesson(console).run():
        return
    if play_after is None:
        try:
            answer = input(_("Play your first game now: FIDO double-6, you and two bots "
                             "that lay any tile that fits? [Y/n] ")).strip().lower()
        except (EOFError, KeyboardInterrupt):
            return
        play_after = answer in {"", "y", "yes", "j", "ja"}
    if not play_after:
        console.print(_("Play when you like: {command}").format(
            command=f"fido play --rules '{FIRST_GAME.rules}' --players {FIRST_GAME.players} "
                    f"--bots {FIRST_GAME.bot}"))
        return
    options = PlayOptions(rules=FIRST_GAME.rules, players=FIRST_GAME.players,
                          bots=FIRST_GAME.bot)
    _run_play(options)


@app.command(help=_h("Solve a puzzle from a real game: the puzzle of the day, or the next "
                     "one for your puzzle rating."))
def puzzle(
    next_one: Annotated[
        bool, typer.Option("--next", help=_h("the next puzzle for your rating, not the day's"))
    ] = False,
    puzzle_id: Annotated[
        str | None, typer.Option("--id", help=_h("a puzzle by its name"))
    ] = None,
    lang: LangOption = None,
) -> None:
    from fido import puzzles  # noqa: PLC0415 (keeps the other commands fast)
    from fido.terminal.puzzle import Solver, Standing, standing_file  # noqa: PLC0415

    _speak(lang)
    path = standing_file()
    standing = Standing.load(path)
    day: dt.date | None = None
    if puzzle_id is not None:
        chosen = puzzles.by_id(puzzle_id.strip().lower()[:16])
        if chosen is None:
            raise _fail(_("there is no puzzle {id}").format(id=printable(puzzle_id, 20)))
    elif next_one:
        left = [p for p in puzzles.load() if p.id not in standing.answered]
        if not left:
            raise _fail(_("you have answered every puzzle there is"))
        chosen = min(left, key=lambda p: (abs(p.rating - standing.rating), p.id))
    else:
        day = dt.datetime.now(dt.UTC).date()
        chosen = puzzles.daily(day)
    if Solver(standing, console).run(chosen, day):
        try:
            standing.save(path)
        except OSError as e:
            raise _fail(_("cannot keep your puzzle rating in {path}: {why}").format(
                path=path, why=printable(e))) from None


@app.command(help=_h("Watch a game of random players, move by move."))
def demo(
    rules: Annotated[
        str, typer.Option(help=_h("ruleset text, e.g. 'fido set=18'"))
    ] = "fido set=12",
    players: Annotated[int, typer.Option(help=_h("number of players"))] = 4,
    seed: Annotated[int | None, typer.Option(help=_h("seed for the deal and the moves"))] = None,
    save: Annotated[Path | None, typer.Option(help=_h("write the game record here"))] = None,
    lang: LangOption = None,
) -> None:
    from fido.options import check_output_file  # noqa: PLC0415
    from fido.rich_text import safe  # noqa: PLC0415

    _speak(lang)
    try:
        rs = Ruleset.from_text(rules)
        rng = random.Random(seed)
        game = Game.new(rs, players, rng=rng)
        if save is not None:
            check_output_file(save, "--save")  # before the game, not after it
    except FidoError as e:
        raise _fail(printable(e)) from None
    names = [_("Player {number}").format(number=i + 1) for i in range(players)]
    opener = names[game.opener]
    console.print(Text.assemble((rs.text(), "bold"), ", ", (
        ngettext("{n} player; {name} opens with {tile}", "{n} players; {name} opens with {tile}",
                 players).format(n=players, name=opener, tile=game.opening_tile)
        if game.opening_tile is not None else
        ngettext("{n} player; {name} opens with any tile",
                 "{n} players; {name} opens with any tile", players).format(
                     n=players, name=opener))))
    width = max(len(n) for n in names)
    while not game.is_over:
        move = rng.choice(game.legal_moves())
        seat = game.turn
        game.push(move)
        turn = game.last_turn()
        assert turn is not None
        if isinstance(move, Placement):
            scored = f"  [bold green]+{turn.points}[/]" if turn.points else ""
            console.print(f"{escape(names[seat]):>{width}}: {move.text():<10} "
                          f"{_('sum')} {turn.ends_sum:>3}{scored}")
        else:
            console.print(f"{escape(names[seat]):>{width}}: [dim]{move.text()}[/]")
    assert game.outcome is not None
    console.print(results_table(game.outcome, names))
    if save is not None:
        try:
            GameRecord.from_game(game, names, date=dt.date.today()).save(save)
        except OSError as e:
            raise _fail(_("cannot save the record: {why}").format(why=printable(e))) from None
        console.print(_("game record saved to {path}").format(path=safe(save)))


@app.command()
def simulate(  # noqa: PLR0917 (a Typer command: every option is a parameter)
    rules: Annotated[str, typer.Option(help="ruleset text, e.g. 'fido set=12'")] = "fido set=12",
    players: Annotated[int, typer.Option(help="number of seats")] = 4,
    bots: Annotated[
        str, typer.Option(help="bot specs per seat, comma- or ';'-separated")
    ] = "greedy,random",
    deals: Annotated[int, typer.Option(help="deals; each is played in every rotation")] = 100,
    seed: Annotated[
        int, typer.Option(help="seed of the deals (the bots' dice: a secret per run)")
    ] = 0,
    workers: Annotated[
        int | None, typer.Option(help="local processes (default: all cores)")
    ] = None,
    ray: Annotated[
        str | None, typer.Option(help="Ray cluster address ('local' starts one here)")
    ] = None,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="write the figures as JSON")
    ] = None,
    csv_out: Annotated[Path | None, typer.Option("--csv", help="write the figures as CSV")] = None,
    records: Annotated[Path | None, typer.Option(help="save every hand's record here")] = None,
    bot_secret: Annotated[
        str | None,
        typer.Option(help="the bots' dice as hex, to replay a run (its --json holds it)"),
    ] = None,
) -> None:
    """Bots against bots: duplicate deals, 95% confidence intervals per bot.

    ``--bots`` lists one spec per seat, cycled when shorter than ``--players``:
    ``greedy,random`` at 4 seats is greedy, random, greedy, random. Specs with
    options: ``search:sims=200,time=0,expert`` or with ';' between seats.
    Every option and output path is checked before the first deal.
    """
    from rich.progress import Progress  # noqa: PLC0415 (only this command needs it)

    from fido.errors import ConfigurationError  # noqa: PLC0415
    from fido.options import check_output_dir, check_output_file, split_specs  # noqa: PLC0415
    from fido.safe_text import printable  # noqa: PLC0415
    from fido.tournament import check_tournament, run_tournament, save_records  # noqa: PLC0415

    try:
        Ruleset.from_text(rules).check_players(players)
        specs = split_specs(bots)
        if workers is not None and workers < 1:
            raise ConfigurationError(f"--workers is 1 or more processes, not {workers}")
        secret = None
        if bot_secret is not None:
            try:
                secret = bytes.fromhex(bot_secret)
            except ValueError:
                raise ConfigurationError(
                    "--bot-secret is hex digits (from a run's --json)"
                ) from None
            if not secret:
                raise ConfigurationError("--bot-secret must not be empty")
        for path, what in ((json_out, "--json"), (csv_out, "--csv")):
            if path is not None:
                check_output_file(path, what)
        if records is not None:
            check_output_dir(records, "--records")
        seating = [specs[i % len(specs)] for i in range(players)]
        check_tournament(rules, seating, deals=deals, workers=workers, ray_address=ray)
    except FidoError as e:
        raise _fail(printable(e)) from None
    try:
        with Progress(console=err, transient=True) as bar:
            task = bar.add_task("deals", total=deals)
            result = run_tournament(
                rules,
                seating,
                deals=deals,
                seed=seed,
                workers=workers,
                ray_address=ray,
                keep_records=records is not None,
                progress=lambda done: bar.update(task, completed=done),
                bot_secret=secret,
            )
    except FidoError as e:
        raise _fail(printable(e)) from None
    title = f"{result.rules}, {players} seats, {deals} deals x {players} rotations, seed {seed}"
    t = RichTable(title=escape(title))
    for col in ("bot", "hands", "final", "margin", "win rate", "place"):
        t.add_column(col, justify="left" if col == "bot" else "right")
    for s in result.stats():
        t.add_row(
            escape(s.bot),
            str(s.hands),
            f"{s.final.mean:.1f} ± {s.final.half_width:.1f}",
            str(s.margin),
            f"{100 * s.win_rate.mean:.1f}% ± {100 * s.win_rate.half_width:.1f}",
            f"{s.place.mean:.2f} ± {s.place.half_width:.2f}",
        )
    console.print(t)
    console.print("± : 95% confidence interval over deals; margin: score minus the others' mean")
    try:
        if json_out:
            json_out.write_text(json.dumps(result.to_json(), indent=2))
        if csv_out:
            result.write_csv(csv_out)
        if records:
            n = save_records(result, records)
            console.print(f"{n} records saved in {escape(printable(records))}")
    except OSError as e:  # checked before the run; the disk may still fill up
        raise _fail(f"cannot write the results: {printable(e)}") from None


@app.command()
def analyze(  # noqa: PLR0917 (a Typer command: every option is a parameter)
    records: Annotated[
        list[Path], typer.Argument(help="game records (JSON), or directories of them")
    ],
    seat: Annotated[int | None, typer.Option(help="analyse this seat only")] = None,
    all_seats: Annotated[
        bool, typer.Option("--all", help="analyse every seat (the default)")
    ] = False,
    json_out: Annotated[
        Path | None, typer.Option("--json", help="write the analysis as JSON (docs/analysis.md)")
    ] = None,
    samples: Annotated[
        int | None,
        typer.Option(help="sampled worlds per decision (default: 1000, 600 past double-12)"),
    ] = None,
    seed: Annotated[int, typer.Option(help="seed of the sampled worlds")] = 0,
    jobs: Annotated[
        int | None, typer.Option(help="local processes (default: all cores)")
    ] = None,
    ray: Annotated[
        str | None, typer.Option(help="Ray cluster address ('local' starts one here)")
    ] = None,
    top: Annotated[int, typer.Option(help="rows of the mistakes table (0: every decision)")] = 15,
    policy: Annotated[
        str,
        typer.Option(
            help="who plays the hands on: smart (the champion's rollouts) or greedy "
            "(the fast playout the analysis used before)"
        ),
    ] = "smart",
) -> None:
    """Judge every move from what its player could see: the points each one lost."""
    from fido.cli.analysis import analyze as run  # noqa: PLC0415 (keeps other commands fast)

    run(records, seat, all_seats, json_out, samples, seed, jobs, ray, top, console, err, policy)


@app.command(
    name="rules",
    help=_h("List the rulesets, or show one's rules in the terminal (with the notation)."),
)
def list_rules(
    ruleset_text: Annotated[
        str | None,
        typer.Argument(
            metavar="[RULESET]",
            help=_h(
                "a ruleset with its options ('fido set=18', 'muggins'): its rules and notation"
            ),
        ),
    ] = None,
    lang: LangOption = None,
) -> None:
    _speak(lang)
    if ruleset_text is not None:
        from fido.terminal.rulebook import rule_book  # noqa: PLC0415

        try:
            rs = Ruleset.from_text(ruleset_text)
        except FidoError as e:
            raise _fail(printable(e)) from None
        console.print(rule_book(rs))
        return
    from fido.terminal.rulebook import scoring_label  # noqa: PLC0415

    t = RichTable(title=_("Rulesets (options: see docs/rules.md)"))
    for col in (_("ruleset"), _("set"), _("players"), _("hand sizes"), _("scoring")):
        t.add_column(col)
    for name in RULESETS:
        rs = ruleset(name)
        sizes = ", ".join(
            f"{p}:{rs.hand_size(p)}" for p in range(rs.min_players, rs.max_players + 1)
        )
        t.add_row(
            name,
            _("double-{pips}").format(pips=rs.max_pips),
            f"{rs.min_players}-{rs.max_players}",
            sizes,
            scoring_label(rs),
        )
    console.print(t)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
