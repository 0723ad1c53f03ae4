"""A rated game goes into the ranking store by itself, through the ranking API.

Three people with accounts linked to ranking players play a FIDO game to the
end over the table WebSocket; the result is then a stored game (source
``online``) whose lines are the engine's outcome, in the same transaction as
the game's last move.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from fido.ranking import register_player
from fido.record import GameRecord
from fido.store import GameRow, TableRow, open_store
from support.rated import PASSWORD, linked_person, play_to_the_end, table_socket
from support.server_live import browser, live_server


def test_a_rated_game_is_stored_in_the_ranking(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'fido.db'}"
    store = open_store(db)
    with store.session() as s:
        numbers = [register_player(s, f"Player {i}").number for i in range(3)]
    with live_server(db) as base:
        people = [linked_person(base, db, f"P{i}", n) for i, n in enumerate(numbers)]
        guest = browser(base)
        guest.post("/api/guest")
        r = people[0].post("/api/tables", json={"ruleset": "fido set=6", "players": 3,
                                                "rated": True})
        assert r.status_code == 201, r.text
        table = r.json()["id"]
        refused = guest.post(f"/api/tables/{table}/seats", json={})
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "unrated"
        for p in people[1:]:
            assert p.post(f"/api/tables/{table}/seats", json={}).status_code == 200
        sockets = [table_socket(base, p, table) for p in people]
        try:
            outcome = play_to_the_end(sockets)
        finally:
            for ws in sockets:
                ws.close()
    with store.session(write=False) as s:
        row = s.get(TableRow, table)
        assert row is not None and row.record is not None and row.ranking_game is not None
        game = s.scalar(select(GameRow).where(GameRow.id == row.ranking_game))
        assert game is not None and game.source == "online" and game.key == f"table:{table}"
        lines = sorted(game.lines, key=lambda ln: ln.seat)
        replayed = GameRecord.from_json(row.record).replay().outcome
        assert replayed is not None
        assert [(ln.player.number, ln.points, ln.pips) for ln in lines] == [
            (n, r.points, r.pips) for n, r in zip(numbers, replayed.seats, strict=True)
        ]
        assert [r.final for r in replayed.seats] == [s["final"] for s in outcome["seats"]]
    store.close()


def test_a_rated_table_refuses_bots_and_guests(tmp_path: Path) -> None:
    with live_server(f"sqlite:///{tmp_path / 'fido.db'}") as base:
        guest = browser(base)
        guest.post("/api/guest")
        r = guest.post("/api/tables", json={"ruleset": "fido set=6", "players": 3,
                                            "rated": True})
        assert r.status_code == 403 and r.json()["error"]["code"] == "guest"
        anna = browser(base)
        anna.post("/api/accounts", json={"name": "Anna", "password": PASSWORD})
        r = anna.post("/api/tables", json={
            "ruleset": "fido set=6", "players": 3, "rated": True,
            "seats": [{"kind": "me"}, {"kind": "bot", "level": "greedy"}, {"kind": "open"}]})
        assert r.status_code == 422 and "no bots" in r.json()["error"]["message"]
        r = anna.post("/api/tables", json={"ruleset": "block", "players": 3, "rated": True})
        assert r.status_code == 422
        # an account not linked to a ranking player cannot sit at a rated table either
        r = anna.post("/api/tables", json={"ruleset": "fido set=6", "players": 3, "rated": True})
        assert r.status_code == 403 and r.json()["error"]["code"] == "unrated"
        assert anna.get("/api/tables", params={"status": "open"}).json()["tables"] == [], \
            "a refused creation leaves no table behind"
