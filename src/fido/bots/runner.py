"""Play a hand between bots: the loop tournaments, the terminal and tests share.

A bot gets its seat's view and a random generator. The generator must not
lead back to the deal: a ``random.Random`` seeded from the public seed (as
this module once did) hands the bot the seed through ``rng.getstate()``, and
with it every hand and the stock. So bots' generators come from a *secret*
(:func:`new_secret`, once per tournament or session) hashed with the deal
and the seat (:func:`bot_rng`): the generator's state holds only a SHA-256
digest, which leads neither to the secret nor to the other seats' digests.
Whoever holds the secret can replay the bots' choices exactly.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Sequence

from fido.bots.base import Bot
from fido.engine.game import Game, Turn
from fido.engine.rules import Ruleset
from fido.errors import IllegalMoveError

__all__ = ["SECRET_BYTES", "bot_move", "bot_rng", "new_secret", "play_hand", "play_out"]

SECRET_BYTES = 32


def new_secret() -> bytes:
    """A fresh secret for one tournament or session (never derived from a seed)."""
    return secrets.token_bytes(SECRET_BYTES)


def bot_rng(secret: bytes, *labels: int | str) -> random.Random:
    """The generator of one bot in one hand: ``labels`` are e.g. deal, rotation, seat.

    Seeded with a SHA-256 digest of the secret and the labels, so its state
    tells a bot nothing it could use to rebuild the deal or another seat's dice.
    """
    if not isinstance(secret, bytes) or not secret:
        raise TypeError("bot_rng needs a non-empty bytes secret (see new_secret)")
    h = hashlib.sha256(b"fido-bot\0")
    h.update(len(secret).to_bytes(4, "big") + secret)
    for label in labels:
        part = str(label).encode()
        h.update(len(part).to_bytes(4, "big") + part)
    return random.Random(int.from_bytes(h.digest(), "big"))


def bot_move(game: Game, bot: Bot, rng: random.Random) -> Turn:
    """Ask ``bot`` (at the seat to move) for its move and make it; returns the turn.

    The one step of every bot loop (:func:`play_out`, the terminal game). A bot
    that returns an illegal move raises :class:`IllegalMoveError` naming it, and
    the game is unchanged.
    """
    seat = game.turn
    move = bot.choose(game.view(seat), rng)
    try:
        game.push(move, seat=seat)
    except IllegalMoveError as e:
        raise IllegalMoveError(f"bot {bot.name!r} at seat {seat}: {e}") from None
    turn = game.last_turn()
    assert turn is not None
    return turn


def play_out(game: Game, bots: Sequence[Bot], rngs: Sequence[random.Random]) -> Game:
    """Let ``bots[seat]`` move for every seat until the hand ends. Returns ``game``."""
    if len(bots) != game.players or len(rngs) != game.players:
        raise ValueError(f"{game.players} seats need {game.players} bots and generators")
    while not game.is_over:
        seat = game.turn
        bot_move(game, bots[seat], rngs[seat])
    return game


def play_hand(
    rules: Ruleset | str, bots: Sequence[Bot], seed: int, *, bot_secret: bytes | None = None
) -> Game:
    """One hand from the deal ``Game.new(rules, len(bots), seed=seed)``.

    Without ``bot_secret`` the bots' generators are keyed by the seed, so the
    same seed replays the same hand (tests, examples): fine for your own bots,
    but a bot could then search the seeds for its generator's state and learn
    the deal. Between bots you do not trust, pass ``new_secret()`` (the
    tournaments and the terminal game always use a secret).
    """
    game = Game.new(rules, len(bots), seed=seed)
    secret = bot_secret if bot_secret is not None else f"fido-play-hand:{seed}".encode()
    return play_out(game, bots, [bot_rng(secret, seed, s) for s in range(len(bots))])
