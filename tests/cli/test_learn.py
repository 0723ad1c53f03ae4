"""``fido learn``: the first lesson at the terminal, as a user runs it (issue 44), in
English and German: a wrong try is answered with why, a right one goes on, and the end
offers the first game (here declined, ``--no-play``: the game itself is ``fido play``'s)."""

from __future__ import annotations

import subprocess

from support.terminal import FIDO, PASS_ENV

# the lesson's own examples, typed as a player types them: wrong tries first
ANSWERS = ["18-18", "",  # the highest double opens
           "16-12@1n", "18-14@0e", "",  # 12-16 on the 12 raises the sum: then come down
           "18-11@0s", "",  # the free side: +11 to 55
           "8-8", "",  # double-eight makes plus eight
           "18-7@0s", "12-8@1n", "",  # keep the joker
           "11-6@3s", "",  # +5 to 55
           "12-5@1n", ""]  # the fewest replies


def learn(*args: str, typed: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([FIDO, "learn", "--no-play", *args], input="\n".join(typed) + "\n",
                          capture_output=True, text=True, timeout=60, check=False,
                          env={"COLUMNS": "100", "LINES": "40", "PATH": "/usr/bin:/bin",
                               **PASS_ENV})


def test_the_lesson_at_the_terminal() -> None:
    out = learn(typed=ANSWERS)
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    text = out.stdout
    assert text.count("Right.") == 7
    assert text.count("Not this one.") == 2
    assert "16-12 on the end 12: the sum is 52, no points." in text
    assert "That spends your joker." in text
    assert "Step 7 of 7" in text and "You know how FIDO scores" in text
    assert "fido play --rules 'fido set=6' --players 3 --bots random" in text
    assert "+4" not in text  # the moves are listed without their points: she finds them


def test_the_lesson_in_german() -> None:
    out = learn("--lang", "de", typed=ANSWERS)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert text.count("Richtig.") == 7 and text.count("Nicht dieser.") == 2
    assert "16-12 an das Ende 12: Die Summe ist 52, keine Punkte." in text
    assert "heiligen Stein" in text and "Du weißt, wie FIDO punktet" in text
    for english in ("Right.", "Not this one", "the sum is", "Step "):
        assert english not in text, english


def test_a_typo_and_leaving() -> None:
    out = learn(typed=["zz", "9", "q"])
    assert out.returncode == 0 and "Traceback" not in out.stderr
    assert "'zz' is none of your moves: type its number, 1 to 1" in out.stdout
    assert "'9' is none of your moves" in out.stdout
    assert "Step 2 of 7" not in out.stdout  # she left at the first step
