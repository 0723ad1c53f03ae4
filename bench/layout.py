"""The table layout (fido.layout) on random FIDO double-18 games for 9 players.

    .venv/bin/python bench/layout.py [--games 1000] [--no-lookahead] [--no-relayout]

The games are the tests' (tests/engine/test_layout.py): moves chosen by
``random.Random(seed)`` for seeds 0, 1, ..., played by the engine first;
then each table is laid out placement by placement, as a server does during a
game. Prints the layout time per whole game (every placement added
incrementally), what the stable path could not lay properly (re-layouts:
how many, in how many games, their time, the tiles they moved, the tiles
their search laid) and what still ends in the old fallbacks (re-layouts that
gave up; detached tiles, doubles in line, detached markers). Times are
process CPU seconds (steadier than the clock on a shared machine).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from rich.console import Console
from rich.table import Table as RichTable

from fido import Game, Placement, ruleset
from fido.engine.table import Table
from fido.layout import Layouter


def final_table(seed: int) -> Table:
    game = Game.new(ruleset("fido", set=18), 9, seed=seed)
    rng = random.Random(seed)
    while game.outcome is None:
        moves = game.legal_moves()
        game.push(moves[rng.randrange(len(moves))])
    return game.table


def in_line(lay: Layouter, placements: list[Placement]) -> int:
    """Doubles drawn in line with their growth (a fallback in a crosswise layout)."""
    n = 0
    for p in lay.placed[1:]:
        if not p.tile.is_double or p.detached:
            continue
        a = lay.placed[placements[p.index].anchor]
        # a crosswise double lies across the line from its anchor's centre to its own
        along_x = abs(p.x - a.x) > abs(p.y - a.y)
        n += (p.angle % 180 == 0) == along_x
    return n


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.1f} / {max(values) * 1000:.1f}" if values else "-"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--no-lookahead", action="store_true", help="the stable path without it")
    ap.add_argument("--no-relayout", action="store_true", help="never move a tile: fallbacks")
    args = ap.parse_args()
    per_game: list[float] = []
    per_tile: list[float] = []
    relayout_secs: list[float] = []
    moved: list[int] = []
    nodes: list[int] = []
    relayouts = games_moved = last_resorts = detached = inline = marks = 0
    for seed in range(args.games):
        table = final_table(seed)
        lay = Layouter(table.layout, 18, relayout=not args.no_relayout,
                       lookahead=not args.no_lookahead)  # fmt: skip
        total = 0.0
        for p in table.placements:
            before = lay.relayouts
            start = time.process_time()
            lay.add(p)
            spent = time.process_time() - start
            total += spent
            if lay.relayouts > before:
                relayout_secs.append(spent)
                moved.append(len(lay.moved))
                nodes.append(lay.nodes)
        per_game.append(total)
        per_tile.append(total / len(table))
        relayouts += lay.relayouts
        games_moved += lay.relayouts > 0
        last_resorts += lay.last_resorts
        detached += sum(p.detached for p in lay.placed)
        inline += in_line(lay, table.placements)
        marks += sum(m.detached for m in lay.markers())
    mode = "no re-layout" if args.no_relayout else "re-layout"
    mode += ", no lookahead" if args.no_lookahead else ", lookahead"
    out = RichTable(title=f"fido.layout, {args.games} FIDO double-18 games, 9 players ({mode})")
    out.add_column("what")
    out.add_column("figure", justify="right")
    out.add_row("layout per game, ms (median / max)", ms(per_game))
    out.add_row("per placement, µs (median game)", f"{statistics.median(per_tile) * 1e6:.0f}")
    what = "no proper position" if args.no_relayout else "re-layouts"
    out.add_row(f"{what} (games with one)", f"{relayouts} ({games_moved})")
    if not args.no_relayout:
        out.add_row("re-layout time, ms (median / max)", ms(relayout_secs))
    if relayout_secs and not args.no_relayout:
        out.add_row("re-layout time, ms (p95)",
                    f"{statistics.quantiles(relayout_secs, n=20)[-1] * 1000:.1f}")  # fmt: skip
        out.add_row("tiles moved per re-layout (median / max)",
                    f"{statistics.median(moved):g} / {max(moved)}")  # fmt: skip
        out.add_row("tiles the search laid (median / max)",
                    f"{statistics.median(nodes):g} / {max(nodes)}")  # fmt: skip
    out.add_row("drawn with the fallbacks (last resorts)", str(last_resorts))
    out.add_row("detached tiles / doubles in line / detached markers",
                f"{detached} / {inline} / {marks}")  # fmt: skip
    Console().print(out)


if __name__ == "__main__":
    main()
