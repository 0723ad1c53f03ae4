"""A guest's table with bots, played to its end over the WebSocket (the tests of finished games)."""

from __future__ import annotations

import json
from typing import Any

from websockets.sync.client import connect

from support.server_live import browser as http_client
from support.server_live import cookie_header


def guest_table(base: str, ruleset: str = "fido set=6", players: int = 3) -> tuple[Any, str]:
    """A guest's table with bots (it starts at once); the guest's client and the id."""
    me = http_client(base)
    me.post("/api/guest")
    bots = [{"kind": "bot", "level": level} for level in ("greedy", "random") * 4]
    table = me.post("/api/tables", json={
        "ruleset": ruleset, "players": players,
        "seats": [{"kind": "me"}, *bots[:players - 1]]}).json()["id"]
    return me, table


def finish_game(base: str, me: Any, table: str) -> None:
    """Play the guest's seat over the WebSocket (her last legal move each turn) to the end."""
    with connect(f"{base.replace('http', 'ws')}/ws/tables/{table}",
                 additional_headers={"Cookie": cookie_header(me)}) as ws:
        n = 0
        while True:
            frame = json.loads(ws.recv(timeout=20))
            view = frame.get("view")
            if frame["type"] not in ("welcome", "update") or view is None:
                continue
            if view["outcome"] is not None:
                return
            if view["turn"] == view["seat"] and view["legal"]:
                n += 1
                ws.send(json.dumps({"type": "move", "id": f"m{n}", "seq": frame["seq"],
                                    "move": view["legal"][-1]["move"]}))
