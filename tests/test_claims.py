"""Player links in the store: two links of one player at once (PostgreSQL, where two
writers run together; SQLite writes one transaction at a time)."""

from __future__ import annotations

import threading

import pytest

from fido.ranking import register_player
from fido.server.accounts import sign_up
from fido.server.claims import link_player
from fido.server.errors import ApiError
from fido.store import Account, open_store


def test_two_links_of_one_player_at_once_leave_one(store_url: str) -> None:
    if not store_url.startswith("postgresql"):
        pytest.skip("SQLite runs one writing transaction at a time")
    store = open_store(store_url)
    with store.session() as s:
        number = register_player(s, "Ida Twice").number
        ids = [sign_up(s, name, "a long secret 1", None).id for name in ("ida1", "ida2")]
    first_linked = threading.Event()
    outcome: dict[str, object] = {}

    def first() -> None:
        with store.session() as s:
            link_player(s, s.get(Account, ids[0]), number)  # type: ignore[arg-type]
            first_linked.set()
            threading.Event().wait(0.5)  # still uncommitted while the second links
        outcome["first"] = "linked"

    def second() -> None:
        first_linked.wait(10)
        try:
            with store.session() as s:
                link_player(s, s.get(Account, ids[1]), number)  # type: ignore[arg-type]
            outcome["second"] = "linked"
        except ApiError as e:
            outcome["second"] = e.code

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert outcome == {"first": "linked", "second": "player_taken"}
    with store.session(write=False) as s:
        linked = [s.get(Account, i).player_id for i in ids]  # type: ignore[union-attr]
    assert linked[0] is not None and linked[1] is None
    store.close()
