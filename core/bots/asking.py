"""Asking the seats that matter for the next action: the loop of every game bots play alone.

Each moment asks the seats in order (`legal.asking_order`): receivers of open offers, the other
seats while trading, then the seats the game waits on. The first action returned is the one to
apply. A seat that passed while trading is asked again only in a new turn or once an offer it is
part of has opened or closed, so views are made only for seats that may act.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action
from ..legal import TRADING_ORDER, LegalActions, TradingMoment, legal_actions
from ..state import STEP_GAME_OVER, STEP_PLANT_SET_ASIDE, STEP_TRADE, GameState
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
    step = state.step
    if step is not STEP_TRADE:
        # The game waits on every seat asked (`waiting_for`, inlined): in step 3 every seat
        # with cards set aside, else the active player.
        if step is STEP_PLANT_SET_ASIDE:
            for seat, player in enumerate(state.players):
                if player.set_aside:
                    legal = legal_actions(state, seat)
                    if legal.actions or legal.trade is not None:  # `if legal`, without a call
                        action = bots[seat].choose(table(seat), legal)
                        if action is not None:
                            return action, legal
            return None
        if step is STEP_GAME_OVER:
            return None
        seat = state.active
        legal = legal_actions(state, seat)
        if legal.actions or legal.trade is not None:
            action = bots[seat].choose(table(seat), legal)
            if action is not None:
                return action, legal
        return None
    # While trading the game waits on the active player alone; the others may act first.
    active = state.active
    offers = state.offers
    turn = state.turn
    # `asking_order(state)`, inlined: receivers of open offers first, then the other seats, the
    # active player last.
    order = TRADING_ORDER[len(state.players)][active]
    if offers:
        first = [offer.receiver for offer in offers.values()]
        order = tuple(dict.fromkeys(first + list(order)))
    for seat in order:
        if seat == active:
            legal = legal_actions(state, seat)
            action = bots[seat].choose(table(seat), legal)
            if action is not None:
                return action, legal
            continue
        # trading_moment, inlined: a bystander that let this moment go is not asked again.
        if offers:
            mine = []
            for offer in offers.values():
                if offer.proposer == seat or offer.receiver == seat:
                    mine.append(offer.id)
            moment = (turn, tuple(mine))
        else:
            moment = (turn, ())
        if passed.get(seat) == moment:
            continue
        # A bystander may always propose while trading: his legal actions are never empty.
        legal = table.bystander_legal(seat)
        action = bots[seat].choose(table(seat), legal)
        if action is not None:
            return action, legal
        passed[seat] = moment
    return None
