"""The terminal's keys, matches, the rule book and the replay's seat, end to end in a pty
(in English and in German where a whole screen or game is read)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pexpect
import pytest

from fido.record import GameRecord
from support.terminal import LANG_ENV, LANGS, PROMPT, SAYS, run, spawn

# the keys' answers per language (the rest: test_terminal.SAYS)
KEYS = {
    "en": {
        "help": "keys: a number plays that move",
        "filter": r"Moves with 12 \(\d+ of \d+; / clears\)",
        "zoom": "zoom {} of 0-2",
        "table": "Table: w a s d scroll",
        "log": r"The log: moves \d+-\d+ of \d+",
        "numbered": r"'999': the moves are numbered 1 to \d+",
        "page": "page",
        "hand": "Hand (27,",
        "next hand": "Enter: the next hand",
        "won": "won the match",
        "score": "Match to 31: after hand 1",
        "her hand": r"Hand \(7, \d+ pips\)",
        "not a key": "'zz' is not a key here: n or Enter next, p back, a step number 0 to {}",
    },
    "de": {
        "help": "Tasten: Eine Zahl spielt diesen Zug",
        "filter": r"Züge mit 12 \(\d+ von \d+; / alle\)",
        "zoom": "Zoom {} von 0-2",
        "table": "Tisch: w a s d verschieben",
        "log": r"Spielverlauf: Züge \d+-\d+ von \d+",
        "numbered": r"„999“: Die Züge sind von 1 bis \d+ nummeriert",
        "page": "Seite",
        "hand": "Hand (27,",
        "next hand": "Enter: das nächste Spiel",
        "won": "gewinnt die Partie",
        "score": "Partie bis 31: nach Spiel 1",
        "her hand": r"Hand \(7, \d+ Augen\)",
        "not a key": "„zz“ ist hier keine Taste: n oder Enter weiter, p zurück, "
                     "eine Schrittnummer 0 bis {}",
    },
}


def big(*args: str, rows: int, cols: int, log: io.StringIO | None = None,
        lang: str = "en") -> pexpect.spawn:
    child = spawn(*args, log=log, env=LANG_ENV[lang])
    child.setwinsize(rows, cols)
    return child


@pytest.mark.parametrize("lang", LANGS)
def test_a_wide_terminal_is_used_whole(tmp_path: Path, lang: str) -> None:
    says = SAYS[lang]
    log = io.StringIO()
    args = ["play", "--rules", "fido set=18", "--players", "6", "--seed", "1", "--delay", "0",
            "--hint", "expert", "--bots", "greedy", "--save", str(tmp_path / "g.json")]  # fmt: skip
    child = big(*args, rows=50, cols=200, log=log, lang=lang)
    child.expect(says["prompt"])
    lines = log.getvalue().split("\r\n")
    hand = next(line for line in lines if KEYS[lang]["hand"] in line)
    assert len(hand) > 80  # 27 tiles on one line, not cut at 80 columns
    child.sendline("q")
    child.expect(says["leave"])
    child.sendline("q")
    child.expect(pexpect.EOF)


@pytest.mark.parametrize("lang", LANGS)
def test_pages_filters_table_log_and_keys(tmp_path: Path, lang: str) -> None:
    says, keys = SAYS[lang], KEYS[lang]
    prompt = says["prompt"]
    args = ["play", "--rules", "fido set=12", "--players", "4", "--seed", "3", "--delay", "0",
            "--hint", "expert", "--bots", "greedy", "--save", str(tmp_path / "g.json")]  # fmt: skip
    child = big(*args, rows=12, cols=60, lang=lang)
    child.expect(prompt)
    child.sendline("1")  # a few turns on, so the table has a few slots
    child.expect(prompt)
    child.sendline("?")
    child.expect(keys["help"])
    child.expect(prompt)
    child.sendline("/12")
    child.expect(keys["filter"])
    child.expect(prompt)
    child.sendline("/")
    child.expect(prompt)
    child.sendline("t")
    child.expect(keys["zoom"].format(1))
    child.expect(keys["table"])
    child.sendline("+dd")
    child.expect(keys["zoom"].format(2))
    child.sendline("")
    child.expect(prompt)
    child.sendline("l")
    child.expect(keys["log"])
    child.sendline("")
    child.expect(prompt)
    child.sendline("0-0@99e")  # the terminal's reason
    child.expect(says["not held"])
    child.expect(prompt)
    child.sendline("999")
    child.expect(keys["numbered"])
    child.expect(prompt)
    child.sendline("q")
    child.expect(says["leave"])
    child.sendline("q")
    child.expect(pexpect.EOF)


@pytest.mark.parametrize("lang", LANGS)
def test_the_pages_turn_in_a_small_terminal(tmp_path: Path, lang: str) -> None:
    prompt, page = SAYS[lang]["prompt"], KEYS[lang]["page"]
    for seed in range(1, 30):  # a deal whose first turn has more moves than a page holds
        args = ["play", "--rules", "fido set=18", "--players", "6", "--seed", str(seed),
                "--delay", "0", "--hint", "expert", "--bots", "greedy", "--seat", "3",
                "--save", str(tmp_path / "g.json")]  # fmt: skip
        child = big(*args, rows=16, cols=60, lang=lang)
        child.expect(prompt)
        text = child.before
        if f"{page} 1/" in text:
            pages = int(re.search(rf"{page} 1/(\d+)", text)[1])  # type: ignore[index]
            child.sendline("n")
            child.expect(rf"{page} 2/{pages}")
            child.expect(prompt)
            child.sendline("p")
            child.expect(rf"{page} 1/{pages}")
            child.expect(prompt)
            child.sendline("q")
            child.sendline("q")
            child.expect(pexpect.EOF)
            return
        child.sendline("q")
        child.sendline("q")
        child.expect(pexpect.EOF)
    raise AssertionError("no deal needed a second page")


@pytest.mark.parametrize("lang", LANGS)
def test_a_match_to_the_target_with_the_score_between_hands(tmp_path: Path, lang: str) -> None:
    keys = KEYS[lang]
    save = tmp_path / "m.json"
    args = ["play", "--rules", "fives_and_threes", "--players", "2", "--match", "--seed", "3",
            "--delay", "0", "--hint", "expert", "--bots", "greedy",
            "--save", str(save)]  # fmt: skip
    log = io.StringIO()
    child = spawn(*args, log=log, env=LANG_ENV[lang])
    hands = 0
    while (i := child.expect([SAYS[lang]["prompt"], keys["next hand"], keys["won"]])) != 2:
        if i == 0:
            child.sendline("1")
        else:
            hands += 1
            child.sendline("")
    child.expect(pexpect.EOF)
    out = log.getvalue()
    assert keys["score"] in out
    totals = [int(t) for t in re.findall(r"│\s+(\d+) │\s*\r\n", out)]
    assert max(totals) >= 31
    records = sorted(tmp_path.glob("m-hand*.json"))
    assert len(records) == hands + 1
    assert all(GameRecord.load(r).replay().is_over for r in records)


def test_match_options_are_checked() -> None:
    out = run("play", "--rules", "fido set=6", "--players", "3", "--match")
    assert out.returncode == 1 and "fido has no match target" in out.stderr
    out = run("play", "--target", "50")
    assert out.returncode == 1 and "--target is the target of a --match" in out.stderr


def test_rules_of_one_ruleset_with_the_notation_and_pictures() -> None:
    out = run("rules", "fido set=6")
    assert out.returncode == 0, out.stderr
    assert "10. Notation" in out.stdout and "3. FIDO: a game" in out.stdout
    assert "classic variants" not in out.stdout
    assert "the opening double: cross 18-18, S = 36" in out.stdout and "│18 ·18 │" in out.stdout
    assert "<!--" not in out.stdout
    out = run("rules", "muggins")
    assert "4. The classic variants" in out.stdout and "3. FIDO: a game" not in out.stdout
    assert "match to" in out.stdout and "61" in out.stdout
    out = run("rules", "nope")
    assert out.returncode == 1 and "unknown ruleset" in out.stderr


@pytest.mark.parametrize("lang", LANGS)
def test_replay_step_shows_her_hands_and_the_result_and_answers_nonsense(
    tmp_path: Path, lang: str
) -> None:
    says, keys = SAYS[lang], KEYS[lang]
    save = tmp_path / "game.json"
    args = ["demo", "--rules", "fido set=6", "--players", "3", "--seed", "4"]
    demo = run(*args, "--save", str(save))
    assert demo.returncode == 0, demo.stderr
    record = GameRecord.load(save)
    n = len(record.moves)
    child = spawn("replay", str(save), "--step", "--seat", "0", env=LANG_ENV[lang])
    child.expect(rf"\[0/{n}\] {says['deal']}")
    child.expect(keys["her hand"])
    child.sendline("zz")
    # the message is wrapped at any space of the terminal's width
    child.expect(re.escape(keys["not a key"].format(n)).replace(r"\ ", r"\s+"))
    child.sendline(str(n))
    child.expect(rf"\[{n}/{n}\]")
    child.expect_exact(says["result"])
    child.sendline("q")
    child.expect(pexpect.EOF)
    out = run("replay", str(save), "--step", "--seat", "7")
    assert out.returncode == 1 and "--seat is 0 .. 2" in out.stderr


def test_a_match_stopped_mid_hand_goes_on_where_it_stopped(tmp_path: Path) -> None:
    """Stopped in hand 2: --match --resume counts hand 1, goes on with hand 2 from its last
    move, and plays the match to its end."""
    save = tmp_path / "m.json"
    args = ["play", "--rules", "fives_and_threes", "--players", "2", "--match", "--seed", "3",
            "--delay", "0", "--hint", "expert", "--bots", "greedy", "--name", "Ann",
            "--save", str(save)]  # fmt: skip
    child = spawn(*args)
    while child.expect([PROMPT, "Enter: the next hand"]) == 0:
        child.sendline("1")  # hand 1 to its end
    child.sendline("")
    for _ in range(2):  # two moves of hand 2, then stop
        child.expect(PROMPT)
        child.sendline("1")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect("Leave the game")
    child.sendline("s")  # save and quit
    child.expect(pexpect.EOF)
    hand1 = GameRecord.load(tmp_path / "m-hand1.json")
    hand2 = GameRecord.load(tmp_path / "m-hand2.json")
    assert hand1.replay().is_over and not hand2.replay().is_over
    played = [m.move for m in hand2.moves]
    assert played

    # refused: options that would change the saved deal, a name that is not a match
    out = run("play", "--match", "--resume", str(save), "--target", "50")
    assert out.returncode == 1 and "drop --target" in out.stderr
    out = run("play", "--match", "--resume", str(tmp_path / "nothing.json"))
    assert out.returncode == 1 and "no match saved as" in out.stderr
    data = json.loads((tmp_path / "m-hand1.json").read_text())
    for target in ("0", "10" * 20):  # a record's target is bounded as --target is
        data["event"] = f"match to {target}, hand 1"
        (tmp_path / "z-hand1.json").write_text(json.dumps(data))
        out = run("play", "--match", "--resume", str(tmp_path / "z.json"))
        assert out.returncode == 1 and "is 1 to 100000 points" in out.stderr, out.stderr

    log = io.StringIO()
    child = spawn("play", "--match", "--resume", str(save), "--delay", "0", "--hint", "expert",
                  log=log)
    child.expect("hand 2 goes on")
    while (i := child.expect([PROMPT, "Enter: the next hand", "won the match"])) != 2:
        child.sendline("1" if i == 0 else "")
    child.expect(pexpect.EOF)
    shown = log.getvalue()
    assert "Match to 31: after hand 2" in shown  # hand 1 counted, hand 2 finished
    assert "Ann" in shown  # her name, from the records
    again = GameRecord.load(tmp_path / "m-hand2.json")
    assert again.replay().is_over and [m.move for m in again.moves][: len(played)] == played
