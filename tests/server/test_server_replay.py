"""The replay of a finished game: every step the engine's, every hand open only at the end."""

from __future__ import annotations

from pathlib import Path

from fido.announcements import Knocked, Wiped, events_of
from fido.engine.tiles import DominoSet
from fido.record import GameRecord
from support.server_live import live_server
from support.tables import finish_game, guest_table


def test_the_replay_steps_are_the_records_and_only_after_the_end(tmp_path: Path) -> None:
    with live_server(f"sqlite:///{tmp_path / 'fido.db'}") as base:
        me, table = guest_table(base, "fido set=9")
        early = me.get(f"/api/tables/{table}/replay")
        assert early.status_code == 409 and early.json()["error"]["code"] == "not_finished"
        finish_game(base, me, table)
        replay = me.get(f"/api/tables/{table}/replay").json()
        record = GameRecord.from_json(me.get(f"/api/tables/{table}/record").text)
    steps = replay["steps"]
    assert len(steps) == len(record.moves) + 1
    assert [s["move"] for s in steps[1:]] == [m.move for m in record.moves]
    assert steps[0]["hands"] == [[t.text() for t in sorted(h)] for h in record.hands]
    whole = sorted(t.text() for t in DominoSet(9))
    for step in steps:  # the hands, the table and the stock are the whole set at every step
        placed = [p.split("@")[0] for p in step["table"]]
        held = [t for h in step["hands"] for t in h]
        assert len(placed) + len(held) + step["stock"] == len(whole)
        assert set(placed).isdisjoint(held)
    # the Rostock knock and the Basel wipe where fido.announcements puts them
    want: list[str | None] = [None]
    for _i, turn, _game in record.steps():
        kinds = [e for e in events_of(turn, record.ruleset) if isinstance(e, Knocked | Wiped)]
        want.append(None if not kinds else "wipe" if isinstance(kinds[0], Wiped) else "knock")
    assert [s["event"] for s in steps] == want
    final = record.replay().outcome
    assert final is not None and replay["outcome"] == final.to_dict()
    assert steps[-1]["scores"] == [r.points for r in final.seats]
