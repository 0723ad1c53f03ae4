"""The federation's pages in German: a browser asking for ``de`` gets every page of
the score sheets, the world ranking, the events and the table assistant in the
federation's words (docs/glossary.md), its numbers the German way and a score sheet's
refusals in German on their fields; the same pages without the header stay English.

One server over a small league (two published months), four accounts linked to
ranking players (p0 an organiser, then the federation) and an event at real
tables; pages are fetched with httpx (no browser: the words are in the HTML).
"""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest
from typer.testing import CliRunner

from fido.cli import app
from fido.ranking.snapshot import published
from fido.store import open_store
from support.events import event_people, open_event
from support.ranking_league import MONTHS, small_league
from support.server_live import live_server, token_of

DE = {"Accept-Language": "de"}


@dataclass
class Federation:
    base: str
    db: str
    people: list[httpx.Client]  # p0 (organiser, federation), p1..p3, each a ranking player
    numbers: list[int]
    event: int
    table: int  # the first drawn table of the event's round 1
    fladub: dict[int, float]  # player number -> FLADUB of the latest month


def text_of(page: str) -> str:
    """What a person reads: the page without its tags, scripts and styles."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def german(client: httpx.Client, path: str, status: int = 200) -> str:
    r = client.get(path, headers=DE)
    assert r.status_code == status, (path, r.status_code, r.text[-2000:])
    assert '<html lang="de"' in r.text
    return r.text


def says(page: str, present: list[str], absent: list[str]) -> None:
    """``page`` reads every German sentence of ``present`` and none of ``absent``."""
    shown = text_of(page)
    for words in present:
        assert words in shown, (words, shown[:3000])
    for words in absent:
        assert words not in shown, (words, shown[:3000])


@pytest.fixture(scope="module")
def fed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Federation]:
    db = f"sqlite:///{tmp_path_factory.mktemp('federation-de') / 'fido.db'}"
    store = open_store(db)
    small_league(store)
    with store.session(write=False) as s:
        latest = published(s, MONTHS[-1])
        assert latest is not None
        fladub = {e.number: e.fladub for e in latest.entries}
    store.close()
    with live_server(db) as base:
        people, numbers = event_people(db, base, 4, "p")
        out = CliRunner().invoke(app, ["accounts", "grant", "p0", "federation", "--db", db])
        assert out.exit_code == 0, out.output
        event = open_event(people[0], people[1:], {
            "name": "Herbstabend", "starts_on": "2026-11-24", "ends_on": "2026-11-25",
            "set": 6, "table_size": 3, "rounds": 1, "mode": "tables"})
        assert people[0].post(f"/api/events/{event}/rounds").status_code == 201
        table = people[0].get(f"/api/events/{event}").json()["tables"][0]["id"]
        yield Federation(base, db, people, numbers, event, table, fladub)
        for p in people:
            p.close()


def test_the_world_ranking_in_german_with_german_numbers(fed: Federation) -> None:
    anyone = httpx.Client(base_url=fed.base)
    page = german(anyone, "/ranking")
    says(page, ["FIDO-Weltrangliste 2026-10", "gewertete Spiele", "veröffentlicht",
                "Der zuletzt veröffentlichte Monat.", "SpielerIn suchen", "Veränderung",
                "So liest man die Rangliste", "vorläufig", "Herunterladen:"],
         ["world ranking", "counted games", "published", "The latest published month",
          "Find a player", "Reading the ranking", "places up", "places down", "provisional"])
    assert "<title>Weltrangliste 2026-10" in page
    # FLADUB with a decimal comma, each the snapshot's number
    rows = re.findall(r'data-player="(\d+)".*?<span class="value">([^<]*)</span>', page, re.S)
    assert len(rows) == len(fed.fladub) == 9
    for number, shown in rows:
        assert shown == f"{fed.fladub[int(number)]:.2f}".replace(".", ","), (number, shown)
    # the same page in English, as before
    english = anyone.get("/ranking").text
    assert "FIDO world ranking" in english and "Weltrangliste" not in text_of(english)
    values = re.findall(r'<span class="value">([^<]*)</span>', english)
    assert values and all("," not in v and "." in v for v in values)
    # the search, and a month that is not published
    found = german(anyone, "/ranking/2026-10?q=zzz")
    says(found, ["0 SpielerInnen für „zzz“ gefunden.", "Keine SpielerIn dieses Monats passt."],
         ["players found", "No player of this month matches"])
    missing = german(anyone, "/ranking/2026-08", 404)
    says(missing, ["Diese Rangliste gibt es nicht",
                   "Die Rangliste von 2026-08 ist nicht veröffentlicht.",
                   "Veröffentlichte Monate", "Die Weltrangliste"],
         ["No such ranking", "has not been published", "Published months"])
    nobody = german(anyone, "/ranking/players/999999", 404)
    says(nobody, ["Keine eingetragene SpielerIn hat die Nummer 999999."],
         ["No registered player"])


def test_a_players_ranking_page_in_german(fed: Federation) -> None:
    anyone = httpx.Client(base_url=fed.base)
    number = max(fed.fladub, key=lambda n: fed.fladub[n])
    page = german(anyone, f"/ranking/players/{number}")
    says(page, ["Weltrangliste 2026-10", "Platz im Oktober 2026", "Seit dem Vormonat",
                "FLADUB nach Monaten", "Gewertete Spiele im Oktober 2026", "GegnerInnen (Endstand)",
                "Gewicht", "Leistung", "Beitrag", "Summe der Beiträge = ihre FLADUB",
                "Monat der veröffentlichten Rangliste"],
         ["Position in", "Since last month", "FLADUB by month", "Counted games",
          "Opponents", "Weight", "Performance", "Contribution", "Sum of the contributions",
          "month of the published ranking"])
    shown = re.search(r'<dd class="fladub">([^<]*)</dd>', page)
    assert shown is not None
    assert shown.group(1) == f"{fed.fladub[number]:.2f}".replace(".", ",")
    # the game dates the German way (day.month.year)
    assert re.search(r'data-label="Gespielt">\d{2}\.\d{2}\.\d{4}<', page)


def test_a_score_sheet_refused_in_german_on_its_fields(fed: Federation) -> None:
    anna = fed.people[1]
    form = german(anna, "/sheets/new")
    says(form, ["Neues Spielformular", "Ort oder Veranstaltung", "Steinsatz",
                "Doppel-12 (Divisor 7)", "Spielformular abschicken", "Zeile hinzufügen",
                "Die Nummer einer SpielerIn nach Namen suchen"],
         ["New score sheet", "Place or event", "Send the sheet", "Add a line",
          "Find a player's number by name", "(divisor"])
    good = {"csrf_token": token_of(anna), "date": "2026-01-02", "event": "Kiel", "set": "9",
            "player0": str(fed.numbers[1]), "points0": "10", "pips0": "2",
            "player1": str(fed.numbers[2]), "points1": "3", "pips1": "4"}
    future = (dt.datetime.now(dt.UTC).date() + dt.timedelta(days=3)).isoformat()
    for change, field, words, english in (
            ({"points1": "zwölf"}, "points1", "Punkte: Hier gehört eine ganze Zahl hin",
             "valid integer"),
            ({"date": future}, "date", "liegt in der Zukunft", "in the future"),
            ({"player1": str(fed.numbers[1])}, "player1", "steht zweimal im selben Spiel",
             "appears twice"),
            ({"player1": "niemand"}, "player1", "Kein Konto und keine SpielerIn der "
             "Weltrangliste heißt niemand", "no account"),
            ({"date": "2026-02-30"}, "date", "Diesen Tag hat der Monat nicht",
             "outside expected range"),
            ({"points0": "5000"}, "points0", "Punkte sind mit Doppel-9 und Divisor",
             "impossible"),
            ({"player1": "", "points1": "", "pips1": ""}, "lines",
             "Nötig sind mindestens 2 Einträge", "at least 2 items")):
        r = anna.post("/sheets", data=good | change, headers=DE)
        assert r.status_code == 422, (change, r.status_code)
        error = re.search(rf'id="err-{field}">([^<]*)<', r.text)
        assert error is not None, (change, text_of(r.text)[:2000])
        assert words in html.unescape(error.group(1)), (change, error.group(1))
        says(r.text, ["Das Spielformular wurde nicht gespeichert: 1 Angabe ist zu korrigieren"],
             [english, "The sheet was not stored", "thing to correct"])
        # the same refusal in English, on the same field
        r = anna.post("/sheets", data=good | change)
        error = re.search(rf'id="err-{field}">([^<]*)<', r.text)
        assert r.status_code == 422 and error is not None and english in error.group(1)


def test_a_score_sheet_its_reviews_and_results_in_german(fed: Federation) -> None:
    anna, bert = fed.people[1], fed.people[2]
    sheet = {"csrf_token": token_of(anna), "date": "2026-01-03", "event": "Kiel", "set": "9",
             "player0": str(fed.numbers[1]), "points0": "1234", "pips0": "2",
             "player1": str(fed.numbers[2]), "points1": "3", "pips1": "4",
             "player2": str(fed.numbers[3]), "points2": "8", "pips2": "0"}
    r = anna.post("/sheets", data=sheet, headers=DE)
    assert r.status_code == 303, text_of(r.text)[:2000]
    game = int(r.headers["location"].split("/")[2].split("?")[0])
    page = german(anna, r.headers["location"])
    says(page, [f"Spielformular {game}", "eingereicht", "Das Spielformular ist gespeichert.",
                "Datum 03.01.2026", "Doppel-9, Divisor 5", "Quelle Spielformular",
                "Wird gewertet ja", "Prüfungen", "Noch hat es niemand geprüft.",
                "Noch nicht bestätigt von: Player 2", "1.234"],
         ["Score sheet", "submitted", "The sheet is stored", "Counts in the ranking",
          "Nobody has reviewed it yet", "Not confirmed yet"])
    r = bert.post(f"/sheets/{game}/review", headers=DE,
                  data={"csrf_token": token_of(bert), "verdict": "confirm", "note": ""})
    assert r.status_code == 303
    page = german(bert, f"/sheets/{game}")
    says(page, ["bestätigt von Player 2", "Du hast dieses Spielformular bestätigt",
                "Bestätigen", "Beanstanden"],
         ["confirmed by", "You confirmed", "Confirm", "Dispute"])
    # a review refused by the ranking: its sentence in German
    r = bert.post(f"/sheets/{game}/review", headers=DE,
                  data={"csrf_token": token_of(bert), "verdict": "confirm", "note": "a\x07b"})
    says(r.text, ["die Notiz enthält Steuerzeichen"], ["holds control characters"])
    results = german(anna, "/sheets")
    says(results, ["Deine Ergebnisse", "Neues Spielformular", "Ort oder Veranstaltung",
                   "Dein Endstand", "Spielformular", "eingereicht", "1.232"],
         ["Your results", "Place or event", "Your final", "submitted"])
    missing = german(anna, "/sheets/999999", 404)
    says(missing, ["Dieses Spielformular gibt es nicht", "Es gibt kein Spiel 999999."],
         ["No such sheet", "There is no game"])
    signed_out = german(httpx.Client(base_url=fed.base), "/sheets/new", 401)
    says(signed_out, ["Bitte zuerst anmelden", "Melde dich zuerst an"],
         ["Sign in first", "Score sheets and reviews"])
    find = german(anna, "/sheets/players?q=nobody")
    says(find, ["SpielerIn suchen", "Keine SpielerIn der Weltrangliste hat „nobody“ im Namen.",
                "Zurück zum Spielformular"],
         ["Find a player", "No ranking player", "Back to the score sheet"])


def test_the_federations_pages_in_german(fed: Federation) -> None:
    org = fed.people[0]
    disputes = german(org, "/reviews")
    says(disputes, ["Offene Beanstandungen", "Deine Rollen:", "VeranstalterIn von club:Rostock",
                    "Verband", "Keine Beanstandung wartet auf dich."],
         ["Disputes to settle", "You are", "No dispute waits"])
    roles = german(org, "/admin/roles")
    says(roles, ["SpielerInnen und Rollen", "Konten, die SpielerInnen sein wollen",
                 "Eine SpielerIn der Weltrangliste eintragen", "Eine VeranstalterIn ernennen",
                 "Vergeben", "Entziehen", "VeranstalterIn"],
         ["Players and roles", "Accounts asking", "Register a ranking player",
          "Make an organiser", "Revoke"])
    r = org.post("/admin/roles", headers=DE, follow_redirects=True,
                 data={"csrf_token": token_of(org), "action": "register", "player": "Zoe"})
    says(r.text, ["Erledigt: Zoe als SpielerIn"], ["registered Zoe"])
    r = org.post("/admin/roles", headers=DE,
                 data={"csrf_token": token_of(org), "action": "register", "player": "Zoe",
                       "number": str(fed.numbers[1])})
    assert r.status_code == 422
    says(r.text, [f"Die Ranglistennummer {fed.numbers[1]} ist schon vergeben"],
         ["is already registered"])
    nobody = german(fed.people[1], "/admin/roles", 403)
    says(nobody, ["Nur für den Verband"], ["The federation only"])


def test_events_an_event_and_its_table_cards_in_german(fed: Federation) -> None:
    org = fed.people[0]
    events = german(org, "/events")
    says(events, ["Veranstaltungen", "Meisterschaften und Pokale", "Herbstabend",
                  "24.11.2026 – 25.11.2026", "Doppel-6, Tische zu 3, 1 Runde, an echten Tischen",
                  "wird gespielt", "Eine Veranstaltung ausrichten", "Wartezeit",
                  "Bedenkzeit", "Veranstaltung anlegen"],
         ["Championships", "tables of", "at real tables", "Organise an event",
          "Create the event", "Move clock"])
    page = german(org, f"/events/{fed.event}")
    says(page, ["Herbstabend", "FIDO Doppel-6 (Divisor 3)", "ausgerichtet von p0",
                "Stand", "Runde 1", "Tischkarten", "Tisch 1", "Spielformular eintragen",
                "SpielerInnen (3)"],
         ["Standings", "Round 1", "table cards", "enter the sheet", "organised by",
          "Players ("])
    cards = german(org, f"/events/{fed.event}/rounds/1/cards")
    says(cards, ["Zurück zur Veranstaltung", "Runde 1", "Tisch 1", "Unterschrift",
                 "Setzt euch in dieser Reihenfolge"],
         ["Back to the event", "Signature", "Sit in this order"])
    gone = german(org, f"/events/{fed.event}/rounds/7/cards", 404)
    says(gone, ["Diese Runde gibt es nicht", "Runde 7 ist noch nicht ausgelost."],
         ["No such round", "has not been drawn"])
    filled = german(fed.people[1], f"/sheets/new?table={fed.table}")
    says(filled, ["aus der Auslosung ausgefüllt"], ["filled in from the draw"])


def test_the_table_assistants_pages_in_german(fed: Federation) -> None:
    anyone = httpx.Client(base_url=fed.base)
    setup = german(anyone, "/assistant")
    says(setup, ["Tischhilfe", "Für ein FIDO-Spiel mit echten Steinen",
                 "Doppel-12 · Divisor 7", "SpielerInnen in ihrer Sitzordnung",
                 "Spiel beginnen"],
         ["Table assistant", "For a FIDO game", "Start the game", "divisor"])
    play = german(anyone, "/assistant/play")
    says(play, ["Summe", "Divisor", "Stock", "Einen Stein ziehen", "Rückgängig", "alle Steine",
                "Spielende: die übrigen Augen jeder Hand", "Spielformular",
                "An die Weltrangliste schicken", "Züge", "Neues Spiel einrichten"],
         ["Undo", "all tiles", "Game over", "Result sheet", "Send to the ranking",
          "Set up a new game"])
    assert 'aria-label="Die Summe der Enden"' in play
    english = anyone.get("/assistant").text
    assert "Table assistant" in english and "Tischhilfe" not in english
