"""The server's accounts, sessions, CSRF and rate limits, through a real server.

Each test starts uvicorn on a loopback port on its own empty database
(tests/support/server_live.py), SQLite and, when ``FIDO_TEST_POSTGRES_URL`` is set,
PostgreSQL, and talks HTTP to it with httpx.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

import fido
from fido.accounts.claims import link_player
from fido.accounts.roles import FEDERATION, find_account, grant
from fido.ranking import register_player
from fido.server.deps import Limits
from fido.store import Account, Notification, WebSession, open_store
from support.server_live import browser, free_port, live_server

SRC = str(Path(fido.__file__).parent.parent)
PASSWORD = "correct horse"


@pytest.fixture
def base(store_url: str) -> Iterator[str]:
    """A fresh server a test, on SQLite and PostgreSQL (it counts the rows it made)."""
    with live_server(store_url) as url:
        yield url


def counts(store_url: str) -> tuple[int, int]:
    """(accounts, sessions) in the database."""
    store = open_store(store_url)
    try:
        with store.session(write=False) as s:
            return (
                s.scalar(select(func.count()).select_from(Account)) or 0,
                s.scalar(select(func.count()).select_from(WebSession)) or 0,
            )
    finally:
        store.close()


def sign_up(client: httpx.Client, name: str = "Anna", **more: str) -> httpx.Response:
    return client.post("/api/accounts", json={"name": name, "password": PASSWORD, **more})


def error_code(r: httpx.Response) -> str:
    code: str = r.json()["error"]["code"]
    return code


def test_health_and_openapi(base: str) -> None:
    r = httpx.get(f"{base}/api/health")
    assert r.status_code == 200
    assert r.json() == {"status": "ok", "version": fido.__version__}
    schema = httpx.get(f"{base}/openapi.json").json()
    assert {"/api/health", "/api/session", "/api/accounts", "/api/guest",
            "/api/account/player"} <= set(schema["paths"])


def test_unknown_paths_and_bad_json_are_json_errors(base: str) -> None:
    client = browser(base)
    r = client.get("/api/nothing")
    assert r.status_code == 404 and error_code(r) == "not_found"
    r = client.post("/api/session", content=b"{not json",
                    headers={"content-type": "application/json"})
    assert r.status_code == 422 and error_code(r) == "invalid"
    assert "Traceback" not in r.text


def test_sign_up_who_am_i_sign_out_sign_in(
    base: str, store_url: str
) -> None:
    client = browser(base)
    assert client.get("/api/session").json()["kind"] == "anonymous"
    r = sign_up(client, email="anna@example.org")
    assert r.status_code == 201
    me = client.get("/api/session").json()
    assert me["kind"] == "account"
    assert me["account"] == {"id": 1, "name": "Anna", "guest": False,
                             "email": "anna@example.org", "player": None, "claim": None}
    r = client.delete("/api/session")
    assert r.status_code == 200 and r.json()["kind"] == "anonymous"
    assert client.get("/api/session").json()["kind"] == "anonymous"
    r = client.post("/api/session", json={"name": "anna", "password": PASSWORD})
    assert r.status_code == 200 and r.json()["account"]["id"] == 1  # names fold case
    assert client.get("/api/session").json()["account"]["name"] == "Anna"


def test_a_wrong_password_is_refused_and_changes_nothing(
    base: str, store_url: str
) -> None:
    sign_up(browser(base))
    before = counts(store_url)
    client = browser(base)
    r = client.post("/api/session", json={"name": "Anna", "password": "wrong horse"})
    assert r.status_code == 401 and error_code(r) == "wrong_password"
    r = client.post("/api/session", json={"name": "Nobody", "password": PASSWORD})
    assert r.status_code == 401 and r.json()["error"]["message"] == "wrong name or password"
    assert "fido_session" not in client.cookies
    assert client.get("/api/session").json()["kind"] == "anonymous"
    assert counts(store_url) == before


def test_bad_sign_ups_are_refused_and_change_nothing(
    base: str, store_url: str
) -> None:
    client = browser(base)
    assert sign_up(client).status_code == 201
    client.delete("/api/session")
    before = counts(store_url)
    r = sign_up(client, "ANNA")
    assert r.status_code == 409 and error_code(r) == "name_taken"
    for bad in ("Eve\x1b[2J", "Eve\u202e", "Eve\x00", "E", "x" * 41, " Eve"):
        r = sign_up(client, bad)
        assert r.status_code == 422 and error_code(r) == "invalid", bad
    for body in ({"name": "Eve", "password": "short"},
                 {"name": "Eve", "password": "x" * 257},
                 {"name": "Eve", "password": PASSWORD, "email": "not an address"},
                 {"name": "Eve", "password": PASSWORD, "admin": True},
                 {"name": 12, "password": PASSWORD}):
        r = client.post("/api/accounts", json=body)
        assert r.status_code == 422 and "Traceback" not in r.text, body
    # a lone surrogate, as JSON can spell it: it cannot be hashed (nor stored)
    for raw in (b'{"name": "Eve", "password": "\\ud800 lone surrogate"}',
                b'{"name": "Eve\\udfff", "password": "correct horse"}'):
        r = client.post("/api/accounts", content=raw, headers={"content-type": "application/json"})
        assert r.status_code == 422, raw
    assert counts(store_url) == before


def test_markup_in_a_name_is_stored_and_returned_as_text(base: str) -> None:
    client = browser(base)
    name = "<b>Bo</b> & [red]x"
    assert sign_up(client, name).json()["account"]["name"] == name
    assert client.get("/api/session").json()["account"]["name"] == name


def test_the_session_cookie_is_httponly_samesite_signed_and_opaque(
    base: str, store_url: str
) -> None:
    client = browser(base)
    r = sign_up(client)
    cookie = next(c for c in r.headers.get_list("set-cookie") if c.startswith("fido_session="))
    flags = {f.strip().lower() for f in cookie.split(";")[1:]}
    assert "httponly" in flags and "samesite=lax" in flags and "path=/" in flags
    assert "secure" not in flags  # plain http on loopback; over https it is Secure
    value = client.cookies["fido_session"]
    assert "Anna" not in value and value.split(".")[0] != "1"  # an opaque id, not the account
    # one changed character of the signature or of the id: anonymous (not the last
    # one: base64 ignores its low bits, so "B" for "A" there may be the same signature)
    flipped = "A" if value[-5] != "A" else "B"
    for tampered in (value[:-5] + flipped + value[-4:],
                     ("A" if value[0] != "A" else "B") + value[1:], "garbage", ""):
        other = httpx.Client(base_url=base, cookies={"fido_session": tampered})
        assert other.get("/api/session").json()["kind"] == "anonymous", tampered
    # the same cookie from another client is that session (the id alone decides) ...
    copy = httpx.Client(base_url=base, cookies={"fido_session": value})
    assert copy.get("/api/session").json()["kind"] == "account"
    # ... until it signs out: the id is deleted server-side, the old cookie opens nothing
    assert client.delete("/api/session").status_code == 200
    assert copy.get("/api/session").json()["kind"] == "anonymous"
    assert counts(store_url)[1] == 0


def test_csrf_a_post_without_or_with_a_wrong_token_is_refused(
    base: str, store_url: str
) -> None:
    client = browser(base)
    client.headers.pop("X-CSRF-Token")
    token = client.cookies["fido_csrf"]
    csrf_cookie = next(c for c in httpx.get(f"{base}/api/session").headers.get_list("set-cookie")
                       if c.startswith("fido_csrf="))
    assert "httponly" not in csrf_cookie.lower() and "samesite=lax" in csrf_cookie.lower()
    r = sign_up(client)
    assert r.status_code == 403 and error_code(r) == "csrf"
    wrong = client.get("/api/session").json()["csrf_token"][:-2] + "xx"
    r = client.post("/api/accounts", json={"name": "Anna", "password": PASSWORD},
                    headers={"X-CSRF-Token": wrong})
    assert r.status_code == 403
    # a token the server never issued, in cookie and header alike (a planted cookie)
    forged = httpx.Client(base_url=base, cookies={"fido_csrf": "forged"})
    r = forged.post("/api/guest", headers={"X-CSRF-Token": "forged"})
    assert r.status_code == 403
    # the header without the cookie (another site cannot read the cookie)
    r = httpx.post(f"{base}/api/guest", headers={"X-CSRF-Token": token})
    assert r.status_code == 403
    assert counts(store_url) == (0, 0)
    # a form sends it as the csrf_token field
    r = client.post("/api/guest", data={"csrf_token": token})
    assert r.status_code == 200 and r.json()["kind"] == "guest"
    # the guest's session has its own token now: the one before is refused
    client.headers["X-CSRF-Token"] = token
    assert sign_up(client).status_code == 403
    assert r.json()["csrf_token"] == client.cookies["fido_csrf"] != token
    client.headers["X-CSRF-Token"] = r.json()["csrf_token"]
    assert sign_up(client).status_code == 201
    r = httpx.Client(base_url=base, cookies=dict(client.cookies)).delete("/api/session")
    assert r.status_code == 403  # signing out needs the token too
    assert client.get("/api/session").json()["kind"] == "account"


def test_a_guest_who_signs_up_keeps_her_id(
    base: str, store_url: str
) -> None:
    client = browser(base)
    r = client.post("/api/guest")
    assert r.status_code == 200
    guest = r.json()["account"]
    assert guest["guest"] and guest["name"] == f"guest {guest['id']}"
    assert client.post("/api/guest").json()["account"]["id"] == guest["id"]  # still her
    old_cookie = client.cookies["fido_session"]
    r = sign_up(client, "Gina")
    assert r.status_code == 201
    assert r.json()["account"] == {"id": guest["id"], "name": "Gina", "guest": False,
                                   "email": None, "player": None, "claim": None}
    assert client.cookies["fido_session"] != old_cookie  # a new session id on sign-up
    stale = httpx.Client(base_url=base, cookies={"fido_session": old_cookie})
    assert stale.get("/api/session").json()["kind"] == "anonymous"
    assert counts(store_url) == (1, 1)
    r = sign_up(client, "Gina Two")
    assert r.status_code == 409 and error_code(r) == "signed_in"


def _federation(store_url: str, name: str) -> None:
    """Give the account ``name`` the federation's role (as `fido accounts grant` does)."""
    store = open_store(store_url)
    with store.session() as s:
        grant(s, find_account(s, name), FEDERATION)
    store.close()


