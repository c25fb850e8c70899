"""Letting bots play a game to its end, and building bots by strategy name."""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..actions import Action
from ..game import Game
from ..legal import LegalActions, TradingMoment, asking_order, trading_moment
from ..view import TableViews
from .base import Bot
from .expert import ExpertBot
from .heuristic import HeuristicBot
from .random_bot import RandomBot

STRATEGIES: tuple[str, ...] = ("random", "heuristic", "expert")


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

    Each round asks the seats that matter, in order: receivers of open offers, the other
    seats while trading, then the seats the game waits on. The first action returned is
    applied. A seat that passed while trading is asked again only in a new turn or once an
    offer it is part of has opened or closed, so views are computed only for seats that may act.
    Raises RuntimeError when nobody acts while the game waits, or after `max_actions`.
    """
    if len(bots) != game.players:
        raise ValueError(f"{game.players} players need {game.players} bots, not {len(bots)}")
    state = game.state
    passed: dict[int, TradingMoment] = {}
    views = TableViews(state)
    count = 0
    while not state.is_over:
        if count >= max_actions:
            raise RuntimeError(f"the game did not end within {max_actions} actions")
        chosen = _next_action(game, bots, views, passed)
        if chosen is None:
            raise RuntimeError(f"nobody acts while the game waits for seats {game.waiting_for()}")
        game.apply_listed(*chosen)
        count += 1
    return count


def _next_action(
    game: Game, bots: Sequence[Bot], views: TableViews, passed: dict[int, TradingMoment]
) -> tuple[Action, LegalActions] | None:
    """The first action a seat that matters takes, with the legal actions it chose from."""
    state = game.state
    waiting = game.waiting_for()
    views.next_moment()
    for seat in asking_order(state):
        moment = None
        if seat not in waiting:
            moment = trading_moment(state, seat)
            if passed.get(seat) == moment:
                continue
        legal = game.legal_actions(seat)
        action = bots[seat].choose(views(seat), legal) if legal else None
        if action is not None:
            return action, legal
        if moment is not None:
            passed[seat] = moment
    return None
