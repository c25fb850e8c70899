"""Letting bots play a game to its end, and building bots by strategy name."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..game import Game
from ..legal import TradingMoment
from ..state import STEP_GAME_OVER
from ..view import TableViews
from .asking import next_action
from .base import Bot
from .expert import ExpertBot
from .heuristic import HeuristicBot
from .random_bot import RandomBot

STRATEGIES: tuple[str, ...] = ("random", "heuristic", "expert")
SEARCHING: frozenset[str] = frozenset({"expert"})
"""Strategies that search before they decide: a move of theirs may take a good part of a
second, and a turn several."""


def make_bot(strategy: str, rng: random.Random) -> Bot:
    """A bot of a known strategy, drawing its randomness from `rng`."""
    if strategy == "random":
        return RandomBot(rng)
    if strategy == "heuristic":
        return HeuristicBot(rng)
    if strategy == "expert":
        return ExpertBot(rng)
    raise ValueError(f"unknown bot strategy {strategy!r} (known: {', '.join(STRATEGIES)})")


def play_out(game: Game, bots: Sequence[Bot], max_actions: int = 20_000) -> int:
    """Play `game` to its end with one bot per seat; return the number of actions applied.

    Seats are asked as `asking.next_action` asks them, and the first action returned is
    applied, without events (nobody watches). Raises RuntimeError when nobody acts while the
    game waits, or after `max_actions`.
    """
    if len(bots) != game.players:
        raise ValueError(f"{game.players} players need {game.players} bots, not {len(bots)}")
    state = game.state
    passed: dict[int, TradingMoment] = {}
    table = TableViews(state)
    count = 0
    with game.quiet():
        while state.step is not STEP_GAME_OVER:
            if count >= max_actions:
                raise RuntimeError(f"the game did not end within {max_actions} actions")
            chosen = next_action(state, bots, table, passed)
            if chosen is None:
                waited = game.waiting_for()
                raise RuntimeError(f"nobody acts while the game waits for seats {waited}")
            game.apply_listed(*chosen)
            count += 1
    return count