def test_an_account_asks_to_be_a_player_and_the_federation_decides(
    base: str, store_url: str
) -> None:
    store = open_store(store_url)
    with store.session() as s:
        number = register_player(s, "Anna Ranked").number
        other_number = register_player(s, "Bert Ranked").number
    store.close()
    fed = browser(base)
    sign_up(fed, "Fiona Fed")
    _federation(store_url, "Fiona Fed")  # there is a federation to ask
    client = browser(base)
    assert client.put("/api/account/player", json={"number": number}).status_code == 401
    client.post("/api/guest")
    assert client.put("/api/account/player", json={"number": number}).status_code == 403
    sign_up(client)
    r = client.put("/api/account/player", json={"number": number + 1000})
    assert r.status_code == 404 and error_code(r) == "unknown_player"
    for bad in (0, -1, 2**31, "x", 1.5):
        r = client.put("/api/account/player", json={"number": bad})
        assert r.status_code == 422, bad
    assert client.get("/api/session").json()["account"]["claim"] is None  # nothing asked
    # she asks to be Bert first, then changes her mind: one request, the newest number
    assert client.put("/api/account/player", json={"number": other_number}).status_code == 202
    r = client.put("/api/account/player", json={"number": number})
    assert r.status_code == 202, r.text
    mine = r.json()
    assert mine["player"] is None  # asking links nothing
    assert mine["claim"]["status"] == "pending" and mine["claim"]["number"] == number
    assert mine["claim"]["name"] == "Anna Ranked"
    # a player cannot answer requests, not even her own
    assert client.get("/api/claims").status_code == 403
    r = client.post(f"/api/claims/{mine['claim']['id']}", json={"approve": True})
    assert r.status_code == 403 and error_code(r) == "federation_only"
    assert client.get("/api/session").json()["account"]["player"] is None

    waiting = fed.get("/api/claims").json()
    assert [(c["account_name"], c["number"], c["status"]) for c in waiting] == [
        ("Anna", number, "pending")]
    claim = waiting[0]["id"]
    for bad in ("/api/claims/0", "/api/claims/x", f"/api/claims/{2**31}"):
        assert fed.post(bad, json={"approve": True}).status_code == 422, bad
    assert fed.post(f"/api/claims/{claim}", json={"approve": "maybe"}).status_code == 422
    r = fed.post(f"/api/claims/{claim + 100}", json={"approve": True})
    assert r.status_code == 404 and error_code(r) == "unknown_claim"
    r = fed.post(f"/api/claims/{claim}", json={"approve": True})
    assert r.status_code == 200 and r.json()["status"] == "approved", r.text
    r = fed.post(f"/api/claims/{claim}", json={"approve": False})  # answered once only
    assert r.status_code == 409 and error_code(r) == "decided"
    me = client.get("/api/session").json()["account"]
    assert me["player"] == number and me["claim"]["status"] == "approved"
    assert fed.get("/api/claims").json() == []
    # linked, she cannot ask to be somebody else; only the federation changes that
    r = client.put("/api/account/player", json={"number": other_number})
    assert r.status_code == 409 and error_code(r) == "already_linked"

    # Bert asks to be Anna's player: taken; then his own, and the federation refuses
    other = browser(base)
    sign_up(other, "Bert")
    r = other.put("/api/account/player", json={"number": number})
    assert r.status_code == 409 and error_code(r) == "player_taken"
    r = other.put("/api/account/player", json={"number": other_number})
    assert r.status_code == 202
    r = fed.post(f"/api/claims/{r.json()['claim']['id']}", json={"approve": False})
    assert r.status_code == 200 and r.json()["status"] == "refused"
    me = other.get("/api/session").json()["account"]
    assert me["player"] is None and me["claim"]["status"] == "refused"
    # the federation links itself at once
    r = fed.put("/api/account/player", json={"number": other_number})
    assert r.status_code == 200 and r.json()["player"] == other_number


