"""Asking the seats that matter for the next action: the loop of every game bots play alone.

Each moment asks the seats in order (`legal.asking_order`): receivers of open offers, the other
seats while trading, then the seats the game waits on. The first action returned is the one to
apply. A seat that passed while trading is asked again only in a new turn or once an offer it is
part of has opened or closed, so views are made only for seats that may act; and a bot that
glances (`base.Glancing`) is handed its view only when it asks for it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from ..actions import Action
from ..legal import (
    LegalActions,
    TradingMoment,
    asking_order,
    legal_actions,
    trading_moment,
)
from ..state import STEP_GAME_OVER, STEP_PLANT_SET_ASIDE, STEP_TRADE, GameState
from ..view import TableViews
from .base import Bot, Glancing, NeedsView


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
        if step is STEP_GAME_OVER:
            return None
        # The game waits on every seat asked (`waiting_for`, without making its tuple): in
        # step 3 every seat with cards set aside, else the active player.
        players = state.players
        in_step_3 = step is STEP_PLANT_SET_ASIDE
        for seat in range(len(players)) if in_step_3 else (state.active,):
            if in_step_3 and not players[seat].set_aside:
                continue
            legal = legal_actions(state, seat)
            if legal.actions or legal.trade is not None:  # `if legal`, without a call
                action = _ask(bots[seat], seat, legal, table, state.turn)
                if action is not None:
                    return action, legal
        return None
    # While trading the game waits on the active player alone; the others may act first.
    active = state.active
    for seat in asking_order(state):
        if seat == active:
            legal = legal_actions(state, seat)
            action = _ask(bots[seat], seat, legal, table, state.turn)
            if action is not None:
                return action, legal
            continue
        # A bystander that let this moment go is not asked again.
        moment = trading_moment(state, seat)
        if passed.get(seat) == moment:
            continue
        # A bystander may always propose while trading: his legal actions are never empty.
        legal = table.bystander_legal(seat)
        action = _ask(bots[seat], seat, legal, table, state.turn)
        if action is not None:
            return action, legal
        passed[seat] = moment
    return None


def _ask(bot: Bot, seat: int, legal: LegalActions, table: TableViews, turn: int) -> Action | None:
    """`bot.choose(table(seat), legal)`; a bot that glances first is handed the turn number,
    and its view only when it needs it (a view is made anew for every seat asked)."""
    glance: Callable[[int, LegalActions], Action | NeedsView | None] | None = getattr(
        bot, "glance", None
    )
    if glance is None:
        return bot.choose(table(seat), legal)
    glanced = glance(turn, legal)
    if isinstance(glanced, NeedsView):
        return cast(Glancing, bot).choose_seen(table(seat), legal)
    return glanced
