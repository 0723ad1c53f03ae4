"""The terminal game end to end: the real `fido play` / `fido replay --step` in an 80x24 pty,
in English and in German (the child's LANG, or --lang)."""

from __future__ import annotations

import io
import random
import re
import subprocess
from pathlib import Path

import pexpect
import pytest
from rich.console import Console

from fido import Game, Placement, SeatView, Tile
from fido.bots.base import Move
from fido.bots.registry import register
from fido.engine.rules import Ruleset
from fido.i18n import use
from fido.record import GameRecord
from fido.terminal import rulebook
from fido.terminal.screen import Frame, arm_lines, play_screen
from fido.terminal.session import Session, ambiguous, not_a_move, refusal
from support.terminal import FIDO, LANG_ENV, LANGS, PASS_ENV, PROMPT, SAYS, run, spawn

RULES = "fido set=6"
ENGLISH_ONLY = ("Your move", "game record saved", "Result (", "pips", "sum of the ends", "stock ",
                "your turn", " to play", "Leave the game", "Moves, best first")


def play_args(save: Path, seed: int = 5) -> list[str]:
    return [
        "play", "--rules", RULES, "--players", "3", "--seed", str(seed), "--delay", "0",
        "--hint", "expert", "--save", str(save),
    ]  # fmt: skip


@pytest.mark.parametrize("lang", LANGS)
def test_a_whole_game_to_the_end_and_nothing_hidden_on_screen(tmp_path: Path, lang: str) -> None:
    says = SAYS[lang]
    save = tmp_path / "game.json"
    log = io.StringIO()
    child = spawn(*play_args(save), log=log, env=LANG_ENV[lang])
    moves = 0
    while child.expect([says["prompt"], says["saved"]]) == 0:
        child.sendline("1")
        moves += 1
    child.expect(pexpect.EOF)
    assert moves > 0
    out = log.getvalue()
    assert says["result"] in out and says["final"] in out
    if lang != "en":  # every line she read was in her language
        assert not [w for w in ENGLISH_ONLY if w in out]
    record = GameRecord.load(save)  # verifies every move
    game = [g for _i, _turn, g in record.steps()][-1]
    assert game.outcome is not None
    record.check_results(game)
    # tiles the others never played were never on her screen
    before_result = out[: out.index(says["result"])]
    for seat in (1, 2):
        for tile in game.hand(seat):
            assert not re.search(rf"(?<![0-9]){tile.text()}(?![0-9])", before_result), tile


@pytest.mark.parametrize("lang", LANGS)
def test_illegal_input_gets_a_message_and_a_new_prompt(tmp_path: Path, lang: str) -> None:
    says = SAYS[lang]
    child = spawn(*play_args(tmp_path / "g.json"), env=LANG_ENV[lang])
    child.expect(says["prompt"])
    child.sendline("zz")
    child.expect(says["not a move"])
    child.expect(says["prompt"])
    child.sendline("0-0@99e")  # the terminal's reason, from her hand and the table
    child.expect(says["not held"])
    child.expect(says["prompt"])
    child.sendline("q")
    child.expect(says["leave"])
    child.sendline("q")
    child.expect(says["left"])
    child.expect(pexpect.EOF)
    assert not (tmp_path / "g.json").exists()


@pytest.mark.parametrize("lang", LANGS)
def test_the_hint_shows_scoring_moves_and_the_bots_choice(tmp_path: Path, lang: str) -> None:
    says = SAYS[lang]
    child = spawn(*play_args(tmp_path / "g.json"), env=LANG_ENV[lang])
    child.expect(says["prompt"])
    child.sendline("h")
    child.expect(says["hint"])
    child.expect(says["prompt"])
    child.sendintr()
    child.expect(says["leave"])
    child.sendline("q")
    child.expect(pexpect.EOF)


@pytest.mark.parametrize("lang", LANGS)
def test_ctrl_c_asks_and_saves_the_game(tmp_path: Path, lang: str) -> None:
    says = SAYS[lang]
    save = tmp_path / "left.json"
    child = spawn(*play_args(save, seed=8), env=LANG_ENV[lang])
    child.expect(says["prompt"])
    child.sendline("1")
    child.expect(says["prompt"])
    child.sendintr()
    child.expect(says["leave"])
    child.sendline("c")  # go on
    child.expect(says["prompt"])
    child.sendintr()
    child.expect(says["leave"])
    child.sendline("s")
    child.expect(says["game saved"])
    child.expect(pexpect.EOF)
    record = GameRecord.load(save)
    assert len(record.moves) >= 1
    steps = list(record.steps())
    assert not steps[-1][2].is_over  # an unfinished game, replayable


