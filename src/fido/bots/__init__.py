"""Computer players: one interface (:class:`Bot`), levels by name (:func:`make_bot`)."""

from fido.bots.base import Bot, Move
from fido.bots.registry import LEVELS, make_bot
from fido.bots.runner import bot_rng, play_hand, play_out
from fido.bots.simple import GreedyBot, RandomBot

__all__ = [
    "LEVELS",
    "Bot",
    "GreedyBot",
    "Move",
    "RandomBot",
    "bot_rng",
    "make_bot",
    "play_hand",
    "play_out",
]
