"""fido's ``search`` against the best public domino bots, on their own games.

    .venv/bin/python bench/vs_peers.py openspiel --deals 1000
    .venv/bin/python bench/vs_peers.py dominoes --deals 1000

* ``openspiel``: 2-player Block, our ``search`` against OpenSpiel's ISMCTS
  (1000 simulations, random rollouts, a resampler of the hidden hand);
* ``dominoes``: 4-player team Block, a pair of our ``search`` bots against a
  pair of the ``dominoes`` package's ``probabilistic_alphabeta`` players.

Duplicate deals: every deal is played twice, the second time with the bots'
seats swapped (2 players) or shifted by one (4 players: the teams swap
hands), so the luck of the deal cancels. The unit of the confidence interval
is the deal (the mean of its two hands). Reported: our mean point margin per
hand (our final, or our team's, minus the peer's), its 95% confidence
interval, our win rate per hand, and the median seconds per decision of both
sides (decisions with one legal move are not counted; nobody thinks there).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rich.console import Console

from fido import Game
from fido.bots import Bot, make_bot
from fido.bots.runner import bot_rng, new_secret, play_out
from fido.bots.search import margin
from peer_bots import PEER_RULES_2P, PEER_RULES_4P, DominoesAlphaBeta, OpenSpielISMCTS


class Timed:
    """Wraps a bot and records its seconds per real decision."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.seconds: list[float] = []

    def choose(self, view, rng):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        move = self.bot.choose(view, rng)
        if len(view.legal_moves) > 1:
            self.seconds.append(time.perf_counter() - start)
        return move


def _peer(args: argparse.Namespace, seed: int) -> Bot:
    if args.peer == "openspiel":
        return OpenSpielISMCTS(simulations=args.peer_sims, seed=seed)
    return DominoesAlphaBeta(start_move=args.start_move, sample_size=args.sample_size)


def play_deal(job: tuple[argparse.Namespace, int]) -> dict[str, object]:
    """Both hands of one deal; returns our margins, wins and decision times."""
    args, deal = job
    us = Timed(make_bot(args.ours))
    peer = Timed(_peer(args, deal))
    players = 2 if args.peer == "openspiel" else 4
    rules = PEER_RULES_2P if players == 2 else PEER_RULES_4P
    margins, wins = [], []
    for shift in (0, 1):
        bots = [us if (s + shift) % 2 == 0 else peer for s in range(players)]
        game = Game.new(rules, players, seed=args.seed * 1_000_003 + deal)
        rngs = [bot_rng(args.bot_secret, deal, shift, s) for s in range(players)]
        play_out(game, bots, rngs)
        assert game.outcome is not None
        our_seat = shift % 2  # seat 0 is ours when shift == 0, seat 1 otherwise
        m = margin(game.outcome, our_seat)
        margins.append(m)
        wins.append(1.0 if m > 0 else 0.5 if m == 0 else 0.0)
    return {"deal": deal, "margins": margins, "wins": wins, "us": us.seconds, "peer": peer.seconds}


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("peer", choices=["openspiel", "dominoes"])
    ap.add_argument("--deals", type=int, default=1000, help="deals (two hands each)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0, help="first deal (to split a run)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--ours", default=None, help="our bot (default: search, time per peer)")
    ap.add_argument("--peer-sims", type=int, default=1000, help="ISMCTS simulations")
    ap.add_argument("--start-move", type=int, default=4, help="dominoes: alpha-beta from move")
    ap.add_argument("--sample-size", type=int, default=6, help="dominoes: sampled deals")
    ap.add_argument("--out", type=Path, default=None, help="append every deal's figures (JSONL)")
    ap.add_argument(
        "--summarize", type=Path, default=None, help="only summarize a --out file (runs appended)"
    )
    args = ap.parse_args()
    args.bot_secret = new_secret()  # the bots' dice must not lead back to the deals
    if args.ours is None:
        args.ours = (
            "search:sims=100000,time=0.1"
            if args.peer == "openspiel"
            else "search:sims=100000,time=0.005"
        )
    console = Console(width=110)
    rows: list[dict[str, object]] = []
    start = time.time()
    if args.summarize:
        rows = [json.loads(line) for line in args.summarize.read_text().splitlines()]
        rows = list({r["deal"]: r for r in rows}.values())  # a deal counts once
    else:
        out = args.out.open("a") if args.out else None
        jobs = [(args, args.first + d) for d in range(args.deals)]
        with ProcessPoolExecutor(args.workers) as pool:
            for i, row in enumerate(pool.map(play_deal, jobs)):
                rows.append(row)
                if out:
                    out.write(json.dumps(row) + "\n")
                    out.flush()
                if (i + 1) % 50 == 0:
                    console.print(f"{i + 1}/{args.deals} deals, {time.time() - start:.0f} s")
    per_deal = [statistics.mean(r["margins"]) for r in rows]  # type: ignore[arg-type]
    mean = statistics.mean(per_deal)
    half = 1.96 * statistics.stdev(per_deal) / len(per_deal) ** 0.5
    wins = [w for r in rows for w in r["wins"]]  # type: ignore[attr-defined]
    win = statistics.mean(wins)
    win_half = 1.96 * statistics.stdev(wins) / len(wins) ** 0.5
    ours = [s for r in rows for s in r["us"]]  # type: ignore[attr-defined]
    theirs = [s for r in rows for s in r["peer"]]  # type: ignore[attr-defined]
    if args.peer == "openspiel":
        peer = f"OpenSpiel ISMCTS sims={args.peer_sims}"
    else:
        peer = f"dominoes alphabeta start_move={args.start_move} sample_size={args.sample_size}"
    console.print(f"[bold]{args.ours}[/] vs [bold]{peer}[/]")
    console.print(
        f"  {len(per_deal)} deals, {2 * len(per_deal)} hands: margin per hand {mean:+.2f} "
        f"± {half:.2f} (95% CI [{mean - half:+.2f}, {mean + half:+.2f}]); "
        f"win rate {100 * win:.1f}% ± {100 * win_half:.1f}"
    )
    console.print(
        f"  median s per decision: ours {statistics.median(ours):.4f} "
        f"({len(ours)} decisions), peer {statistics.median(theirs):.4f} ({len(theirs)} decisions); "
        f"wall {time.time() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
