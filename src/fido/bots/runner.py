"""Play a hand between bots: the loop tournaments, the terminal and tests share."""

from __future__ import annotations

import random
from collections.abc import Sequence

from fido.bots.base import Bot
from fido.errors import IllegalMoveError
from fido.game import Game
from fido.rules import Ruleset

__all__ = ["bot_rng", "play_hand", "play_out"]


def bot_rng(seed: int | str, seat: int) -> random.Random:
    """The generator of the bot at ``seat`` in the hand seeded ``seed`` (not the deal's)."""
    return random.Random(f"fido-bot:{seed}:{seat}")


def play_out(game: Game, bots: Sequence[Bot], rngs: Sequence[random.Random]) -> Game:
    """Let ``bots[seat]`` move for every seat until the hand ends. Returns ``game``.

    A bot that returns an illegal move stops the hand with an error naming it.
    """
    if len(bots) != game.players or len(rngs) != game.players:
        raise ValueError(f"{game.players} seats need {game.players} bots and generators")
    while not game.is_over:
        seat = game.turn
        move = bots[seat].choose(game.view(seat), rngs[seat])
        try:
            game.push(move, seat=seat)
        except IllegalMoveError as e:
            raise IllegalMoveError(f"bot {bots[seat].name!r} at seat {seat}: {e}") from None
    return game


def play_hand(rules: Ruleset | str, bots: Sequence[Bot], seed: int) -> Game:
    """One hand from the deal ``Game.new(rules, len(bots), seed=seed)``, bots seeded from it."""
    game = Game.new(rules, len(bots), seed=seed)
    return play_out(game, bots, [bot_rng(seed, s) for s in range(len(bots))])
