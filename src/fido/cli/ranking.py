"""``fido players``, ``fido results`` and ``fido ranking``: the federation's commands.

Every command takes ``--db URL`` (default: ``$FIDO_DB``, else ``sqlite:///fido.db``
in the current directory); the schema is created or upgraded on open.

:mod:`fido.cli` loads this module only when one of these commands runs: it
brings in SQLAlchemy, Alembic and numpy, which ``fido play`` does without.
Every command body runs inside :func:`refusing`, so bad input of any kind ends
in ``error: ...`` and exit code 1, with nothing stored; every text a user typed
is shown through :func:`fido.safe_text.shown`, never read as markup.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text
from sqlalchemy import func, select
from sqlalchemy.exc import SQLAlchemyError

from fido.errors import FidoError
from fido.ranking import export
from fido.ranking.bulk import import_results
from fido.ranking.clock import utc, utcnow
from fido.ranking.errors import ResultError
from fido.ranking.importer import iter_results, parse_players, parse_received, whole_number
from fido.ranking.players import (
    find_player,
    list_players,
    merge_players,
    register_player,
    rename_player,
    survivor,
)
from fido.ranking.report import Report, player_report, plot_report
from fido.ranking.reviews import (
    confirm,
    counting_notes,
    dispute,
    first_month,
    settle,
    status_at,
)
from fido.ranking.snapshot import (
    Ranking,
    closed_until,
    compute_month,
    late_games,
    month_bounds,
    month_of,
    publish,
    published,
    verify,
)
from fido.ranking.submission import find_game, games_of, parse_result, submit
from fido.rich_text import shown
from fido.safe_text import printable
from fido.store import GameRow, Player, db_message, open_store

__all__ = ["players_app", "ranking_app", "refusing", "results_app"]

# the help texts are repeated in fido.cli's registry of lazy commands; a test
# checks that the two agree
players_app = typer.Typer(no_args_is_help=True, help="Register and list players.")
results_app = typer.Typer(no_args_is_help=True, help="Enter, import and review game results.")
ranking_app = typer.Typer(no_args_is_help=True, help="The monthly FIDO world ranking (FLADUB).")
console = Console()
err = Console(stderr=True)

def _given_database(value: str | None) -> str | None:
    """``--db``, or ``$FIDO_DB``, or a ``./fido.db`` that exists: an administrator's
    command never makes a new database of its own (an env file that lost ``FIDO_DB``
    had one write into a fresh ``./fido.db``, and say nothing)."""
    if value is None and not os.environ.get("FIDO_DB") and not Path("fido.db").exists():
        raise typer.BadParameter(
            "no database given: --db URL, or $FIDO_DB (there is no ./fido.db here)",
            param_hint="--db")
    return value


Db = Annotated[
    str | None,
    typer.Option("--db", callback=_given_database,
                 help="database URL (default: $FIDO_DB, else an existing ./fido.db)"),
]


def _stripped(value: str) -> str:
    return value.strip()


Month = Annotated[str, typer.Option("--month", help="the month, YYYY-MM", callback=_stripped)]
Received = Annotated[
    str | None,
    typer.Option(help="when the federation received the sheets, YYYY-MM-DD (default: now)"),
]
Top = Annotated[int | None, typer.Option(help="show only the first N")]


def _fail(message: str) -> typer.Exit:
    err.print(Text.assemble(("error:", "bold red"), " ", printable(message)), soft_wrap=True)
    return typer.Exit(code=1)


@contextmanager
def refusing(prefix: str = "") -> Iterator[None]:
    """Bad input, an unusable database or file: ``error: prefix...`` and exit code 1.

    The store's session rolls back on the way out, so nothing is changed.
    """
    try:
        yield
    except FidoError as e:
        raise _fail(f"{prefix}{e}") from None
    except SQLAlchemyError as e:
        raise _fail(f"{prefix}database: {db_message(e)}") from None
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        raise _fail(f"{prefix}{where}{e.strerror or e}") from None


def _say(*parts: str | Text | tuple[str, str]) -> None:
    """Print a line of parts (text, Text or (text, style)); user text goes through :func:`shown`."""
    console.print(Text.assemble(*parts))


def _top(top: int | None) -> int | None:
    if top is not None and top < 1:
        raise ResultError(f"--top is 1 or more, not {top}")
    return top


# ---------------------------------------------------------------- players


@players_app.command("add")
def players_add(
    name: Annotated[str, typer.Argument(help="the player's name")],
    number: Annotated[int | None, typer.Option(help="her player number (default: next)")] = None,
    country: Annotated[str | None, typer.Option(help="country code, e.g. DE")] = None,
    db: Db = None,
) -> None:
    """Register a player."""
    with refusing(), open_store(db).session() as s:
        p = register_player(s, name, number, country)
        _say("registered ", shown(p.name), f" as player {p.number}")


@players_app.command("list")
def players_list(
    all_: Annotated[
        bool, typer.Option("--all", help="also the players merged into others")
    ] = False,
    db: Db = None,
) -> None:
    """List the registered players."""
    with refusing(), open_store(db).session(write=False) as s:
        t = RichTable(title="Players")
        cols = ["number", "name", "country", "registered"] + (["merged into"] if all_ else [])
        for col in cols:
            t.add_column(col, justify="right" if col == "number" else "left")
        for p in list_players(s, merged=all_):
            row: list[str | Text] = [
                str(p.number), shown(p.name), shown(p.country or ""),
                f"{p.registered_at:%Y-%m-%d}",
            ]
            if all_:
                into = survivor(s, p) if p.merged_into is not None else None
                row.append(
                    Text.assemble(f"{into.number} ", shown(into.name),
                                  f" on {p.merged_at:%Y-%m-%d}" if p.merged_at else "")
                    if into else ""
                )
            t.add_row(*row)
    console.print(t)


@players_app.command("rename")
def players_rename(
    number: Annotated[int, typer.Argument(help="the player's number")],
    name: Annotated[str, typer.Argument(help="her name as it should be")],
    db: Db = None,
) -> None:
    """Correct a player's name (published rankings show the new one; their numbers stay)."""
    with refusing(), open_store(db).session() as s:
        p, old = rename_player(s, number, name)
        _say(f"player {p.number}: ", shown(old), " is now ", shown(p.name))


