"""Moving a game on: a player's action, the bots' answers, deadlines and stand-ins."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime, timedelta

from ..actions import Action, EndStep
from ..bots import make_bot
from ..errors import IllegalActionError
from ..legal import LegalActions, TradingMoment, asking_order, offer_cards_in_place
from ..state import Step
from .defaults import default_action
from .session import GameSession

MISSES_BEFORE_STAND_IN = 2
"""Deadlines a player may miss in a row before a bot plays his seat until he returns."""
MAX_BOT_ACTIONS = 5_000
"""A bound on bot moves in one go: a whole game between bots is far below it."""


def apply_action(
    session: GameSession, action: Action, now: datetime, acting: int | None = None
) -> None:
    """Check and apply one action (IllegalActionError changes nothing); `save` stores it.
    `acting`: the person whose input this follows at once (bots answering him), who is
    acting already whatever falls to him."""
    session.apply(action, now)
    session.refresh_waiting(now, acted=action.player if acting is None else acting)
    # A trading window belongs to one turn: the next bot on turn opens its own.
    close_trade_window(session)


def run_bots(session: GameSession, now: datetime, acting: int | None = None) -> int:
    """Let bots (and stand-ins) act until the game waits on a person; return their move count.
    `acting`: the person whose input they answer."""
    moves = 0
    asked: dict[int, TradingMoment] = {}
    while not session.game.is_over and moves < MAX_BOT_ACTIONS:
        action = _next_bot_action(session, asked, now)
        if action is None:
            break
        apply_action(session, action, now, acting)
        moves += 1
    return moves


def _bot_order(session: GameSession) -> list[int]:
    # Stand-ins play only while someone is still at the table: a table everyone has left
    # waits for the first to come back rather than finishing the game without them.
    seats = session.seats
    present = any(seat.is_human and not seat.stand_in for seat in seats)
    return [
        s
        for s in asking_order(session.state)
        if seats[s].bot is not None and (present or not seats[s].stand_in)
    ]


def _next_bot_action(
    session: GameSession, asked: dict[int, TradingMoment], now: datetime
) -> Action | None:
    waiting = session.game.waiting_for()
    for seat in _bot_order(session):
        moment = session.moment(seat)
        if seat not in waiting and asked.get(seat) == moment:
            continue
        bot = session.seats[seat].bot
        assert bot is not None
        legal = _without_passed_partners(session, session.legal(seat))
        action = bot.choose(session.bot_view(seat), legal) if legal else None
        if isinstance(action, EndStep) and _holds_trading_open(session, seat, now):
            action = None
        if action is not None:
            return action
        if seat not in waiting:
            asked[seat] = moment
    return None


def _without_passed_partners(session: GameSession, legal: LegalActions) -> LegalActions:
    """What a bot may do, without proposing to a person who passed on trading this turn (`pass`:
    no trading for him this turn); the engine itself would let it."""
    trade = legal.trade
    if trade is None:
        return legal
    partners = tuple(seat for seat in trade.partners if not _passed_this_turn(session, seat))
    if partners == trade.partners:
        return legal
    return replace(legal, trade=replace(trade, partners=partners) if partners else None)


def _passed_this_turn(session: GameSession, seat: int) -> bool:
    control = session.seats[seat]
    passed = control.passed
    return control.is_human and passed is not None and passed[0] == session.state.turn


def _holds_trading_open(session: GameSession, seat: int, now: datetime) -> bool:
    """A bot on turn keeps trading open while it waits for a person (`waits_for`), until the
    window closes."""
    state = session.state
    if state.step is not Step.TRADE or seat != state.active:
        return False
    if not any(waits_for(session, person) for person in session.humans()):
        return False
    if session.trade_window_until is None:
        session.trade_window_until = now + trade_window(session)
    return now < session.trade_window_until


def waits_for(session: GameSession, seat: int) -> bool:
    """Whether trading stays open for this person while a bot is on turn: an offer to him
    waits for his answer, or he has not passed this turn and wants every bot's turn to wait
    for him (`set trading always`); an offer answered after his pass does not take it back.
    A stand-in answers at once, and is never waited for."""
    state = session.state
    control = session.seats[seat]
    if state.step is not Step.TRADE or seat == state.active:
        return False
    if not control.is_human or control.stand_in:
        return False
    for offer in state.offers.values():
        if offer.receiver == seat and offer_cards_in_place(state, offer):
            return True
    passed = control.passed is not None and control.passed[0] == state.turn
    return control.trading == "always" and not passed


def trade_window(session: GameSession) -> timedelta:
    """How long a bot on turn keeps trading open for people: short (a bot never holds the
    table for a whole deadline), and never longer than the game's deadline."""
    window = timedelta(seconds=session.trade_window_seconds)
    if session.turn_seconds:
        return min(window, timedelta(seconds=session.turn_seconds))
    return window


def trade_reminder_at(session: GameSession) -> datetime | None:
    """Half-way through a bot's trading window, the people it waits for are reminded once."""
    if session.trade_window_until is None or session.trade_reminded:
        return None
    return session.trade_window_until - trade_window(session) / 2


def close_trade_window(session: GameSession) -> None:
    """Forget the trading window of the turn that moved on, or of a stand-in whose player
    took his seat back: a window belongs to a bot trading on turn."""
    state = session.state
    if state.step is not Step.TRADE or session.seats[state.active].bot is None:
        session.trade_window_until = None
        session.trade_reminded = False


def resume_trade_window(session: GameSession, since: datetime) -> None:
    """After a restart, a bot trading on turn keeps its window, counted from the last action
    (trading opened then at the latest); without it nothing would move the game on."""
    state = session.state
    if state.step is Step.TRADE and session.seats[state.active].bot is not None:
        session.trade_window_until = since + trade_window(session)


def take_over(session: GameSession, seat: int) -> None:
    """A bot plays the seat of a player who keeps missing deadlines."""
    control = session.seats[seat]
    control.bot = make_bot("heuristic", random.Random(session.rng.random()))


def hand_back(session: GameSession, seat: int) -> bool:
    """The player is back: his seat is his again. True if a stand-in was playing it."""
    control = session.seats[seat]
    control.misses = 0
    if control.stand_in:
        control.bot = None
        return True
    return False


def due_defaults(session: GameSession, now: datetime) -> list[int]:
    """Seats whose deadline has passed."""
    due = []
    for seat in session.pending():
        deadline = session.deadline(seat)
        if deadline is not None and deadline <= now and not session.seats[seat].stand_in:
            due.append(seat)
    return due


def play_default(session: GameSession, seat: int, now: datetime) -> bool:
    """Play the default move for a seat whose deadline passed; True if one was played."""
    action = default_action(session.view(seat), session.legal(seat))
    if action is None:
        session.seats[seat].waiting_since = None
        return False
    try:
        apply_action(session, action, now)
    except IllegalActionError:
        return False
    session.seats[seat].misses += 1
    # The player may owe the next decision at once (say, the second planting): his clock
    # restarts from now either way, by apply_action.
    return True


def next_wakeup(session: GameSession) -> datetime | None:
    """The earliest moment something is due in this game: a reminder, a deadline, a window."""
    moments = []
    for seat in session.pending():
        control = session.seats[seat]
        if control.stand_in:
            continue
        deadline = session.deadline(seat)
        reminder = session.reminder_at(seat)
        if reminder is not None and not control.reminded:
            moments.append(reminder)
        if deadline is not None:
            moments.append(deadline)
    if session.trade_window_until is not None:
        moments.append(session.trade_window_until)
    reminder = trade_reminder_at(session)
    if reminder is not None:
        moments.append(reminder)
    return min(moments, default=None)
