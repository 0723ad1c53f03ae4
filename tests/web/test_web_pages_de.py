"""The core pages in German (issue 24): the lobby, its table lists, finished games, a
player, sign up and in, the inbox, error pages and the create form's mistakes, fetched
over real HTTP with ``Accept-Language: de``. Each page shows its German words and none
of its English sentences (the English of every message the catalog holds for the page's
templates); the same pages without the header stay English."""

from __future__ import annotations

import datetime as dt
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import httpx
import pytest
from babel.messages.pofile import read_po

from fido import i18n
from fido.accounts.notifications import notify
from fido.accounts.roles import find_account
from fido.store import GameRow, SeatRow, TableRow, open_store
from fido.web.forms import FormError, game_label, table_body
from fido.web.kit import env as _env
from support.server_live import token_of, web_client

DE = {"accept-language": "de-DE,de;q=0.9"}
HTML = {"accept": "text/html"}
TEMPLATES = Path(i18n.__file__).parent / "web" / "templates"


class _Visible(HTMLParser):
    """What a person reads of a page: its text and the labels a screen reader says
    (aria-label, title, placeholder), one chunk each; scripts and styles left out."""

    def __init__(self) -> None:
        super().__init__()
        self.chunks: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if name in ("aria-label", "title", "placeholder") and value:
                self.chunks.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.chunks.append(" ".join(data.split()))


def _visible(html: str) -> tuple[list[str], str]:
    """The page's chunks of visible text and all of it as one line."""
    parser = _Visible()
    parser.feed(html)
    return parser.chunks, " ".join(" ".join(parser.chunks).split())


def _english_of(*templates: str) -> list[str]:
    """The English messages of these templates that German says otherwise."""
    with (i18n.LOCALE_DIR / "de" / "LC_MESSAGES" / "fido.po").open("rb") as f:
        catalog = read_po(f, locale="de")
    out = []
    for m in catalog:
        if not m.id or not any(Path(p).name in templates for p, _line in m.locations):
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        strings = [m.string] if isinstance(m.string, str) else list(m.string or ())
        out += [x for x in ids if x not in strings]
    return out


def _pattern(msgid: str) -> re.Pattern[str]:
    """A message as it reads on a page: its tags gone, each placeholder any text."""
    text = " ".join(re.sub(r"<[^>]+>", "", msgid).split())
    parts = re.split(r"%\(\w+\)[sd]", text)
    return re.compile(r".+?".join(re.escape(p) for p in parts))


def _no_english(html: str, *templates: str) -> None:
    """None of the templates' English messages is on the page: a sentence nowhere in
    its text, a single word as no chunk of it (German words may hold English letters)."""
    chunks, text = _visible(html)
    for msgid in _english_of("base.html", *templates):
        pattern = _pattern(msgid)
        if " " in pattern.pattern.replace(r"\ ", " ").strip():
            assert not pattern.search(text), f"English on the German page: {msgid!r}"
        else:
            assert not any(pattern.fullmatch(c) for c in chunks), \
                f"English on the German page: {msgid!r}"


def _visitor(server: str) -> httpx.Client:
    client = web_client(server, timeout=30)
    assert client.get("/").status_code == 200
    return client


def _sign_up(server: str, name: str) -> httpx.Client:
    client = _visitor(server)
    r = client.post("/signup", data={"csrf_token": token_of(client), "name": name,
                                     "password": "a long password"})
    assert r.status_code == 303
    return client


def _form(client: httpx.Client, **more: str) -> dict[str, str]:
    return {"csrf_token": token_of(client), "game": "fido", "set": "9", "players": "4",
            "clock": "0", "seat0": "me", "seat1": "open", "seat2": "bot:expert",
            "seat3": "bot:expert"} | more


# ------------------------------------------------------------ the pages, German and English


