"""Events over HTTP for the tests: people linked to ranking players, an organiser, an
event opened."""

from __future__ import annotations

from typing import Any

import httpx

from fido.accounts.roles import find_account, grant
from fido.ranking import register_player
from fido.store import open_store
from support.server_live import browser, link

EVENT = {"name": "Cup <b>of</b> Rostock", "starts_on": "2026-11-24", "ends_on": "2026-11-30",
         "set": 6, "table_size": 5, "rounds": 3, "mode": "online", "grace": 0}


def signed_up(base: str, db: str, name: str, number: int | None) -> httpx.Client:
    client = browser(base)
    assert client.post("/api/accounts", json={"name": name, "password": "a long secret 1"}
                       ).status_code == 201
    if number is not None:
        link(db, name, number)
    return client


def organiser(url: str, name: str) -> None:
    """Give the account ``name`` an organiser's role (as `fido accounts grant` does)."""
    store = open_store(url)
    with store.session() as s:
        grant(s, find_account(s, name), "organiser", "club:Rostock")
    store.close()


def event_people(
        url: str, base: str, n: int, prefix: str = "p") -> tuple[list[httpx.Client], list[int]]:
    """``n`` accounts PREFIX0.., each linked to a new ranking player, PREFIX0 an organiser:
    their browsers and player numbers."""
    store = open_store(url)
    with store.session() as s:
        numbers = [register_player(s, f"Player {i}").number for i in range(n)]
    store.close()
    people = [signed_up(base, url, f"{prefix}{i}", numbers[i]) for i in range(n)]
    organiser(url, f"{prefix}0")
    return people, numbers


def open_event(organiser: httpx.Client, players: list[httpx.Client],
               event: dict[str, Any]) -> int:
    """The organiser creates ``event``, the ``players`` register themselves; its id."""
    r = organiser.post("/api/events", json=event)
    assert r.status_code == 201, r.text
    eid: int = r.json()["id"]
    for p in players:
        assert p.post(f"/api/events/{eid}/entries", json={}).status_code == 201
    return eid
