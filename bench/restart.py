"""How long does a clean restart take (issue 26)?

    .venv/bin/python tests/with_postgres.py env PYTHONPATH=src:tests \\
        .venv/bin/python bench/restart.py [--runs 5] [--tables 5]

Each run: two ``fido serve`` processes, A and B, on one PostgreSQL; ``--tables`` tables
of two people and two bots, every person's socket on A, playing at full speed; then
SIGTERM to A. Measured: the seconds from the signal to A's exit (its sockets drained with
1012, its bots and clocks stopped), and for each person the seconds from her 1012 to the
first frame (the welcome, from her last sequence number) on B. Prints the median of each
over the runs (and the worst reconnection); every game then ends on B, its log checked.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))  # the support package

from support.postgres import POSTGRES, empty_postgres
from support.server_procs import (
    Moving,
    ServerProcess,
    check_log,
    guest,
    open_table,
    read_log,
    servers,
    wait_until,
)


def one_run(where: Path, tables: int) -> tuple[float, list[float]]:
    """(seconds from SIGTERM to A's exit, seconds from each 1012 to the welcome on B)."""
    assert POSTGRES
    empty_postgres(POSTGRES)
    a, b = (ServerProcess(POSTGRES, where / f"{name}.log", bot_delay=0.01, bot_processes=1)
            for name in "ab")
    with servers(a, b):
        a.start()
        b.start()
        players: list[Moving] = []
        ids = []
        for t in range(tables):
            anna, bert = guest(a.base), guest(a.base)
            table = open_table(anna, [bert], "fido set=9", ["me", "open", "random", "random"],
                               grace=30)
            ids.append(table)
            players += [Moving(f"a{t}", anna, table, elsewhere=b.base, seed=2 * t),
                        Moving(f"b{t}", bert, table, elsewhere=b.base, seed=2 * t + 1)]
        for x in players:
            x.start()
        wait_until(lambda: all(x.move_events() >= 6 for x in players), 120, "no game goes on")
        started = time.monotonic()
        code, orphans = a.stop(timeout=30)
        exit_after = time.monotonic() - started
        assert code == 0 and not orphans, (code, orphans)
        wait_until(lambda: all(x.done.is_set() for x in players), 300, "a game did not end")
        for x in players:
            assert not x.errors, x.errors
        for table in ids:
            check_log(read_log(POSTGRES, table)[1])
        back = [t for x in players for t in x.back_after]
        assert len(back) == len(players), "someone did not reconnect after a 1012"
    return exit_after, back


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tables", type=int, default=5)
    args = parser.parse_args()
    if not POSTGRES:
        sys.exit("needs PostgreSQL: run it through tests/with_postgres.py")
    exits, backs = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(args.runs):
            (Path(tmp) / str(run)).mkdir()
            exit_after, back = one_run(Path(tmp) / str(run), args.tables)
            exits.append(exit_after)
            backs.append(statistics.median(back))
            print(f"run {run + 1}: exit {exit_after:.2f} s, reconnected in median "
                  f"{statistics.median(back) * 1000:.0f} ms, worst {max(back) * 1000:.0f} ms "
                  f"({len(back)} people)", flush=True)
    print(f"median over {args.runs} runs: SIGTERM to exit {statistics.median(exits):.2f} s; "
          f"1012 to the first frame on the other process {statistics.median(backs) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
