"""The game rating: one number per person and game family, moved after every game she
finishes, for tables of 2 to 9 players and teams.

A Weng-Lin rating (the maintained ``openskill`` library's Plackett-Luce model): each
person has a mean ``mu`` and an uncertainty ``sigma``; a finished game is a ranking of
its sides (a seat, or a team), and the model moves each side's ratings by how surprising
its place was. Nothing here touches FLADUB, the federation's world ranking: the two
numbers are computed apart and named apart (docs/ratings.md).

Shown as ``round(mu * SCALE)``: a newcomer's 25 is 1500, as on the chess sites; it is
*provisional* until she has :data:`SETTLED` games and her ``sigma`` is below
:data:`SURE`. Bots have fixed ratings (:data:`BOT_RATINGS`, measured by
``bench/bot_ratings.py``): they anchor the scale and never move.

>>> new = rate([[Entrant(25.0, 25 / 3)], [Entrant(25.0, 25 / 3)]], [1, 2])
>>> new[0][0].mu > 25 > new[1][0].mu
True
>>> shown(Rating())
1500
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

from fido.engine.rules import Ruleset

__all__ = ["BOT_RATINGS", "BOT_SIGMA", "MU", "SCALE", "SETTLED", "SIGMA", "SURE", "Entrant",
           "Rating", "bot_rating", "family", "family_ruleset", "provisional", "rate", "shown"]

MU: Final = 25.0  # a newcomer's mean
SIGMA: Final = MU / 3  # ... and her uncertainty
SCALE: Final = 60.0  # shown = mu * SCALE: a newcomer is 1500
SETTLED: Final = 10  # games before a rating is no longer provisional
SURE: Final = 4.0  # ... and its sigma at most this
BOT_SIGMA: Final = 1.0  # a bot's fixed rating is taken as nearly certain

# each bot level's fixed mean (the same for every game family), measured by
# bench/bot_ratings.py (docs/performance.md, "Bot ratings"): each level against greedy
# bots on FIDO double-9 (3 players) and Muggins, the Plackett-Luce fit of the hands'
# places, anchored at greedy = a newcomer's 25 (1500); the mean of seeds 3 and 4. Expert,
# search and champion are within the measurement's noise of each other (about 3 points
# of mean between seeds)
BOT_RATINGS: Final[dict[str, float]] = {
    "random": 15.0,
    "greedy": 25.0,
    "expert": 27.4,
    "search": 28.1,
    "champion": 27.8,
}

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


@dataclass(frozen=True, slots=True)
class Rating:
    """A person's rating in one game family and how many games made it."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0


@dataclass(frozen=True, slots=True)
class Entrant:
    """One seat in a game to rate: her rating before it; ``fixed``: a bot's, which the
    game does not move."""

    mu: float
    sigma: float
    fixed: bool = False


def family(rules: Ruleset) -> str:
    """The game a rating is for: FIDO by its set (``fido:9``; every divisor and option
    of one set together), each classic game by its name (``muggins``)."""
    return f"fido:{rules.max_pips}" if rules.name == "fido" else rules.name


def family_ruleset(name: str) -> str:
    """A family's ruleset text, to name it the way the games are named ("fido set=9")."""
    if name.startswith("fido:"):
        return f"fido set={name[5:]}"
    return name


def shown(r: Rating) -> int:
    """The rating as a person reads it."""
    return round(r.mu * SCALE)


def provisional(r: Rating) -> bool:
    """Too few games to say much yet (shown with a question mark)."""
    return r.games < SETTLED or r.sigma > SURE


def bot_rating(level: str | None) -> Entrant:
    """A bot's fixed rating (an unknown level: the newcomer's mean)."""
    return Entrant(BOT_RATINGS.get(level or "", MU), BOT_SIGMA, fixed=True)


def rate(sides: list[list[Entrant]], ranks: list[int]) -> list[list[Entrant]]:
    """Each entrant's rating after a game whose sides (a seat alone, or a team) finished
    at ``ranks`` (1 first; equal ranks: a tie). A fixed entrant comes back as it was."""
    if len(sides) != len(ranks) or len(sides) < 2 or any(not s for s in sides):
        raise ValueError("a rated game has two or more sides, each with a rank")
    teams = [[_MODEL.rating(mu=e.mu, sigma=e.sigma) for e in side] for side in sides]
    after = _MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [[e if e.fixed else Entrant(new.mu, new.sigma)
             for e, new in zip(side, moved, strict=True)]
            for side, moved in zip(sides, after, strict=True)]
