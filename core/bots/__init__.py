"""Bots that play from their own view only, and a driver that lets them play whole games."""

from .base import Bot
from .driver import SEARCHING, STRATEGIES, make_bot, play_out
from .expert import ExpertBot
from .heuristic import HeuristicBot
from .random_bot import RandomBot

__all__ = [
    "SEARCHING",
    "STRATEGIES",
    "Bot",
    "ExpertBot",
    "HeuristicBot",
    "RandomBot",
    "make_bot",
    "play_out",
]