@pytest.mark.parametrize("lang", LANGS)
def test_replay_steps_forwards_and_backwards(tmp_path: Path, lang: str) -> None:
    says = SAYS[lang]
    save = tmp_path / "game.json"
    child = spawn(*play_args(save, seed=11), env=LANG_ENV[lang])
    while child.expect([says["prompt"], says["saved"]]) == 0:
        child.sendline("1")
    child.expect(pexpect.EOF)
    record = GameRecord.load(save)
    sums = [turn.ends_sum for _i, turn, _g in record.steps()]
    n = len(sums)
    child = spawn("replay", str(save), "--step", env=LANG_ENV[lang])
    child.expect(rf"\[0/{n}\] {says['deal']}")
    child.sendline("n")
    child.expect(rf"\[1/{n}\] {says['move']} 1")
    child.sendline("n")  # the header (with the sum) comes before the step's label
    child.expect(rf"{says['sum']} {sums[1]} [^\n]*\r\n\[2/{n}\] {says['move']} 2")
    child.sendline("p")
    child.expect(rf"{says['sum']} {sums[0]} [^\n]*\r\n\[1/{n}\] {says['move']} 1")
    child.sendline(str(n))
    child.expect(rf"\[{n}/{n}\]")
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_bad_options_are_refused(tmp_path: Path) -> None:
    child = spawn("play", "--rules", "fido set=6", "--players", "12")
    child.expect("error")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    child = spawn("play", "--bots", "expert,greedy", "--players", "4")
    child.expect("2 levels for 3 bot seats")
    child.expect(pexpect.EOF)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("text", "players"), [("fido set=18", 6), ("sebastopol", 4)])
def test_every_open_slot_is_drawn_and_the_screen_fits_80x24(
    text: str, players: int, lang: str
) -> None:
    with use(lang):
        _every_slot_drawn_and_80x24(text, players, SAYS[lang]["sum"])


def _every_slot_drawn_and_80x24(text: str, players: int, sum_label: str) -> None:
    for seed in range(6):
        rng = random.Random(seed)
        g = Game.new(text, players, rng=rng)
        for _ in range(rng.randrange(5, 60)):
            if g.is_over:
                break
            g.push(rng.choice(g.legal_moves()))
        lines = arm_lines(g.table, limit=99)
        names = {g.table.slot_name(code) for code in g.table.open}
        drawn = {line.split()[1 if line.startswith(" ·") else 0].lstrip("·") for line in lines}
        assert names <= drawn | {"(empty:", "(leer:"}
        view = g.view(g.turn)
        seats = [f"P{s}" for s in range(players)]
        shown = play_screen(view, seats, Frame(message="a message")).lines
        assert len(shown) <= 23
        assert all(len(line) <= 80 for line in shown)
        on_screen = "\n".join(shown)
        assert all(t.text() in on_screen for t in view.hand)  # the whole hand is on screen
        assert f"{sum_label} {view.table.ends_sum}" in shown[0]  # the header, not cut there


@pytest.mark.parametrize("lang", LANGS)
def test_a_38_tile_hand_fits_the_screen(lang: str) -> None:
    g = Game.new("fido set=18", 4, seed=2)  # double-18, 4 players: 38 tiles each
    view = g.view(0)
    with use(lang):
        shown = play_screen(view, ["a", "b", "c", "d"], Frame(message="a message")).lines
    text = "\n".join(shown)
    assert len(view.hand) == 38
    assert all(t.text() in text for t in view.hand)
    assert len(shown) <= 23 and all(len(line) <= 80 for line in shown)


def test_a_name_with_markup_plays_to_the_end_and_the_record_is_saved(tmp_path: Path) -> None:
    """`--name "[/x]"` used to crash at the result table, and the record was never saved."""
    save = tmp_path / "game.json"
    log = io.StringIO()
    child = spawn(*play_args(save, seed=3), "--name", "[/x]", log=log)
    while child.expect([PROMPT, "game record saved to"]) == 0:
        child.sendline("1")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    out = log.getvalue()
    result = out[out.index("Result (") :]
    assert re.search(r"│\s+\d+ │ \[/x\]\s+│", result)  # the name as typed, in the table
    assert GameRecord.load(save).players[0] == "[/x]"


