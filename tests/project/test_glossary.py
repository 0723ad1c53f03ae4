"""The German catalogs speak the glossary's words (issue 41).

docs/glossary.md's "Replaces" column lists, per term, the words a translator used
before and must not use again (*Einspruch* for a dispute, *Partie* for one game,
*Spielernummer*, *Telefon*); every German message of both catalogs (fido.po and
fido_js.po, plural forms too) is checked against them, and against a capitalised
*Sie/Ihr/Ihnen*, which a German reads as the formal register (fido says *du*).
The rules (endings, `where`/`unless`, the exceptions with their reasons) are the
glossary's own, documented at its top; this file only reads them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from fido import i18n

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "docs" / "glossary.md"
LANG = "de"
DOMAINS = (i18n.DOMAIN, i18n.JS_DOMAIN)

ENDINGS = r"(?:e|n|s|en|es|em)?"  # -er is no ending: Spieler is not a form of Spiel
ENGLISH_ENDINGS = r"(?:s|es|d|ed)?"  # "set": sets; "reject": rejected; "move": moves
# the formal register; case-sensitive: "ihr", "sie", "ihnen" are the du register's own
FORMAL = re.compile(r"(?<!\w)(Sie|Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihres|Ihnen)(?!\w)")
FORMAL_TERM = "du, not Sie"
# what is not the English or German text: placeholders ({set}, %(n)s, %d) and tags
_NOISE = re.compile(r"\{\w*\}|%\(\w+\)[sd]|%[sd]|<[^>]*>")


@dataclass(frozen=True)
class Rule:
    """One replaced word of one term: its forms, and where it is wrong."""

    term: str  # the glossary's English, "to dispute (a score sheet); a dispute"
    german: str  # the right word, "beanstanden; Beanstandung"
    word: str  # as the glossary writes it, "Einspruch/Einsprüche"
    pattern: re.Pattern[str]
    where: tuple[re.Pattern[str], ...] = ()  # wrong only where the English says one
    unless: tuple[re.Pattern[str], ...] = ()  # not wrong where the English says one

    def applies(self, english: str) -> bool:
        if self.where and not any(w.search(english) for w in self.where):
            return False
        return not any(u.search(english) for u in self.unless)


@dataclass(frozen=True)
class Offence:
    domain: str
    msgid: str
    msgstr: str
    word: str  # the word as it stands in the msgstr
    term: str
    key: str  # the word as the glossary (or its exceptions) writes it: "Einspruch/Einsprüche"

    def __str__(self) -> str:
        return (f"{self.domain}: {self.msgid!r} -> {self.msgstr!r}: "
                f"{self.word!r} ({self.term})")


def _german_pattern(forms: str) -> re.Pattern[str]:
    """"Einspruch/Einsprüche": each form whole, with an ending, in any case; a phrase's
    words apart by any space ("Steine je Hand")."""
    alternatives = []
    for form in forms.split("/"):
        words = [re.escape(w) for w in form.split()]
        alternatives.append(r"\s+".join(words) + ENDINGS)
    return re.compile(r"(?<!\w)(?:" + "|".join(alternatives) + r")(?!\w)", re.IGNORECASE)


def _english_pattern(word: str) -> re.Pattern[str]:
    return re.compile(r"(?<!\w)" + re.escape(word) + ENGLISH_ENDINGS + r"(?!\w)",
                      re.IGNORECASE)


# one replaced word: its forms, then optionally (where "a", "b", unless "c")
_ENTRY = re.compile(r"\s*([^,(]+?)\s*(?:\(([^)]*)\))?\s*(?:,|$)")
_CLAUSE = re.compile(r"(where|unless)\s+((?:\"[^\"]+\"(?:\s*(?:,|or)\s*)?)+)")


def parse_replaces(cell: str, term: str, german: str) -> list[Rule]:
    """The rules of one glossary cell: ``Partie (unless "match")``,
    ``Spielernummer, SpielerInnen-Nummer``."""
    rules = []
    for match in _ENTRY.finditer(cell):
        word, scope = match[1], match[2] or ""
        if not word:
            continue
        clauses: dict[str, list[re.Pattern[str]]] = {"where": [], "unless": []}
        rest = scope
        for clause in _CLAUSE.finditer(scope):
            clauses[clause[1]] += [_english_pattern(w)
                                   for w in re.findall(r"\"([^\"]+)\"", clause[2])]
            rest = rest.replace(clause[0], "")
        assert not rest.strip(" ,"), f"glossary: {term}: cannot read {scope!r}"
        rules.append(Rule(term, german, word, _german_pattern(word),
                          tuple(clauses["where"]), tuple(clauses["unless"])))
    return rules


def _rows(text: str, heading: str | None = None) -> list[dict[str, str]]:
    """The rows of the markdown tables in ``text`` (under ``heading`` if given), each
    a dict from its table's header to the cell."""
    if heading is not None:
        text = text[text.index(heading):]
        end = text.find("\n## ", 1)
        text = text if end < 0 else text[:end]
    rows: list[dict[str, str]] = []
    header: list[str] | None = None
    for line in text.splitlines():
        if not line.startswith("|"):
            header = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = cells
        elif not set(line) <= set("|-: "):
            assert len(cells) == len(header), f"glossary: a row of {len(cells)} cells: {line}"
            rows.append(dict(zip(header, cells, strict=True)))
    return rows


