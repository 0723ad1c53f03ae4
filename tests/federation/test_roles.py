"""Roles: ``fido accounts grant/revoke/link``, who may settle which dispute, and the
web's refusals (403 page or JSON, CSRF) over real HTTP.

Runs on SQLite and, with ``FIDO_TEST_POSTGRES_URL``, PostgreSQL.
"""

from __future__ import annotations

import datetime as dt
import re

import httpx
import pytest
from sqlalchemy import func, select
from typer.testing import CliRunner

from fido.accounts.roles import RoleError, check_settle, check_submit, covers, parse_scope
from fido.accounts.signup import sign_up
from fido.cli import app
from fido.ranking import dispute, register_player, status_at, submit
from fido.store import Account, GameRow, Player, ReviewRow, RoleRow, Store, open_store
from support.server_live import live_server, token_of

runner = CliRunner()
PASSWORD = "a long password"
TODAY = dt.date.today()


def fido(db: str, *args: str) -> tuple[int, str]:
    out = runner.invoke(app, [*args, "--db", db], env={"COLUMNS": "200"})
    return out.exit_code, out.output


def _setup(store: Store) -> int:
    """Players 1-4, accounts anna..dora linked to them, one game in Rostock (anna's
    sheet) disputed by cora; returns the game's id."""
    with store.session() as s:
        for name in ("Anna", "Bert", "Cora", "Dora"):
            p = register_player(s, name)
            a = sign_up(s, name.lower(), PASSWORD, None)
            a.player_id = p.id
        sign_up(s, "olga", PASSWORD, None)  # no player: an organiser who does not play
        sign_up(s, "fred", PASSWORD, None)
        game, _ = submit(s, {"date": TODAY, "event": "Rostock club night 3", "set": 9,
                             "submitted_by": 1, "source": "sheet", "lines": [
                                 {"player": 1, "points": 20, "pips": 3},
                                 {"player": 2, "points": 10, "pips": 0},
                                 {"player": 3, "points": 5, "pips": 9}]})
        dispute(s, game.id, 3, note="I had 7 pips")
        return game.id


def _account(s: object, name: str) -> Account:
    from fido.accounts.roles import find_account  # noqa: PLC0415

    return find_account(s, name)  # type: ignore[arg-type]


@pytest.mark.parametrize(("scope", "event", "yes"), [
    ("club:Rostock", "Rostock", True),
    ("club:Rostock", "rostock   club night 12", True),
    ("club:Rostock", "Rostock: round 2", True),
    ("club:Rostock", "Rostocker Open", False),
    ("club:Rostock", "Kiel", False),
    ("club:Rostock", "Ro", False),
    ("event:Baltic Open 2026", "Baltic Open 2026, round 3", True),
    ("event:Baltic Open 2026", "Baltic Open 2025", False),
    ("event:ＲＯＳＴＯＣＫ", "Rostock", True),  # full-width letters fold like names do
])
def test_a_scope_covers_games_whose_event_begins_with_its_name(
        scope: str, event: str, yes: bool) -> None:
    assert covers(parse_scope(scope), event) is yes


@pytest.mark.parametrize("bad", ["Rostock", "team:Rostock", "club:", "club:  ", "club:a\x00b",
                                 "club:" + "x" * 200])
def test_a_bad_scope_is_refused(bad: str) -> None:
    with pytest.raises(RoleError):
        parse_scope(bad)


def test_grant_and_revoke_on_the_command_line(store: Store, store_url: str) -> None:
    game_id = _setup(store)
    assert fido(store_url, "accounts", "grant", "FRED", "federation") == (0, "fred is federation\n")
    code, out = fido(store_url, "accounts", "grant", "fred", "federation")
    assert code == 0 and "already" in out
    assert fido(store_url, "accounts", "grant", "olga", "organiser", "--scope",
                " CLUB:  Rostock ")[0] == 0
    refusals = [
        (("grant", "olga", "organiser"), "has a scope"),
        (("grant", "olga", "federation", "--scope", "club:Kiel"), "no scope"),
        (("grant", "olga", "admin"), "unknown role"),
        (("grant", "olga", "player"), "every account is a player"),
        (("grant", "nobody", "federation"), "no account named"),
        (("grant", "olga", "organiser", "--scope", "Kiel"), "club:NAME or event:NAME"),
        (("revoke", "anna", "federation"), "anna is not federation"),
        (("link", "olga", "2"), "linked to the account 'bert'"),
        (("link", "olga", "99"), "no registered player has number 99"),
    ]
    for args, message in refusals:
        code, out = fido(store_url, "accounts", *args)
        assert code == 1 and message in out, (args, out)
    with store.session() as s:
        rows = {(r.account_id, r.role, r.scope) for r in s.scalars(select(RoleRow))}
        olga, fred = _account(s, "olga"), _account(s, "fred")
        assert rows == {(fred.id, "federation", ""), (olga.id, "organiser", "club:Rostock")}
        game = s.get(GameRow, game_id)
        assert game is not None
        check_settle(s, olga, game)  # the organiser of Rostock may
        check_settle(s, fred, game)  # the federation may
    code, out = fido(store_url, "accounts", "list")
    assert code == 0 and "organiser of club:Rostock" in out and "1 Anna" in out
    assert fido(store_url, "accounts", "revoke", "olga", "organiser", "--scope",
                "club:rostock")[0] == 1  # the scope as granted, case and all
    assert fido(store_url, "accounts", "revoke", "olga", "organiser", "--scope",
                "club:Rostock")[0] == 0
    with store.session() as s:
        game = s.get(GameRow, game_id)
        assert game is not None
        with pytest.raises(RoleError, match="only an organiser"):
            check_settle(s, _account(s, "olga"), game)


