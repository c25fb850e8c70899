"""Asking the seats that matter for the next action: the loop of every game bots play alone.

Each moment asks the seats in order (`legal.asking_order`): receivers of open offers, the other
seats while trading, then the seats the game waits on. The first action returned is the one to
apply. A seat that passed while trading is asked again only in a new turn or once an offer it is
part of has opened or closed, so views are made only for seats that may act.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action
from ..legal import LegalActions, TradingMoment, asking_order, trading_moment
from ..state import STEP_TRADE, GameState
from ..view import TableViews
from .base import Bot


def next_action(
    state: GameState,
    bots: Sequence[Bot],
    table: TableViews,
    passed: dict[int, TradingMoment],
) -> tuple[Action, LegalActions] | None:
    """The first action a seat that matters takes, with the legal actions it chose from (None:
    nobody acts). `table` shows `state`; `passed` remembers the trading moments seats let go."""
    table.next_moment()
    # While trading the game waits on the active player alone; otherwise on every seat asked.
    trading = state.step is STEP_TRADE
    active = state.active
    for seat in asking_order(state):
        moment = None
        if trading and seat != active:
            moment = trading_moment(state, seat)
            if passed.get(seat) == moment:
                continue
        legal = table.legal(seat)
        action = bots[seat].choose(table(seat), legal) if legal else None
        if action is not None:
            return action, legal
        if moment is not None:
            passed[seat] = moment
    return None