def test_the_lobby_in_german(server: str) -> None:
    host = _sign_up(server, "Lotte")
    r = host.post("/tables", data=_form(host, clock="30"))
    assert r.status_code == 303
    page = host.get("/", headers=DE).text
    _no_english(page, "lobby.html", "_tables.html")
    _chunks, text = _visible(page)
    for words in ("Jetzt spielen: du und drei Bots (FIDO Doppel-9)", "Einen Tisch öffnen",
                  "Offene Tische", "Laufende Spiele", "Bedenkzeit", "Steinsatz",
                  "Doppel-12 (Divisor", "Bot: Profi", "reserviert für …", "Platz 1",
                  "Mutter-Theresa-Regel", "entgegen dem Uhrzeigersinn", "gewertet",
                  "4 SpielerInnen", "30 s Bedenkzeit pro Zug", "Dein Tisch", "Posteingang",
                  "Abmelden", "Weltrangliste", "Lotte"):
        assert words in text, words
    assert "<title>Lobby · fido-Domino</title>" in page
    # an anonymous visitor: the sentence with its two links
    anon = _visitor(server).get("/", headers=DE).text
    assert 'bis du dich <a href="/signup">registrierst</a> (oder <a href="/signin">' \
        "anmeldest</a>)." in anon
    _no_english(anon, "lobby.html", "_tables.html")
    assert "Platz nehmen" in _visible(anon)[1]  # Lotte's table waits for a player
    # the lists alone (htmx) too
    _no_english(host.get("/lobby/tables", headers=DE).text, "_tables.html")


def test_the_lobby_stays_english_without_the_header(server: str) -> None:
    page = _visitor(server).get("/").text
    for words in ("Play now: you and three bots (FIDO double-9)", "Open a table",
                  "double-9 (divisor", "bot: expert", "reserved for…", "Move clock",
                  "You play as a guest until you", "Skip to the content"):
        assert words in page, words
    assert "Doppel" not in page and "SpielerIn" not in page
    with pytest.raises(AssertionError, match="English on the German page"):
        _no_english(page, "lobby.html", "_tables.html")  # the check sees English


def test_sign_up_and_in_in_german(server: str) -> None:
    client = _visitor(server)
    for path, words in (("/signin", ("Anmelden", "Passwort", "Als Gast spielen", "Neu hier?")),
                        ("/signup", ("Registrieren", "(mindestens 8 Zeichen)", "E-Mail",
                                     "Schon registriert?"))):
        page = client.get(f"{path}?next=/games", headers=DE).text
        _no_english(page, path.strip("/") + ".html")
        _chunks, text = _visible(page)
        for word in words:
            assert word in text, (path, word)
        assert "next=/games" in page  # the link in the translated sentence keeps its target
    # a guest is told her name in German too
    assert client.post("/guest", data={"csrf_token": token_of(client)}).status_code == 303
    page = client.get("/signup", headers=DE).text
    assert re.search(r"Du spielst als Gast \d+: Wenn du dich registrierst", page)
    _no_english(page, "signup.html")


def test_finished_games_and_a_player_in_german(server: str, web_db: str) -> None:
    """A finished table (stored as the server stores one): the lists show its date, the
    bot and the finals the German way."""
    host = _sign_up(server, "Greta")
    me = host.get("/api/session").json()["account"]["id"]
    finished = dt.datetime(2026, 3, 14, 18, 5, tzinfo=dt.UTC)
    results = {"results": {"seats": [{"seat": 0, "final": 1234, "place": 1},
                                     {"seat": 1, "final": -15, "place": 2}]}}
    store = open_store(web_db)
    try:
        with store.session() as s:
            s.add(TableRow(id="greta1", ruleset="fido set=6", players=2, status="finished",
                           grace=60, invite="x", created_by=me, created_at=finished,
                           finished_at=finished, record=json.dumps(results), seats=[
                               SeatRow(seat=0, kind="person", account_id=me),
                               SeatRow(seat=1, kind="bot", bot="random")]))
    finally:
        store.close()
    games = host.get("/games", headers=DE).text
    _no_english(games, "games.html")
    _chunks, text = _visible(games)
    for words in ("Beendete Spiele", "SpielerInnen (Endstand)", "FIDO Doppel-6",
                  "14.03.26, 18:05", "Greta 1.234", "Luca (zufällig) -15", "nachspielen",
                  "Spielprotokoll"):
        assert words in text, words
    english = host.get("/games").text
    _chunks, text = _visible(english)
    # the bot by the name its table gave it (fido.bots.names.first_name(1, "greta1"))
    for words in ("Finished games", "FIDO double-6", "Greta 1,234", "Random Luca -15",
                  "replay", "record"):
        assert words in text, words
    page = host.get(f"/players/{me}", headers=DE).text
    _no_english(page, "player.html")
    _chunks, text = _visible(page)
    for words in ("Greta", "Datum", "Endstand", "14.03.2026 FIDO Doppel-6 beendet",
                  "1.234 1 Greta, Luca (zufällig)"):
        assert words in text, words
    # a guest's page: her name and the status of her running table
    guest = _visitor(server)
    assert guest.post("/guest", data={"csrf_token": token_of(guest)}).status_code == 303
    r = guest.post("/tables", data=_form(guest, set="6", players="2", seat1="bot:random"))
    assert r.status_code == 303
    gid = guest.get("/api/session").json()["account"]["id"]
    page = guest.get(f"/players/{gid}", headers=DE).text
    _no_english(page, "player.html")
    _chunks, text = _visible(page)
    assert f"Gast {gid} (Gast)" in text and "läuft" in text
    assert f"guest {gid} (guest)" in _visible(guest.get(f"/players/{gid}").text)[1]


