"""The web app's server-rendered pages over real HTTP (no browser): forms, CSRF,
escaping, every ruleset in the create form, private tables and invite links,
finished games and profiles."""

from __future__ import annotations

import re
import time
from html.parser import HTMLParser

import httpx
import pytest

from fido.engine.rules import FIDO_DIVISORS, RULESETS, Ruleset
from fido.web.forms import game_label
from support.server_live import token_of, web_client


class _Forms(HTMLParser):
    """The CSRF tokens and select options of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.tokens: list[str] = []
        self.options: dict[str, list[str]] = {}
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "input" and a.get("name") == "csrf_token":
            self.tokens.append(a.get("value") or "")
        elif tag == "select":
            self._select = a.get("name")
        elif tag == "option" and self._select:
            self.options.setdefault(self._select, []).append(a.get("value") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


def _parse(html: str) -> _Forms:
    forms = _Forms()
    forms.feed(html)
    return forms


def _visitor(server: str) -> tuple[httpx.Client, str]:
    """A browser's first visit: its cookies and the CSRF token its forms carry."""
    client = web_client(server, timeout=20)
    page = client.get("/")
    assert page.status_code == 200
    token = _parse(page.text).tokens[0]
    assert token == client.cookies["fido_csrf"]
    return client, token


def _sign_up(server: str, name: str) -> tuple[httpx.Client, str]:
    client, token = _visitor(server)
    r = client.post("/signup", data={"csrf_token": token_of(client), "name": name,
                                     "password": "a long password"})
    assert r.status_code == 303 and r.headers["location"] == "/"
    # her session has its own token (it is bound to the session): the next page's forms
    # carry it, as the cookie does
    token = _parse(client.get("/").text).tokens[0]
    assert token == client.cookies["fido_csrf"]
    return client, token


def _table_form(token: str, **more: str) -> dict[str, str]:
    form = {"csrf_token": token, "game": "fido", "set": "9", "players": "4", "clock": "0",
            "seat0": "me", "seat1": "open", "seat2": "bot:expert", "seat3": "bot:expert"}
    return form | more


def test_lobby_offers_every_ruleset_set_and_seat_kind(server: str) -> None:
    client, _token = _visitor(server)
    forms = _parse(client.get("/").text)
    assert forms.options["game"] == list(RULESETS)
    assert forms.options["set"] == [str(n) for n in FIDO_DIVISORS]
    assert forms.options["players"] == [str(n) for n in range(2, 10)]
    kinds = forms.options["seat0"]
    assert {"me", "open", "reserved", "bot:random", "bot:greedy", "bot:expert",
            "bot:search", "bot:champion"} == set(kinds)
    assert forms.options["clock"][0] == "0"
    page = client.get("/").text
    for n, d in FIDO_DIVISORS.items():
        assert f"double-{n} (divisor {d})" in page


@pytest.mark.parametrize("game", RULESETS)
def test_a_table_of_every_ruleset_opens_from_the_form(server: str, game: str) -> None:
    client, token = _sign_up(server, f"Opener {game}")
    rules = Ruleset.from_text(game)
    players = max(rules.min_players, min(rules.max_players, 3))
    seats = {f"seat{i}": "bot:random" for i in range(1, players)}
    form = _table_form(token, game=game, players=str(players), **seats)
    r = client.post("/tables", data=form)
    assert r.status_code == 303, r.text
    page = client.get(r.headers["location"])
    assert page.status_code == 200
    assert f"<title>{game_label(rules.text() if game != 'fido' else 'fido set=9')} · fido " \
        "dominoes</title>" in page.text