@pytest.mark.parametrize("lang", LANGS)
def test_typed_garbage_is_answered_and_the_game_goes_on(tmp_path: Path, lang: str) -> None:
    says = SAYS[lang]
    o, c = says["open"], says["close"]
    save = tmp_path / "g.json"
    child = spawn(*play_args(save), env=LANG_ENV[lang])
    child.expect(says["prompt"])
    for text, answer in [  # numbers beyond the set: the set's highest, not the notation's
        ("100-1", rf"{o}100-1{c}: .*{says['up to']}"),
        ("999-9", rf"{o}999-9{c}: .*{says['up to']}"),
        ("²-1", rf"{o}²-1{c}: {says['not a move']}"),
        ("１-1", rf"{o}１-1{c}: "),  # the core reads fullwidth digits (reported)
        ("\x1b[A", rf"{o}\\x1b\[A{c}: {says['not a move']}"),
        ("[/x]", rf"{o}\[/x\]{c}: {says['not a move']}"),
    ]:
        child.sendline(text)
        child.expect(answer)
        child.expect(says["prompt"])
    child.sendline("1")  # and a real move still works
    child.expect(says["prompt"])
    child.sendline("q")
    child.expect(says["leave"])
    child.sendline("s")
    child.expect(says["go on"])
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert len(GameRecord.load(save).moves) >= 1


def test_a_saved_game_is_resumed_with_its_bots_and_finished(tmp_path: Path) -> None:
    save = tmp_path / "left.json"
    args = ["play", "--rules", RULES, "--players", "3", "--seed", "9", "--delay", "0",
            "--hint", "expert", "--bots", "greedy;random", "--seat", "1", "--name", "Ann",
            "--save", str(save)]  # fmt: skip
    child = spawn(*args)
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    child.sendintr()
    child.expect("Leave the game")
    child.sendline("s")
    child.expect(pexpect.EOF)
    saved = GameRecord.load(save)
    assert saved.bots == ("greedy", None, "random")
    assert saved.players == ("Ada", "Ann", "Clara")  # first names, as the web's bots have
    before = [m.move for m in saved.moves]
    # the rules, players and seed come from the record: giving them is refused
    child = spawn("play", "--resume", str(save), "--seed", "9")
    child.expect("drop --seed")
    child.expect(pexpect.EOF)
    log = io.StringIO()
    child = spawn("play", "--resume", str(save), "--delay", "0", "--hint", "expert", log=log)
    child.expect(PROMPT)
    assert f"· {before[-1]}" in log.getvalue()  # the last moves before she left are shown
    child.sendline("1")
    while child.expect([PROMPT, "game record saved to"]) == 0:
        child.sendline("1")
    child.expect(pexpect.EOF)
    done = GameRecord.load(save)
    assert [m.move for m in done.moves[: len(before)]] == before
    assert (done.hands, done.stock) == (saved.hands, saved.stock)
    assert done.replay().is_over and done.bots == saved.bots
    # a finished game is not resumed
    child = spawn("play", "--resume", str(save))
    child.expect(r"is\s+finished;\s+replay\s+it\s+with")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1


class Boom:
    """A bot with a bug: the session must keep the game and say so."""

    name = "boom"

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        raise RuntimeError("the bot broke")


def test_an_unexpected_error_saves_the_game_first(tmp_path: Path) -> None:
    register("boom", f"{__name__}:Boom")
    save = tmp_path / "crash.json"
    game = Game.new(RULES, 3, seed=5)
    seat = (game.turn + 1) % 3  # the bot moves first
    levels: list[str | None] = ["boom"] * 3
    levels[seat] = None
    out = io.StringIO()
    console = Console(file=out, width=80)
    session = Session(
        game, levels, seat, ["Ann", "B", "C"], save=save, delay=0, hint_bot="expert",
        console=console, ask=lambda _prompt: "1",
    )  # fmt: skip
    assert session.run() == 1
    text = out.getvalue()
    assert (
        "error: fido play stopped on an internal error (RuntimeError: the bot broke)"
        in " ".join(text.split())
    )
    assert f"fido play --resume {save}" in text.replace("\n", "")
    rec = GameRecord.load(save)
    assert rec.bots is not None and rec.bots[seat] is None
    assert not rec.replay().is_over


class Cheater:
    """Answers with a move that is not legal: the runner's step names it."""

    name = "cheater"

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        return Placement(Tile(0, 0), 0, 0)