def test_with_no_federation_to_ask_the_link_is_made_at_once(
    base: str, store_url: str
) -> None:
    """A club's own server, or `make run` at home: nobody to ask, so no request waits."""
    store = open_store(store_url)
    with store.session() as s:
        number = register_player(s, "Dora Home").number
    store.close()
    client = browser(base)
    sign_up(client, "Dora")
    r = client.put("/api/account/player", json={"number": number})
    assert r.status_code == 200 and r.json()["player"] == number and r.json()["claim"] is None
    other = browser(base)
    sign_up(other, "Not Dora")
    r = other.put("/api/account/player", json={"number": number})  # still one account a player
    assert r.status_code == 409 and error_code(r) == "player_taken"


def test_with_no_federation_an_account_becomes_a_new_player(
    base: str, store_url: str
) -> None:
    """At home or in a club without a federation account: the next free number, in her
    account's name; once a federation exists, it registers players."""
    client = browser(base)
    assert client.post("/api/account/player").status_code == 401
    client.post("/api/guest")
    assert client.post("/api/account/player").status_code == 403
    sign_up(client, "Emma <b>Home</b>")
    r = client.post("/api/account/player")
    assert r.status_code == 201, r.text
    number = r.json()["player"]
    assert number == 1  # the first player of an empty ranking
    store = open_store(store_url)
    with store.session(write=False) as s:
        assert find_account(s, "Emma <b>Home</b>").player.name == "Emma <b>Home</b>"  # type: ignore[union-attr]
    store.close()
    r = client.post("/api/account/player")  # twice: she is a player already
    assert r.status_code == 409 and error_code(r) == "already_linked"
    sign_up(browser(base), "Fay Fed")
    _federation(store_url, "Fay Fed")
    other = browser(base)
    sign_up(other, "Gus")
    r = other.post("/api/account/player")
    assert r.status_code == 403 and error_code(r) == "federation_registers"
    assert other.get("/api/session").json()["account"]["player"] is None