@players_app.command("merge")
def players_merge(
    number: Annotated[int, typer.Argument(help="the second registration (she disappears)")],
    into: Annotated[int, typer.Argument(help="the player she really is (she stays)")],
    db: Db = None,
) -> None:
    """Merge a player registered twice: her games count for the other from now on."""
    with refusing(), open_store(db).session() as s:
        old, new, games = merge_players(s, number, into)
        _say(
            f"merged player {old.number} (", shown(old.name), f") into player {new.number} (",
            shown(new.name), f"): her {games} game(s) count for player {new.number} in every "
            f"ranking published from now on; months already published stay as they are, and "
            f"{old.number} is refused for new results",
        )


# ---------------------------------------------------------------- results


@results_app.command("import")
def results_import(
    file: Annotated[
        Path, typer.Argument(help="results as .csv or .json, or a game record (docs/ranking.md)")
    ],
    received: Received = None,
    players: Annotated[
        str | None,
        typer.Option(help="a game record's player numbers in seat order, e.g. 3,1,7"),
    ] = None,
    db: Db = None,
) -> None:
    """Import a season of score sheets, or a game from fido play --save; a bad row
    stores nothing."""
    with refusing("nothing imported: "):
        now = parse_received(received)
        numbers = None if players is None else parse_players(players)
        # a wrong file is refused before the database is opened
        results = iter_results(file, numbers)
        new, old = import_results(open_store(db), results, now=now)
    console.print(f"imported {new} new game(s), {old} already stored")


