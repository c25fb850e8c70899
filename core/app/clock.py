"""The clock of a game: reminders, deadlines (a default move, and a stand-in for a player who
keeps missing them) and a bot's trading window, when they are due."""

from __future__ import annotations

from datetime import datetime

from ..errors import IllegalActionError
from . import reminders, turns
from .context import Context
from .messages import Message, Outbound, ToRoom
from .play import after_move
from .session import GameSession
from .work import ATTEMPTS, Conflict, Work


def tick_session(ctx: Context, session: GameSession, now: datetime) -> list[Outbound]:
    """What is due in a game by `now`, decided on the game as stored and stored in one unit
    of work; another worker first is decided again once."""
    tables = ctx.tables
    due = turns.next_wakeup(session)
    if due is not None and due <= now:
        # Another worker may have moved the game on: play deadlines on the stored game.
        fresh = tables.up_to_date(session)
        if fresh is None:
            return []
        session = fresh
    for _ in range(ATTEMPTS):
        work = Work(ctx.store)
        out = tick_game(ctx, work, session, now)
        try:
            work.commit(now)
        except Conflict:
            # Another worker stored its moves (or its reminder) first: the game as stored
            # is decided again, and its clocks run on.
            tables.reload(session)
            fresh = tables.games.get(session.room)
            if fresh is None or fresh.game_id != session.game_id:
                return []
            session = fresh
            continue
        return out
    return []


def tick_game(ctx: Context, work: Work, session: GameSession, now: datetime) -> list[Outbound]:
    """What is due in one game by `now`; what it changed is given to `work`."""
    tr = ctx.translator(session.language)
    out = reminders.seat_reminders(session, work, tr, now)
    out += reminders.trade_reminders(session, work, tr, now)
    moved = False
    for seat in turns.due_defaults(session, now):
        if seat not in turns.due_defaults(session, now):
            continue  # an earlier default has already settled it
        try:
            played = turns.play_default(session, seat, now)
        except IllegalActionError:
            continue
        moved = moved or played
        control = session.seats[seat]
        if played and control.misses >= turns.MISSES_BEFORE_STAND_IN:
            turns.take_over(session, seat)
            text = tr.gettext(
                "{name} missed {count} deadlines in a row: a bot plays for them until they "
                "send a command."
            ).format(name=session.names[seat], count=control.misses)
            out.append(ToRoom(session.room, Message(text)))
    window = session.trade_window_until
    if moved or (window is not None and window <= now):
        out += after_move(ctx, work, session, now)
    else:
        work.save_game(session)  # a reminder sent is kept as sent
    return out
