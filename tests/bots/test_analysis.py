"""Move analysis: judged from the seat's view only, exact where the solver settles it,
honest about records with nothing to judge, and the CLI end to end with bad input."""

from __future__ import annotations

import inspect
import json
import random
from itertools import combinations
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fido import Game
from fido.analysis import analyse_game, analyse_record, decision_jobs, evaluate
from fido.analysis.estimate import POLICIES
from fido.analysis.parallel import run_decisions
from fido.bots.registry import make_bot
from fido.bots.runner import play_out
from fido.bots.solver import margin, solve
from fido.cli import app
from fido.engine.moves import Move
from fido.engine.views import SeatView
from fido.errors import ArgumentError, ConfigurationError, RecordError
from fido.record import GameRecord

runner = CliRunner()


def bot_game(text: str, players: int, seed: int, moves: int | None = None) -> Game:
    """A hand of experts (stopped after ``moves`` moves when given)."""
    g = Game.new(text, players, seed=seed)
    bot = make_bot("expert")
    rngs = [random.Random(seed * 10 + s) for s in range(players)]
    if moves is None:
        return play_out(g, [bot] * players, rngs)
    while not g.is_over and len(g) < moves:
        g.push(bot.choose(g.view(g.turn), rngs[g.turn]))
    return g


def seat_views(record: GameRecord, seat: int) -> list[SeatView]:
    """Every view the seat had, one per move of the record."""
    game = record.new_game()
    out = [game.view(seat)]
    for _i, _turn, g in record.steps():
        out.append(g.view(seat))
    return out


def swapped_twin(record: GameRecord, seat: int) -> GameRecord:
    """The same record with two hidden tiles of two other hands swapped in the deal,
    such that every view of ``seat`` stays the same (and the hidden hands differ)."""
    final = record.replay()
    for p, q in combinations([s for s in range(len(record.players)) if s != seat], 2):
        for a in final.hand(p):
            for b in final.hand(q):
                if a.is_double or b.is_double or a not in record.hands[p]:
                    continue
                if b not in record.hands[q]:
                    continue
                hands = [list(h) for h in record.hands]
                hands[p][hands[p].index(a)] = b
                hands[q][hands[q].index(b)] = a
                twin = GameRecord(
                    record.ruleset, record.players, tuple(map(tuple, hands)), record.stock,
                    record.moves,
                )
                try:
                    if seat_views(twin, seat) == seat_views(record, seat):
                        return twin
                except RecordError:
                    continue  # the swap made a recorded move illegal
    raise AssertionError("no swap of hidden tiles keeps the seat's views")


@pytest.mark.parametrize("policy", POLICIES)
def test_the_analysis_never_reads_a_hidden_tile(policy: str) -> None:
    seat = 0
    record = GameRecord.from_game(bot_game("fido set=9", 4, seed=5, moves=30))
    twin = swapped_twin(record, seat)
    assert twin.hands != record.hands  # the hidden hands differ ...
    assert twin.replay().hands != record.replay().hands
    a = analyse_record(record.to_json(), [seat], samples=24, seed=3, policy=policy)
    b = analyse_record(twin.to_json(), [seat], samples=24, seed=3, policy=policy)
    assert a["decisions"], "the test needs decisions to compare"
    assert a == b  # ... and the analysis of the seat is the same, number for number
    assert a["policy"] == policy
    # while another seed does give other numbers (the comparison can fail)
    c = analyse_record(record.to_json(), [seat], samples=24, seed=4, policy=policy)
    assert c["decisions"] != a["decisions"]


def golden_position() -> SeatView:
    """A double-9 position of four experts with 12 legal moves (seat 2 to move)."""
    g = Game.new("fido set=9", 4, seed=5)
    bot = make_bot("expert")
    rngs = [random.Random(50 + s) for s in range(4)]
    while len(g) < 12 or len(g.legal_moves()) < 3:
        g.push(bot.choose(g.view(g.turn), rngs[g.turn]))
    return g.view(g.turn)


