"""Playing a sampled game on with heuristic bots, and judging where it got to.

A rollout runs on a determinization (`sampling.py`), never on the real game: every seat is
played by a `HeuristicBot`, asked as `asking.next_action` asks every bot. It stops
at the end of the game or after a number of turns, and scores the table there: coins, plus what
each field would sell for now and a share of what its next step would add (`field_worth`).
"""

from __future__ import annotations

import random

from ..actions import Action
from ..engine import Engine, RandomShuffler
from ..errors import IllegalActionError
from ..legal import TradingMoment, is_listed, trading_moment
from ..state import CARD_VARIETIES, GameState, PlayerState
from ..view import TableViews
from .asking import next_action
from .heuristic import HeuristicBot
from .valuation import cards_to_next_step

MAX_ACTIONS = 4_000
"""A rollout that has not reached its horizon after this many actions stops where it is."""


PROGRESS_WEIGHT = 0.6
"""Share of the next step's extra coins a field one bean short of it is worth already."""


def field_worth(cards: list[int]) -> float:
    """What a field is worth to the game's end: what selling it now earns, plus a share of the
    coins its next beanometer step adds, the larger the fewer beans it still needs."""
    if not cards:
        return 0.0
    variety = CARD_VARIETIES[cards[0]]
    count = len(cards)
    now = variety.coins_for(count)
    missing = cards_to_next_step(variety, count)
    if missing is None:
        return float(now)
    return now + PROGRESS_WEIGHT * (variety.coins_for(count + missing) - now) / missing


def seat_worth(player: PlayerState) -> float:
    """Coins, plus what each field is worth (`field_worth`)."""
    return len(player.coins) + sum(field_worth(field.cards) for field in player.fields)


def margin(state: GameState, seat: int) -> float:
    """The seat's worth less the best worth among the others (positive: it leads)."""
    worths = [seat_worth(p) for p in state.players]
    mine = worths.pop(seat)
    return mine - max(worths)


def roll_out(
    state: GameState,
    seat: int,
    first: Action | None,
    seed: int,
    horizon: int,
) -> float:
    """Play `first` for `seat` (None: pass on trading this moment), then let heuristic bots play
    `horizon` more turns (or to the end); return the seat's margin there.

    An illegal `first` scores minus infinity, so a search never picks it.
    """
    rng = random.Random(seed)
    engine = Engine(state, RandomShuffler(rng))
    passed: dict[int, TradingMoment] = {}
    if first is None:
        passed[seat] = trading_moment(state, seat)
    else:
        try:
            engine.apply(first)
        except IllegalActionError:
            return float("-inf")
    bots = [HeuristicBot(random.Random(seed + i)) for i in range(len(state.players))]
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
    return margin(state, seat)