def test_a_request_is_answered_when_the_federation_links_directly(
    base: str, store_url: str
) -> None:
    store = open_store(store_url)
    with store.session() as s:
        number = register_player(s, "Cleo Ranked").number
    store.close()
    sign_up(browser(base), "Fred Fed")
    _federation(store_url, "Fred Fed")
    client = browser(base)
    sign_up(client, "Cleo")
    claim = client.put("/api/account/player", json={"number": number}).json()["claim"]
    assert claim["status"] == "pending"
    # the federation links her by hand, and two requests for one player cannot both win
    store = open_store(store_url)
    with store.session() as s:
        link_player(s, find_account(s, "Cleo"), number)
    store.close()
    me = client.get("/api/session").json()["account"]
    assert me["player"] == number and me["claim"] == claim | {
        "status": "approved", "decided_at": me["claim"]["decided_at"]}
    assert me["claim"]["decided_at"] is not None


def _browser_at(base: str, host: str) -> httpx.Client:
    """A browser at the address ``host``, as the proxy in front of the server says it
    (``X-Forwarded-For`` from loopback, which uvicorn trusts), with its CSRF cookie."""
    client = browser(base)
    client.headers["X-Forwarded-For"] = host
    client.get("/api/session")
    return client


def _post(client: httpx.Client, path: str, body: dict[str, Any]) -> httpx.Response:
    return client.post(path, json=body)


