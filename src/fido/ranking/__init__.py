"""Match results and the monthly FIDO world ranking (FLADUB).

* :mod:`fido.ranking.results`: players, result submission with validation,
  confirmations and disputes (the API the server and web app call).
* :mod:`fido.ranking.fladub`: the formula on plain arrays.
* :mod:`fido.ranking.snapshot`: compute and publish a month's ranking.
* :mod:`fido.ranking.report`, :mod:`fido.ranking.export`: a player's report
  with her history plot; CSV and JSON export.

The formula and a worked example are in ``docs/ranking.md``.
"""

from fido.ranking.results import (
    Line,
    PlayerIn,
    ResultError,
    ResultIn,
    Status,
    confirm,
    dispute,
    find_player,
    list_players,
    register_player,
    settle,
    status_at,
    submit,
    submit_many,
)

__all__ = [
    "Line",
    "PlayerIn",
    "ResultError",
    "ResultIn",
    "Status",
    "confirm",
    "dispute",
    "find_player",
    "list_players",
    "register_player",
    "settle",
    "status_at",
    "submit",
    "submit_many",
]
