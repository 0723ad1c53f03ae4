"""How long the default ``search`` level takes to decide, FIDO double-18 with 6 players.

    .venv/bin/python bench/search_time.py [--positions 40]

Positions: random games (seeded) stopped at mid-game (half the dealt tiles on
the table), the seat to move decides with ``make_bot("search")`` (the default
level a person picks). Prints the distribution of wall-clock seconds per
decision and the simulations it managed. The issue's bound: at most 1 s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from rich.console import Console
from rich.table import Table

from fido import Game
from fido.bots import make_bot


def mid_game(rules: str, players: int, seed: int) -> Game:
    rng = random.Random(seed)
    game = Game.new(rules, players, rng=rng)
    target = game.rules.hand_size(players) * players // 2
    while len(game.table) < target and not game.is_over:
        game.push(rng.choice(game.legal_moves()))
    while not game.is_over and len(game.legal_moves()) < 2:
        game.push(game.legal_moves()[0])
    return game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--rules", default="fido set=18")
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--bot", default="search")
    args = ap.parse_args()
    bot = make_bot(args.bot)
    secs: list[float] = []
    sims: list[int] = []
    for seed in range(args.positions):
        game = mid_game(args.rules, args.players, seed)
        if game.is_over:
            continue
        view = game.view(game.turn)
        start = time.perf_counter()
        move = bot.choose(view, random.Random(seed))
        secs.append(time.perf_counter() - start)
        sims.append(getattr(bot, "last_simulations", 0))
        assert move in view.legal_moves
    q = statistics.quantiles(secs, n=20)
    table = Table(title=f"{args.bot} on {args.rules}, {args.players} players, mid-game")
    for col in ("decisions", "min", "median", "p90", "p95", "max", "median simulations"):
        table.add_column(col, justify="right")
    table.add_row(
        str(len(secs)),
        *(f"{x:.3f} s" for x in (min(secs), statistics.median(secs), q[17], q[18], max(secs))),
        f"{statistics.median(sims):.0f}",
    )
    Console(width=100).print(table)


if __name__ == "__main__":
    main()