def glossary_rules(text: str) -> list[Rule]:
    rules = []
    for row in _rows(text):
        if row.get("Replaces"):
            rules += parse_replaces(row["Replaces"], row["English (fido)"], row["Deutsch"])
    return rules


def glossary_exceptions(text: str) -> dict[tuple[str, str], str]:
    """(msgid, word) -> why: a message that rightly uses the word."""
    return {(row["msgid"].strip("`"), row["word"]): row["why"]
            for row in _rows(text, "## Exceptions the test allows")}


def _texts(value: str | tuple[str, ...] | list[str] | None) -> list[str]:
    """A message's id, string or context as a list (plural entries hold several)."""
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def offences(catalog: Catalog, domain: str, rules: list[Rule],
             allowed: dict[tuple[str, str], str]) -> list[Offence]:
    """Every use in ``catalog``'s translations of a replaced word where its rule says
    it is wrong, and of a capitalised Sie/Ihr; (msgid, word) pairs in ``allowed`` and
    untranslated messages pass."""
    found = []
    for message in catalog:
        if not message.id:
            continue
        ids = _texts(message.id)
        english = " ".join(_NOISE.sub(" ", x) for x in ids + _texts(message.context))
        for msgstr in _texts(message.string):
            german = _NOISE.sub(" ", msgstr)
            hits: list[tuple[str, Rule | None]] = [
                (m[0], rule) for rule in rules if rule.applies(english)
                for m in rule.pattern.finditer(german)]
            hits += [(m[0], None) for m in FORMAL.finditer(german)]
            for word, rule in hits:
                key = rule.word if rule else word
                if (ids[0], key) in allowed:
                    continue
                term = f"{rule.term}: {rule.german}" if rule else FORMAL_TERM
                found.append(Offence(domain, ids[0], msgstr, word, term, key))
    return found