def test_the_inbox_and_its_count_in_german(server: str, web_db: str) -> None:
    one, two = _sign_up(server, "Ines"), _sign_up(server, "Jana")
    store = open_store(web_db)
    try:
        with store.session() as s:
            games = [GameRow(key=f"de-{i}", played_on=dt.date(2026, 3, 14), event="Kiel Open",
                             set=12, divisor=5, source="sheet",
                             received_at=dt.datetime.now(dt.UTC)) for i in range(2)]
            s.add_all(games)
            s.flush()
            notify(s, [find_account(s, "Ines").id], "disputed", games[0])
            for kind, game in (("review", games[0]), ("settled", games[1])):
                notify(s, [find_account(s, "Jana").id], kind, game)
    finally:
        store.close()
    page = one.get("/inbox", headers=DE).text
    _no_english(page, "inbox.html")
    _chunks, text = _visible(page)
    for words in ("Posteingang", "Alle als gelesen markieren", "Kiel Open", "14.03.2026",
                  "Ein Spielformular wurde beanstandet", "eingereicht", "neu"):
        assert words in text, words
    assert 'aria-label="1 ungelesene Nachricht"' in page
    page = two.get("/inbox", headers=DE).text
    assert 'aria-label="2 ungelesene Nachrichten"' in page
    _chunks, text = _visible(page)
    assert "eine Beanstandung wurde entschieden" in text
    assert "Bestätige sein Spielformular oder beanstande es" in text
    english = two.get("/inbox").text
    assert "a dispute was settled" in english and 'aria-label="2 unread"' in english
    assert "Mar 14, 2026" in english


# ------------------------------------------------------------ messages and mistakes


def test_error_pages_and_refusals_in_german(server: str) -> None:
    client = _sign_up(server, "Karla")
    r = client.get("/no/such/page", headers=DE | HTML)
    assert r.status_code == 404 and "<h1>Diese Seite gibt es nicht</h1>" in r.text
    assert "Zur Lobby" in r.text
    _no_english(r.text, "message.html")
    r = client.get("/players/abc", headers=DE | HTML)
    assert r.status_code == 422 and "<h1>Diese Adresse stimmt nicht</h1>" in r.text
    r = client.get("/players/999999", headers=DE)
    assert r.status_code == 404 and "Es gibt keine SpielerIn mit dieser Nummer." in r.text
    r = client.get("/tables/<b>", headers=DE)
    assert r.status_code == 404 and "Unter dieser Adresse gibt es keinen Tisch." in r.text
    r = client.post("/signout", data={}, headers=DE)
    assert r.status_code == 403 and "<h1>Bitte versuch es noch einmal</h1>" in r.text
    assert "Lade sie neu und sende es noch einmal." in r.text


