"""A server without a federation account grants organiser roles and player links at once
only where that is safe: to people on the machine itself (a club's laptop), never to
whoever reaches it through a proxy or on a public address, unless the administrator says
so (``fido serve --grants``); ``fido doctor`` says which."""

from __future__ import annotations

import httpx
import pytest

from fido.ranking import register_player
from fido.server.policy import Grants
from fido.store import open_store
from support.server_live import browser, live_server

PROXIED = {"X-Forwarded-For": "203.0.113.9"}  # what nginx adds to every request it passes


def _person(base: str, name: str) -> httpx.Client:
    client = browser(base)
    assert client.post("/api/accounts", json={"name": name, "password": "a long password"}
                       ).status_code == 201
    return client


def _asks(client: httpx.Client, headers: dict[str, str]) -> tuple[str, int, int]:
    """She asks to organise, to be player 7, and to be a new player: what she gets."""
    organise = client.post("/api/organiser-requests", json={"scope": "club:Rostock"},
                           headers=headers)
    assert organise.status_code == 201, organise.text
    link = client.put("/api/account/player", json={"number": 7}, headers=headers)
    new = client.post("/api/account/player", headers=headers)
    return organise.json()["status"], link.status_code, new.status_code


@pytest.mark.parametrize(("grants", "public", "headers", "free"), [
    ("auto", False, {}, True),  # the club's laptop: fido serve on loopback, asked there
    ("auto", False, PROXIED, False),  # behind nginx: the internet asks
    ("auto", True, {}, False),  # fido serve --host 0.0.0.0
    ("always", True, PROXIED, True),  # the administrator says so
    ("never", False, {}, False),
], ids=["loopback", "proxied", "public-host", "always", "never"])
def test_who_is_granted_at_once_without_a_federation(
    store_url: str, grants: Grants, public: bool, headers: dict[str, str], free: bool,
) -> None:
    store = open_store(store_url)
    with store.session() as s:
        register_player(s, "Sieben", 7)
    store.close()
    with live_server(store_url, grants=grants, public=public) as base:
        status, link, new = _asks(_person(base, "Rita"), headers)
        if free:
            assert (status, link) == ("approved", 200)
            assert new == 409  # linked already (to player 7)
        else:
            assert (status, link) == ("pending", 202)  # they wait for a federation
            assert new == 403  # no new player of her own either
        other = _person(base, "Uwe")
        new_player = other.post("/api/account/player", headers=headers)
        assert new_player.status_code == (201 if free else 403), new_player.text