def _sign_in(client: httpx.Client, name: str, password: str) -> httpx.Response:
    return _post(client, "/api/session", {"name": name, "password": password})


def test_a_strangers_guesses_slow_the_stranger_never_the_owner(store_url: str) -> None:
    """Failed sign-ins are counted per account and address, per address, and per
    account everywhere but on the owner's own devices (OWASP's device cookies): a
    stranger who knows her name never locks her out on her device, nor from another
    address until the wide bound; the message says what to do."""
    limits = Limits(per_account=3, per_address=5, window=60, everywhere=6,
                    everywhere_window=3600)
    with live_server(store_url, limits=limits) as base:
        _strangers_and_owner(base)


def _strangers_and_owner(base: str) -> None:
    owner = _browser_at(base, "10.0.0.1")
    assert _post(owner, "/api/accounts", {"name": "Anna", "password": PASSWORD}
                 ).status_code == 201
    stranger = _browser_at(base, "10.0.0.66")
    for _ in range(3):
        assert _sign_in(stranger, "Anna", "wrong horse").status_code == 401
    r = _sign_in(stranger, "Anna", PASSWORD)  # even the right one, from there: refused
    assert r.status_code == 429 and error_code(r) == "rate_limited"
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    # Anna on her own device, and on a new one elsewhere: in
    assert _sign_in(owner, "Anna", PASSWORD).status_code == 200
    assert "fido_device" in owner.cookies
    elsewhere = _browser_at(base, "10.0.0.2")
    assert _sign_in(elsewhere, "Anna", PASSWORD).status_code == 200
    # guesses from a second address reach the wide bound of the account ...
    second = _browser_at(base, "10.0.0.67")
    for _ in range(3):
        assert _sign_in(second, "Anna", "wrong horse").status_code == 401
    new = _browser_at(base, "10.0.0.3")
    r = _sign_in(new, "Anna", PASSWORD)
    assert r.status_code == 429 and "a device where you have signed in before" in \
        r.json()["error"]["message"]
    # ... which her known devices pass
    assert _sign_in(owner, "Anna", PASSWORD).status_code == 200
    assert _sign_in(elsewhere, "Anna", PASSWORD).status_code == 200
    # one address's failures on any names stop that address, not another
    assert _post(_browser_at(base, "10.0.0.4"), "/api/accounts",
                 {"name": "Bert", "password": PASSWORD}).status_code == 201
    noisy = _browser_at(base, "10.0.0.99")
    for name in ("Nobody", "Nemo", "Niemand", "Nadie", "Personne"):
        assert _sign_in(noisy, name, "wrong").status_code == 401
    assert _sign_in(noisy, "Bert", PASSWORD).status_code == 429
    assert _sign_in(_browser_at(base, "10.0.0.5"), "Bert", PASSWORD).status_code == 200
    # a device cookie the server did not sign is no device
    forged = _browser_at(base, "10.0.0.6")
    forged.cookies.set("fido_device", owner.cookies["fido_device"] + "x")
    assert _sign_in(forged, "Anna", PASSWORD).status_code == 429


