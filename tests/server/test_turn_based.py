"""Turn-based tables (issue 42): a clock of hours or days a move, over days that pass in
seconds (a real ``fido serve`` with libfaketime, tests/support/faketime.py).

Nobody at the table is connected, as people of a turn-based game mostly are not: being
away replaces no one there (the grace of a real-time table does not apply), only her
clock does; when it runs out the stand-in plays that move for her, and after the table's
limit (3 by default) it plays her seat for the rest of the game without waiting. A move
that is only drawing or passing is played for her at once (the forced-moves option, on
by default at a turn-based table).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from time import sleep

import httpx

from fido.engine.moves import Move, Placement
from support.faketime import FakeTime
from support.server_procs import (
    ServerProcess,
    check_record,
    guest,
    open_table,
    read_log,
    replay_log,
    wait_until,
)

DAY = 86400


def test_a_turn_based_table_waits_for_her_clock_then_replaces_her(tmp_path: Path) -> None:
    time = FakeTime(tmp_path)
    db = f"sqlite:///{tmp_path / 'fido.db'}"
    server = ServerProcess(db, tmp_path / "serve.log", env=time.env())
    server.start()
    try:
        anna, ben, cleo = (guest(server.base) for _ in range(3))
        refused = anna.post("/api/tables", json={"ruleset": "fido set=6", "players": 3,
                                                 "clock": 4 * DAY})
        assert refused.status_code == 422, refused.text  # at most 3 days a move
        table = open_table(anna, [ben, cleo], "fido set=6", ["me", "open", "open"],
                           clock=DAY)

        def info() -> dict[str, object]:
            got: dict[str, object] = anna.get(f"/api/tables/{table}").json()
            return got

        first = info()
        assert first["status"] == "running" and first["turn_based"] is True
        assert first["timeouts"] == 3 and first["forced"] is True
        assert first["grace"] == 60  # the table's, unused here: away is normal

        def moves() -> list[tuple[int | None, str, str]]:
            _row, events = read_log(db, table)
            return [(e.seat, e.public["move"], e.public["by"]) for e in events
                    if e.kind == "move"]

        # two hours later, everyone away since the start: nobody has been played for
        # (at a real-time table the stand-in would have after a minute)
        time.advance(2 * 3600)
        httpx.get(f"{server.base}/api/health")
        wait_until(lambda: info()["seq"] == first["seq"] or all(
            by == "forced" for _s, _m, by in moves()), 3, "moved within the day")
        assert all(by == "forced" for _s, _m, by in moves()), moves()

        def settled() -> bool:
            """Whether the game goes on, once the table is quiet (what it plays at once,
            a forced move, a replaced seat's, is played)."""
            seen, quiet = len(moves()), 0
            while quiet < 10 and info()["status"] != "finished":
                sleep(0.05)
                now = len(moves())
                quiet = quiet + 1 if now == seen else 0
                seen = now
            return info()["status"] != "finished"

        def ran_out(before: int) -> bool:
            return sum(1 for _s, _m, by in moves() if by == "clock") > before

        days = 0
        while settled():
            clocked = sum(1 for _s, _m, by in moves() if by == "clock")
            time.advance(DAY)
            days += 1
            httpx.get(f"{server.base}/api/health")  # a look at the clock
            wait_until(partial(ran_out, clocked), 20,
                       lambda: f"a day passed and her clock did not run out: {moves()}")
            assert days < 20, moves()
        played = moves()
        row, events = read_log(db, table)
        assert row.record is not None
        check_record(row.record, row, events)

        # each seat: run out three times (a day each), then replaced for the game
        for seat in range(3):
            bys = [by for s, _m, by in played if s == seat and by != "forced"]
            assert bys[:3] == ["clock"] * 3, (seat, bys)
            assert set(bys[3:]) <= {"replaced"}, (seat, bys)
        assert not {by for _s, _m, by in played} - {"clock", "replaced", "forced"}, played
        assert days == sum(1 for _s, _m, by in played if by == "clock")  # a day each

        # a forced move was her only one: drawing or passing, nothing to lay
        game_events = [e for e in events if e.kind == "move"]
        for i, e in enumerate(game_events):
            if e.public["by"] != "forced":
                continue
            game = replay_log(row, events[:events.index(e)])
            legal = game.legal_moves()
            assert len(legal) == 1 and not isinstance(legal[0], Placement), (i, legal)
            assert legal[0] == Move.from_text(e.public["move"])
    finally:
        server.stop()


def test_a_tables_clock_says_whether_it_is_turn_based_and_its_defaults(base: str) -> None:
    """An hour a move or more: turn-based, replaced after 3 run-out clocks, forced moves
    on; a real-time table: neither, unless asked; each of them checked."""
    anna = guest(base)

    def opened(**options: object) -> dict[str, object]:
        r = anna.post("/api/tables", json={"ruleset": "fido set=6", "players": 3,
                                           "seats": [{"kind": "me"}, {"kind": "open"},
                                                     {"kind": "open"}], **options})
        assert r.status_code == 201, r.text
        got: dict[str, object] = r.json()
        assert anna.delete(f"/api/tables/{got['id']}/seats/mine").status_code == 200
        return got

    realtime = opened(clock=60)
    assert (realtime["turn_based"], realtime["timeouts"], realtime["forced"]) == (
        False, None, False)
    hour = opened(clock=3600)
    assert (hour["turn_based"], hour["timeouts"], hour["forced"]) == (True, 3, True)
    asked = opened(clock=3 * DAY, timeouts=1, forced=False)
    assert (asked["turn_based"], asked["timeouts"], asked["forced"]) == (True, 1, False)
    assert opened(clock=30, forced=True)["forced"] is True
    for bad in ({"clock": 3 * DAY + 1}, {"clock": 60, "timeouts": 0},
                {"clock": 60, "timeouts": 21}, {"clock": 4}):
        r = anna.post("/api/tables", json={"ruleset": "fido set=6", "players": 3, **bad})
        assert r.status_code == 422, (bad, r.text)