def test_the_clock_and_the_forced_moves_come_from_the_form(server: str) -> None:
    """A day a move is a turn-based table, its draws and passes played at once unless
    she says never; a real-time table plays them only if she says always; and the run-out
    clocks before the stand-in takes her seat."""
    client, token = _sign_up(server, "Clocks")
    assert "86400" in _parse(client.get("/").text).options["clock"]
    for clock, forced, turn_based, played in (("86400", "auto", True, True),
                                              ("86400", "off", True, False),
                                              ("30", "auto", False, False),
                                              ("30", "on", False, True)):
        form = _table_form(token, clock=clock, forced=forced, seat1="open", seat2="open",
                           seat3="open")
        r = client.post("/tables", data=form)
        assert r.status_code == 303, r.text
        table = client.get("/api" + r.headers["location"]).json()
        assert (table["clock"], table["turn_based"], table["forced"]) == (
            int(clock), turn_based, played)
        assert client.post(r.headers["location"] + "/leave",  # the next may open
                           data={"csrf_token": token}).status_code == 303
    bad = client.post("/tables", data=_table_form(token, forced="sometimes"))
    assert bad.status_code == 422 and "Choose one of the choices offered." in bad.text
    # how often her clock may run out before she is replaced: 3 at a turn-based table
    # unless the form says otherwise
    assert _parse(client.get("/").text).options["timeouts"] == ["auto", "1", "2", "3", "5", "10"]
    for clock, timeouts, kept in (("86400", "auto", 3), ("86400", "1", 1), ("30", "auto", None),
                                  ("30", "5", 5)):
        r = client.post("/tables", data=_table_form(token, clock=clock, timeouts=timeouts,
                                                    seat1="open", seat2="open", seat3="open"))
        assert r.status_code == 303, r.text
        assert client.get("/api" + r.headers["location"]).json()["timeouts"] == kept
        assert client.post(r.headers["location"] + "/leave",
                           data={"csrf_token": token}).status_code == 303
    bad = client.post("/tables", data=_table_form(token, timeouts="4"))
    assert bad.status_code == 422 and "Choose one of the choices offered." in bad.text


def test_fido_options_and_divisor_become_the_ruleset(server: str) -> None:
    client, token = _sign_up(server, "Options")
    form = _table_form(token, set="12", divisor="5", direction="counterclockwise",
                       mother_theresa="1", players="3", seat1="bot:greedy", seat2="bot:greedy")
    r = client.post("/tables", data=form)
    assert r.status_code == 303
    table = client.get("/api" + r.headers["location"]).json()
    assert table["ruleset"] == "fido set=12 divisor=5 direction=counterclockwise mother_theresa"


def test_forms_without_the_csrf_token_are_refused(server: str) -> None:
    client, token = _visitor(server)
    for path, data in [("/signup", {"name": "Mallory", "password": "a long password"}),
                       ("/signin", {"name": "Mallory", "password": "x"}),
                       ("/guest", {}), ("/tables", _table_form("")),
                       ("/signout", {})]:
        r = client.post(path, data=data)
        assert r.status_code == 403, path
        assert "reload it and send it again" in r.text
        r = client.post(path, data=data | {"csrf_token": token[:-2] + "xx"})
        assert r.status_code == 403, path
    # nothing happened: no account called Mallory
    r = client.post("/signin", data={"csrf_token": token_of(client), "name": "Mallory",
                                     "password": "a long password"})
    assert r.status_code == 401


def test_names_with_markup_are_text_everywhere(server: str) -> None:
    evil = '<script>alert("x")</script>'
    client, token = _sign_up(server, evil)
    lobby = client.get("/").text
    assert evil not in lobby
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in lobby  # the nav's name
    r = client.post("/tables", data=_table_form(token))
    table_id = r.headers["location"].rsplit("/", 1)[1]
    for path in ("/", "/lobby/tables", f"/tables/{table_id}"):
        text = client.get(path).text
        assert "<script>alert" not in text, path
    me = client.get("/api/session").json()["account"]["id"]
    assert "<script>alert" not in client.get(f"/players/{me}").text
    # a failed sign-up shows what was typed, escaped
    other, _other_token = _visitor(server)
    r = other.post("/signup", data={"csrf_token": token_of(other), "name": evil,
                                    "password": "a long password"})
    assert r.status_code == 409
    assert "<script>alert" not in r.text and "already" in r.text.lower()
    # every page says where scripts may come from
    assert "script-src 'self'" in client.get("/").headers["content-security-policy"]


def test_sign_in_out_and_mistakes(server: str) -> None:
    client, _token = _sign_up(server, "Dora")
    assert ">Dora</a>" in client.get("/").text
    r = client.post("/signout", data={"csrf_token": token_of(client)})
    assert r.status_code == 303
    assert ">Dora</a>" not in client.get("/").text
    r = client.post("/signin",
        data={"csrf_token": token_of(client), "name": "Dora", "password": "wrong"})
    assert r.status_code == 401 and "wrong name or password" in r.text
    r = client.post("/signin", data={"csrf_token": token_of(client), "name": "Dora",
                                     "password": "a long password", "next": "//evil.example/"})
    assert r.status_code == 303 and r.headers["location"] == "/"  # no open redirect
    assert ">Dora</a>" in client.get("/").text
    r = client.post("/signup",
        data={"csrf_token": token_of(client), "name": "x", "password": "short"})
    assert r.status_code in (409, 422)


