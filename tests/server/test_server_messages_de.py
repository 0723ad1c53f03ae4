"""The server's sentences to people in German (issue 24), over a live server.

The API's refusals and the table socket's ``refused`` messages carry a ``code`` for
programs and a ``message`` for a person: asked in German (``Accept-Language`` or the
``fido_lang`` cookie) the message is German and the code the one English gets; asked in
nothing, it is English as before. A validation error is a sentence built from the error's
type, never pydantic's English ("Input should be ...").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from fido.engine.rules import Ruleset
from fido.store import Store
from fido.web.app import Limits
from support.server_client import (
    LEGACY,
    PASSWORD,
    Person,
    TableSocket,
    first_legal,
    new_id,
    read_truth,
    ws_url,
)
from support.server_live import browser, live_server

# words that would give away English left in a German sentence
ENGLISH = re.compile(r"\b(the|is|are|not|you|your|must|should|Input|field|try|again|there)\b")
LIMITS = Limits(per_account=2, per_address=50, window=60)


@pytest.fixture(scope="module")
def base(live_db: str) -> Iterator[str]:
    """The server with few sign-ins allowed (LIMITS): its refusal is read in German."""
    with live_server(live_db, limits=LIMITS) as url:
        yield url


def german(client: httpx.Client, how: str = "header") -> httpx.Client:
    """``client`` asking in German, by its header or by the cookie the switch sets."""
    if how == "header":
        client.headers["Accept-Language"] = "de-DE,de;q=0.9,en;q=0.5"
    else:
        client.cookies.set("fido_lang", "de")
    return client


def error(r: httpx.Response, status: int) -> tuple[str, str]:
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()["error"]
    return body["code"], body["message"]


def is_german(message: str) -> None:
    assert message and not ENGLISH.search(message), message


def test_account_refusals_are_german_with_the_same_codes(base: str) -> None:
    en, de = browser(base), german(browser(base))
    first = en.post("/api/accounts", json={"name": "Anna", "password": PASSWORD})
    assert first.status_code == 201, first.text

    # a name that is taken
    body = {"name": "anna", "password": PASSWORD}
    code_en, text_en = error(browser(base).post("/api/accounts", json=body), 409)
    code_de, text_de = error(de.post("/api/accounts", json=body), 409)
    assert code_en == code_de == "name_taken"
    assert text_en == "an account with this name exists already"
    assert text_de == "Ein Konto mit diesem Namen gibt es bereits"

    # a wrong password, then the account's sign-ins are rate limited (2 a minute here)
    wrong = {"name": "Anna", "password": "wrong horse"}
    code_de, text_de = error(de.post("/api/session", json=wrong), 401)
    code_en, text_en = error(browser(base).post("/api/session", json=wrong), 401)
    assert code_en == code_de == "wrong_password"
    assert text_en == "wrong name or password"
    assert text_de == "Falscher Name oder falsches Passwort"
    code_de, text_de = error(de.post("/api/session", json=wrong), 429)
    code_en, text_en = error(browser(base).post("/api/session", json=wrong), 429)
    assert code_en == code_de == "rate_limited"
    assert re.fullmatch(r"too many failed sign-ins: try again in \d+ seconds?", text_en)
    assert re.fullmatch(r"Zu viele fehlgeschlagene Anmeldungen: Versuch es in \d+ "
                        r"Sekunden? noch einmal", text_de), text_de

    # the cookie the language switch sets speaks German as well
    by_cookie = german(browser(base), "cookie")
    code, text = error(by_cookie.post("/api/accounts", json=body), 409)
    assert (code, text) == ("name_taken", "Ein Konto mit diesem Namen gibt es bereits")


def test_table_and_event_refusals_are_german(base: str) -> None:
    anna, bert = Person.guest(base), Person.guest(base)
    cleo = Person.guest(base)
    german(cleo.http)
    tid = anna.open_table("fido", 2)["id"]
    assert bert.join(tid).status_code == 200

    code, text = error(cleo.join(tid), 409)  # the game has started: the table is full
    assert code == "started"
    assert text == "Das Spiel hat begonnen: Du kannst zuschauen"
    tid2 = anna.open_table("fido", 3)["id"]
    assert cleo.join(tid2).status_code == 200
    code, text = error(cleo.join(tid2), 409)
    assert code == "seated" and text == "Du hast an diesem Tisch schon einen Platz"
    dora = Person.guest(base)
    german(dora.http)
    code_en, _text = error(Person.guest(base).join(tid2, seat=7), 422)
    code, text = error(dora.join(tid2, seat=7), 422)
    assert code == code_en == "invalid" and text == "Die Plätze sind 0 bis 2"
    assert error(dora.join(tid2, seat=1), 409) == ("taken", "Platz 1 ist für dich nicht frei")

    for path, code_wanted, sentence in (
        ("/api/tables/no-such-table", "no_table", "Diesen Tisch gibt es nicht"),
        ("/api/tables/bad%20id!", "no_table", "Diesen Tisch gibt es nicht"),
        ("/api/events/999999", "no_event", "Diese Veranstaltung gibt es nicht"),
    ):
        code_en, text_en = error(anna.http.get(path), 404)
        code, text = error(cleo.http.get(path), 404)
        assert code == code_en == code_wanted and text == sentence
        assert text_en != text
        is_german(text)

    anonymous = german(browser(base))
    code, text = error(anonymous.post("/api/tables", json={"ruleset": "fido",
                                                           "players": 2}), 401)
    assert code == "signed_out"
    assert text == "Melde dich zuerst an oder spiel als Gast (POST /api/guest)"


def test_a_full_table_is_refused_in_german(base: str) -> None:
    Person.sign_up(base, "Rita")
    anna, bert, cleo = Person.guest(base), Person.guest(base), Person.guest(base)
    german(cleo.http)
    tid = anna.open_table("fido", 2, seats=[{"kind": "me"},
                                            {"kind": "reserved", "name": "Rita"}])["id"]
    code_en, text_en = error(bert.join(tid), 409)
    code, text = error(cleo.join(tid), 409)
    assert code == code_en == "full"
    assert text_en == "no seat is free for you at this table"
    assert text == "An diesem Tisch ist kein Platz für dich frei"


def test_validation_errors_are_german_sentences(base: str) -> None:
    de = german(Person.guest(base).http)
    en = Person.guest(base).http
    cases: list[tuple[dict[str, Any], str, str]] = [
        ({"ruleset": "fido", "players": "many"}, "Das Feld „players“ muss eine ganze Zahl sein",
         "the field 'players' must be a whole number"),
        ({"ruleset": "fido", "players": 2.5}, "Das Feld „players“ muss eine ganze Zahl sein",
         "the field 'players' must be a whole number"),
        ({"ruleset": "fido", "players": 12}, "Das Feld „players“ darf höchstens 9 sein",
         "the field 'players' must be at most 9"),
        ({"ruleset": "fido", "players": 1}, "Das Feld „players“ muss mindestens 2 sein",
         "the field 'players' must be at least 2"),
        ({"ruleset": "fido"}, "Das Feld „players“ fehlt", "the field 'players' is missing"),
        ({"ruleset": "", "players": 2}, "Das Feld „ruleset“ muss mindestens 1 Zeichen haben",
         "the field 'ruleset' must have at least 1 character"),
        ({"ruleset": "x" * 201, "players": 2},
         "Das Feld „ruleset“ darf höchstens 200 Zeichen haben",
         "the field 'ruleset' must have at most 200 characters"),
        ({"ruleset": "fido", "players": 2, "colour": "red"},
         "Das Feld „colour“ ist hier nicht vorgesehen", "the field 'colour' is not expected here"),
        ({"ruleset": "fido", "players": 2, "seats": [{"kind": "king"}]},
         "Das Feld „seats.0.kind“ muss einer dieser Werte sein:",
         "the field 'seats.0.kind' must be one of:"),
    ]
    for body, sentence, english in cases:
        code, text = error(de.post("/api/tables", json=body), 422)
        code_en, text_en = error(en.post("/api/tables", json=body), 422)
        assert code == code_en == "invalid"
        assert text.startswith(sentence), (body, text)
        assert text_en.startswith(english), (body, text_en)
        assert "Input should" not in text and "Input should" not in text_en
        is_german(text.replace("„seats.0.kind“", ""))

    # a body that is no JSON at all, and a sentence of our own validators
    r = de.post("/api/tables", content=b"{", headers={"Content-Type": "application/json"})
    assert error(r, 422) == ("invalid", "Der Inhalt der Anfrage ist kein gültiges JSON")
    code, text = error(german(browser(base)).post(
        "/api/accounts", json={"name": "Eve\x1b[2J", "password": PASSWORD}), 422)
    assert code == "invalid"
    assert text == "Das Feld „name“ ist ungültig: Es enthält Steuerzeichen (\\x1b)"
    code, text = error(german(browser(base)).post(
        "/api/accounts", json={"name": " Eve", "password": PASSWORD}), 422)
    assert text == ("Das Feld „name“ ist ungültig: Es darf nicht mit einem Leerzeichen "
                    "beginnen oder enden")
    code, text = error(browser(base).post(
        "/api/accounts", json={"name": "Eve\x1b[2J", "password": PASSWORD}), 422)
    assert text == "the field 'name' is not valid: it holds control characters (\\x1b)"
    code, text = error(de.put("/api/language", json={"language": "fr"}), 422)
    assert text == ("Das Feld „language“ ist ungültig: Es ist keine Sprache der "
                    "Oberfläche (eine von: en, de)")


def test_pages_of_errors_are_german(base: str) -> None:
    de = german(browser(base))
    r = de.get("/no/such/page", headers={"Accept": "text/html"})
    assert r.status_code == 404
    assert "Unter dieser Adresse ist nichts" in r.text and "Nothing is at" not in r.text
    code, text = error(de.get("/api/no/such/thing"), 404)
    assert (code, text) == ("not_found", "Nicht gefunden")
    code, text = error(browser(base).get("/api/no/such/thing"), 404)
    assert (code, text) == ("not_found", "Not Found")


def german_socket(person: Person, base: str, table_id: str, how: str) -> TableSocket:
    """Her socket at the table, its page in German (the header, or the cookie)."""
    headers = {"Cookie": person.cookie()}
    if how == "header":
        headers["Accept-Language"] = "de"
    else:
        headers["Cookie"] += "; fido_lang=de"
    ws = connect(ws_url(base, table_id), additional_headers=headers, open_timeout=10,
                 max_size=2**24, **LEGACY)
    sock = TableSocket(ws, person.name)
    sock.seat = sock.until(lambda f: f["type"] == "welcome")["seat"]
    return sock


def refused(reply: dict[str, Any], code: str) -> str:
    assert reply["type"] == "refused" and reply["code"] == code, (code, reply)
    message: str = reply["message"]
    return message


@pytest.mark.parametrize("how", ["header", "cookie"])
def test_table_socket_refuses_in_german(base: str, live_store: Store, how: str) -> None:
    anna, bob = Person.guest(base), Person.guest(base)
    tid = anna.open_table("draw", 2)["id"]
    a = german_socket(anna, base, tid, how)
    assert refused(a.move("draw", seq=0), "not_started") == (
        "Das Spiel hat noch nicht begonnen: Es sind noch Plätze frei")
    assert bob.join(tid).status_code == 200
    b = german_socket(bob, base, tid, how)
    a.until(lambda f: f["type"] == "update" and f["view"] is not None)
    assert b.view is not None  # welcomed to the game under way
    mover, other = (a, b) if a.my_turn() else (b, a)
    assert mover.seat is not None and other.seat is not None
    seq = anna.table(tid)["seq"]

    # out of turn: the code as ever, the sentence German
    text = refused(other.move(first_legal(mover.view or {})), "not_your_turn")
    assert text == f"Platz {mover.seat} ist am Zug"
    # illegal moves: the table's own German sentences, never the engine's English
    truth = read_truth(live_store, tid)
    opening = refused(mover.move("draw"), "illegal")
    assert opening.startswith("Zuerst wird das Spiel eröffnet"), opening
    assert refused(mover.move("nonsense"), "illegal") == (
        "„nonsense“ ist kein Zug: Schreib einen Stein und wohin er kommt (9-4@3e), "
        "draw oder pass")
    theirs = sorted(truth.hands[other.seat])[0]
    held = set().union(*truth.hands)
    stock = sorted(t for t in Ruleset.from_text("draw").dominoes if t not in held)[0]
    not_held = [refused(mover.move(t.text()), "illegal").replace(t.text(), "T")
                for t in (theirs, stock)]
    assert not_held == ["Du hast T nicht"] * 2  # the same answer: nothing given away
    assert refused(mover.move("draw", seq=seq + 5), "bad_seq") == (
        f"Dieser Tisch ist bei Ereignis {seq}, nicht {seq + 5}")
    # a malformed message and a chat line with a control character
    reply = mover.request({"type": "move", "id": new_id(), "seq": seq, "move": "draw",
                           "seat": 1})
    assert refused(reply, "malformed") == "Das Feld „seat“ ist hier nicht vorgesehen"
    reply = mover.request({"type": "shout", "id": new_id()})
    assert refused(reply, "malformed").startswith("Das Feld „type“ muss einer dieser Werte")
    assert refused(mover.chat("hi\x1b[2J"), "bad_text") == (
        "Eine Chatzeile ist Text ohne Steuerzeichen")
    for sock in (a, b):
        sock.close()


def test_table_socket_speaks_english_without_a_language(base: str) -> None:
    anna, bob = Person.guest(base), Person.guest(base)
    tid = anna.open_table("draw", 2)["id"]
    assert bob.join(tid).status_code == 200
    a, b = anna.connect(tid), bob.connect(tid)
    assert a.view is not None and b.view is not None  # welcomed to the game under way
    mover, other = (a, b) if a.my_turn() else (b, a)
    text = refused(other.move(first_legal(mover.view or {})), "not_your_turn")
    assert text == f"it is seat {mover.seat}'s turn"
    assert refused(mover.move("draw"), "illegal").startswith("the game opens first")
    for sock in (a, b):
        sock.close()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_refusal_names_the_input_it_is_about_in_any_language(base: str, lang: str) -> None:
    """The table assistant's form shows a seat's error beside that seat: it reads the
    error's ``field``, never the words of the message (which are the person's language)."""
    client = browser(base)
    if lang == "de":
        german(client)
    seats: list[dict[str, Any]] = [{"name": "Ann"}, {"name": "Ben", "number": 987654},
                                   {"name": "Cy"}]
    r = client.post("/api/assistant/state", json={"set": 6, "seats": seats, "opener": None,
                                                   "moves": []})
    assert r.status_code == 422 and r.json()["error"]["field"] == "seats.1", r.text
    seats[2]["name"] = "C\x1by"  # a validation error names its place too
    r = client.post("/api/assistant/state", json={"set": 6, "seats": seats[::2],
                                                   "opener": None, "moves": []})
    assert r.status_code == 422 and r.json()["error"]["field"] == "seats.1.name", r.text
    r = client.post("/api/session", json={"name": "nobody", "password": "x" * 12})
    assert "field" not in r.json()["error"]  # a refusal about no one input has none