def test_the_terminal_asks_bots_through_the_runners_step(tmp_path: Path) -> None:
    """An illegal bot move gets runner.bot_move's error (the one bot loop), and the game is kept."""
    register("cheater", f"{__name__}:Cheater")
    game = Game.new(RULES, 3, seed=5)
    seat = (game.turn + 2) % 3
    levels: list[str | None] = ["cheater"] * 3
    levels[seat] = None
    out = io.StringIO()
    session = Session(
        game, levels, seat, ["Ann", "B", "C"], save=tmp_path / "c.json", delay=0,
        hint_bot="expert", console=Console(file=out, width=200), ask=lambda _prompt: "1",
    )  # fmt: skip
    assert session.run() == 1
    assert f"IllegalMoveError: bot 'cheater' at seat {game.turn}" in out.getvalue()
    assert GameRecord.load(tmp_path / "c.json").moves == ()


def test_the_moves_before_her_first_turn_are_all_on_screen() -> None:
    """`log[len(log) - room:]` dropped the opener's move when two came before hers."""
    g = Game.new(RULES, 3, seed=5)
    before = []
    for _ in range(2):
        seat = g.turn
        g.push(g.legal_moves()[0])
        turn = g.last_turn()
        assert turn is not None
        before.append((seat, turn.move.text()))
    shown = play_screen(g.view(g.turn), ["A", "B", "C"]).lines
    for seat, text in before:
        line = next(line for line in shown if line[1:].startswith("ABC"[seat]))
        assert text in line, (line, text)


HEAVY = "━┃┏┓┗┛┣┫┳┻╋"


def test_the_tile_laid_last_is_outlined_in_heavy_lines() -> None:
    """On her screen, one heavy box: around the tile laid last, wherever it went; the
    pictures of the rule book stay light."""
    from fido.layout import Layouter  # noqa: PLC0415
    from fido.terminal.picture import draw  # noqa: PLC0415

    rng = random.Random(5)
    game = Game.new("fido set=6", 3, seed=5)
    for _ in range(12):
        if game.is_over:
            break
        game.push(rng.choice(game.legal_moves()))
        lay = Layouter.from_table(game.table, game.rules.max_pips)
        if not lay.placed:
            continue
        for zoom in (1, 2):
            pic = draw(lay, zoom, mark_last=True)
            text = "\n".join(pic.lines)
            heavy = {(c, r) for r, line in enumerate(pic.lines)
                     for c, ch in enumerate(line) if ch in HEAVY}
            left, right = min(c for c, _ in heavy), max(c for c, _ in heavy)
            top, bottom = min(r for _, r in heavy), max(r for _, r in heavy)
            box = ({(c, r) for c in range(left, right + 1) for r in (top, bottom)}
                   | {(c, r) for r in range(top, bottom + 1) for c in (left, right)})
            assert heavy == box, (zoom, text)  # one closed box, nothing else heavy
            col, row = pic.at(lay.placed[-1].x, lay.placed[-1].y)
            assert top < row < bottom and left < col < right, (zoom, text)  # around it
            assert not set(HEAVY) & set("\n".join(draw(lay, zoom).lines))


def test_a_filter_of_superscript_digits_matches_nothing_and_says_so() -> None:
    """"/²" is a digit to str.isdigit, not to int(): the filter finds no move, no crash;
    "/6" still finds the sixes."""
    game = Game.new("fido set=6", 3, seed=2)
    view = game.view(game.turn)
    none = play_screen(view, ["A", "B", "C"], Frame(query="²"))
    assert any("no legal move matches the filter" in line for line in none.lines)
    sixes = play_screen(view, ["A", "B", "C"], Frame(query="6"))
    assert sixes.moves and all(6 in (m.tile.high, m.tile.low) for _n, m in sixes.moves
                               if isinstance(m, Placement))


# ------------------------------------------------------------------ the language


def test_lang_de_beats_an_english_environment(tmp_path: Path) -> None:
    """--lang wins over LANG; the bots' names and the notation stay as they are."""
    log = io.StringIO()
    child = spawn(*play_args(tmp_path / "g.json"), "--lang", "de", log=log,
                  env={"LANG": "en_US.UTF-8", "LC_ALL": "en_US.UTF-8"})  # fmt: skip
    child.expect(SAYS["de"]["prompt"])
    shown = log.getvalue()
    for german in ("Summe der Enden", "du bist am Zug", "Züge, beste zuerst", "Hand ("):
        assert german in shown
    assert not [w for w in ENGLISH_ONLY if w in shown]
    child.sendline("q")
    child.expect("Spiel verlassen")
    child.sendline("q")
    child.expect(pexpect.EOF)