# evaluate(golden_position(), samples=120, rng=random.Random(7), policy="greedy"): move,
# expected margin, loss, worlds. First pinned before the champion's rollouts; made again in
# issue 45, when the sampler's two shuffles became the engine's Fisher-Yates over
# rng.random() (fido.engine.dealing.shuffle) instead of rng.shuffle: the same worlds, alike
# likely, drawn from other random numbers. With rng.shuffle put back, the figures of
# before (5-4@7n first at -14.913889) came out unchanged after the engine's other changes.
GOLDEN_GREEDY = [
    ("6-6@9w", -16.911111, 0.0, 120), ("8-7@4w", -16.466667, 0.0, 30),
    ("8-7@8e", -18.677778, 0.0, 30), ("7-5@8e", -18.888889, 0.0, 15),
    ("5-4@7n", -20.844444, 2.47619, 15), ("6-3@9w", -21.833333, 2.755556, 60),
    ("7-5@7n", -20.455556, 3.544444, 120), ("7-5@4w", -23.733333, 5.222222, 30),
    ("3-0@10s", -23.355556, 5.571429, 15), ("3-0@11e", -23.2, 5.619048, 15),
    ("6-3@10s", -30.755556, 16.666667, 15), ("6-3@11e", -30.755556, 16.666667, 15),
]  # fmt: skip


def test_greedy_continuations_reproduce_their_figures() -> None:
    view = golden_position()
    assert len(view.legal_moves) == 12 and view.seat == 2
    ev = evaluate(view, samples=120, rng=random.Random(7), policy="greedy")
    got = [(v.move.text(), round(v.expected, 6), round(v.loss, 6), v.worlds) for v in ev.moves]
    assert got == GOLDEN_GREEDY


def test_the_champion_s_rollouts_are_the_default() -> None:
    assert POLICIES[0] == "smart"
    for f in (evaluate, analyse_game, analyse_record, decision_jobs):
        assert inspect.signature(f).parameters["policy"].default == "smart", f
    view = golden_position()
    default = evaluate(view, samples=40, rng=random.Random(7))
    smart = evaluate(view, samples=40, rng=random.Random(7), policy="smart")
    greedy = evaluate(view, samples=40, rng=random.Random(7), policy="greedy")
    assert default == smart
    assert [v.expected for v in smart.moves] != [v.expected for v in greedy.moves]
    record = GameRecord.from_game(bot_game("fido set=6", 2, seed=1))
    assert analyse_record(record.to_json(), [0], samples=10, seed=0)["policy"] == "smart"


def test_an_unknown_policy_is_refused() -> None:
    view = golden_position()
    with pytest.raises(ArgumentError, match="policy is smart or greedy, not 'random'"):
        evaluate(view, samples=10, rng=random.Random(1), policy="random")
    text = GameRecord.from_game(bot_game("fido set=6", 2, seed=1)).to_json()
    with pytest.raises(ConfigurationError, match="policy is smart or greedy"):
        analyse_record(text, [0], samples=10, seed=0, policy="expert")


def endgame() -> tuple[Game, int]:
    """A two-player position with the stock empty (nothing hidden from the seat to move)
    where the moves differ in exact value."""
    for seed in range(500):
        rng = random.Random(seed)
        g = Game.new("muggins", 2, rng=rng)
        while not g.is_over:
            moves = g.legal_moves()
            if g.stock_count == 0 and len(moves) >= 2 and sum(g.hand_counts()) <= 9:
                values = set()
                for m in moves:
                    w = g.copy()
                    w.push(m)
                    values.add(margin(w.outcome, g.turn) if w.outcome else solve(w, g.turn).value)
                if len(values) >= 2:
                    return g, seed
            g.push(rng.choice(moves))
    raise AssertionError("no endgame found")


def test_an_endgame_the_solver_settles_is_exact() -> None:
    g, _seed = endgame()
    seat = g.turn
    truth = {}
    for m in g.legal_moves():
        w = g.copy()
        w.push(m)
        truth[m] = margin(w.outcome, seat) if w.outcome else solve(w, seat, 10**6).value
    ev = evaluate(g.view(seat), samples=50, rng=random.Random(1))
    assert ev.exact and ev.worlds == 1
    best = max(truth.values())
    assert truth[ev.best.move] == best
    assert ev.best.loss == 0
    for v in ev.moves:
        assert v.loss == pytest.approx(best - truth[v.move], abs=1e-9)
        assert v.loss_ci == 0
    assert any(v.loss > 0 for v in ev.moves)
    # through a record: the move played there is reported with its exact loss
    worst = min(truth, key=lambda m: truth[m])
    g.push(worst)
    a = analyse_game(GameRecord.from_game(g), [seat], samples=50, seed=0)
    last = a.decisions[-1]
    assert last.number == len(g) and last.played == worst and last.eval.exact
    assert last.loss == pytest.approx(best - truth[worst])