def test_a_restart_keeps_sessions(store_url: str) -> None:
    with live_server(store_url) as base:
        client = browser(base)
        sign_up(client)
        cookies = dict(client.cookies)
        token = client.cookies["fido_csrf"]
    with live_server(store_url) as base:  # same database, a new process state
        again = httpx.Client(base_url=base, cookies=cookies, headers={"X-CSRF-Token": token})
        me = again.get("/api/session").json()
        assert me["kind"] == "account" and me["account"]["name"] == "Anna"
        assert me["csrf_token"] == token
        assert again.delete("/api/session").status_code == 200


def test_fido_serve_starts_on_sqlite_in_the_current_directory(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "PYTHONPATH": SRC}
    env.pop("FIDO_DB", None)
    env.pop("FIDO_SECRET", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "fido.cli", "serve", "--port", str(port)],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                r = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=2)
                break
            except httpx.TransportError:
                assert proc.poll() is None and time.monotonic() < deadline, "no server"
                time.sleep(0.1)
        assert r.json()["version"] == fido.__version__
        assert (tmp_path / "fido.db").exists()
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=20)
    assert f"fido server at http://127.0.0.1:{port}/" in out
    assert "Traceback" not in out


def test_fido_serve_refuses_a_bad_database_cleanly(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": SRC}
    out = subprocess.run(
        [sys.executable, "-m", "fido.cli", "serve", "--db", "nosuchdb://x"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=False,
    )
    assert out.returncode == 1 and "cannot open the database" in out.stderr
    assert "Traceback" not in out.stderr + out.stdout


def test_every_answer_to_a_request_is_one_note_in_her_inbox(
    base: str, store_url: str
) -> None:
    """Approved, refused, or answered by a direct link: one notification each."""
    store = open_store(store_url)
    with store.session() as s:
        numbers = [register_player(s, f"Kim {i}").number for i in range(3)]
    store.close()
    sign_up(browser(base), "Kai Fed")
    _federation(store_url, "Kai Fed")
    fed = browser(base)
    fed.post("/api/session", json={"name": "Kai Fed", "password": PASSWORD})
    kims = []
    for i, n in enumerate(numbers):
        kim = browser(base)
        sign_up(kim, f"kim{i}")
        assert kim.put("/api/account/player", json={"number": n}).status_code == 202
        kims.append(kim)
    waiting = {c["account_name"]: c["id"] for c in fed.get("/api/claims").json()}
    assert fed.post(f"/api/claims/{waiting['kim0']}", json={"approve": True}).status_code == 200
    assert fed.post(f"/api/claims/{waiting['kim1']}", json={"approve": False}).status_code == 200
    store = open_store(store_url)
    with store.session() as s:
        link_player(s, find_account(s, "kim2"), numbers[2])
    with store.session(write=False) as s:
        for i in range(3):
            notes = s.scalars(select(Notification).where(
                Notification.account_id == find_account(s, f"kim{i}").id)).all()
            assert [(n.kind, n.claim is not None and n.claim.approved) for n in notes] == [
                ("claim", i != 1)], i
    store.close()
