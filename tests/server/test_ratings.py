"""Game ratings (docs/ratings.md): a finished game moves its people's ratings as the
``openskill`` library's Plackett-Luce model computes, bots at their fixed ratings; a
friendly table moves none; the world ranking is never touched; the API reads a rating
and its history, and refuses what is not one."""

from __future__ import annotations

import re

import pytest
from openskill.models import PlackettLuce

from fido.engine.rules import Ruleset
from fido.ratings import BOT_RATINGS, Entrant, bot_rating, family, provisional, rate, shown
from fido.ratings.model import Rating
from fido.store import GameRow, open_store
from support.server_client import Person, play_to_end


def test_the_model_is_the_librarys_plackett_luce_with_fixed_bots() -> None:
    """Two teams and a seat alone, a tie, a bot: each person's new rating is the
    library's; the bot's is kept."""
    sides = [[Entrant(27.0, 6.0), Entrant(22.0, 8.0)], [Entrant(25.0, 25 / 3)],
             [bot_rating("expert")]]
    ranks = [1, 2, 2]
    got = rate(sides, ranks)
    model = PlackettLuce()
    want = model.rate([[model.rating(mu=e.mu, sigma=e.sigma) for e in side] for side in sides],
                      ranks=[1.0, 2.0, 2.0])
    for side, wanted in zip(got[:2], want[:2], strict=True):
        for e, w in zip(side, wanted, strict=True):
            assert e.mu == pytest.approx(w.mu) and e.sigma == pytest.approx(w.sigma)
    assert got[2] == sides[2]  # the bot's fixed rating does not move
    assert got[0][0].mu > 27.0 and got[1][0].mu < 25.0
    with pytest.raises(ValueError, match="two or more sides"):
        rate([[Entrant(25, 8)]], [1])
    assert family(Ruleset.from_text("fido set=12 divisor=5")) == "fido:12"
    assert family(Ruleset.from_text("muggins")) == "muggins"
    assert shown(Rating()) == 1500 and provisional(Rating(games=9, sigma=3))
    assert not provisional(Rating(games=10, sigma=3.9))


def _play(base: str, anna: Person, bea: Person, **more: object) -> tuple[str, list[int]]:
    table = anna.open_table("fido set=6", 3, [{"kind": "me"}, {"kind": "open"},
                                              {"kind": "bot", "level": "greedy"}], **more)
    assert bea.join(table["id"]).status_code == 200
    socks = [anna.connect(table["id"]), bea.connect(table["id"])]
    try:
        play_to_end(socks)
        outcome = socks[0].view["outcome"] if socks[0].view else None
    finally:
        for s in socks:
            s.close()
    assert outcome is not None
    places = [r["place"] for r in sorted(outcome["seats"], key=lambda r: r["seat"])]
    return table["id"], places


def test_a_finished_game_moves_its_peoples_ratings(base: str, live_db: str) -> None:
    anna, bea = Person.sign_up(base, "RatedAnna"), Person.sign_up(base, "RatedBea")
    table, places = _play(base, anna, bea)
    model = PlackettLuce()
    want = model.rate([[model.rating()], [model.rating()],
                       [model.rating(mu=BOT_RATINGS["greedy"], sigma=1.0)]],
                      ranks=[float(p) for p in places])
    for who, wanted in ((anna, want[0][0]), (bea, want[1][0])):
        got = who.http.get(f"/api/players/{who.id}/ratings").json()
        assert [r["family"] for r in got["ratings"]] == ["fido:6"]
        r = got["ratings"][0]
        assert r["games"] == 1 and r["provisional"] is True
        assert r["mu"] == pytest.approx(wanted.mu, abs=1e-4)
        assert r["rating"] == round(wanted.mu * 60)
        h = who.http.get(f"/api/players/{who.id}/ratings/fido:6").json()
        assert [(p["table"], p["games"]) for p in h["history"]] == [(table, 1)]
        assert h["history"][0]["change"] == round(wanted.mu * 60) - 1500
        # her page shows it, named as the game rating, provisional, with its game
        page = Person.guest(base).http.get(f"/players/{who.id}").text
        shown_there = re.search(r'data-family="fido:6">\s*<h3>FIDO double-6: '
                                r'<span class="value">(\d+)\?</span>', page)
        assert shown_there and int(shown_there.group(1)) == round(wanted.mu * 60), page
        assert f'<a href="/tables/{table}/replay">1</a>' in page
    # a friendly game moves nothing; a casual game never reaches the world ranking
    _play(base, anna, bea, rates=False)
    again = anna.http.get(f"/api/players/{anna.id}/ratings").json()["ratings"][0]
    assert again["games"] == 1
    store = open_store(live_db)
    with store.session(write=False) as s:
        assert s.query(GameRow).count() == 0
    store.close()


@pytest.mark.parametrize(("path", "code"), [
    ("/api/players/999999/ratings", "no_player"),
    ("/api/players/0/ratings", None),
    ("/api/players/1/ratings/chess", "no_game"),
    ("/api/players/1/ratings/fido:7", "no_game"),
    ("/api/players/1/ratings/" + "x" * 41, None),
])
def test_what_is_not_a_rating_is_refused(base: str, path: str, code: str | None) -> None:
    Person.guest(base)  # account 1 exists
    r = Person.guest(base).http.get(path)
    assert r.status_code in (404, 422), r.text
    assert "Traceback" not in r.text
    if code is not None:
        assert r.status_code == 404 and r.json()["error"]["code"] == code
