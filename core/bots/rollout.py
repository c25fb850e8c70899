"""Playing a sampled game on with heuristic bots, and judging where it got to.

A rollout runs on a determinization (`sampling.py`), never on the real game: every seat is
played by a `HeuristicBot` that remembers the turn's trading so far (`table_memory.py`: an offer
the table saw made is not made again), asked as `asking.next_action` asks every bot. It stops
at the end of the game or after a number of turns, and scores the table there: each seat's
coins plus the coins it may still expect (`worth.py`), the seat's less the best of the others.
"""

from __future__ import annotations

import random

from ..actions import Action, CounterTrade, ProposeTrade
from ..engine import Engine, RandomShuffler
from ..errors import IllegalActionError
from ..legal import TradingMoment, is_listed, trading_moment
from ..state import GameState
from ..view import TableViews
from .asking import next_action
from .base import Bot
from .heuristic import HeuristicBot
from .table_memory import Remembering, TradingMemory, TradingSoFar, newest_offer_terms
from .worth import margin

MAX_ACTIONS = 4_000
"""A rollout that has not reached its horizon after this many actions stops where it is."""


def roll_out(
    state: GameState,
    seat: int,
    first: Action | None,
    seed: int,
    horizon: int,
    trading: TradingSoFar | None = None,
) -> float:
    """Play `first` for `seat` (None: pass on trading this moment), then let heuristic bots play
    `horizon` more turns (or to the end); return the seat's margin there. `trading` is what
    the turn's trading saw before `first`.

    An illegal `first` scores minus infinity, so a search never picks it.
    """
    rng = random.Random(seed)
    engine = Engine(state, RandomShuffler(rng))
    memory = TradingMemory(trading)
    memory.follow(state.turn)
    passed: dict[int, TradingMoment] = {}
    if first is None:
        passed[seat] = trading_moment(state, seat)
    else:
        try:
            engine.apply(first)
        except IllegalActionError:
            return float("-inf")
        _remember(state, first, memory)
    bots: list[Bot] = [
        Remembering(HeuristicBot(random.Random(seed + i)), memory)
        for i in range(len(state.players))
    ]
    until = state.turn + horizon
    views = TableViews(state)
    for _ in range(MAX_ACTIONS):
        if state.is_over or state.turn >= until:
            break
        chosen = next_action(state, bots, views, passed)
        if chosen is None:
            break
        action, legal = chosen
        if is_listed(legal, action):
            engine.apply_legal(action)
        else:
            try:
                engine.apply(action)
            except IllegalActionError:
                break
        _remember(state, action, memory)
    return margin(state, seat)


def _remember(state: GameState, action: Action, memory: TradingMemory) -> None:
    kind = type(action)
    if kind is ProposeTrade or kind is CounterTrade:
        offer = newest_offer_terms(state)
        if offer is not None:
            memory.follow(state.turn)
            memory.note(offer)
