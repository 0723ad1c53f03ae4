"""Game ratings: one per person and game family, moved after every game (a Weng-Lin
model, ``openskill``), apart from the federation's FLADUB (docs/ratings.md)."""

from fido.ratings.model import (
    BOT_RATINGS,
    Entrant,
    Rating,
    bot_rating,
    family,
    family_ruleset,
    provisional,
    rate,
    shown,
)
from fido.ratings.service import Change, Player, history, rate_game, ratings_for, ratings_of

__all__ = [
    "BOT_RATINGS",
    "Change",
    "Entrant",
    "Player",
    "Rating",
    "bot_rating",
    "family",
    "family_ruleset",
    "history",
    "provisional",
    "rate",
    "rate_game",
    "ratings_for",
    "ratings_of",
    "shown",
]