@pytest.mark.parametrize(("field", "typed", "german", "english"), [
    ("players", "abc", "An einem Tisch spielen 2 bis 9 SpielerInnen.",
     "A table has 2 to 9 players."),
    ("players", "²", "An einem Tisch spielen 2 bis 9 SpielerInnen.",
     "A table has 2 to 9 players."),
    ("divisor", "x5", "Der Divisor muss eine ganze Zahl von 2 bis 99 sein.",
     "The divisor must be a whole number from 2 to 99."),
    ("divisor", "100", "Der Divisor muss eine ganze Zahl von 2 bis 99 sein.",
     "The divisor must be a whole number from 2 to 99."),
    ("clock", "7", "Wähle eine der angebotenen Bedenkzeiten.",
     "Choose one of the clocks offered."),
    ("set", "8", "Wähle einen der angebotenen FIDO-Steinsätze.",
     "Choose one of the FIDO sets offered."),
    ("seat1", "bot:nobody", "Platz 2: Wähle eine der angebotenen Möglichkeiten.",
     "Seat 2: choose one of the kinds offered."),
    ("seat1", "reserved", "Platz 2 ist reserviert: Für wen? Gib ihren Namen ein.",
     "Seat 2 is reserved: for whom? Type her name."),
])
def test_a_bad_choice_in_the_form_is_a_german_sentence(
        server: str, field: str, typed: str, german: str, english: str) -> None:
    client = _sign_up(server, f"Form{abs(hash((field, typed))) % 10**6}")
    r = client.post("/tables", data=_form(client, **{field: typed}), headers=DE | HTML)
    assert r.status_code == 422
    assert f'<p class="error" role="alert">{german}</p>' in r.text
    _no_english(r.text, "lobby.html", "_tables.html")
    r = client.post("/tables", data=_form(client, **{field: typed}), headers=HTML)
    assert r.status_code == 422 and f'<p class="error" role="alert">{english}</p>' in r.text


# ------------------------------------------------------------ without a server


def test_every_form_error_is_a_whole_sentence_in_both_languages() -> None:
    bad = [{"game": "chess"}, {"set": "7"}, {"divisor": "1"}, {"players": "10"},
           {"clock": "-1"}, {"seat0": "king"}, {"seat0": "reserved"}]
    for lang in ("en", "de"):
        with i18n.use(lang):
            for more in bad:
                form = {"game": "fido", "set": "9", "players": "2", "seat0": "me",
                        "seat1": "open", "clock": "0"} | more
                with pytest.raises(FormError) as e:
                    table_body(form)
                message = str(e.value)
                assert message[0].isupper() and message.endswith("."), (lang, message)


def test_game_labels_in_german() -> None:
    with i18n.use("de"):
        assert game_label("fido set=12") == "FIDO Doppel-12"
        assert game_label("fido set=12 divisor=5 mother_theresa direction=counterclockwise") \
            == "FIDO Doppel-12, Divisor 5, entgegen dem Uhrzeigersinn, Mutter-Theresa-Regel"
        assert game_label("block hand=7") == "Block, 7 Steine pro SpielerIn"
        assert game_label("not a ruleset!") == "not a ruleset!"
    assert game_label("fido set=12 divisor=5 mother_theresa") == \
        "FIDO double-12, divisor 5, mother theresa"


def test_the_table_list_counts_players_in_singular_and_plural() -> None:
    """One player is not reachable through the form (two at least): the list's template
    is rendered alone."""
    def table(players: int) -> dict[str, object]:
        return {"id": "abcdef", "ruleset": "fido set=9", "players": players, "rated": False,
                "private": True, "clock": 1200, "seats": [], "my_seat": None}

    def render(players: int) -> str:
        html = _env.get_template("_tables.html").render(
            open_tables=[table(players)], running_tables=[], csrf_token="")
        return _visible(html)[1]

    with i18n.use("de"):
        assert "1 SpielerIn · ungewertet · privat · 1.200 s Bedenkzeit pro Zug" in render(1)
        assert "2 SpielerInnen ·" in render(2)
        assert "Keine Partie" not in render(2)
    assert "1 player · casual · private · 1,200 s a move" in render(1)
    assert "2 players ·" in render(2)
