"""Puzzles from fresh games (fido.puzzles), and a check of them by a stronger analysis.

    .venv/bin/python bench/puzzles.py generate [--count 200] [--seed 1] [--samples 400]
        [--workers 2] [--out src/fido/puzzles.json]
    .venv/bin/python bench/puzzles.py verify [--sample 40] [--factor 10] [--workers 2]
        [--seed 7] [--file src/fido/puzzles.json]

``generate`` plays fresh games of expert bots (FIDO double-9 of four and double-6 of
three, by turns; deal ``--seed`` + n), and looks at every decision of every seat, as the
seat saw it (the position line alone, :func:`fido.position.view_text`: what the puzzle
will show, no history). Each is analysed (:func:`fido.analysis.estimate.evaluate`,
``--samples`` worlds, the champion's rollouts); where the best move beats the next best
by :data:`fido.puzzles.MIN_GAIN` or more and beyond the 95 % interval, it is analysed
again on independent worlds, and it is a puzzle when the second sampling says the same.
Each puzzle is then tried by the bot levels random, greedy, expert and search
(``TRIES`` each, their own dice): which found it gives its rating
(:func:`fido.puzzles.fit_rating`, the levels at their fixed game ratings).

``verify`` draws ``--sample`` puzzles and analyses each again with ``--factor`` times the
worlds: the share whose best move is the puzzle's answer is the agreement rate
(docs/performance.md, "Puzzles").
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import statistics
import time
from pathlib import Path
from typing import Any

from fido.analysis.estimate import PositionEval, evaluate
from fido.bots.registry import make_bot
from fido.engine.game import Game
from fido.engine.moves import Move
from fido.engine.views import SeatView
from fido.position import parse_view, view_text
from fido.puzzles import MIN_GAIN, Puzzle, answer_key, fit_rating, puzzle_id
from fido.ratings.model import BOT_RATINGS, SCALE

GAMES = (("fido set=9", 4), ("fido set=6", 3))  # by turns
PLAYER = "expert"  # every seat of the games the puzzles come from
LEVELS = ("random", "greedy", "expert", "search")
TRIES = 2
OUT = Path(__file__).resolve().parents[1] / "src" / "fido" / "puzzles.json"


def _clear(e: PositionEval, view: SeatView) -> tuple[Move, Any] | None:
    """The best move and the next best of another answer, when the gap is clear."""
    best = e.moves[0]
    key = answer_key(best.move, view.table)
    second = next((m for m in e.moves if answer_key(m.move, view.table) != key), None)
    if second is None or second.loss < MIN_GAIN or second.loss - second.loss_ci <= 0:
        return None
    return best.move, second


def _difficulty(view: SeatView, answer: Move, seed: int) -> dict[str, int]:
    key = answer_key(answer, view.table)
    found = {}
    for level in LEVELS:
        bot = make_bot(level)
        found[level] = sum(
            answer_key(bot.choose(view, random.Random(seed * 31 + t)), view.table) == key
            for t in range(TRIES))
    return found


def game_puzzles(job: tuple[int, int]) -> list[dict[str, Any]]:
    """The puzzles of one fresh game (deal ``seed``), analysed with ``samples`` worlds."""
    seed, samples = job
    rules, players = GAMES[seed % len(GAMES)]
    game = Game.new(rules, players, seed=seed)
    bots = [make_bot(PLAYER) for _ in range(players)]
    dice = random.Random(seed)
    out = []
    number = 0
    while not game.is_over:
        seat = game.turn
        number += 1
        view = parse_view(view_text(game.view(seat)))
        keys = {answer_key(m, view.table) for m in view.legal_moves}
        if len(keys) >= 2:
            a = evaluate(view, samples=samples, rng=random.Random(f"{seed} {number} a"))
            first = _clear(a, view)
            if first is not None:
                b = evaluate(view, samples=samples, rng=random.Random(f"{seed} {number} b"))
                again = _clear(b, view)
                if again is not None and answer_key(again[0], view.table) == answer_key(
                        first[0], view.table):
                    second = min((first[1], again[1]), key=lambda m: m.loss)
                    line = view_text(view)
                    best = [m.text() for m in view.legal_moves
                            if answer_key(m, view.table) == answer_key(first[0], view.table)]
                    best.sort(key=lambda t: t != first[0].text())
                    found = _difficulty(view, first[0], seed * 1000 + number)
                    levels = {lv: BOT_RATINGS[lv] * SCALE for lv in LEVELS}
                    out.append(Puzzle(
                        id=puzzle_id(line), view=line, best=tuple(best),
                        second=second.move.text(), gain=round(second.loss, 2),
                        gain_ci=round(second.loss_ci, 2), worlds=a.worlds + b.worlds,
                        rating=fit_rating(found, TRIES, levels), found=found, tries=TRIES,
                        source=f"{PLAYER} bots, {rules}, {players} players, deal {seed}, "
                               f"move {number}").to_json())
        game.push(bots[seat].choose(game.view(seat), dice))
    return out


def generate(args: argparse.Namespace) -> None:
    print(f"load average before: {os.getloadavg()}")
    start = time.time()
    found: dict[str, dict[str, Any]] = {}
    games = 0
    jobs = ((args.seed + n, args.samples) for n in range(100_000))
    with multiprocessing.Pool(args.workers) as pool:
        for puzzles in pool.imap_unordered(game_puzzles, jobs):
            games += 1
            for p in puzzles:
                found.setdefault(p["id"], p)
            print(f"{games} games, {len(found)} puzzles, {time.time() - start:.0f} s",
                  flush=True)
            if len(found) >= args.count:
                pool.terminate()
                break
    puzzles = sorted(found.values(), key=lambda p: (p["rating"], p["id"]))
    data = {"made_by": f"bench/puzzles.py generate --count {args.count} --seed {args.seed} "
                       f"--samples {args.samples}", "min_gain": MIN_GAIN, "puzzles": puzzles}
    args.out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    ratings = [p["rating"] for p in puzzles]
    print(f"{len(puzzles)} puzzles from {games} games in {time.time() - start:.0f} s; "
          f"ratings {min(ratings)}..{max(ratings)}, median {statistics.median(ratings)}")
    print(f"load average after: {os.getloadavg()}")


def check(job: tuple[dict[str, Any], int, int]) -> tuple[bool, float, float]:
    """Whether a ``factor`` times stronger analysis names the puzzle's answer best; its
    gain over the next best (negative: another answer is better, by this much)."""
    data, samples, seed = job
    p = Puzzle.from_json(data)
    view = p.seat_view()
    e = evaluate(view, samples=samples, rng=random.Random(f"verify {seed} {p.id}"))
    answer = answer_key(Move.from_text(p.best[0]), view.table)
    if answer_key(e.moves[0].move, view.table) == answer:
        second = next(m for m in e.moves if answer_key(m.move, view.table) != answer)
        return True, second.loss, p.gain
    mine = next(m for m in e.moves if answer_key(m.move, view.table) == answer)
    return False, -mine.loss, p.gain


def verify(args: argparse.Namespace) -> None:
    data = json.loads(args.file.read_text(encoding="utf-8"))
    made = data["made_by"]
    samples = int(made.split("--samples ")[1].split()[0]) * args.factor
    pool_of = data["puzzles"]
    sample = random.Random(args.seed).sample(pool_of, min(args.sample, len(pool_of)))
    print(f"load average before: {os.getloadavg()}; {len(sample)} of {len(pool_of)} puzzles, "
          f"{samples} worlds each")
    start = time.time()
    with multiprocessing.Pool(args.workers) as pool:
        results = pool.map(check, [(p, samples, args.seed) for p in sample])
    agree = sum(ok for ok, _g, _s in results)
    print(f"agree: {agree} of {len(results)} ({100 * agree / len(results):.0f} %) "
          f"in {time.time() - start:.0f} s")
    for ok, gain, stated in results:
        if not ok:
            print(f"  disagrees: another answer better by {-gain:.2f} (stated gain {stated})")
    gains = [g for ok, g, _s in results if ok]
    if gains:
        print(f"strong analysis's gain where it agrees: median {statistics.median(gains):.2f}, "
              f"min {min(gains):.2f}; stated median "
              f"{statistics.median(s for ok, _g, s in results if ok):.2f}")
    print(f"load average after: {os.getloadavg()}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--count", type=int, default=200)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--samples", type=int, default=400)
    g.add_argument("--workers", type=int, default=2)
    g.add_argument("--out", type=Path, default=OUT)
    v = sub.add_parser("verify")
    v.add_argument("--sample", type=int, default=40)
    v.add_argument("--factor", type=int, default=10)
    v.add_argument("--workers", type=int, default=2)
    v.add_argument("--seed", type=int, default=7)
    v.add_argument("--file", type=Path, default=OUT)
    args = ap.parse_args()
    generate(args) if args.what == "generate" else verify(args)


if __name__ == "__main__":
    main()