def _catalog(domain: str) -> Catalog:
    with (i18n.LOCALE_DIR / LANG / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
        return read_po(f, locale=LANG)


@pytest.fixture(scope="module")
def glossary() -> str:
    return GLOSSARY.read_text(encoding="utf-8")


# -- the real catalogs ------------------------------------------------------------------

@pytest.mark.parametrize("domain", DOMAINS)
def test_the_catalog_uses_no_replaced_word(glossary: str, domain: str) -> None:
    found = offences(_catalog(domain), domain, glossary_rules(glossary),
                     glossary_exceptions(glossary))
    assert not found, (f"{len(found)} German messages use a word docs/glossary.md "
                       "replaces (or the formal Sie/Ihr):\n"
                       + "\n".join(str(o) for o in found))


def test_every_exception_is_still_needed(glossary: str) -> None:
    """An exception names a message that exists and still uses its word: the list does
    not outlive its reasons (nor hide a typo in a msgid)."""
    rules = glossary_rules(glossary)
    by_id = {}
    for domain in DOMAINS:
        for message in _catalog(domain):
            if message.id:
                by_id[_texts(message.id)[0]] = message
    exceptions = glossary_exceptions(glossary)
    assert exceptions, "the glossary's exceptions table is not found"
    for (msgid, word), why in exceptions.items():
        assert why, f"exception {msgid!r} gives no reason"
        assert msgid in by_id, f"exception {msgid!r}: no such message in the catalogs"
        catalog = Catalog(locale=LANG)
        catalog[msgid] = by_id[msgid]
        used = offences(catalog, "-", rules, {})
        assert any(o.key == word for o in used), \
            f"exception {msgid!r} ({word}): the message no longer uses it: drop the line"


def test_the_glossary_is_read(glossary: str) -> None:
    """The table is parsed as written: the terms the review corrected are there, each
    with its scope (a parse that drops a row or a clause would pass any catalog)."""
    rules = {r.word: r for r in glossary_rules(glossary)}
    for word in ("Einspruch/Einsprüche", "Partie", "verworfen", "Spielernummer",
                 "SpielerInnen-Nummer", "Telefon", "Tischgröße", "Spiel", "Differenz"):
        assert word in rules, f"glossary: no rule replaces {word}"
    assert rules["Einspruch/Einsprüche"].german == "beanstanden; Beanstandung"
    assert rules["Partie"].applies("the game is over")
    assert not rules["Partie"].applies("match to {n} point")
    assert rules["Spiel"].applies("set: double- is not offered")
    assert not rules["Spiel"].applies("a whole game")
    assert rules["verworfen"].applies("rejected")
    assert not rules["verworfen"].applies("a mail not taken in three days is dropped")
    move = rules["ziehen/zieht"]
    assert move.applies("spectators cannot move")
    assert not move.applies("you cannot draw now. Possible moves: ")


# -- the checker, on a catalog made here ------------------------------------------------

def _fake(*messages: tuple[str | tuple[str, str], str | tuple[str, str]],
          context: str | None = None) -> Catalog:
    catalog = Catalog(locale=LANG)
    for msgid, msgstr in messages:
        catalog.add(msgid, msgstr, context=context)
    return catalog


def _words(catalog: Catalog, glossary: str,
           allowed: dict[tuple[str, str], str] | None = None) -> list[tuple[str, str]]:
    return [(o.msgid, o.word) for o in offences(catalog, "fake", glossary_rules(glossary),
                                                allowed or {})]


def test_a_replaced_word_put_back_is_reported(glossary: str) -> None:
    catalog = _fake(("Settle the dispute", "Über den Einspruch entscheiden"),
                    ("Disputes to settle", "Offene Einsprüche"),
                    ("game {game}'s dispute was settled", "Spiel {game}: Einspruchs erledigt"),
                    ("Settle a dispute", "Über die Beanstandung entscheiden"))
    assert _words(catalog, glossary) == [("Settle the dispute", "Einspruch"),
                                         ("Disputes to settle", "Einsprüche"),
                                         ("game {game}'s dispute was settled", "Einspruchs")]
    found = offences(catalog, "fake", glossary_rules(glossary), {})
    assert "'Settle the dispute'" in str(found[0])
    assert "Über den Einspruch entscheiden" in str(found[0])


def test_partie_only_for_a_match(glossary: str) -> None:
    catalog = _fake(("the game is over", "Die Partie ist zu Ende"),
                    ("Games", "Partien"),
                    ("only the federation settles a dispute about an online game",
                     "Nur der Verband entscheidet über Beanstandungen einer Online-Partie"),
                    ("{name} won the match.", "{name} hat die Partie gewonnen."),
                    ("{rules} has no match target", "{rules} hat kein Partieziel"),
                    ("the game is not over yet", "Das Spiel ist noch nicht vorbei"))
    assert _words(catalog, glossary) == [
        ("the game is over", "Partie"), ("Games", "Partien"),
        ("only the federation settles a dispute about an online game", "Partie")]


def test_a_word_wrong_only_for_one_term(glossary: str) -> None:
    catalog = _fake(("set", "Spiel"),
                    ("set: double-{set} is not offered", "Spiel: Doppel-{set} nicht angeboten"),
                    ("a whole game of double-{set}", "ein ganzes Spiel mit Doppel-{set}"),
                    ("the set of player {player}", "der Steinsatz von SpielerIn {player}"),
                    ("class {classes}", "Differenz {classes}"),
                    ("difference", "Differenz"),
                    ("sorted by difference class", "nach Differenzenreihen sortiert"))
    assert _words(catalog, glossary) == [("set", "Spiel"),
                                         ("set: double-{set} is not offered", "Spiel"),
                                         ("class {classes}", "Differenz")]


def test_plural_forms_are_checked(glossary: str) -> None:
    catalog = _fake((("{n} dispute", "{n} disputes"), ("{n} Beanstandung", "{n} Einsprüche")))
    assert _words(catalog, glossary) == [("{n} dispute", "Einsprüche")]


def test_the_formal_register_is_reported(glossary: str) -> None:
    catalog = _fake(("Its name", "Ihr Name"),
                    ("this event is by invitation: its organiser registers the players",
                     "Eingeladen wird: Ihre VeranstalterIn meldet an"),
                    ("Sign in, please", "Bitte melden Sie sich an"),
                    ("She is on turn: wait for her", "Sie ist am Zug: warte auf sie"),
                    ("Your turn", "Du bist am Zug"),
                    ("her tiles", "ihre Steine"))
    assert _words(catalog, glossary) == [
        ("Its name", "Ihr"),
        ("this event is by invitation: its organiser registers the players", "Ihre"),
        ("Sign in, please", "Sie"), ("She is on turn: wait for her", "Sie")]
    allowed = {("She is on turn: wait for her", "Sie"): "she"}
    assert ("She is on turn: wait for her", "Sie") not in _words(catalog, glossary, allowed)
    assert ("Its name", "Ihr") in _words(catalog, glossary, allowed)


def test_an_exception_passes_only_its_message_and_word(glossary: str) -> None:
    catalog = _fake(("Set up a new game", "Ein neues Spiel einrichten"),
                    ("Set up a new set", "Ein neues Spiel einrichten"))
    allowed = glossary_exceptions(glossary)
    assert ("Set up a new game", "Spiel") in allowed
    assert _words(catalog, glossary, allowed) == [("Set up a new set", "Spiel")]
    assert _words(catalog, glossary) == [("Set up a new game", "Spiel"),
                                         ("Set up a new set", "Spiel")]


def test_the_context_counts_as_english(glossary: str) -> None:
    """A msgctxt says which meaning a word has: pgettext("class", ...) is read too."""
    catalog = _fake(("row {n}", "Differenz {n}"), context="class")
    assert _words(catalog, glossary) == [("row {n}", "Differenz")]


def test_one_english_word_two_german_words_by_context() -> None:
    """"side" is a double's side (Seite) on the table and a player or team (Partei) in a
    match's score table: two contexts, two German words."""
    from fido import i18n  # noqa: PLC0415

    with i18n.use("de"):
        assert i18n.gettext("side") == "Seite"
        assert i18n.pgettext("match", "side") == "Partei"
    assert i18n.pgettext("match", "side") == "side"  # English: the word itself


# -- a whole sentence starts with a capital -----------------------------------------------

# a German message that is a whole sentence (a subject and its verb) starts with a
# capital, as German writes any sentence, even where the English starts in lower case
# (docs/translating.md, "Capitals"); a fragment (a label, a status word, an option's
# help) keeps the English's small letter
SENTENCE = re.compile(
    r"^(?:du|es|ich|wir|diese[rsnm]?|der|die|das|ein|eine|über|an|zwischen)\s"
    r"(?:[^\s:;(,]+\s){0,6}?(?:ist|sind|bist|hast|hat|kannst|gibt|wurde|wurden|folgst)(?!\w)")
# whole sentences that are one part of a line and so keep the small letter, by msgid
SEGMENTS = {
    "your turn": "the terminal's header line: 'divisor 3 · sum of the ends 12 · your turn'",
}


def small_sentences(catalog: Catalog) -> list[tuple[str, str]]:
    """(msgid, msgstr) of each translation that is a whole sentence begun in lower case."""
    return [(_texts(m.id)[0], s) for m in catalog if m.id
            for s in _texts(m.string)
            if SENTENCE.search(s) and _texts(m.id)[0] not in SEGMENTS]


@pytest.mark.parametrize("domain", DOMAINS)
def test_a_whole_sentence_starts_with_a_capital(domain: str) -> None:
    found = small_sentences(_catalog(domain))
    assert not found, "\n".join(f"{domain}: {i!r} -> {s!r}" for i, s in found)


def test_a_small_sentence_put_back_is_reported() -> None:
    catalog = _fake(("you cannot follow yourself", "du kannst dir nicht selbst folgen"),
                    ("a score sheet was disputed", "ein Spielformular wurde beanstandet"),
                    ("no such challenge", "diese Herausforderung gibt es nicht"),
                    ("the ruleset, e.g. 'fido set=18'", "das Regelwerk, z. B. 'fido set=18'"),
                    ("your turn", "du bist am Zug"),
                    ("you follow her", "Du folgst ihr"))
    assert [s for _i, s in small_sentences(catalog)] == [
        "du kannst dir nicht selbst folgen", "ein Spielformular wurde beanstandet",
        "diese Herausforderung gibt es nicht"]
