"""Engine benchmark: random playouts against peer engines, in one run.

    make bench                      # or: .venv/bin/python bench/engine.py [--reps 7]

Every contestant plays random games (a uniformly random legal move each turn,
from a seeded ``random.Random``, through each engine's public API) in
interleaved repetitions, so machine noise hits all of them alike; the figures
are medians over the repetitions, of CPU time (``time.process_time``: the
issue's measure, which another process's load does not inflate). Peers
(``pip install -e '.[bench]'``):

* 4-player team Block, double-six: fido's ``block`` against the ``dominoes``
  package (6.1.0) on its own game;
* 2-player Block: fido's ``block`` against OpenSpiel's ``python_block_dominoes``;
* FIDO double-12 with 4 players and double-18 with 6 players (no peer exists): a
  fresh FIDO deal plays in C while only its moves are asked for, as here
  (``bench/engine_parts.py``'s ``reading`` measures a loop that reads the table);
* the cost of copying a mid-game state, fido against the peers' own copies.

Targets (issue 2): 2x the dominoes package's games/s, 5x OpenSpiel's, and
200,000 placements/s on FIDO double-12 with 4 players; issue 45 raised them to
4x, 25x and 1,000,000 (docs/performance.md says where each stands).
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent))

import peers
from fido import Game, Placement, Ruleset

Playout = Callable[[int, int], tuple[int, int, float]]


def fido_playouts(rules_text: str, players: int) -> Playout:
    rules = Ruleset.from_text(rules_text)

    def run(games: int, seed: int) -> tuple[int, int, float]:
        rng = random.Random(seed)
        choice = rng.choice
        placements = 0
        start = time.process_time()
        for _ in range(games):
            game = Game.new(rules, players, rng=rng)
            push = game.push
            legal = game.legal_moves
            while game.outcome is None:
                move = choice(legal())
                push(move)
                if move.__class__ is Placement:
                    placements += 1
        return games, placements, time.process_time() - start

    return run


def mid_game(rules_text: str, players: int, seed: int = 1) -> Game:
    """A state about half-way through a random game."""
    rng = random.Random(seed)
    game = Game.new(rules_text, players, rng=rng)
    target = game.rules.hand_size(players) * players // 2
    while len(game.table) < target and not game.is_over:
        game.push(rng.choice(game.legal_moves()))
    return game


def time_per_call(fn: Callable[[], object], calls: int) -> float:
    start = time.process_time()
    for _ in range(calls):
        fn()
    return (time.process_time() - start) / calls


def copy_costs() -> list[tuple[str, float]]:
    """Microseconds per copy of a mid-game state, ours and the peers'."""
    out = []
    for text, players in (("block", 4), ("fido set=12", 4), ("fido set=18", 6)):
        g = mid_game(text, players)
        out.append((f"fido {text}, {players} players: Game.copy()", time_per_call(g.copy, 20000)))
    try:
        import dominoes  # noqa: PLC0415  (optional peer)

        dg = dominoes.Game.new()
        for _ in range(10):
            if dg.result is None:
                dg.make_move(*dg.valid_moves[0])
        out.append(
            ("dominoes 6.1.0: copy.deepcopy(game)", time_per_call(lambda: copy.deepcopy(dg), 2000))
        )
    except ImportError:
        pass
    try:
        import open_spiel.python.games  # noqa: F401, PLC0415  (registers the game)
        import pyspiel  # noqa: PLC0415  (optional peer)

        rng = random.Random(0)
        st = pyspiel.load_game("python_block_dominoes").new_initial_state()
        while st.is_chance_node() or len(st.history()) < 20:
            if st.is_chance_node():
                st.apply_action(rng.choice([a for a, _ in st.chance_outcomes()]))
            else:
                st.apply_action(rng.choice(st.legal_actions()))
        out.append(
            ("OpenSpiel python_block_dominoes: state.clone()", time_per_call(st.clone, 2000))
        )
    except ImportError:
        pass
    return [(name, secs * 1e6) for name, secs in out]


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--reps", type=int, default=7, help="interleaved repetitions (median)")
    ap.add_argument("--scale", type=float, default=1.0, help="games per repetition, relative")
    args = ap.parse_args()

    contestants: list[tuple[str, str, Playout, int]] = [
        # (group, name, playout function, games per repetition)
        ("4p team Block", "fido block hand=7", fido_playouts("block hand=7", 4), 2000),
        ("4p team Block", "dominoes 6.1.0", peers.dominoes_playouts, 1000),
        ("2p Block", "fido block", fido_playouts("block", 2), 2000),
        ("2p Block", "OpenSpiel python_block_dominoes", peers.openspiel_playouts, 300),
        ("FIDO double-12, 4 players", "fido", fido_playouts("fido set=12", 4), 300),
        ("FIDO double-18, 6 players", "fido", fido_playouts("fido set=18", 6), 60),
    ]
    console = Console(width=max(Console().width, 110))
    rates: dict[str, list[tuple[float, float, float]]] = {}
    missing: set[str] = set()
    for rep in range(args.reps):
        for group, name, run, games in contestants:
            key = f"{group}|{name}"
            if key in missing:
                continue
            try:
                n, placed, secs = run(max(1, int(games * args.scale)), 1000 + rep)
            except ImportError as e:
                console.print(f"[yellow]{name}: not installed ({e}); pip install -e '.[bench]'[/]")
                missing.add(key)
                continue
            rates.setdefault(key, []).append((n / secs, placed / secs, placed / n))
        console.print(f"repetition {rep + 1}/{args.reps} done")

    table = Table(title=f"Random playouts (median of {args.reps} interleaved repetitions)")
    for col in ("game", "engine", "games/s", "placements/s", "placements/game", "vs peer"):
        table.add_column(col, justify="left" if col in ("game", "engine") else "right")
    medians: dict[str, tuple[float, float, float]] = {
        key: tuple(statistics.median(r[i] for r in rs) for i in range(3))  # type: ignore[misc]
        for key, rs in rates.items()
    }
    for group, name, _run, _g in contestants:
        key = f"{group}|{name}"
        if key not in medians:
            continue
        gps, pps, ppg = medians[key]
        ratio = ""
        if name.startswith("fido"):
            peer = next((k for k in medians if k.startswith(group + "|") and k != key), None)
            if peer:
                ratio = f"{gps / medians[peer][0]:.2f}x games/s"
        table.add_row(group, name, f"{gps:,.0f}", f"{pps:,.0f}", f"{ppg:.1f}", ratio)
    console.print(table)

    ct = Table(title="Copying a mid-game state")
    ct.add_column("state")
    ct.add_column("µs per copy", justify="right")
    for name, us in copy_costs():
        ct.add_row(name, f"{us:.2f}")
    console.print(ct)


if __name__ == "__main__":
    main()
