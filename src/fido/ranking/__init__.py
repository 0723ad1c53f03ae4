"""Match results and the monthly FIDO world ranking (FLADUB).

* :mod:`fido.ranking.players`: register and find players.
* :mod:`fido.ranking.submission`: validate and store results (the API the
  server and web app call).
* :mod:`fido.ranking.reviews`: confirmations, disputes and settlements.
* :mod:`fido.ranking.importer`: results from CSV and JSON files.
* :mod:`fido.ranking.fladub`: the formula on plain arrays.
* :mod:`fido.ranking.snapshot`: compute and publish a month's ranking.
* :mod:`fido.ranking.report`, :mod:`fido.ranking.export`: a player's report
  with her history plot; CSV and JSON export.

The formula and a worked example are in ``docs/ranking.md``.
"""

from fido.ranking.clock import utc, utcnow
from fido.ranking.errors import ResultError
from fido.ranking.players import PlayerIn, find_player, list_players, register_player
from fido.ranking.reviews import Status, confirm, dispute, settle, status_at
from fido.ranking.submission import Line, ResultIn, games_of, submit, submit_many

__all__ = [
    "Line",
    "PlayerIn",
    "ResultError",
    "ResultIn",
    "Status",
    "confirm",
    "dispute",
    "find_player",
    "games_of",
    "list_players",
    "register_player",
    "settle",
    "status_at",
    "submit",
    "submit_many",
    "utc",
    "utcnow",
]
