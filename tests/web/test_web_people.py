"""Finding each other in a real browser (docs/people.md): two people choose to be seen,
see each other online, one challenges the other to a FIDO double-9 game of three with a
bot that counts for the game ratings, the other accepts from her page, both are sent to
the table and play it, and both ratings move as the openskill library computes.
``FIDO_SHOTS=DIR``: the people page, a challenge and a rating's history, phone and
desktop."""

from __future__ import annotations

import os
from pathlib import Path
from typing import get_args

import pytest
from openskill.models import PlackettLuce
from playwright.sync_api import Browser, Page, expect

from fido.ratings import BOT_RATINGS
from fido.server.protocol import Phrase
from support.server_client import Person as ApiPerson
from support.web_browser import GERMAN, Person, play_until

SHOTS = os.environ.get("FIDO_SHOTS")


def _shots(page: Page, name: str) -> None:
    if not SHOTS:
        return
    Path(SHOTS).mkdir(parents=True, exist_ok=True)
    for size, (w, h) in {"phone": (390, 844), "desktop": (1440, 900)}.items():
        page.set_viewport_size({"width": w, "height": h})
        page.screenshot(path=f"{SHOTS}/{name}-{size}.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def test_two_people_online_challenge_each_other_and_their_ratings_move(
        browser: Browser, server: str) -> None:
    una, vic = Person(browser, server, seed=51), Person(browser, server, seed=52)
    try:
        for p, name in ((una, "Una"), (vic, "Vic")):
            p.sign_up(name)
            p.goto("/people")
            p.page.get_by_role("button", name="Show me to the others").click()
            expect(p.page.locator(".people-visible")).to_contain_text("You are shown here")
        una.goto("/people")
        row = una.page.locator(".person", has=una.page.get_by_role("link", name="Vic"))
        expect(row.locator(".rating")).to_have_text("1500?")
        # Una challenges Vic: FIDO double-9, three players, the third an expert bot
        row.locator("summary", has_text="Challenge").click()
        form = row.locator("form[action='/challenges']")
        form.locator("select[name=game]").select_option("fido:9")
        form.locator("select[name=players]").select_option("3")
        form.locator("select[name=others]").select_option("bot:expert")
        form.get_by_role("button", name="Send the challenge").click()
        mine = una.page.locator(".challenge-list.outgoing .challenge").first
        expect(mine).to_contain_text("To Vic")
        expect(mine).to_contain_text("waiting for her answer")
        _shots(una.page, "people-challenge-sent")
        # Vic's page shows it by itself; she accepts and goes to the table
        vic.goto("/people")
        offer = vic.page.locator(".challenge-list.incoming .challenge")
        expect(offer).to_contain_text("Una challenges you")
        expect(offer).to_contain_text("FIDO double-9")
        expect(vic.page.locator(".people-link .badge")).to_have_text("1")
        _shots(vic.page, "people-online")
        offer.get_by_role("button", name="Accept").click()
        vic.page.wait_for_url(f"{server}/tables/*")
        table = vic.page.url.rsplit("/", 1)[1]
        una.page.wait_for_url(f"{server}/tables/{table}", timeout=15_000)  # her page follows
        for p in (una, vic):
            p.page.wait_for_function("() => window.fidoTable && window.fidoTable.view")
        assert [s.get("name") for s in una.page.evaluate(
            "() => window.fidoTable.table.seats")][:2] == ["Una", "Vic"]
        play_until([una, vic], lambda: una.state()["over"] and vic.state()["over"],
                   timeout=180)
        outcome = una.page.evaluate("() => window.fidoTable.view.outcome")
        places = [r["place"] for r in sorted(outcome["seats"], key=lambda r: r["seat"])]
        model = PlackettLuce()
        want = model.rate([[model.rating()], [model.rating()],
                           [model.rating(mu=BOT_RATINGS["expert"], sigma=1.0)]],
                          ranks=[float(p) for p in places])
        seats = una.page.evaluate("() => window.fidoTable.table.seats")
        for seat, wanted in ((0, want[0][0]), (1, want[1][0])):
            got = una.page.request.get(
                f"{server}/api/players/{seats[seat]['account']}/ratings").json()["ratings"]
            assert [r["family"] for r in got] == ["fido:9"]
            assert got[0]["mu"] == pytest.approx(wanted.mu, abs=1e-4)
            assert got[0]["sigma"] == pytest.approx(wanted.sigma, abs=1e-4)
        una.goto(f"/players/{seats[0]['account']}")
        expect(una.page.locator(".ratings .rating h3")).to_contain_text("FIDO double-9")
        _shots(una.page, "rating-history")
        assert not una.errors and not vic.errors, (una.errors, vic.errors)
    finally:
        una.close()
        vic.close()


def test_quick_phrases_read_in_each_language_and_a_muted_players_lines_hide(
        browser: Browser, server: str) -> None:
    """A quick phrase sent from an English page reads in German on a German one (its
    code travels, not its words); the page's phrases are the server's codes; a line of
    words is reported once; muting the sender hides her lines (one line says so) until
    unmuted."""
    wim, xia = ApiPerson.guest(server), ApiPerson.guest(server)
    table = wim.open_table("fido set=6", 3, [{"kind": "me"}, {"kind": "open"},
                                             {"kind": "bot", "level": "greedy"}])["id"]
    assert xia.join(table).status_code == 200
    english, german = Person(browser, server), Person(browser, server, **GERMAN)
    try:
        for page, who in ((english, wim), (german, xia)):
            page.context.add_cookies([{"name": k, "value": v, "url": server}
                                      for k, v in who.http.cookies.items()])
            page.goto(f"/tables/{table}")
            page.page.wait_for_function("() => window.fidoTable && window.fidoTable.view")
        codes = english.page.locator("#chat-phrases button").evaluate_all(
            "els => els.map(e => e.dataset.phrase)")
        assert codes == list(get_args(Phrase))
        english.page.locator("#chat-phrases button[data-phrase='gg']").click()
        english.page.fill("#chat-text", "see you")
        english.page.locator("#chat-form button").click()
        lines = german.page.locator("#chat-lines li")
        expect(lines).to_have_count(2)
        expect(lines.nth(0)).to_contain_text("Gutes Spiel!")
        expect(english.page.locator("#chat-lines li").nth(0)).to_contain_text("Good game!")
        # a line of words (not a phrase) may be reported to the federation: once
        lines.nth(1).locator("button.report").click()
        expect(lines.nth(1).locator(".reported")).to_be_visible()
        expect(lines.nth(1).locator("button.report")).to_have_count(0)
        lines.nth(0).locator("button.mute").click()
        expect(lines).to_have_count(1)
        expect(lines.nth(0)).to_contain_text("2")  # "2 Zeilen … ausgeblendet"
        lines.nth(0).locator("button").click()  # unmute all
        expect(lines).to_have_count(2)
        assert not english.errors and not german.errors, (english.errors, german.errors)
    finally:
        english.close()
        german.close()
