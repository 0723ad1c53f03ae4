"""``fido players``, ``fido results`` and ``fido ranking``: the federation's commands.

Every command takes ``--db URL`` (default: ``$FIDO_DB``, else ``sqlite:///fido.db``
in the current directory); the schema is created or upgraded on open.
"""

from __future__ import annotations

import csv
import datetime as dt
import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable
from sqlalchemy.exc import SQLAlchemyError

from fido.errors import FidoError
from fido.ranking import export
from fido.ranking.report import player_report, plot_report
from fido.ranking.results import (
    ResultError,
    confirm,
    dispute,
    games_of,
    list_players,
    register_player,
    settle,
    status_at,
    submit,
    submit_many,
)
from fido.ranking.snapshot import Ranking, compute_month, publish, published, verify
from fido.store import Store, open_store

__all__ = ["players_app", "ranking_app", "results_app"]

players_app = typer.Typer(no_args_is_help=True, help="Register and list players.")
results_app = typer.Typer(no_args_is_help=True, help="Enter, import and review game results.")
ranking_app = typer.Typer(no_args_is_help=True, help="The monthly FIDO world ranking (FLADUB).")
console = Console()
err = Console(stderr=True)

Db = Annotated[
    str | None,
    typer.Option("--db", help="database URL (default: $FIDO_DB or sqlite:///fido.db)"),
]
Month = Annotated[str, typer.Option("--month", help="the month, YYYY-MM")]
Received = Annotated[
    str | None,
    typer.Option(help="when the federation received the sheets, YYYY-MM-DD (default: now)"),
]

CSV_COLUMNS = ("game", "date", "event", "set", "divisor", "player", "points", "pips")


def _fail(message: str) -> typer.Exit:
    err.print(f"[bold red]error:[/] {escape(message)}")
    return typer.Exit(code=1)


def _open(db: str | None) -> Store:
    try:
        return open_store(db)
    except (SQLAlchemyError, OSError) as e:
        raise _fail(f"cannot open the database: {e}") from None


# ---------------------------------------------------------------- players


@players_app.command("add")
def players_add(
    name: Annotated[str, typer.Argument(help="the player's name")],
    number: Annotated[int | None, typer.Option(help="her player number (default: next)")] = None,
    country: Annotated[str | None, typer.Option(help="country code, e.g. DE")] = None,
    db: Db = None,
) -> None:
    """Register a player."""
    store = _open(db)
    try:
        with store.session() as s:
            p = register_player(s, name, number, country)
            console.print(f"registered {escape(p.name)} as player {p.number}")
    except FidoError as e:
        raise _fail(str(e)) from None


@players_app.command("list")
def players_list(db: Db = None) -> None:
    """List the registered players."""
    with _open(db).session() as s:
        t = RichTable(title="Players")
        for col in ("number", "name", "country", "registered"):
            t.add_column(col, justify="right" if col == "number" else "left")
        for p in list_players(s):
            t.add_row(str(p.number), p.name, p.country or "", f"{p.registered_at:%Y-%m-%d}")
    console.print(t)


# ---------------------------------------------------------------- results


def _received(text: str | None) -> dt.datetime | None:
    """The day the sheets arrived (noon UTC), never later than now."""
    if text is None:
        return None
    try:
        day = dt.date.fromisoformat(text.strip())
    except ValueError:
        raise ResultError(f"--received is a date, YYYY-MM-DD, not {text!r}") from None
    now = dt.datetime.now(dt.UTC)
    if day > now.date():
        raise ResultError(f"--received {day} is in the future")
    return min(dt.datetime(day.year, day.month, day.day, 12, tzinfo=dt.UTC), now)