@pytest.mark.parametrize(
    ("env", "args", "lang"),
    [
        ({"LANG": "de_DE.UTF-8"}, [], "de"),  # the environment alone
        ({"LANGUAGE": "de:en", "LANG": "en_US.UTF-8"}, [], "de"),  # LANGUAGE before LANG
        ({"LANG": "de_DE.UTF-8"}, ["--lang", "en"], "en"),  # --lang first, either way
        ({"LC_ALL": "C"}, [], "en"),  # no language: English
    ],
)
def test_the_language_comes_from_lang_else_the_environment(
    tmp_path: Path, env: dict[str, str], args: list[str], lang: str
) -> None:
    child = spawn(*play_args(tmp_path / "g.json"), *args, env=env)
    child.expect(SAYS[lang]["prompt"])
    child.sendline("q")
    child.expect(SAYS[lang]["leave"])
    child.sendline("q")
    child.expect(SAYS[lang]["left"])
    child.expect(pexpect.EOF)


def test_an_unknown_lang_is_refused_before_the_deal(tmp_path: Path) -> None:
    child = spawn(*play_args(tmp_path / "g.json"), "--lang", "xx")
    child.expect(r"--lang is one of en, de, not xx")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    assert not (tmp_path / "g.json").exists()


def test_refused_options_are_said_in_german() -> None:
    child = spawn("play", "--bots", "expert,greedy", "--players", "4", "--lang", "de")
    child.expect(r"Fehler: --bots nennt 2 Stufen für 3 Bot-Plätze")
    child.expect(pexpect.EOF)


def test_a_refused_move_is_answered_in_german_with_the_moves_to_choose_from() -> None:
    """The engine's reasons are English; the terminal says its own, from what it knows."""
    game = Game.new("fido set=12", 4, seed=3)
    rng = random.Random(1)
    for _ in range(14):
        game.push(rng.choice(game.legal_moves()))
    view = game.view(game.turn)
    legal = {m.text() for m in view.legal_moves}
    placed = len(view.table.placements)
    mine = view.hand[0]
    with use("de"):
        draw = refusal(view, "draw", Move.from_text("draw"))
        assert draw.startswith("„draw“: Du kannst jetzt nicht ziehen. Mögliche Züge: ")
        listed = draw.split(": ")[-1].split(", ")
        assert listed and set(listed) <= legal
        gone = refusal(view, "x", Placement(mine, placed + 5, 0))
        assert gone == f"„x“: kein Stein Nr. {placed + 5} auf dem Tisch " \
                       f"(die Steine sind von 0 bis {placed - 1} nummeriert)"  # fmt: skip
        assert not_a_move(view, "zz", "zz") == "„zz“: kein Zug (? zeigt die Tasten)"
        assert "Die Zahlen gehen bis 12" in not_a_move(view, "130-1", "130-1")
        absent = next(t for t in game.set.tiles if t not in view.hand)
        assert ambiguous(view, "t", absent) == f"„t“: Du hast {absent.text()} nicht"
    with use("en"):
        assert refusal(view, "draw", Move.from_text("draw")).startswith(
            "'draw': you cannot draw now. Possible moves: ")


def test_rules_in_german_fall_back_to_the_english_book(tmp_path: Path) -> None:
    """No German rule book in this checkout: the summary in German, the book in English."""
    if rulebook.BOOKS.joinpath("rules.de.md").is_file():
        pytest.skip("a German rule book is shipped: test_rules_read_the_book_of_the_language")
    out = run("rules", "fido set=6", "--lang", "de")
    assert out.returncode == 0, out.stderr
    assert "Steine pro SpielerIn" in out.stdout and "Wertung" in out.stdout  # the summary: German
    assert "10. Notation" in out.stdout and "3. FIDO: a game" in out.stdout  # the book: English
    listing = run("rules", "--lang", "de")
    assert "Regelwerke" in listing.stdout and "Doppel-6" in listing.stdout


def test_the_list_of_rulesets_speaks_german() -> None:
    """`fido rules --lang de`: German headings, the scoring in the reader's words (never the
    code's none / divisor / fives_and_threes), and the German rule book named."""
    out = run("rules", "--lang", "de")
    assert out.returncode == 0, out.stderr
    assert "docs/rules.de.md" in out.stdout and "Wertung" in out.stdout
    assert "keine (Punkte erst am Ende)" in out.stdout and "S/5 + S/3" in out.stdout
    values = [line.split("│")[5].strip() for line in out.stdout.splitlines()
              if line.count("│") == 6 and line.split("│")[5].strip()]
    assert len(values) >= 7 and not {"none", "divisor", "fives_and_threes"} & set(values)
    assert "Punktestände" not in out.stdout and "Rulesets" not in out.stdout
    english = run("rules")
    assert "none (points only at the end)" in english.stdout and "docs/rules.md" in english.stdout


