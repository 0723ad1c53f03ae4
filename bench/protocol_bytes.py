"""Bytes a table's socket receives per move, protocol version 1 (whole views) against
version 2 (what changed), over whole games.

    .venv/bin/python bench/protocol_bytes.py                 # double-9 x4, -18 x6, -21 x9
    .venv/bin/python bench/protocol_bytes.py --games 3 --json out.jsonl

For each table a server (the app on a fresh SQLite file, uvicorn in a thread, bots
moving at once) seats one person and greedy bots; four sockets follow the game: the
person's and a spectator's, each in both versions. Counted: the text of every
``update`` after the welcome (uncompressed, as the page's socket receives it with
permessage-deflate off), divided by the game's moves. Version 2's views are rebuilt
with :func:`fido.delta.patch` and checked against version 1's at every move.
"""

from __future__ import annotations

import argparse
import inspect
import json
import socket
import statistics
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect

from fido.delta import patch
from fido.server.settings import PlaySettings
from fido.web.app import create_app

TABLES = [("fido set=9", 4), ("fido set=18", 6), ("fido set=21", 9)]
# websockets 16+ warns unless connect() without a with-block says so (older ones lack it)
LEGACY: dict[str, Any] = (
    {"legacy": True} if "legacy" in inspect.signature(connect).parameters else {})


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _socket(base: str, table: str, cookie: str | None, version: int) -> ClientConnection:
    url = base.replace("http://", "ws://", 1) + f"/ws/tables/{table}?v={version}"
    ws: ClientConnection = connect(url, additional_headers={"Cookie": cookie} if cookie
                                   else None, max_size=2**24, compression=None,
                                   **LEGACY)
    return ws


def one_game(base: str, rules: str, players: int) -> dict[str, Any]:
    http = httpx.Client(base_url=base, timeout=30)
    token = http.get("/api/session").json()["csrf_token"]
    r = http.post("/api/guest", headers={"X-CSRF-Token": token})
    token = r.json()["csrf_token"]
    seats = [{"kind": "me"}] + [{"kind": "bot", "level": "greedy"}] * (players - 1)
    table = http.post("/api/tables", json={"ruleset": rules, "players": players,
                                           "seats": seats},
                      headers={"X-CSRF-Token": token}).json()["id"]
    cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
    socks = {(who, v): _socket(base, table, cookie if who == "seat" else None, v)
             for who in ("seat", "spectator") for v in (1, 2)}
    state: dict[tuple[str, int], dict[str, Any]] = {}
    for key, ws in socks.items():
        w = json.loads(ws.recv(timeout=30))
        state[key] = {"view": w["view"], "seq": w["seq"], "bytes": 0, "updates": 0,
                      "views": {}}
    mover = socks[("seat", 1)]
    done: set[tuple[str, int]] = set()
    moves = 0
    n = 0
    first = state[("seat", 1)]
    if first["view"] is not None and first["view"]["turn"] == first["view"]["seat"]:
        n += 1  # she opens: no update comes before her move
        mover.send(json.dumps({"type": "move", "id": "m0", "seq": first["seq"],
                               "move": first["view"]["legal"][0]["move"]}))
    while len(done) < len(socks):
        for key, ws in socks.items():
            if key in done:
                continue
            try:
                text = ws.recv(timeout=0.01)
            except TimeoutError:
                continue
            frame = json.loads(text)
            s = state[key]
            if frame["type"] != "update":
                continue
            s["bytes"] += len(text)
            s["updates"] += 1
            s["seq"] = frame["seq"]
            if key[1] == 1:
                s["view"] = frame["view"]
            else:
                s["view"] = (patch(s["view"], frame["delta"]) if "delta" in frame
                             else frame["view"])
            s["views"][frame["seq"]] = s["view"]
            if key == ("seat", 1):
                moves += sum(e["kind"] == "move" for e in frame["events"])
            view = s["view"]
            if key == ("seat", 1) and view and view["outcome"] is None \
                    and view["turn"] == view["seat"] and view["legal"]:
                n += 1
                mover.send(json.dumps({"type": "move", "id": f"m{n}", "seq": frame["seq"],
                                       "move": view["legal"][0]["move"]}))
            if view is not None and view["outcome"] is not None:
                done.add(key)
    for who in ("seat", "spectator"):
        one, two = state[(who, 1)]["views"], state[(who, 2)]["views"]
        for seq, view in two.items():
            whole = dict(one[seq])
            whole.pop("position")
            assert view == whole, (who, seq)
    for ws in socks.values():
        ws.close()
    return {f"{who} v{v}": state[(who, v)]["bytes"] / moves
            for who in ("seat", "spectator") for v in (1, 2)} | {"moves": moves}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=2, help="games per table kind")
    ap.add_argument("--json", metavar="FILE", help="append one JSON line per table kind")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(f"sqlite:///{Path(tmp) / 'fido.db'}",
                         play=replace(PlaySettings(), bot_delay=0.0, bot_processes=0))
        port = _port()
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                               log_level="warning", ws_per_message_deflate=False))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        base = f"http://127.0.0.1:{port}"
        print(f"{'table':16} {'moves':>6} {'seat v1':>9} {'seat v2':>9} {'watch v1':>9} "
              f"{'watch v2':>9}   (bytes received a move, mean of {args.games} games)")
        for rules, players in TABLES:
            games = [one_game(base, rules, players) for _ in range(args.games)]
            mean = {k: statistics.mean(g[k] for g in games) for k in games[0]}
            print(f"{rules + ' x' + str(players):16} {mean['moves']:6.0f} "
                  f"{mean['seat v1']:9.0f} {mean['seat v2']:9.0f} "
                  f"{mean['spectator v1']:9.0f} {mean['spectator v2']:9.0f}")
            if args.json:
                with open(args.json, "a") as out:
                    out.write(json.dumps({"rules": rules, "players": players, **mean}) + "\n")
        server.should_exit = True
        thread.join(timeout=10)
        app.state.server.store.close()


if __name__ == "__main__":
    main()