def test_who_may_settle_and_who_may_enter(store: Store, store_url: str) -> None:
    game_id = _setup(store)
    fido(store_url, "accounts", "grant", "fred", "federation")
    fido(store_url, "accounts", "grant", "olga", "organiser", "--scope", "club:Kiel")
    fido(store_url, "accounts", "grant", "bert", "organiser", "--scope", "club:Rostock")
    with store.session() as s:
        game = s.get(GameRow, game_id)
        assert game is not None
        with pytest.raises(RoleError, match="players confirm or dispute"):
            check_settle(s, _account(s, "dora"), game)  # a player
        with pytest.raises(RoleError, match="does not cover"):
            check_settle(s, _account(s, "olga"), game)  # an organiser of another scope
        with pytest.raises(RoleError, match="you played in this game"):
            check_settle(s, _account(s, "bert"), game)  # Rostock's organiser, but she played
        check_settle(s, _account(s, "fred"), game)
        check_submit(s, _account(s, "dora"), "Kiel", [4, 1])  # her own game
        check_submit(s, _account(s, "olga"), "Kiel, round 1", [1, 2])  # her club's
        check_submit(s, _account(s, "fred"), "Anywhere", [1, 2])
        with pytest.raises(RoleError):
            check_submit(s, _account(s, "dora"), "Kiel", [1, 2])
        with pytest.raises(RoleError):
            check_submit(s, _account(s, "olga"), "Rostock", [1, 2])


def _client(base: str, name: str) -> tuple[httpx.Client, str]:
    client = httpx.Client(base_url=base, timeout=20)
    client.get("/signin")
    r = client.post("/signin",
                    data={"csrf_token": token_of(client), "name": name, "password": PASSWORD})
    assert r.status_code == 303, r.text
    return client, client.cookies["fido_csrf"]  # her session's (bound to it)


def _reviews(store: Store, game_id: int) -> list[str]:
    with store.session(write=False) as s:
        return list(s.scalars(select(ReviewRow.verdict).where(ReviewRow.game_id == game_id)
                              .order_by(ReviewRow.id)))


def test_the_web_refuses_a_settlement_by_a_player_or_another_scope(
        store: Store, store_url: str) -> None:
    game_id = _setup(store)
    fido(store_url, "accounts", "grant", "olga", "organiser", "--scope", "club:Kiel")
    fido(store_url, "accounts", "grant", "fred", "federation")
    with live_server(store_url) as base:
        dora, _dtok = _client(base, "dora")
        page = dora.get(f"/sheets/{game_id}")
        assert page.status_code == 200 and "disputed" in page.text
        assert "settle-form" not in page.text  # a player is not offered it
        r = dora.post(f"/sheets/{game_id}/review",
            data={"csrf_token": token_of(dora), "verdict": "accept"})
        assert r.status_code == 403 and "only an organiser" in r.text
        r = dora.post(f"/sheets/{game_id}/review",
            data={"csrf_token": token_of(dora), "verdict": "reject"},
                      headers={"accept": "application/json"})
        assert r.status_code == 403  # a page still (the form's answer), saying why
        olga, otok = _client(base, "olga")
        r = olga.post(f"/sheets/{game_id}/review",
            data={"csrf_token": token_of(olga), "verdict": "accept"})
        assert r.status_code == 403 and "does not cover" in r.text
        assert olga.get("/admin/roles").status_code == 403
        assert olga.get("/admin/roles", headers={"accept": "application/json"}).json() == {
            "error": {"code": "forbidden", "message": "Only a federation account links accounts "
                      "to players and grants roles."}}
        assert _reviews(store, game_id) == ["dispute"]  # nothing was settled
        # CSRF: a post without the token, or with another one, changes nothing
        fred, _ftok = _client(base, "fred")
        r = fred.post(f"/sheets/{game_id}/review", data={"verdict": "accept"})
        assert r.status_code == 403 and "not sent from this site" in r.text
        r = fred.post(f"/sheets/{game_id}/review",
                      data={"csrf_token": otok, "verdict": "accept"})
        assert r.status_code == 403
        assert _reviews(store, game_id) == ["dispute"]
        # the federation grants Kiel's organiser Rostock on the web, and she settles
        r = fred.post("/admin/roles", data={"csrf_token": token_of(fred), "action": "grant",
                                            "name": "olga", "scope": "club:Rostock"})
        assert r.status_code == 303
        r = fred.post("/admin/roles", data={"csrf_token": token_of(fred), "action": "grant",
                                            "name": "olga", "scope": "Rostock"})
        assert r.status_code == 422 and "club:NAME or event:NAME" in r.text
        assert "settle-form" in olga.get(f"/sheets/{game_id}").text
        r = olga.post(f"/sheets/{game_id}/review", data={
            "csrf_token": otok, "verdict": "reject", "note": "the sheet was wrong"})
        assert r.status_code == 303
        assert _reviews(store, game_id) == ["dispute", "reject"]
        with store.session(write=False) as s:
            game = s.get(GameRow, game_id)
            assert game is not None and status_at(game).value == "rejected"
        # every player of the game is told of the verdict (the dispute was made
        # through the ranking API, not the web: nobody was told of it)
        anna, _ = _client(base, "anna")
        inbox = anna.get("/inbox").text
        assert inbox.count("note-item") == 1 and "a dispute was settled" in inbox
        assert re.search(r'class="badge"[^>]*>1<', anna.get("/").text)
        assert "badge" not in olga.get("/").text  # she settled it: not told her own verdict
        # a signed-out browser is asked to sign in, never shown a traceback
        assert httpx.get(f"{base}/reviews").status_code == 401
        assert dora.get("/reviews").status_code == 403


