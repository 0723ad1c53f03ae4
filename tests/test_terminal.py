"""The terminal game end to end: the real `fido play` / `fido replay --step` in an 80x24 pty."""

from __future__ import annotations

import io
import os
import random
import re
import signal
import sys
from pathlib import Path

import pexpect
import pytest
from rich.console import Console

from fido import Game, Placement, SeatView, Tile
from fido.bots.base import Move
from fido.bots.registry import register
from fido.record import GameRecord
from fido.terminal.screen import Frame, arm_lines, play_screen
from fido.terminal.session import Session

FIDO = str(Path(sys.executable).with_name("fido"))
# the code under test: a source tree on PYTHONPATH comes before the installed one
PASS_ENV = {k: os.environ[k] for k in ("PYTHONPATH",) if k in os.environ}
PROMPT = r"Your move \(key or notation"
RULES = "fido set=6"


def _ctrl_c_on() -> None:
    # a shell's background job ignores SIGINT and a child inherits that: the
    # player's Ctrl-C must reach fido however the test run was started
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def spawn(*args: str, log: io.StringIO | None = None) -> pexpect.spawn:
    child = pexpect.spawn(
        FIDO,
        list(args),
        dimensions=(24, 80),
        encoding="utf-8",
        timeout=60,
        env={"TERM": "dumb", **PASS_ENV},
        preexec_fn=_ctrl_c_on,
    )
    if log is not None:
        child.logfile_read = log
    return child


def play_args(save: Path, seed: int = 5) -> list[str]:
    return [
        "play", "--rules", RULES, "--players", "3", "--seed", str(seed), "--delay", "0",
        "--hint", "expert", "--save", str(save),
    ]  # fmt: skip


def test_a_whole_game_to_the_end_and_nothing_hidden_on_screen(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    log = io.StringIO()
    child = spawn(*play_args(save), log=log)
    moves = 0
    while child.expect([PROMPT, "game record saved to"]) == 0:
        child.sendline("1")
        moves += 1
    child.expect(pexpect.EOF)
    assert moves > 0
    out = log.getvalue()
    assert "Result (" in out and "final" in out
    record = GameRecord.load(save)  # verifies every move
    game = [g for _i, _turn, g in record.steps()][-1]
    assert game.outcome is not None
    record.check_results(game)
    # tiles the others never played were never on her screen
    before_result = out[: out.index("Result (")]
    for seat in (1, 2):
        for tile in game.hand(seat):
            assert not re.search(rf"(?<![0-9]){tile.text()}(?![0-9])", before_result), tile


def test_illegal_input_gets_a_message_and_a_new_prompt(tmp_path: Path) -> None:
    child = spawn(*play_args(tmp_path / "g.json"))
    child.expect(PROMPT)
    child.sendline("zz")
    child.expect("not a move")
    child.expect(PROMPT)
    child.sendline("0-0@99e")  # the engine's reason (fido.validation.explain)
    child.expect(r"'0-0@99e': (you do not hold 0-0|no tile #99)")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect("Leave the game")
    child.sendline("q")
    child.expect("left without saving")
    child.expect(pexpect.EOF)
    assert not (tmp_path / "g.json").exists()


def test_the_hint_shows_scoring_moves_and_the_bots_choice(tmp_path: Path) -> None:
    child = spawn(*play_args(tmp_path / "g.json"))
    child.expect(PROMPT)
    child.sendline("h")
    child.expect(r"hint: (scoring now: .*|nothing scores now); expert plays \S+")
    child.expect(PROMPT)
    child.sendintr()
    child.expect("Leave the game")
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_ctrl_c_asks_and_saves_the_game(tmp_path: Path) -> None:
    save = tmp_path / "left.json"
    child = spawn(*play_args(save, seed=8))
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    child.sendintr()
    child.expect("Leave the game")
    child.sendline("c")  # go on
    child.expect(PROMPT)
    child.sendintr()
    child.expect("Leave the game")
    child.sendline("s")
    child.expect("game saved to")
    child.expect(pexpect.EOF)
    record = GameRecord.load(save)
    assert len(record.moves) >= 1
    steps = list(record.steps())
    assert not steps[-1][2].is_over  # an unfinished game, replayable


def test_replay_steps_forwards_and_backwards(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    child = spawn(*play_args(save, seed=11))
    while child.expect([PROMPT, "game record saved to"]) == 0:
        child.sendline("1")
    child.expect(pexpect.EOF)
    record = GameRecord.load(save)
    sums = [turn.ends_sum for _i, turn, _g in record.steps()]
    n = len(sums)
    child = spawn("replay", str(save), "--step")
    child.expect(rf"\[0/{n}\] the deal")
    child.sendline("n")
    child.expect(rf"\[1/{n}\] move 1")
    child.sendline("n")  # the header (with the sum) comes before the step's label
    child.expect(rf"sum of the ends {sums[1]} [^\n]*\r\n\[2/{n}\] move 2")
    child.sendline("p")
    child.expect(rf"sum of the ends {sums[0]} [^\n]*\r\n\[1/{n}\] move 1")
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


@pytest.mark.parametrize(("text", "players"), [("fido set=18", 6), ("sebastopol", 4)])
def test_every_open_slot_is_drawn_and_the_screen_fits_80x24(text: str, players: int) -> None:
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
        assert names <= drawn | {"(empty:"}
        view = g.view(g.turn)
        seats = [f"P{s}" for s in range(players)]
        shown = play_screen(view, seats, Frame(message="a message")).lines
        assert len(shown) <= 23
        assert all(len(line) <= 80 for line in shown)
        on_screen = "\n".join(shown)
        assert all(t.text() in on_screen for t in view.hand)  # the whole hand is on screen


def test_a_38_tile_hand_fits_the_screen() -> None:
    g = Game.new("fido set=18", 4, seed=2)  # double-18, 4 players: 38 tiles each
    view = g.view(0)
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


def test_typed_garbage_is_answered_and_the_game_goes_on(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    child = spawn(*play_args(save))
    child.expect(PROMPT)
    for text, answer in [
        ("100-1", r"'100-1': .*(between 0 and 99|up to 99)"),
        ("999-9", r"'999-9': .*(between 0 and 99|up to 99)"),
        ("²-1", r"'²-1': not a move"),
        ("１-1", r"'１-1': "),  # the core reads fullwidth digits (reported)
        ("\x1b[A", r"'\\x1b\[A': not a move"),
        ("[/x]", r"'\[/x\]': not a move"),
    ]:
        child.sendline(text)
        child.expect(answer)
        child.expect(PROMPT)
    child.sendline("1")  # and a real move still works
    child.expect(PROMPT)
    child.sendline("q")
    child.expect("Leave the game")
    child.sendline("s")
    child.expect(r"go\s+on\s+with")
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
    assert saved.players == ("greedy 1", "Ann", "random 3")
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
