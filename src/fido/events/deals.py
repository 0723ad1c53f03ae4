"""Duplicate deals: every table of a round plays the same seeded deals.

A championship's deals come from one secret of the event (32 random bytes,
:func:`new_secret`). Game ``g`` of round ``r`` is dealt from
``HMAC-SHA256(secret, "fido duplicate deal|r|g")`` read as a whole number
(:func:`deal_seed`), which seeds :meth:`fido.engine.game.Game.new` like any seeded
game. Every table of one size in that round gets the same hands, seat k the
k-th hand, and the same stock order, so results compare across tables (seat
draws balance who gets which hand, :mod:`fido.events.seating`). A table of
another size (17 players at tables of 5 sit 5, 4, 4, 4) is dealt from the
same seed for its own number of players: a different deal, the same one at
every table of that size.

**The secret and the seeds are hidden information**: whoever knows a seed
knows every hand and the stock of that game. Keep the secret on the server
and reveal a round's seeds (or the secret) only once every table of the
round has finished; until then, a bot's generator must not be derived from
them either (see :mod:`fido.tournament`).

>>> secret = bytes(32)
>>> deal_seed(secret, 1, 1) == deal_seed(secret, 1, 1) != deal_seed(secret, 1, 2)
True
>>> one = duplicate_game("fido set=12", 5, secret, 1, 1)
>>> two = duplicate_game("fido set=12", 5, secret, 1, 1)
>>> one.initial_hands == two.initial_hands and one.stock == two.stock
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Final

from fido.engine.game import Game
from fido.engine.rules import Ruleset
from fido.errors import quote
from fido.events.errors import EventError

__all__ = ["SECRET_BYTES", "deal_seed", "duplicate_game", "new_secret"]

SECRET_BYTES: Final = 32
MAX_NUMBER: Final = 1_000_000  # rounds and games per round


def new_secret() -> bytes:
    """A fresh event secret (``secrets.token_bytes``): keep it hidden until the rounds end."""
    return secrets.token_bytes(SECRET_BYTES)


def _number(value: object, what: str) -> int:
    if value.__class__ is not int:
        raise EventError(f"the {what} number must be a whole number, not {quote(value)}")
    assert isinstance(value, int)
    if not 1 <= value <= MAX_NUMBER:
        raise EventError(f"the {what} number must be 1 to {MAX_NUMBER}, not {value}")
    return value


def deal_seed(secret: bytes, round_number: int, game: int) -> int:
    """The seed of game ``game`` (1, 2, ...) of round ``round_number`` (1, 2, ...): 256 bits.

    Secret until the round is over (whoever holds it can rebuild every hand).
    """
    if not isinstance(secret, bytes) or len(secret) < 16:
        raise EventError("an event secret is at least 16 bytes (use new_secret())")
    message = f"fido duplicate deal|{_number(round_number, 'round')}|{_number(game, 'game')}"
    digest = hmac.new(secret, message.encode("ascii"), hashlib.sha256).digest()
    return int.from_bytes(digest, "big")


def duplicate_game(
    rules: Ruleset | str, players: int, secret: bytes, round_number: int, game: int
) -> Game:
    """The game every table of ``players`` plays as game ``game`` of round ``round_number``.

    ``Game.new(rules, players, seed=deal_seed(...))``: the same hands and stock
    at every such table; the seed stays secret until the round is over.
    """
    return Game.new(rules, players, seed=deal_seed(secret, round_number, game))
