"""What thousands of open turn-based games cost one server process (issue 42).

    PYTHONPATH=src:tests .venv/bin/python bench/turn_based.py [--tables 0,1000,3000]

For each count: a fresh SQLite database and ``fido serve`` (its defaults, the limits per
address lifted: the bench is one address); that many guests each open a turn-based FIDO
double-9 table (a day a move) with two bots, who move at once, then the table waits for
her, as most turn-based games do most of the time. Measured: the process's resident
memory with the games open, the CPU it spends in a minute of waiting (every table's timer
looks at the wall clock each minute), and after a restart (SIGTERM, then ``fido serve``
again: every running table's room is loaded from its log) the seconds until it answers
and its memory again. Prints one row per count, with the load average.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).parent.parent / "tests"))  # the support package

from support.server_procs import ServerProcess, guest, wait_until

LIFTED = ("--accounts-per-address", "0", "--tables-per-address", "0",
          "--bot-tables-per-address", "0")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one(count: int, where: Path) -> dict[str, float]:
    db = f"sqlite:///{where / 'fido.db'}"
    server = ServerProcess(db, where / "serve.log", bot_delay=0.0, bot_processes=0,
                           args=LIFTED)
    server.start()
    try:
        started = time.perf_counter()
        for _ in range(count):
            person = guest(server.base)
            r = person.post("/api/tables", json={
                "ruleset": "fido set=9", "players": 3, "clock": 86400,
                "seats": [{"kind": "me"}, {"kind": "bot", "level": "expert"},
                          {"kind": "bot", "level": "expert"}]})
            assert r.status_code == 201, r.text
            person.close()
        opened = time.perf_counter() - started
        time.sleep(5)  # the bots' first moves
        before = cpu_s(server.pid)
        time.sleep(60)
        idle = cpu_s(server.pid) - before
        rss = rss_mb(server.pid)
        server.stop()
        again = time.perf_counter()
        server.start(timeout=600)
        restart = time.perf_counter() - again
        wait_until(lambda: httpx.get(f"{server.base}/api/health").status_code == 200, 60,
                   "not healthy")
        time.sleep(5)
        return {"opened_s": opened, "rss_mb": rss, "idle_cpu_s_per_min": idle,
                "restart_s": restart, "rss_after_restart_mb": rss_mb(server.pid)}
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", default="0,1000,3000")
    args = parser.parse_args()
    print("tables  open(s)  RSS(MB)  idle CPU(s/min)  restart(s)  RSS after(MB)  load")
    for count in (int(n) for n in args.tables.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            r = one(count, Path(tmp))
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"{count:6d}  {r['opened_s']:7.1f}  {r['rss_mb']:7.1f}  "
              f"{r['idle_cpu_s_per_min']:15.2f}  {r['restart_s']:10.1f}  "
              f"{r['rss_after_restart_mb']:13.1f}  {load}", flush=True)


if __name__ == "__main__":
    main()