def test_notifications_and_roles_leave_with_their_account(store: Store) -> None:
    """Deleting an account deletes its roles and notifications (ON DELETE CASCADE)."""
    game_id = _setup(store)
    from fido.accounts import notifications as notes  # noqa: PLC0415
    from fido.accounts.roles import grant  # noqa: PLC0415

    with store.session() as s:
        bert = _account(s, "bert")
        game = s.get(GameRow, game_id)
        assert game is not None
        assert notes.notify(s, [bert.id], "review", game) == 1
        assert notes.notify(s, [bert.id], "review", game) == 0  # one unread per kind and game
        grant(s, bert, "organiser", "event:Baltic Open")
        assert notes.unread_count(s, bert.id) == 1
    with store.session() as s:
        s.delete(_account(s, "bert"))
    with store.session(write=False) as s:
        from fido.store import Notification  # noqa: PLC0415

        assert s.scalar(select(func.count()).select_from(Notification)) == 0
        assert s.scalar(select(func.count()).select_from(RoleRow)) == 0


def test_the_migration_makes_the_tables(store_url: str) -> None:
    store = open_store(store_url)
    from sqlalchemy import inspect  # noqa: PLC0415

    names = set(inspect(store.engine).get_table_names())
    assert {"account_roles", "notifications"} <= names
    store.close()


def test_the_federation_registers_players_and_links_accounts_on_the_web(
        store: Store, store_url: str) -> None:
    _setup(store)
    fido(store_url, "accounts", "grant", "fred", "federation")
    with store.session() as s:
        sign_up(s, "erik", PASSWORD, None)
    with live_server(store_url) as base:
        fred, _ftok = _client(base, "fred")
        assert 'href="/admin/roles"' in fred.get("/").text  # the nav offers the page
        olga, _otok = _client(base, "olga")
        assert 'href="/admin/roles"' not in olga.get("/").text
        # not the federation: refused, nothing registered
        r = olga.post("/admin/roles", data={"csrf_token": token_of(olga), "action": "register",
                                            "player": "Mallory"})
        assert r.status_code == 403
        r = fred.post("/admin/roles", data={"csrf_token": token_of(fred), "action": "register",
                                            "player": "Erik <b>Ek</b>", "country": "swe"})
        assert r.status_code == 303 and "registered" in r.headers["location"]
        page = fred.get(r.headers["location"]).text
        assert "Erik &lt;b&gt;Ek&lt;/b&gt; as player 5" in page
        # a number taken, a name with a control character: refused with the reason
        r = fred.post("/admin/roles", data={"csrf_token": token_of(fred), "action": "register",
                                            "player": "Twin", "number": "5"})
        assert r.status_code == 422 and "already registered" in r.text
        r = fred.post("/admin/roles", data={"csrf_token": token_of(fred), "action": "register",
                                            "player": "Bell\x07"})
        assert r.status_code == 422 and "control" in r.text
        # link erik to player 5; a player linked already is refused
        r = fred.post("/admin/roles", data={"csrf_token": token_of(fred), "action": "link",
                                            "name": "erik", "number": "5"})
        assert r.status_code == 303
        r = fred.post("/admin/roles", data={"csrf_token": token_of(fred), "action": "link",
                                            "name": "olga", "number": "1"})
        assert r.status_code == 422 and "linked to the account &#39;" in r.text
        r = fred.post("/admin/roles", data={"csrf_token": token_of(fred), "action": "link",
                                            "name": "olga", "number": "five"})
        assert r.status_code == 422 and "whole number" in r.text
    with store.session(write=False) as s:
        players = {p.number: p for p in s.scalars(select(Player))}
        assert len(players) == 5 and players[5].country == "SWE"
        erik = s.scalar(select(Account).where(Account.name == "erik"))
        olga_ = s.scalar(select(Account).where(Account.name == "olga"))
        assert erik is not None and erik.player_id == players[5].id
        assert olga_ is not None and olga_.player_id is None
