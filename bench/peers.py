"""Random-playout throughput of peer domino engines, for side-by-side benchmarks.

Peers (optional; install them separately, e.g. ``pip install dominoes==6.1.0 open-spiel``):

* ``dominoes`` (PyPI, 6.1.0): 4-player team Block, double-six set.
* OpenSpiel (PyPI ``open-spiel``): ``python_block_dominoes``, 2-player Block, double-six.

Times are CPU seconds of this process (``time.process_time``), as bench/engine.py
reports them. Peer packages are imported inside the functions, so importing this module never
fails when they are missing.
"""

from __future__ import annotations

import random
import time


def dominoes_playouts(games: int, seed: int) -> tuple[int, int, float]:
    """Play `games` random games of the dominoes package's own game.

    Returns (games, placements, seconds).

    One "game" is one ``dominoes.Game``, i.e. a single hand (deal -> domino or block);
    a multi-hand match is ``dominoes.Series``, which is not used here.
    """
    import dominoes  # noqa: PLC0415 - optional peer dependency

    rng = random.Random(seed)
    placements = 0
    start = time.process_time()
    for _ in range(games):
        # Game.new() deals with the module-level `random.shuffle`, which cannot be
        # seeded per call.  We therefore do exactly what Game.new(starting_player=0)
        # does (fresh 28-tile set, shuffle, four hands of 7, player 0 may open with
        # any tile), but shuffle with our own RNG, and build the game through the
        # public Game(...) constructor.  Cost is the same as Game.new().
        tiles = [dominoes.Domino(i, j) for i in range(7) for j in range(i, 7)]
        rng.shuffle(tiles)
        hands = [dominoes.Hand(tiles[k : k + 7]) for k in range(0, 28, 7)]
        valid_moves = tuple((d, True) for d in hands[0])
        game = dominoes.Game(dominoes.Board(), hands, [], 0, valid_moves, 0, None)
        # make_move() itself skips players who must pass (recording None in
        # game.moves) and sets game.result when the hand ends, so every
        # make_move() call is exactly one tile placement.
        while game.result is None:
            game.make_move(*rng.choice(game.valid_moves))
            placements += 1
    return games, placements, time.process_time() - start


def openspiel_playouts(games: int, seed: int) -> tuple[int, int, float]:
    """Play `games` random games of OpenSpiel's python_block_dominoes.

    Returns (games, placements, seconds).
    """
    import open_spiel.python.games  # noqa: F401, PLC0415 - registers the Python games
    import pyspiel  # noqa: PLC0415 - optional peer dependency

    rng = random.Random(seed)
    # Loading is a registry lookup done once, as any OpenSpiel search would;
    # each game is a fresh new_initial_state() (timed).
    game = pyspiel.load_game("python_block_dominoes")
    placements = 0
    start = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                # The deal: 14 chance nodes, one tile each (not counted).
                outcomes = state.chance_outcomes()
                actions = [a for a, _ in outcomes]
                probs = [p for _, p in outcomes]
                state.apply_action(rng.choices(actions, weights=probs)[0])
            else:
                # There is no pass action: the engine hands the turn to whoever
                # can play, so every player action is one tile placement.
                state.apply_action(rng.choice(state.legal_actions()))
                placements += 1
    return games, placements, time.process_time() - start


if __name__ == "__main__":
    for name, playouts in (("dominoes", dominoes_playouts), ("openspiel", openspiel_playouts)):
        try:
            n, placed, secs = playouts(300, 12345)
        except ImportError as exc:
            print(f"{name}: not installed ({exc})")
            continue
        print(
            f"{name}: {n} games, {placed} placements ({placed / n:.1f}/game) in {secs:.3f}s"
            f" -> {n / secs:,.0f} games/s, {placed / secs:,.0f} placements/s"
        )
