"""The web pages' fixtures: ``server``, a live server with the tests' settings
(:data:`support.server_live.FAST`: ``fido serve``'s but for bots that move at once
and work in threads; :data:`~support.server_live.ONE_ADDRESS`: no bound on the tables
with bots of the one address every test's people come from) on a fresh SQLite
database, one a module. A module that needs other settings defines its own ``server``
and says why."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from support.server_live import ONE_ADDRESS, live_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("web") / "web.db"
    with live_server(f"sqlite:///{db}", limits=ONE_ADDRESS) as base:
        yield base
