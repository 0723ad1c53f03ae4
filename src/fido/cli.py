"""The ``fido`` command line: replay and verify records, watch a demo game, list rules."""

from __future__ import annotations

import datetime as dt
import json
import random
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable
from rich.text import Text

from fido.cli_lazy import LazyApp, lazy_group
from fido.errors import FidoError
from fido.game import Game
from fido.moves import Placement
from fido.record import GameRecord
from fido.rules import RULESETS, Ruleset, ruleset
from fido.safe_text import printable, shown
from fido.terminal.screen import results_table

# the federation's commands need the database and ranking stack (SQLAlchemy,
# Alembic, numpy): imported only when one of them runs, so that `fido play`,
# `replay` and `rules` start fast (tests/test_cli_startup.py)
_FEDERATION = {
    "players": LazyApp("fido.cli_ranking", "players_app", "Register and list players."),
    "results": LazyApp("fido.cli_ranking", "results_app", "Enter, import and review game results."),
    "ranking": LazyApp(
        "fido.cli_ranking", "ranking_app", "The monthly FIDO world ranking (FLADUB)."
    ),
}

app = typer.Typer(
    cls=lazy_group(_FEDERATION),
    add_completion=False,
    no_args_is_help=True,
    help="fido: FIDO dominoes and the classic domino games.",
)
console = Console()
err = Console(stderr=True)


def _fail(message: str) -> typer.Exit:
    # a message may quote [brackets] or control characters: never read as markup
    err.print(Text.assemble(("error:", "bold red"), " ", printable(message)), soft_wrap=True)
    return typer.Exit(code=1)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="a game record (JSON)")],
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="only verify")] = False,
    step: Annotated[
        bool, typer.Option("--step", help="step through it: n next, p back, a number, q")
    ] = False,
) -> None:
    """Replay a game record, print its sums and scores, and verify it."""
    try:
        record = GameRecord.load(file)
        rows = []
        game = record.new_game()
        for i, turn, g in record.steps():
            game = g
            rows.append(
                (
                    i,
                    record.players[turn.seat],
                    turn.move.text(),
                    turn.ends_sum,
                    turn.points,
                    list(g.scores),
                )
            )
        record.check_results(game)
    except FidoError as e:
        raise _fail(f"record refused: {e}") from None
    if step:
        from fido.terminal.replay import step_through  # noqa: PLC0415 (interactive only)

        step_through(record, console)
        return
    if not quiet:
        t = RichTable(title=shown(f"{file.name}: {record.ruleset.text()}"))
        for col in ("#", "player", "move", "sum", "points", "scores"):
            t.add_column(col, justify="right" if col in ("#", "sum", "points") else "left")
        for i, name, move, s, pts, scores in rows:
            t.add_row(
                str(i), shown(name), move, str(s), str(pts) if pts else "",
                " ".join(map(str, scores)),
            )
        console.print(t)
        if game.outcome is not None:  # the names are read as markup there: escaped
            names = [escape(printable(p)) for p in record.players]
            console.print(results_table(game.outcome, names))
    status = "finished" if game.outcome else "unfinished"
    console.print(f"[green]verified[/]: {len(record.moves)} moves, game {status}")


@app.command()
def play(  # noqa: PLR0917 (a Typer command: every option is a parameter)
    rules: Annotated[
        str, typer.Option(help="ruleset text with its options, e.g. 'fido set=18 mother_theresa'")
    ] = "fido set=12",
    players: Annotated[int, typer.Option(help="players at the table, you included")] = 4,
    bots: Annotated[
        str, typer.Option(help="bot level for every other seat, or one per seat: 'expert,search'")
    ] = "expert",
    seat: Annotated[int, typer.Option(help="your seat, 0 .. players - 1")] = 0,
    name: Annotated[str, typer.Option(help="your name in the record")] = "You",
    seed: Annotated[
        int | None, typer.Option(help="seed of the deal (for replaying a deal)")
    ] = None,
    delay: Annotated[float, typer.Option(help="seconds between bot moves")] = 0.6,
    hint: Annotated[str, typer.Option(help="the bot the hint key asks")] = "search:time=0.5",
    save: Annotated[
        Path | None, typer.Option(help="game record file (default: dated name)")
    ] = None,
) -> None:
    """Play a hand at the terminal against bots (default: FIDO double-12, three experts)."""
    from fido.terminal.session import Session  # noqa: PLC0415 (keeps `fido rules` fast)

    levels = [b.strip() for b in bots.split(",") if b.strip()]
    if len(levels) == 1:
        levels *= players - 1
    if len(levels) != players - 1:
        raise _fail(f"--bots names {len(levels)} levels for {players - 1} bot seats")
    if delay < 0:
        raise _fail("--delay is seconds, 0 or more")
    try:
        rs = Ruleset.from_text(rules)
        rs.check_players(players)
        session = Session(rs, levels, seat, name, seed, delay, save, hint)
    except (FidoError, ValueError) as e:
        raise _fail(str(e)) from None
    session.run()


