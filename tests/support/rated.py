"""Rated games for the tests: people linked to ranking players, their sockets, a game
played to its end."""

from __future__ import annotations

import json
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from support.server_client import LEGACY
from support.server_live import browser, cookie_header, link

PASSWORD = "correct horse"


def linked_person(base: str, db: str, name: str, number: int) -> httpx.Client:
    client = browser(base)
    r = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201
    link(db, name, number)
    return client


def table_socket(base: str, client: httpx.Client, table: str) -> ClientConnection:
    ws: ClientConnection = connect(f"{base.replace('http', 'ws')}/ws/tables/{table}",
                                   additional_headers={"Cookie": cookie_header(client)}, **LEGACY)
    return ws


def play_to_the_end(sockets: list[ClientConnection]) -> dict[str, Any]:
    """Each connection moves its first legal move when it is her turn."""
    outcome: dict[str, Any] | None = None
    seqs = [0] * len(sockets)
    pending = list(range(len(sockets)))
    sent = 0
    while outcome is None:
        for i in list(pending):
            frame = json.loads(sockets[i].recv(timeout=20))
            if frame["type"] not in ("welcome", "update"):
                assert frame["type"] == "ack", frame
                continue
            seqs[i] = frame["seq"]
            view = frame["view"]
            if view is None:
                continue
            if view["outcome"] is not None:
                outcome = view["outcome"]
                break
            if view["turn"] == view["seat"] and view["legal"]:
                sent += 1
                sockets[i].send(json.dumps({"type": "move", "id": f"m{sent}", "seq": seqs[i],
                                            "move": view["legal"][0]["move"]}))
    return outcome