def test_a_guest_plays_at_once_and_keeps_her_games_when_she_signs_up(server: str) -> None:
    client, token = _visitor(server)
    r = client.post("/tables", data=_table_form(token, seat1="bot:random", seat2="bot:random",
                                                seat3="bot:random"))
    assert r.status_code == 303
    table_id = r.headers["location"].rsplit("/", 1)[1]
    session = client.get("/api/session").json()
    assert session["kind"] == "guest"
    r = client.post("/signup", data={"csrf_token": token_of(client), "name": "Erin",
                                     "password": "a long password"})
    assert r.status_code == 303
    me = client.get("/api/session").json()["account"]
    assert me["id"] == session["account"]["id"] and me["name"] == "Erin"
    assert f"/tables/{table_id}" in client.get(f"/players/{me['id']}").text


def test_private_tables_and_invite_links(server: str) -> None:
    host, token = _sign_up(server, "Fay")
    r = host.post("/tables", data=_table_form(token, private="1", players="3",
                                              seat2="bot:greedy"))
    table_id = r.headers["location"].rsplit("/", 1)[1]
    page = host.get(f"/tables/{table_id}").text
    link = re.search(r'value="(http[^"]+\?invite=([A-Za-z0-9_-]+))"', page)
    assert link, "the seated creator sees the invite link"
    invite = link.group(2)
    guest, _guest_token = _visitor(server)
    assert f"/tables/{table_id}" not in guest.get("/").text  # not listed
    r = guest.post(f"/tables/{table_id}/join", data={"csrf_token": token_of(guest)})
    assert r.status_code == 403 and "invite" in r.text
    page = guest.get(f"/tables/{table_id}?invite={invite}").text
    assert f'name="invite" value="{invite}"' in page
    r = guest.post(f"/tables/{table_id}/join", data={"csrf_token": token_of(guest),
                                                     "invite": invite})
    assert r.status_code == 303
    table = guest.get(f"/api/tables/{table_id}").json()
    assert table["status"] == "running" and table["my_seat"] == 1


def test_unknown_pages_and_tables(server: str) -> None:
    client, _token = _visitor(server)
    assert client.get("/tables/nosuchtable1").status_code == 404
    assert client.get("/tables/<script>").status_code == 404
    assert client.get("/players/999999").status_code == 404
    assert client.get("/static/js/table.js").status_code == 200
    assert client.get("/static/js/table.js").headers["content-type"].startswith(
        ("text/javascript", "application/javascript"))
    assert client.get("/games").status_code == 200


@pytest.mark.parametrize(("path", "status", "title"), [
    ("/no/such/page", 404, "There is no such page"),
    ("/sheets/new?table=abc", 422, "That address is not right"),
    ("/sheets/abc", 422, "That address is not right"),
    ("/sheets/<b>x", 422, "That address is not right"),
    ("/players/abc", 422, "That address is not right"),
])
def test_a_browser_gets_a_mistyped_address_as_a_page(
        server: str, path: str, status: int, title: str) -> None:
    """A person who mistypes an address gets a page with the nav, never a JSON body; the
    API keeps its JSON errors for the same mistakes."""
    client, _token = _sign_up(server, f"typo{abs(hash(path)) % 10**6}")
    html = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    r = client.get(path, headers=html)
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("text/html")
    assert f"<h1>{title}</h1>" in r.text and "Sign out" in r.text  # her nav, signed in
    assert "<b>x" not in r.text  # what she typed is text
    r = client.get(path)  # not asking for HTML: the API's JSON error
    assert r.status_code == status and r.json()["error"]["code"] in ("not_found", "invalid")
    r = client.get("/api/nothing", headers=html)  # the API's addresses stay JSON
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize("typed", ["²", "١٢x", "9" * 5000, "--5"])
def test_numbers_typed_in_forms_are_refused_plainly(server: str, typed: str) -> None:
    """A superscript digit is a digit to str.isdigit but not to int(): every form that
    reads a number answers it with its own message, never a 500."""
    client, token = _sign_up(server, f"digits{abs(hash(typed)) % 10**6}")
    html = {"accept": "text/html"}
    r = client.post("/tables", data=_table_form(token, players=typed), headers=html)
    assert r.status_code == 422 and "2 to 9 players" in r.text, r.text[:300]
    r = client.post("/tables", data=_table_form(token, clock=typed), headers=html)
    assert r.status_code == 422 and "clocks offered" in r.text
    r = client.post("/sheets/player",
        data={"csrf_token": token_of(client), "number": typed}, headers=html)
    assert r.status_code == 422 and "whole number" in r.text
    assert client.get(f"/events/{typed}", headers=html).status_code == 404