@app.command()
def demo(
    rules: Annotated[str, typer.Option(help="ruleset text, e.g. 'fido set=18'")] = "fido set=12",
    players: Annotated[int, typer.Option(help="number of players")] = 4,
    seed: Annotated[int | None, typer.Option(help="seed for the deal and the moves")] = None,
    save: Annotated[Path | None, typer.Option(help="write the game record here")] = None,
) -> None:
    """Watch a game of random players, move by move."""
    try:
        rs = Ruleset.from_text(rules)
        rng = random.Random(seed)
        game = Game.new(rs, players, rng=rng)
    except FidoError as e:
        raise _fail(str(e)) from None
    names = [f"Player {i + 1}" for i in range(players)]
    console.print(
        f"[bold]{rs.text()}[/], {players} players; "
        f"{names[game.opener]} opens with {game.opening_tile or 'any tile'}"
    )
    while not game.is_over:
        move = rng.choice(game.legal_moves())
        seat = game.turn
        game.push(move)
        turn = game.last_turn()
        assert turn is not None
        if isinstance(move, Placement):
            scored = f"  [bold green]+{turn.points}[/]" if turn.points else ""
            console.print(f"{names[seat]:>9}: {move.text():<10} sum {turn.ends_sum:>3}{scored}")
        else:
            console.print(f"{names[seat]:>9}: [dim]{move.text()}[/]")
    assert game.outcome is not None
    console.print(results_table(game.outcome, names))
    if save is not None:
        GameRecord.from_game(game, names, date=dt.date.today()).save(save)
        console.print(f"record saved to {save}")


@app.command()
def simulate(  # noqa: PLR0917 (a Typer command: every option is a parameter)
    rules: Annotated[str, typer.Option(help="ruleset text, e.g. 'fido set=12'")] = "fido set=12",
    players: Annotated[int, typer.Option(help="number of seats")] = 4,
    bots: Annotated[
        str, typer.Option(help="bot specs, comma-separated with ';' between seats if options")
    ] = "greedy,random",
    deals: Annotated[int, typer.Option(help="deals; each is played in every rotation")] = 100,
    seed: Annotated[int, typer.Option(help="seed of the deals and the bots")] = 0,
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
) -> None:
    """Bots against bots: duplicate deals, 95% confidence intervals per bot.

    ``--bots`` lists one spec per seat, cycled when shorter than ``--players``:
    ``greedy,random`` at 4 seats is greedy, random, greedy, random. Specs with
    options use ';' between seats: ``search:sims=200,time=0;expert``.
    """
    from rich.progress import Progress  # noqa: PLC0415 (only this command needs it)

    from fido.tournament import run_tournament, save_records  # noqa: PLC0415

    specs = [b.strip() for b in (bots.split(";") if ";" in bots else bots.split(","))]
    if not all(specs):
        raise _fail(f"empty bot name in --bots {bots!r}")
    seating = [specs[i % len(specs)] for i in range(players)]
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
            )
    except FidoError as e:
        raise _fail(str(e)) from None
    t = RichTable(
        title=f"{result.rules}, {players} seats, {deals} deals x {players} rotations, seed {seed}"
    )
    for col in ("bot", "hands", "final", "margin", "win rate", "place"):
        t.add_column(col, justify="left" if col == "bot" else "right")
    for s in result.stats():
        t.add_row(
            s.bot,
            str(s.hands),
            f"{s.final.mean:.1f} ± {s.final.half_width:.1f}",
            str(s.margin),
            f"{100 * s.win_rate.mean:.1f}% ± {100 * s.win_rate.half_width:.1f}",
            f"{s.place.mean:.2f} ± {s.place.half_width:.2f}",
        )
    console.print(t)
    console.print("± : 95% confidence interval over deals; margin: score minus the others' mean")
    if json_out:
        json_out.write_text(json.dumps(result.to_json(), indent=2))
    if csv_out:
        result.write_csv(csv_out)
    if records:
        console.print(f"{save_records(result, records)} records saved in {records}")


@app.command(name="rules")
def list_rules() -> None:
    """List the rulesets with their players and hand sizes."""
    t = RichTable(title="Rulesets (options: see docs/rules.md)")
    for col in ("ruleset", "set", "players", "hand sizes", "scores"):
        t.add_column(col)
    for name in RULESETS:
        rs = ruleset(name)
        sizes = ", ".join(
            f"{p}:{rs.hand_size(p)}" for p in range(rs.min_players, rs.max_players + 1)
        )
        t.add_row(
            name,
            f"double-{rs.max_pips}",
            f"{rs.min_players}-{rs.max_players}",
            sizes,
            rs.scoring.value if rs.name != "fido" else f"S/{rs.divisor}",
        )
    console.print(t)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