def test_a_record_of_forced_moves_has_nothing_to_analyse() -> None:
    g = Game.new("fido set=12", 4, seed=2)
    while len(g.legal_moves()) == 1:  # the opening double is forced
        g.push(g.legal_moves()[0])
    assert len(g) >= 1
    record = GameRecord.from_game(g)
    out = analyse_record(record.to_json(), [0, 1, 2, 3], samples=10, seed=0)
    assert out["nothing_to_analyse"] is True
    assert out["decisions"] == []
    assert "nothing to analyse" in out["message"]
    assert all(s["decisions"] == 0 for s in out["summaries"])


def test_every_move_is_valued_and_the_played_one_reported(tmp_path: Path) -> None:
    record = GameRecord.from_game(bot_game("fido set=9", 3, seed=8))
    out = analyse_record(record.to_json(), [1], samples=40, seed=9)
    json.dumps(out)  # JSON-able for a worker's answer
    assert out["format"] == "fido-analysis" and out["seats"] == [1]
    final = record.replay()
    for d in out["decisions"]:
        assert d["seat"] == 1
        assert Move.from_text(d["played"]).text() == record.moves[d["number"] - 1].move
        texts = [m["move"] for m in d["moves"]]
        assert d["played"] in texts and texts[0] == d["best"]
        assert d["moves"][0]["loss"] == 0
        assert all(m["loss"] >= 0 for m in d["moves"])
        mine = next(m for m in d["moves"] if m["move"] == d["played"])
        assert (d["loss"], d["loss_ci"]) == (mine["loss"], mine["loss_ci"])
    assert final.outcome is not None
    summary = out["summaries"][0]
    assert summary["decisions"] == len(out["decisions"])
    losses = [d["loss"] for d in out["decisions"]]
    assert summary["lost"] == pytest.approx(sum(losses), abs=0.01)
    assert summary["within_one"] == pytest.approx(sum(x < 1 for x in losses) / len(losses), 1e-3)
    ranked = [d["number"] for d in sorted(out["decisions"], key=lambda d: -d["loss"])]
    assert [n for n in summary["mistakes"]] == [n for n in ranked if n in summary["mistakes"]]


def test_seats_and_samples_out_of_range_are_refused() -> None:
    text = GameRecord.from_game(bot_game("fido set=6", 2, seed=1)).to_json()
    with pytest.raises(ConfigurationError, match="seats are 0 to 1"):
        analyse_record(text, [2], samples=10, seed=0)
    with pytest.raises(ConfigurationError, match="samples"):
        analyse_record(text, [0], samples=1, seed=0)
    with pytest.raises(RecordError):
        analyse_record("{", [0], samples=10, seed=0)


# ---------------------------------------------------------------- the command line


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("analysis") / "game.json"
    GameRecord.from_game(bot_game("fido set=9", 3, seed=11)).save(path)
    return path


def test_cli_end_to_end_in_parallel(record_file: Path, tmp_path: Path) -> None:
    out1, out2 = tmp_path / "a1.json", tmp_path / "a2.json"
    args = ["analyze", str(record_file), "--seat", "2", "--samples", "30", "--seed", "5"]
    r = runner.invoke(app, [*args, "--json", str(out1), "--jobs", "2"])
    assert r.exit_code == 0, r.output
    assert "biggest mistakes first" in r.output and "lost per decision" in r.output
    data = json.loads(out1.read_text())
    assert data["format"] == "fido-analysis" and data["seats"] == [2]
    assert data["decisions"] and all(d["seat"] == 2 for d in data["decisions"])
    assert data["record"] == "game.json"
    # one process gives the same numbers as two (each decision's worlds come from its seed)
    r = runner.invoke(app, [*args, "--json", str(out2), "--jobs", "1"])
    assert r.exit_code == 0, r.output
    assert json.loads(out2.read_text()) == data
    # and the replay shows it beside each move
    r = runner.invoke(app, ["replay", str(record_file), "--analysis", str(out1)])
    assert r.exit_code == 0, r.output
    assert "analysis" in r.output
    worst = max(data["decisions"], key=lambda d: d["loss"])
    if worst["loss"] > 0:
        assert f"best {worst['best']}" in r.output.replace("\n", " ") or "lost" in r.output