def _player_line(i: int, known: Callable[[int], str], taken: list[int]) -> tuple[int, str]:
    """Player ``i``'s number, asked until it is a registered player not yet on the
    sheet: a typo is answered at once, not after the whole sheet."""
    while True:
        number = typer.prompt(f"Player {i}: player number", type=int)
        if number in taken:
            problem = f"player {number} is already line {taken.index(number) + 1} of this sheet"
        else:
            try:
                return number, known(number)
            except ResultError as e:
                problem = str(e)
        err.print(Text(f"  {printable(problem)}; type another number"), soft_wrap=True)


def _sheet(by: int | None, known: Callable[[int], str]) -> dict[str, Any]:
    """One score sheet, asked for line by line; ``known`` names a player number
    (or refuses it), so each number is checked as it is typed."""
    date = typer.prompt("Date played (YYYY-MM-DD)", default=dt.date.today().isoformat())
    event = typer.prompt("Place or event")
    set_ = typer.prompt("Set (double-n)", default=12, type=int)
    divisor = typer.prompt("Divisor (empty: the set's)", default="", show_default=False)
    count = typer.prompt("Number of players", type=int)
    if not 2 <= count <= 9:
        raise ResultError(f"a FIDO game has 2 to 9 players, not {count}")
    lines = []
    taken: list[int] = []
    for i in range(1, count + 1):
        player, name = _player_line(i, known, taken)
        taken.append(player)
        who = f"Player {i} ({player} {printable(name)})"
        points = typer.prompt(f"{who}: points", type=int)
        pips = typer.prompt(f"{who}: pips left", type=int)
        lines.append({"player": player, "points": points, "pips": pips})
    data: dict[str, Any] = {
        "date": date,
        "event": event,
        "set": set_,
        "lines": lines,
        "submitted_by": by,
        "source": "sheet",
    }
    if divisor.strip():
        data["divisor"] = whole_number(divisor, "divisor")
    return data


@results_app.command("add")
def results_add(
    by: Annotated[int | None, typer.Option(help="your player number, if you played")] = None,
    received: Received = None,
    db: Db = None,
) -> None:
    """Enter one paper score sheet, line by line."""
    with refusing():
        now = parse_received(received)
        store = open_store(db)

        def known(number: int) -> str:
            with store.session(write=False) as s:  # short: a person types in between
                return find_player(s, number, live=True).name

        if by is not None:
            known(by)  # refused before the sheet is asked for
    with refusing("nothing stored: "):
        r = parse_result(_sheet(by, known))  # refused before it is shown: no control characters
        with store.session(write=False) as s:  # an unknown number is refused here
            names = {ln.player: find_player(s, ln.player, live=True).name for ln in r.lines}
        t = RichTable(title=shown(f"{r.date}, {r.event}, double-{r.set}"))
        for col in ("player", "name", "points", "pips", "final"):
            t.add_column(col, justify="left" if col == "name" else "right")
        for ln in r.lines:
            t.add_row(str(ln.player), shown(names[ln.player]), str(ln.points), str(ln.pips),
                      str(ln.points - ln.pips))
        console.print(t)
        if not typer.confirm("Store this result?", default=True):
            console.print("nothing stored")
            return
        with store.session() as s:
            game, new = submit(s, r, now=now)
            gid = game.id
    console.print(f"stored as game {gid}" if new else f"already stored as game {gid}")


@results_app.command("list")
def results_list(
    player: Annotated[int | None, typer.Option(help="only this player's games")] = None,
    db: Db = None,
) -> None:
    """List the stored games with their status."""
    with refusing(), open_store(db).session(write=False) as s:
        t = RichTable(title="Games")
        for col in ("game", "played", "event", "set", "players (final)", "status"):
            t.add_column(col, justify="right" if col in ("game", "set") else "left")
        for g in games_of(s, None if player is None else [player]):
            finals = ", ".join(
                f"{ln.player.number} {ln.player.name}: {ln.final}" for ln in g.lines
            )
            t.add_row(
                str(g.id), str(g.played_on), shown(g.event), f"{g.set}/{g.divisor}", shown(finals),
                status_at(g).value,
            )
    console.print(t)


