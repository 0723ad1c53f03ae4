"""Play with people on two ``fido serve`` processes and one PostgreSQL: the queue lives
in the database, so people queued on different processes are seated together, and the
pairing, run by every poll on both processes at once, never seats a person twice.

PostgreSQL only: skipped, with the reason, without ``FIDO_TEST_POSTGRES_URL``.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, func, select

from fido.store import SeatRow, TableRow
from support.postgres import POSTGRES
from support.scaleout import two_processes
from support.server_procs import guest, servers, wait_until

pytestmark = pytest.mark.skipif(
    not POSTGRES, reason="two servers share the queue through PostgreSQL: "
    "FIDO_TEST_POSTGRES_URL is not set (tests/with_postgres.py sets it)",
)


def test_people_queued_on_two_processes_sit_together_and_never_twice(tmp_path: Path) -> None:
    assert POSTGRES
    a, b = two_processes(tmp_path, bot_delay=0.5)
    with servers(a, b):
        a.start()
        b.start()
        # two people, one on each process, wait for a table of two
        anna, bert = guest(a.base), guest(b.base)
        r = anna.post("/api/queue", json={"game": "fido", "set": 9, "players": 2})
        assert r.status_code == 201 and r.json()["entry"]["status"] == "waiting", r.text
        r = bert.post("/api/queue", json={"game": "fido", "set": 9, "players": 2})
        assert r.status_code == 201, r.text

        def seated(client: httpx.Client) -> dict[str, Any] | None:
            entry: dict[str, Any] | None = client.get("/api/queue").json()["entry"]
            return entry if entry is not None and entry["status"] == "seated" else None

        wait_until(lambda: bool(seated(anna) and seated(bert)), 20,
                   "Anna and Bert are not seated")
        hers, his = seated(anna), seated(bert)
        assert hers and his and hers["table"] == his["table"]
        def running(base: str, table: str = hers["table"]) -> bool:
            info = httpx.get(f"{base}/api/tables/{table}", timeout=10).json()
            return bool(info["status"] == "running")

        for x in (a, b):  # both processes see the same running table
            info = httpx.get(f"{x.base}/api/tables/{hers['table']}", timeout=10).json()
            assert [s["kind"] for s in info["seats"]] == ["person", "person"]
            wait_until(partial(running, x.base), 10, f"the game does not start on {x.base}")

        # twelve people, half on each process, join at once and poll both processes
        # at once: every one of them is seated, each at one table, in one seat
        people = [guest(a.base if i % 2 else b.base) for i in range(12)]
        with ThreadPoolExecutor(12) as pool:
            answers = list(pool.map(lambda c: c.post("/api/queue", json={
                "game": "fido", "set": 9, "players": 3}), people))
        assert [x.status_code for x in answers] == [201] * 12, [x.text for x in answers]
        found: dict[int, dict[str, Any]] = {}
        deadline = time.monotonic() + 40
        while len(found) < len(people) and time.monotonic() < deadline:
            with ThreadPoolExecutor(12) as pool:
                states = list(pool.map(seated, people))
            found |= {i: s for i, s in enumerate(states) if s is not None}
        assert len(found) == len(people), f"{len(found)} of {len(people)} seated"
        tables: dict[str, set[int]] = {}
        for entry in found.values():
            tables.setdefault(entry["table"], set()).add(entry["seat"])
        assert len(tables) == 4 and all(seats == {0, 1, 2} for seats in tables.values()), tables

        # in the database: each person has one seat, at one of those tables
        engine = create_engine(POSTGRES)
        try:
            with engine.connect() as conn:
                per_person = conn.execute(
                    select(SeatRow.account_id, func.count())
                    .where(SeatRow.account_id.is_not(None)).group_by(SeatRow.account_id)).all()
                made = conn.scalar(select(func.count()).select_from(TableRow))
        finally:
            engine.dispose()
        assert len(per_person) == 14 and {n for _id, n in per_person} == {1}, per_person
        assert made == 5  # Anna's and Bert's, then four of three: no table left half seated
        for x in (a, b):
            assert "Traceback" not in x.output(), x.output()[-3000:]