def test_game_labels() -> None:
    assert game_label("fido set=12") == "FIDO double-12"
    assert game_label("fido set=12 divisor=5 mother_theresa") == \
        "FIDO double-12, divisor 5, mother theresa"
    assert game_label("fives_and_threes") == "Fives and Threes"
    assert game_label("not a ruleset!") == "not a ruleset!"


def test_a_seat_reserved_for_a_friend(server: str) -> None:
    _friend, _ = _sign_up(server, "Gus")
    host, token = _sign_up(server, "Hana")
    r = host.post("/tables", data=_table_form(token, players="3", seat1="reserved",
                                              name1="gus", seat2="bot:greedy"))
    assert r.status_code == 303
    table_id = r.headers["location"].rsplit("/", 1)[1]
    stranger, _stranger_token = _sign_up(server, "Ivo")
    r = stranger.post(f"/tables/{table_id}/join", data={"csrf_token": token_of(stranger)})
    assert r.status_code == 409  # the only free seat is Gus's
    friend, _friend_token = _visitor(server)
    r = friend.post("/signin", data={"csrf_token": token_of(friend), "name": "Gus",
                                     "password": "a long password"})
    assert r.status_code == 303
    r = friend.post(f"/tables/{table_id}/join", data={"csrf_token": token_of(friend)})
    assert r.status_code == 303
    assert friend.get(f"/api/tables/{table_id}").json()["my_seat"] == 1
    r = host.post("/tables", data=_table_form(token, seat1="reserved", name1="nobody here"))
    assert r.status_code == 404 and "no account named" in r.text


def test_her_games_list_puts_those_waiting_for_her_first_soonest_clock_first(
        server: str) -> None:
    """/games: the games waiting for her move first, the one whose clock ends soonest
    first (not the newest, not the oldest), then the others, newest first; the nav
    counts those that wait for her."""
    client, token = _sign_up(server, "Ordered")
    other, other_token = _sign_up(server, "Other")
    made = []
    for clock in ("259200", "3600", "43200"):  # made in this order: the clocks end 2nd, 0th, 1st
        r = client.post("/tables", data=_table_form(token, clock=clock, players="3",
                                                    seat1="bot:greedy", seat2="bot:greedy"))
        assert r.status_code == 303, r.text
        made.append(r.headers["location"].rsplit("/", 1)[1])
    r = other.post("/tables", data=_table_form(other_token, clock="86400", players="3",
                                               seat1="open", seat2="bot:greedy"))
    assert r.status_code == 303, r.text
    shared = r.headers["location"].rsplit("/", 1)[1]
    assert client.post(f"/tables/{shared}/join", data={"csrf_token": token}).status_code == 303

    def listed() -> list[tuple[str, str]]:
        found: list[tuple[str, str]] = re.findall(
            r'class="running-game( yours)?" data-table="([^"]+)"', client.get("/games").text)
        return found

    deadline = time.monotonic() + 10
    while sum(1 for y, _t in listed() if y) < 3 and time.monotonic() < deadline:
        time.sleep(0.1)  # the bots' first moves
    order = listed()
    yours = [t for y, t in order if y]
    assert set(made) <= set(yours), order  # bots move at once: each of hers waits for her
    ends = {t: client.get(f"/api/tables/{t}").json()["deadline"] for t in [*made, shared]}
    # hers first, the clock that ends first first: 1 hour, 12 hours (, a day), 3 days
    assert [t for _y, t in order] == sorted(yours, key=lambda t: ends[t]) + [
        t for _y, t in order if t not in yours], order
    assert [t for t in yours if t in made] == [made[1], made[2], made[0]]
    assert f'aria-label="{len(yours)} games wait for your move"' in client.get("/games").text