GameId = Annotated[int, typer.Argument(help="the game's number (fido results list)")]

_VERDICTS = {"confirm": "confirmed", "dispute": "disputed", "accept": "accepted",
             "reject": "rejected"}
_SOURCES = {"api": "the API", "sheet": "a score sheet (results add)",
            "import": "an import", "online": "an online game"}


@results_app.command("show")
def results_show(game: GameId, db: Db = None) -> None:
    """Show one game: its lines, receipt, reviews with their notes, and what they change."""
    with refusing(), open_store(db).session(write=False) as s:
        g = find_game(s, game)
        who = {ln.player_id: ln.player for ln in g.lines}
        submitter = None
        if g.submitted_by is not None:
            submitter = who.get(g.submitted_by) or s.get(Player, g.submitted_by)
        reviewers = {rv.player_id: s.get(Player, rv.player_id) for rv in g.reviews
                     if rv.player_id is not None}
        status = status_at(g)
        first = first_month(g)
        notes = counting_notes(s, g)
        _say((f"Game {g.id}", "bold"), f": {g.played_on}, ", shown(g.event),
             f", double-{g.set}, divisor {g.divisor}")
        by = Text()
        if submitter is not None:
            by = Text.assemble("; submitted by ", f"{submitter.number} ", shown(submitter.name))
        _say(f"received {utc(g.received_at):%Y-%m-%d %H:%M} UTC from "
             f"{_SOURCES.get(g.source, g.source)}", by,
             "; with its game record" if g.record else "")
        counts = "counts" if status.counts else "does not count"
        _say(f"status: {status.value} ({counts} now); "
             f"the first ranking that can count it: {first}")
        t = RichTable(title="Lines")
        for col in ("seat", "player", "name", "points", "pips", "final"):
            t.add_column(col, justify="left" if col == "name" else "right")
        for ln in g.lines:
            t.add_row(str(ln.seat + 1), str(ln.player.number), shown(ln.player.name),
                      str(ln.points), str(ln.pips), str(ln.final))
        console.print(t)
        if not g.reviews:
            console.print("no confirmation or dispute yet")
        else:
            r = RichTable(title="Reviews")
            for col in ("when (UTC)", "by", "verdict", "note"):
                r.add_column(col)
            for rv in g.reviews:
                p = reviewers.get(rv.player_id) if rv.player_id is not None else None
                r.add_row(f"{utc(rv.at):%Y-%m-%d %H:%M}",
                          shown(f"{p.number} {p.name}") if p else Text("the federation"),
                          _VERDICTS.get(rv.verdict, rv.verdict), shown(rv.note))
            console.print(r)
    for note in notes:
        console.print(note)
Reviewer = Annotated[int, typer.Option("--player", help="your player number")]
Note = Annotated[str, typer.Option(help="a note")]


@results_app.command("confirm")
def results_confirm(game: GameId, player: Reviewer, note: Note = "", db: Db = None) -> None:
    """Confirm a game you played in."""
    with refusing(), open_store(db).session() as s:
        status = confirm(s, game, player, note=note)
    console.print(f"game {game}: {status.value}")


@results_app.command("dispute")
def results_dispute(game: GameId, player: Reviewer, note: Note = "", db: Db = None) -> None:
    """Dispute a game you played in: it stops counting until settled."""
    with refusing(), open_store(db).session() as s:
        status = dispute(s, game, player, note=note)
    console.print(f"game {game}: {status.value}")


@results_app.command("settle")
def results_settle(
    game: GameId,
    accept: Annotated[bool, typer.Option("--accept/--reject", help="the federation's verdict")],
    note: Note = "",
    db: Db = None,
) -> None:
    """Settle a disputed game (the federation)."""
    with refusing(), open_store(db).session() as s:
        status = settle(s, game, accept, note=note)
    console.print(f"game {game}: {status.value}")