def _int(text: str, what: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise ResultError(f"{what}: {text.strip()!r} is not a whole number") from None


def read_csv(path: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """Results from a CSV file (one row per line, a game's rows together) and their labels."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as e:
        raise ResultError(f"cannot read {path}: {e.strerror}") from None
    reader = csv.DictReader(text.splitlines())
    missing = [c for c in CSV_COLUMNS if c not in (reader.fieldnames or [])]
    if missing:
        raise ResultError(f"{path.name}: missing column(s) {', '.join(missing)}")
    results: list[dict[str, Any]] = []
    labels: list[str] = []
    current: str | None = None
    first_row = 0
    for rowno, row in enumerate(reader, start=2):
        where = f"row {rowno}"
        if None in row or any(v is None for v in row.values()):
            raise ResultError(f"{where}: expected {len(reader.fieldnames or [])} fields")
        line: dict[str, Any] = {
            "player": _int(row["player"], f"{where}: player"),
            "points": _int(row["points"], f"{where}: points"),
            "pips": _int(row["pips"], f"{where}: pips"),
        }
        if (row.get("final") or "").strip():
            line["final"] = _int(row["final"], f"{where}: final")
        game = {
            "date": row["date"].strip(),
            "event": row["event"],
            "set": _int(row["set"], f"{where}: set"),
            "divisor": _int(row["divisor"], f"{where}: divisor")
            if row["divisor"].strip()
            else None,
            "source": "import",
        }
        if row["game"] != current or not results:
            current, first_row = row["game"], rowno
            results.append({**game, "lines": [line]})
            labels.append(f"row {rowno}")
            continue
        head = {k: results[-1][k] for k in game}
        if head != game:
            diff = next(k for k in game if game[k] != head[k])
            raise ResultError(
                f"{where}: game {current!r} has {diff} {head[diff]!r} in row {first_row}, "
                f"{game[diff]!r} here"
            )
        results[-1]["lines"].append(line)
        labels[-1] = f"rows {first_row}-{rowno}"
    if not results:
        raise ResultError(f"{path.name}: no results")
    return results, labels


def read_json(path: Path) -> tuple[list[dict[str, Any]], list[str]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise ResultError(f"cannot read {path}: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise ResultError(f"{path.name}: not JSON: {e.msg} at line {e.lineno}") from None
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
        raise ResultError(f"{path.name}: expected a list of results")
    results = [{"source": "import", **r} for r in data]
    return results, [f"result {i}" for i in range(1, len(results) + 1)]


@results_app.command("import")
def results_import(
    file: Annotated[Path, typer.Argument(help="results as .csv or .json (docs/ranking.md)")],
    received: Received = None,
    db: Db = None,
) -> None:
    """Import a season of score sheets; a bad row stores nothing."""
    store = _open(db)
    try:
        now = _received(received)
        if file.suffix.lower() == ".csv":
            results, labels = read_csv(file)
        elif file.suffix.lower() == ".json":
            results, labels = read_json(file)
        else:
            raise ResultError(f"import reads .csv or .json files, not {file.name!r}")
        with store.session() as s:
            done = submit_many(s, results, labels=labels, now=now)
    except FidoError as e:
        raise _fail(f"nothing imported: {e}") from None
    new = sum(1 for _, is_new in done if is_new)
    console.print(f"imported {new} new game(s), {len(done) - new} already stored")


@results_app.command("add")
def results_add(
    by: Annotated[int | None, typer.Option(help="your player number, if you played")] = None,
    received: Received = None,
    db: Db = None,
) -> None:
    """Enter one paper score sheet, line by line."""
    store = _open(db)
    try:
        now = _received(received)
    except FidoError as e:
        raise _fail(str(e)) from None
    date = typer.prompt("Date played (YYYY-MM-DD)", default=dt.date.today().isoformat())
    event = typer.prompt("Place or event")
    set_ = typer.prompt("Set (double-n)", default=12, type=int)
    divisor = typer.prompt("Divisor (empty: the set's)", default="", show_default=False)
    count = typer.prompt("Number of players", type=int)
    lines = []
    for i in range(1, max(count, 0) + 1):
        player = typer.prompt(f"Player {i}: player number", type=int)
        points = typer.prompt(f"Player {i}: points", type=int)
        pips = typer.prompt(f"Player {i}: pips left", type=int)
        lines.append({"player": player, "points": points, "pips": pips})
    data: dict[str, Any] = {
        "date": date,
        "event": event,
        "set": set_,
        "lines": lines,
        "submitted_by": by,
        "source": "sheet",
    }
    try:
        if divisor.strip():
            data["divisor"] = _int(divisor, "divisor")
        t = RichTable(title=f"{date}, {escape(event)}, double-{set_}")
        for col in ("player", "points", "pips", "final"):
            t.add_column(col, justify="right")
        for ln in lines:
            t.add_row(*(str(v) for v in ln.values()), str(ln["points"] - ln["pips"]))
        console.print(t)
        if not typer.confirm("Store this result?", default=True):
            console.print("nothing stored")
            return
        with store.session() as s:
            game, new = submit(s, data, now=now)
            gid = game.id
    except FidoError as e:
        raise _fail(f"nothing stored: {e}") from None
    console.print(f"stored as game {gid}" if new else f"already stored as game {gid}")


@results_app.command("list")
def results_list(
    player: Annotated[int | None, typer.Option(help="only this player's games")] = None,
    db: Db = None,
) -> None:
    """List the stored games with their status."""
    try:
        with _open(db).session() as s:
            t = RichTable(title="Games")
            for col in ("game", "played", "event", "set", "players (final)", "status"):
                t.add_column(col, justify="right" if col in ("game", "set") else "left")
            for g in games_of(s, None if player is None else [player]):
                finals = ", ".join(f"{ln.player.number}: {ln.final}" for ln in g.lines)
                t.add_row(
                    str(g.id), str(g.played_on), g.event, f"{g.set}/{g.divisor}", finals,
                    status_at(g).value,
                )
    except FidoError as e:
        raise _fail(str(e)) from None
    console.print(t)


GameId = Annotated[int, typer.Argument(help="the game's number (fido results list)")]
Reviewer = Annotated[int, typer.Option("--player", help="your player number")]
Note = Annotated[str, typer.Option(help="a note")]


@results_app.command("confirm")
def results_confirm(game: GameId, player: Reviewer, note: Note = "", db: Db = None) -> None:
    """Confirm a game you played in."""
    try:
        with _open(db).session() as s:
            status = confirm(s, game, player, note=note)
    except FidoError as e:
        raise _fail(str(e)) from None
    console.print(f"game {game}: {status.value}")


@results_app.command("dispute")
def results_dispute(game: GameId, player: Reviewer, note: Note = "", db: Db = None) -> None:
    """Dispute a game you played in: it stops counting until settled."""
    try:
        with _open(db).session() as s:
            status = dispute(s, game, player, note=note)
    except FidoError as e:
        raise _fail(str(e)) from None
    console.print(f"game {game}: {status.value}")


@results_app.command("settle")
def results_settle(
    game: GameId,
    accept: Annotated[bool, typer.Option("--accept/--reject", help="the federation's verdict")],
    note: Note = "",
    db: Db = None,
) -> None:
    """Settle a disputed game (the federation)."""
    try:
        with _open(db).session() as s:
            status = settle(s, game, accept, note=note)
    except FidoError as e:
        raise _fail(str(e)) from None
    console.print(f"game {game}: {status.value}")


# ---------------------------------------------------------------- ranking


def ranking_table(r: Ranking, top: int | None = None, title: str | None = None) -> RichTable:
    t = RichTable(title=title or f"FIDO world ranking {r.month} ({r.games} games)")
    for col in ("pos", "player", "name", "FLADUB", "games", "change", "pos change"):
        t.add_column(col, justify="left" if col == "name" else "right")
    for e in r.entries[:top]:
        change = "new" if e.change is None else f"{e.change:+.2f}"
        moved = "" if e.previous_position is None else f"{e.previous_position - e.position:+d}"
        name = escape(e.name) + (" [dim](provisional)[/]" if e.provisional else "")
        t.add_row(
            str(e.position), str(e.number), name, f"{e.fladub:.2f}", str(e.games), change, moved
        )
    return t


@ranking_app.command("compute")
def ranking_compute(
    month: Month,
    db: Db = None,
    top: Annotated[int | None, typer.Option(help="show only the first N")] = 20,
) -> None:
    """Compute and publish a month's ranking (once, after the month has ended)."""
    try:
        with _open(db).session() as s:
            r = publish(s, month)
    except FidoError as e:
        raise _fail(str(e)) from None
    console.print(ranking_table(r, top))
    console.print(f"published {month}: {len(r.entries)} players, digest {r.digest[:16]}")


@ranking_app.command("show")
def ranking_show(
    month: Month,
    db: Db = None,
    top: Annotated[int | None, typer.Option(help="show only the first N")] = None,
) -> None:
    """Show a published ranking (or, unpublished, a preview from the results so far)."""
    try:
        with _open(db).session() as s:
            r = published(s, month)
            title = None
            if r is None:
                r, _, _ = compute_month(s, month)
                title = f"Preview of {month} (not published; {r.games} games so far)"
    except FidoError as e:
        raise _fail(str(e)) from None
    console.print(ranking_table(r, top, title))


@ranking_app.command("verify")
def ranking_verify(month: Month, db: Db = None) -> None:
    """Recompute a published month from the stored results; it must match bit for bit."""
    try:
        with _open(db).session() as s:
            r = verify(s, month)
    except FidoError as e:
        raise _fail(str(e)) from None
    console.print(f"[green]verified[/]: {month} recomputes bit for bit (digest {r.digest[:16]})")


@ranking_app.command("report")
def ranking_report(
    month: Month,
    player: Annotated[int, typer.Option(help="the player's number")],
    plot: Annotated[Path | None, typer.Option(help="write her history plot (.png or .svg)")] = None,
    db: Db = None,
) -> None:
    """A player's FLADUB explained: every counted game's weight and contribution."""
    try:
        with _open(db).session() as s:
            rep = player_report(s, month, player)
        if plot is not None:
            plot_report(rep, plot)
    except FidoError as e:
        raise _fail(str(e)) from None
    entry = rep.entry
    state = "" if rep.published else " (not published yet)"
    if entry is None:
        console.print(f"{escape(rep.name)} (player {player}) has no counted game in {month}")
    else:
        flag = ", provisional" if entry.provisional else ""
        console.print(
            f"[bold]{escape(rep.name)}[/] (player {player}), {month}{state}: position "
            f"{entry.position}, FLADUB {entry.fladub:.2f}, strength {entry.strength:.1f}, "
            f"{entry.games} games{flag}"
        )
        t = RichTable(title="Counted games")
        for col in ("game", "played", "event", "final",
                    "opponents (final, strength, performance against)",
                    "weight", "performance", "contribution"):
            t.add_column(col, justify="left" if col in ("event", "played") or "opp" in col
                         else "right")
        for g in rep.games:
            opp = "; ".join(
                f"{o.number} {escape(o.name)} ({o.final}, {o.strength:.0f}, {o.performance:.0f})"
                for o in g.opponents
            )
            t.add_row(
                str(g.game_id), str(g.played_on), escape(g.event), str(g.final), opp,
                f"{g.weight:.4f}", f"{g.performance:.2f}", f"{g.contribution:.2f}",
            )
        console.print(t)
        console.print(f"sum of the contributions: {rep.total:.2f} = FLADUB {entry.fladub:.2f}")
        if rep.formula >= 3:
            sets = sorted({(g.gap, g.level) for g in rep.games})
            console.print(
                "performance = 1500 + 400 * (final / G - level) + beta * (strength - 1500), "
                f"meaned over her opponents; this month beta = {rep.beta:+.4f}; "
                + ", ".join(f"G {gap:.2f} level {level:+.4f}" for gap, level in sets)
            )
    if rep.history:
        console.print(
            "history: " + ", ".join(f"{m} #{p} {f:.1f}" for m, p, f in rep.history)
        )
    if plot is not None:
        console.print(f"plot written to {plot}")


@ranking_app.command("export")
def ranking_export(
    month: Month,
    csv_file: Annotated[Path | None, typer.Option("--csv", help="write CSV here")] = None,
    json_file: Annotated[Path | None, typer.Option("--json", help="write JSON here")] = None,
    db: Db = None,
) -> None:
    """Export a published month's ranking as CSV and/or JSON."""
    if csv_file is None and json_file is None:
        raise _fail("give --csv FILE and/or --json FILE")
    try:
        with _open(db).session() as s:
            r = published(s, month)
        if r is None:
            raise ResultError(f"the ranking of {month} has not been published")
        if csv_file is not None:
            export.to_csv(r, csv_file)
        if json_file is not None:
            export.to_json(r, json_file)
    except (FidoError, OSError) as e:
        raise _fail(str(e)) from None
    console.print(f"exported {month}: {len(r.entries)} players")
