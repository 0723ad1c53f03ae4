"""Move analysis: what each move cost, judged only from what its player could know.

>>> import random
>>> from fido import Game
>>> from fido.bots.registry import make_bot
>>> from fido.bots.runner import play_out
>>> from fido.record import GameRecord
>>> g = Game.new("fido set=6", 2, seed=4)
>>> _ = play_out(g, [make_bot("greedy")] * 2, [random.Random(1), random.Random(2)])
>>> result = analyse_record(GameRecord.from_game(g).to_json(), [0], samples=16, seed=1)
>>> result["format"], result["summaries"][0]["seat"]
('fido-analysis', 0)

The API: :func:`analyse_record` (record JSON in, JSON-able dict out: what a
worker process runs), :func:`analyse_game` (a :class:`~fido.record.GameRecord`
in, a :class:`GameAnalysis` out, with a pluggable runner for pools and Ray),
:func:`evaluate` (one :class:`~fido.engine.views.SeatView`: every legal move's
value). The output format is documented in docs/analysis.md.
"""

from fido.analysis.estimate import MoveValue, PositionEval, decision_rng, evaluate
from fido.analysis.report import (
    Decision,
    DecisionJob,
    GameAnalysis,
    SeatSummary,
    analyse_decision,
    analyse_game,
    analyse_record,
    assemble,
    check_settings,
    decision_jobs,
    default_samples,
)

__all__ = [
    "Decision",
    "DecisionJob",
    "GameAnalysis",
    "MoveValue",
    "PositionEval",
    "SeatSummary",
    "analyse_decision",
    "analyse_game",
    "analyse_record",
    "assemble",
    "check_settings",
    "decision_jobs",
    "decision_rng",
    "default_samples",
    "evaluate",
]
