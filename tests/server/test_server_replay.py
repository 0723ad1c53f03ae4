"""The replay of a finished game: every step the engine's, every hand open only at the end."""

from __future__ import annotations

import json
from pathlib import Path

from websockets.sync.client import connect

from fido.announcements import Knocked, Wiped, events_of
from fido.record import GameRecord
from fido.tiles import DominoSet
from support.server_live import browser, live_server


def test_the_replay_steps_are_the_records_and_only_after_the_end(tmp_path: Path) -> None:
    with live_server(f"sqlite:///{tmp_path / 'fido.db'}") as base:
        me = browser(base)
        me.post("/api/guest")
        table = me.post("/api/tables", json={
            "ruleset": "fido set=9", "players": 3,
            "seats": [{"kind": "me"}, {"kind": "bot", "level": "greedy"},
                      {"kind": "bot", "level": "random"}]}).json()["id"]
        early = me.get(f"/api/tables/{table}/replay")
        assert early.status_code == 409 and early.json()["error"]["code"] == "not_finished"
        cookie = "; ".join(f"{k}={v}" for k, v in me.cookies.items())
        with connect(f"{base.replace('http', 'ws')}/ws/tables/{table}",
                     additional_headers={"Cookie": cookie}) as ws:
            n = 0
            while True:
                frame = json.loads(ws.recv(timeout=20))
                view = frame.get("view")
                if frame["type"] not in ("welcome", "update") or view is None:
                    continue
                if view["outcome"] is not None:
                    break
                if view["turn"] == view["seat"] and view["legal"]:
                    n += 1
                    ws.send(json.dumps({"type": "move", "id": f"m{n}", "seq": frame["seq"],
                                        "move": view["legal"][-1]["move"]}))
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