# ---------------------------------------------------------------- ranking


def ranking_table(r: Ranking, top: int | None = None, title: str | None = None) -> RichTable:
    t = RichTable(title=shown(title or f"FIDO world ranking {r.month} ({r.games} games)"))
    for col in ("pos", "player", "name", "FLADUB", "games", "change", "pos change"):
        t.add_column(col, justify="left" if col == "name" else "right")
    for e in r.entries[:top]:
        change = "new" if e.change is None else f"{e.change:+.2f}"
        moved = "" if e.previous_position is None else f"{e.previous_position - e.position:+d}"
        name = shown(e.name)
        if e.provisional:
            name.append(" (provisional)", style="dim")
        t.add_row(
            str(e.position), str(e.number), name, f"{e.fladub:.2f}", str(e.games), change, moved
        )
    return t


@ranking_app.command("compute")
def ranking_compute(
    month: Month,
    db: Db = None,
    top: Top = 20,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="show what would be published; store nothing")
    ] = False,
    allow_empty: Annotated[
        bool,
        typer.Option(
            "--allow-empty",
            help="publish even though no result was received in the month "
            "while games played in it came later",
        ),
    ] = False,
) -> None:
    """Compute and publish a month's ranking (once, after the month has ended)."""
    with refusing():
        _top(top)
        with open_store(db).session(write=not dry_run) as s:
            r = publish(s, month, allow_empty=allow_empty, dry_run=dry_run)
            received, late = late_games(s, r.month)
    title = f"Dry run: {r.month} as it would be published ({r.games} games)" if dry_run else None
    console.print(ranking_table(r, top, title))
    if late:
        console.print(
            f"note: {late} game(s) played in {r.month} were received after its cutoff "
            f"({r.cutoff:%Y-%m-%d %H:%M} UTC); they count from a later month on"
        )
    if dry_run:
        console.print(
            f"dry run: nothing published; {received} game(s) were received in {r.month}"
        )
        return
    console.print(f"published {r.month}: {len(r.entries)} players, digest {r.digest[:16]}")


@ranking_app.command("close")
def ranking_close(
    db: Db = None,
    delay: Annotated[
        float,
        typer.Option(min=0.0, max=31 * 24.0,
                     help="hours after a month's end before it is published"),
    ] = 0.0,
) -> None:
    """Close every ended month whose ranking is not out yet, oldest first (for cron; the
    server does it by itself). Nothing to do is not an error."""
    from fido.server.monthly import close_due  # noqa: PLC0415

    wait = dt.timedelta(hours=delay)
    with refusing():
        store = open_store(db)
        done = close_due(store, delay=wait)
        with store.session(write=False) as s:
            latest = closed_until(s)
            received = s.scalar(select(func.min(GameRow.received_at)))
            first = month_of(utc(received)) if received is not None else None
    for c in done:
        if c.outcome == "published":
            _say(("published", "green"), c.message.removeprefix("published"))
        elif c.outcome == "already":
            console.print(c.message)
        elif c.outcome == "busy":
            console.print(f"{c.message}: nothing done here; run again to check")
        else:
            raise _fail(
                f"{c.month} cannot be published: {c.message} (months after it wait for it)"
            )
    if not done:
        console.print(_nothing_to_close(latest[0] if latest else first, latest is not None,
                                        wait))


_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")


def _day_text(day: dt.date) -> str:
    """A date as an organiser reads it: 30 November 2026 (in English, whatever the locale)."""
    return f"{day.day} {_MONTHS[day.month - 1]} {day.year}"


