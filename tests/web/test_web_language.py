"""Choosing the interface's language, over real HTTP on the server `fido serve` runs:
the address (?lang=), the header's switch (a cookie, and the account's setting), the
browser's Accept-Language, else English; a guest's choice survives sign-up and an
account's setting follows her to another browser."""

from __future__ import annotations

import re

import httpx
import pytest

from support.server_live import token_of


def _lang(page: httpx.Response) -> str:
    m = re.search(r'<html lang="([a-z]+)"', page.text)
    assert m is not None
    return m[1]


def test_the_browser_language_answers_when_nothing_was_chosen(server: str) -> None:
    with httpx.Client(base_url=server) as c:
        assert _lang(c.get("/")) == "en"
        de = c.get("/", headers={"accept-language": "de-CH,de;q=0.9,en;q=0.5"})
        assert _lang(de) == "de" and de.headers["content-language"] == "de"
        assert "fido_lang" not in c.cookies  # a header is no choice: nothing is kept
        assert _lang(c.get("/", headers={"accept-language": "fr, en;q=0.1"})) == "en"


def test_the_address_and_the_switch_choose_and_are_kept(server: str) -> None:
    with httpx.Client(base_url=server) as c:
        page = c.get("/?lang=de", headers={"accept-language": "en"})
        assert _lang(page) == "de" and c.cookies["fido_lang"] == "de"
        assert _lang(c.get("/", headers={"accept-language": "en"})) == "de"
        # every page names its other languages (hreflang) and offers the switch
        assert 'hreflang="en" href="' in page.text and 'hreflang="x-default"' in page.text
        assert 'name="language" value="en"' in page.text
        r = c.post("/language", data={"csrf_token": token_of(c), "language": "en",
                                      "next": "/games?x=1"})
        assert r.status_code == 303 and r.headers["location"] == "/games?x=1"
        assert c.cookies["fido_lang"] == "en"
        assert _lang(c.get("/", headers={"accept-language": "de"})) == "en"


@pytest.mark.parametrize("bad", ["fr", "", "de<script>", "x" * 300])
def test_a_language_not_spoken_is_refused_plainly(server: str, bad: str) -> None:
    with httpx.Client(base_url=server) as c:
        c.get("/")
        r = c.put("/api/language", json={"language": bad},
                  headers={"x-csrf-token": token_of(c)})
        assert r.status_code == 422 and r.json()["error"]["code"] == "invalid"
        assert "fido_lang" not in c.cookies
        assert _lang(c.get(f"/?lang={bad[:20]}")) == "en"


def test_a_guest_choice_survives_sign_up_and_follows_the_account(server: str) -> None:
    with httpx.Client(base_url=server) as c:
        c.get("/")
        assert c.post("/guest", data={"csrf_token": token_of(c)}).status_code == 303
        r = c.post("/language", data={"csrf_token": token_of(c), "language": "de"})
        assert r.status_code == 303
        r = c.post("/signup", data={"csrf_token": token_of(c), "name": "Lena Sprache",
                                    "password": "a long password"})
        assert r.status_code == 303
    with httpx.Client(base_url=server) as other:  # another browser, asking for English
        other.get("/")
        r = other.post("/signin", data={"csrf_token": token_of(other), "name": "Lena Sprache",
                                        "password": "a long password"},
                       headers={"accept-language": "en"})
        assert r.status_code == 303 and other.cookies["fido_lang"] == "de"
        assert _lang(other.get("/", headers={"accept-language": "en"})) == "de"


def test_api_sentences_follow_the_language(server: str) -> None:
    with httpx.Client(base_url=server) as c:
        c.get("/")
        r = c.post("/api/session", json={"name": "nobody here", "password": "x" * 10},
                   headers={"x-csrf-token": token_of(c), "accept-language": "de"})
        assert r.status_code == 401
        assert r.json()["error"] == {"code": "wrong_password",
                                     "message": "Falscher Name oder falsches Passwort"}


def test_the_script_catalog(server: str) -> None:
    with httpx.Client(base_url=server) as c:
        r = c.get("/i18n/de.json")
        assert r.status_code == 200 and r.json()["lang"] == "de"
        assert c.get("/i18n/fr.json").status_code == 404


@pytest.mark.parametrize("name", ["guest 7", "Gast 7", "GAST-12"])
def test_no_account_looks_like_a_guest_in_any_language(server: str, name: str) -> None:
    with httpx.Client(base_url=server) as c:
        c.get("/")
        r = c.post("/api/accounts", json={"name": name, "password": "a long password"},
                   headers={"x-csrf-token": token_of(c)})
        assert r.status_code == 409 and r.json()["error"]["code"] == "name_reserved"