def test_rules_read_the_book_of_the_language(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """rules.<lang>.md where it exists (a stand-in German book here), else rules.md."""
    english = rulebook.BOOKS.joinpath("rules.md").read_text(encoding="utf-8")
    (tmp_path / "rules.md").write_text(english, encoding="utf-8")
    (tmp_path / "rules.de.md").write_text(
        "# Die Regeln\n\n## 1. Steine und Spiele\n\nEin Dominostein hat zwei Enden.\n\n"
        "## 2. FIDO: der Tisch\n\n"
        "<!-- picture: fido set=6 | cross 6-6 | S = 12 | der eröffnende Doppelstein -->\n\n"
        "## 4. Die klassischen Varianten\n\nBlock.\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(rulebook, "BOOKS", tmp_path)
    fido = Ruleset.from_text("fido set=6")
    with use("de"):
        text = rulebook.rules_text(fido)
        assert "1. Steine und Spiele" in text and "klassischen" not in text  # FIDO's sections
        assert "der eröffnende Doppelstein: `cross 6-6`, S = 12" in text
    with use("en"):
        assert "1. Tiles and sets" in rulebook.rules_text(fido)
    (tmp_path / "rules.de.md").unlink()
    with use("de"):
        assert "1. Tiles and sets" in rulebook.rules_text(fido)  # none in German: English


def test_fido_demo_speaks_the_players_language(tmp_path: Path) -> None:
    """A game to watch is the player's too: German from the terminal's language or
    --lang, every line of it (the organisers' commands, players and ranking, stay English)."""
    out = subprocess.run(
        [FIDO, "demo", "--rules", RULES, "--players", "3", "--seed", "4"],
        capture_output=True, text=True, timeout=60, check=False,
        env={"COLUMNS": "120", "PATH": "/usr/bin:/bin", "LANG": "de_DE.UTF-8", **PASS_ENV},
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "3 SpielerInnen; SpielerIn 1 eröffnet mit" in out.stdout, out.stdout
    assert "Summe" in out.stdout and "Ergebnis" in out.stdout
    for word in ("players", "Player", " sum ", "opens", "Result (", "place", "final"):
        assert word not in out.stdout, (word, out.stdout)
    english = subprocess.run(
        [FIDO, "demo", "--rules", RULES, "--players", "3", "--seed", "4", "--lang", "en"],
        capture_output=True, text=True, timeout=60, check=False,
        env={"COLUMNS": "120", "PATH": "/usr/bin:/bin", "LANG": "de_DE.UTF-8", **PASS_ENV},
    )  # fmt: skip
    assert "3 players; Player 1 opens with" in english.stdout and "Result (" in english.stdout


def test_the_players_commands_explain_themselves_in_the_terminals_language() -> None:
    """`fido play --help` is for players: Typer reads it before --lang, so it is written
    in the terminal's language (the organisers' commands stay English, as their docs)."""
    def helps(*args: str, lang: str) -> str:
        out = subprocess.run(
            [FIDO, *args, "--help"], capture_output=True, text=True, timeout=60, check=False,
            env={"COLUMNS": "200", "PATH": "/usr/bin:/bin", "LANG": lang, **PASS_ENV},
        )  # fmt: skip
        assert out.returncode == 0, out.stderr
        return out.stdout

    german = helps("play", lang="de_DE.UTF-8")
    assert "Ein Spiel im Terminal gegen Bots spielen" in german
    assert "SpielerInnen am Tisch, du mitgezählt" in german and "players at the table" not in german
    assert "Einem Spiel zufälliger SpielerInnen zusehen" in helps(lang="de_DE.UTF-8")
    assert "nur prüfen" in helps("replay", lang="de_DE.UTF-8")
    assert "Regeln eines Regelwerks" in helps("rules", lang="de_DE.UTF-8")
    assert "Register and list players." in helps(lang="de_DE.UTF-8")  # an organiser's: English
    english = helps("play", lang="C.UTF-8")
    assert "Play a hand at the terminal against bots" in english and "Spiel" not in english