def _nothing_to_close(month: str | None, published_one: bool, wait: dt.timedelta) -> str:
    """Why ``fido ranking close`` did nothing, in an organiser's words: the month it
    waits for and when that month ends (and is published)."""
    from fido.server.monthly import last_ended  # noqa: PLC0415

    def ends(month: str) -> str:
        last_day, cutoff = month_bounds(month)
        text = f"ends on {_day_text(last_day)}"
        if wait:
            hours = f"{wait.total_seconds() / 3600:g}"
            text += (f" and is published {hours} hours after "
                     f"({_day_text((cutoff + wait).date())}, {cutoff + wait:%H:%M} UTC)")
        return text

    if month is None:
        return ("Nothing to close: no results yet (no score sheet, no rated game, no "
                "import), so there is no month to publish.")
    if not published_one:  # the first results' month has not ended
        return (f"Nothing to close: the first results are from {month}, which "
                f"{ends(month)}; its ranking is published then.")
    ended = last_ended(utcnow(), wait) or month
    following = month_of(month_bounds(month)[1])
    if ended == month:
        return (f"Nothing to close: the last month to end, {month}, is published already; "
                f"the next, {following}, {ends(following)}.")
    return (f"Nothing to close: {month} is the latest month published; the next, "
            f"{following}, {ends(following)}.")


@ranking_app.command("show")
def ranking_show(month: Month, db: Db = None, top: Top = None) -> None:
    """Show a published ranking (or, unpublished, a preview from the results so far)."""
    with refusing():
        _top(top)
        with open_store(db).session(write=False) as s:
            r = published(s, month)
            title = None
            if r is None:
                r, _, _ = compute_month(s, month)
                title = f"Preview of {r.month} (not published; {r.games} games so far)"
    console.print(ranking_table(r, top, title))


@ranking_app.command("verify")
def ranking_verify(month: Month, db: Db = None) -> None:
    """Recompute a published month from the stored results; it must match bit for bit."""
    with refusing(), open_store(db).session(write=False) as s:
        r = verify(s, month)
    _say(("verified", "green"), f": {r.month} recomputes bit for bit (digest {r.digest[:16]})")


def _print_report(rep: Report) -> None:
    """Her number explained in tables that fit 80 columns: the games, then their
    opponents, then one line per factor (so every number printed is accounted for)."""
    entry = rep.entry
    state = "" if rep.published else " (not published yet)"
    if entry is None:
        _say(shown(rep.name), f" (player {rep.number}) has no counted game in {rep.month}")
        return
    flag = ", provisional" if entry.provisional else ""
    # two lines, so that neither wraps at 80 columns
    _say(shown(rep.name, "bold"), f" (player {rep.number}), {rep.month}{state}")
    console.print(
        f"position {entry.position}, FLADUB {entry.fladub:.2f}, strength "
        f"{entry.strength:.1f}, {entry.games} games{flag}"
    )
    late = rep.formula >= 4 and any(g.late_factor != 1.0 for g in rep.games)
    t = RichTable(title="Counted games", box=box.SIMPLE_HEAD, show_edge=False)
    t.add_column("game", justify="right")
    t.add_column("played", no_wrap=True)
    t.add_column("event", overflow="ellipsis", no_wrap=True, min_width=6, ratio=1)
    t.add_column("final", justify="right")
    t.add_column("weight", justify="right")
    if late:
        t.add_column("late", justify="right")
    t.add_column("perf.", justify="right")
    t.add_column("contrib.", justify="right")
    for g in rep.games:
        row: list[str | Text] = [
            str(g.game_id), str(g.played_on), shown(g.event), str(g.final), f"{g.weight:.4f}"
        ]
        if late:
            row.append(f"{g.late_factor:.3f}")
        row += [f"{g.performance:.2f}", f"{g.contribution:.2f}"]
        t.add_row(*row)
    console.print(t)
    o = RichTable(title="Her opponents", box=box.SIMPLE_HEAD, show_edge=False)
    o.add_column("game", justify="right")
    o.add_column("opponent", overflow="ellipsis", no_wrap=True, ratio=1)
    for col in ("final", "strength", "her perf. against"):
        o.add_column(col, justify="right")
    for g in rep.games:
        for i, op in enumerate(g.opponents):
            o.add_row(
                str(g.game_id) if i == 0 else "", Text.assemble(f"{op.number} ", shown(op.name)),
                str(op.final), f"{op.strength:.0f}", f"{op.performance:.0f}",
            )
    console.print(o)
    console.print(
        "perf.: her performance, the mean of her performances against each opponent; "
        "contrib.: what the game adds to her FLADUB"
    )
    console.print(f"sum of the contributions: {rep.total:.2f} = FLADUB {entry.fladub:.2f}")
    sets = ", ".join(f"G {gap:.2f} level {level:+.4f}" for gap, level in
                     sorted({(g.gap, g.level) for g in rep.games}))
    if rep.formula >= 4:
        console.print(
            "performance = 1500 + 400 * (final / G - level) + beta * (her opponents' "
            "mean strength - 1500 - 400 * their mean residual), the final clipped to its "
            f"set's bound; this month beta = {rep.beta:+.4f}; {sets}"
        )
        console.print(
            "weight = 1 - (age in days / 365)^2"
            + (" times late: 0.5 for each monthly ranking the result missed" if late else "")
        )
        _explain_factor(rep)
    elif rep.formula >= 3:
        console.print(
            "performance = 1500 + 400 * (final / G - level) + beta * (strength - 1500), "
            f"meaned over her opponents; this month beta = {rep.beta:+.4f}; {sets}"
        )