def test_cli_nothing_to_analyse(tmp_path: Path) -> None:
    g = Game.new("fido set=12", 4, seed=2)
    g.push(g.legal_moves()[0])
    path = tmp_path / "opening.json"
    GameRecord.from_game(g).save(path)
    r = runner.invoke(app, ["analyze", str(path), "--all", "--samples", "10"])
    assert r.exit_code == 0, r.output
    assert "nothing to analyse" in r.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "3"], "seats are 0 to 2"),
        (["--seat", "-1"], "seats are 0 to 2"),
        (["--seat", "0", "--all"], "not both"),
        (["--samples", "1"], "samples"),
        (["--jobs", "0"], "--jobs"),
        (["--top", "-2"], "--top"),
        (["--policy", "random"], "policy is smart or greedy"),
    ],
)
def test_cli_bad_options(record_file: Path, args: list[str], message: str) -> None:
    r = runner.invoke(app, ["analyze", str(record_file), *args])
    assert r.exit_code == 2, r.output
    assert message in r.output and "Traceback" not in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


def test_cli_bad_records(tmp_path: Path, record_file: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "fido-record", "version": 1, "ruleset": "fido", [')
    illegal = tmp_path / "illegal.json"
    data = json.loads(record_file.read_text())
    data["moves"][3] = {"move": "9-9@0n"}
    illegal.write_text(json.dumps(data))
    empty_dir = tmp_path / "empty"
    empty_dir.mkdir()
    for path, message in (
        (bad, "not JSON"),
        (illegal, "move 4"),
        (tmp_path / "missing.json", "cannot read"),
        (empty_dir, "no *.json records"),
    ):
        r = runner.invoke(app, ["analyze", str(path), "--samples", "10"])
        assert r.exit_code == 2, r.output
        assert message in r.output and "Traceback" not in r.output
    r = runner.invoke(app, ["analyze", str(record_file), "--json", str(tmp_path)])
    assert r.exit_code == 2 and "directory" in r.output


def test_replay_refuses_the_analysis_of_another_game(tmp_path: Path, record_file: Path) -> None:
    other = tmp_path / "other.json"
    GameRecord.from_game(bot_game("fido set=9", 3, seed=12)).save(other)
    out = tmp_path / "other-analysis.json"
    r = runner.invoke(app, ["analyze", str(other), "--seat", "0", "--samples", "10",
                            "--json", str(out), "--jobs", "1"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(app, ["replay", str(record_file), "--analysis", str(out)])
    assert r.exit_code == 1 and "another game" in r.output
    junk = tmp_path / "junk.json"
    junk.write_text("[1, 2]")
    r = runner.invoke(app, ["replay", str(record_file), "--analysis", str(junk)])
    assert r.exit_code == 1 and "not an analysis" in r.output


def test_a_local_ray_instance_gives_the_same_analysis() -> None:
    import ray  # noqa: PLC0415 (the dev extra installs it; slow to import)

    record = GameRecord.from_game(bot_game("fido set=6", 3, seed=3))
    local = analyse_game(record, [0, 1], samples=16, seed=2)
    jobs = decision_jobs(record, [0, 1], 16, 2)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote = run_decisions(jobs, ray_address="local")
    finally:
        ray.shutdown()
    assert sorted(remote, key=lambda d: d.number) == list(local.decisions)


def test_replay_analyses_on_the_spot(tmp_path: Path) -> None:
    path = tmp_path / "small.json"
    GameRecord.from_game(bot_game("fido set=6", 2, seed=4)).save(path)
    r = runner.invoke(app, ["replay", str(path), "--analyse"])
    assert r.exit_code == 0, r.output
    assert "analysis" in r.output and "best" in r.output
    r = runner.invoke(app, ["replay", str(path), "--analyse", "--analysis", str(path)])
    assert r.exit_code == 1 and "not both" in r.output
