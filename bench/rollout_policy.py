"""The rollout policies as players: ``smart_playout``'s choice against ``best_now``'s.

    .venv/bin/python bench/rollout_policy.py

Every seat sees the whole deal (these are the policies the search bots roll
their sampled worlds out with, not fair bots). Duplicate deals, every
rotation; A (smart) and B (greedy) alternate around the table, 3 players sit
A, B, B. Prints A's score minus B's per hand with a 95 % interval over deals.
"""

from __future__ import annotations

import argparse
import statistics

from fido import Game
from fido.engine.movegen import generate
from fido.engine.moves import Move
from fido.engine.results import Outcome
from fido.engine.rollout import best_now, smart_now


def play(game: Game, smart: list[bool]) -> Outcome:
    partner = [-1] * game.players
    teams = game.rules.teams(game.players)
    if teams is not None:
        for a, b in teams:
            partner[a], partner[b] = b, a
    spare = 1.0 if teams is not None else 1.0 / max(1, game.players - 1)
    while (outcome := game.outcome) is None:
        moves = generate(game)
        move: Move = moves[0]
        if len(moves) > 1:
            move = smart_now(game, moves, partner, spare) if smart[game.turn] else best_now(
                game, moves
            )
        game.push(move)
    return outcome


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", default="12:4:400,18:6:150,6:3:1000", help="set:players:deals")
    args = ap.parse_args()
    for item in args.games.split(","):
        size, players, deals = (int(x) for x in item.split(":"))
        diffs = []
        for deal in range(deals):
            per = []
            for rot in range(players):
                smart = [(s + rot) % 2 == 0 for s in range(players)]
                if players % 2:
                    smart[(players - 1 + rot) % players] = False
                o = play(Game.new(f"fido set={size}", players, seed=deal), smart)
                a = [r.final for r in o.seats if smart[r.seat]]
                b = [r.final for r in o.seats if not smart[r.seat]]
                per.append(statistics.fmean(a) - statistics.fmean(b))
            diffs.append(statistics.fmean(per))
        half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
        print(f"fido set={size}, {players}p: smart - greedy {statistics.fmean(diffs):+.2f}"
              f" ± {half:.2f} ({deals} deals)")


if __name__ == "__main__":
    main()