def _explain_factor(rep: Report) -> None:
    """Formula 4's last step: how her performances became her number."""
    if rep.factor is None or rep.months is None:
        return
    k, n = rep.months, rep.age_steps
    console.print(
        f"contrib. = factor * weight / her sum of weights * perf. shrunk by 2 virtual "
        f"games at 1500; factor = {rep.factor:.4f}"
    )
    age = (
        f"age: her newest counted game is {k} month(s) before this ranking, so her "
        f"number is ({n} - {k}) / {n} = {(n - k) / n:.4f} of her mean shrunk performance"
    )
    if rep.carried:
        age = (
            f"carried on: no new result this month, so last month's number times "
            f"({n} - {k}) / ({n + 1} - {k}) (her newest counted game is {k} month(s) old)"
        )
    console.print(age)
    if rep.capped:
        console.print(
            "held back: late results entering this month would have moved her more than "
            "max(2 %, 5) places; her number is held within them"
        )


@ranking_app.command("report")
def ranking_report(
    month: Month,
    player: Annotated[int, typer.Option(help="the player's number")],
    plot: Annotated[Path | None, typer.Option(help="write her history plot (.png or .svg)")] = None,
    db: Db = None,
) -> None:
    """A player's FLADUB explained: every counted game's weight and contribution."""
    with refusing():
        with open_store(db).session(write=False) as s:
            rep = player_report(s, month, player)
        if plot is not None:
            plot_report(rep, plot)
    _print_report(rep)
    if rep.history:
        console.print(
            "history: " + ", ".join(f"{m} #{p} {f:.1f}" for m, p, f in rep.history)
        )
    if plot is not None:
        _say("plot written to ", shown(plot))


@ranking_app.command("export")
def ranking_export(
    month: Month,
    csv_file: Annotated[Path | None, typer.Option("--csv", help="write CSV here")] = None,
    json_file: Annotated[Path | None, typer.Option("--json", help="write JSON here")] = None,
    db: Db = None,
) -> None:
    """Export a published month's ranking as CSV and/or JSON."""
    with refusing():
        if csv_file is None and json_file is None:
            raise ResultError("give --csv FILE and/or --json FILE")
        with open_store(db).session(write=False) as s:
            r = published(s, month)
        if r is None:
            raise ResultError(f"the ranking of {month} has not been published")
        if csv_file is not None:
            export.to_csv(r, csv_file)
        if json_file is not None:
            export.to_json(r, json_file)
    console.print(f"exported {r.month}: {len(r.entries)} players")
