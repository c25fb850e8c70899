"""The clock of a game: reminders, deadlines (a default move, and a stand-in for a player who
keeps missing them) and a bot's trading window, when they are due."""

from __future__ import annotations

from datetime import datetime
from functools import partial

from ..errors import IllegalActionError
from . import reminders, turns
from .context import Context
from .messages import Message, Outbound, ToRoom
from .play import after_move
from .presenting import Said, present
from .session import GameSession
from .work import Work, attempt


def tick_session(ctx: Context, session: GameSession, now: datetime) -> list[Outbound]:
    """What is due in a game by `now`, decided on the game as stored, presented and stored in
    one unit of work (`work.attempt`); another worker first: decided once more on the game as
    the store then holds it, whose clocks run on."""
    tables = ctx.tables
    due = turns.next_wakeup(session)
    if due is not None and due <= now:
        # Another worker may have moved the game on: play deadlines on the stored game.
        fresh = tables.up_to_date(session)
        if fresh is None:
            return []
        session = fresh
    game_id, room = session.game_id, session.room
    held: GameSession | None = session
    stale = False

    def decide(work: Work) -> list[Said]:
        nonlocal held, stale
        if stale and held is not None:
            # Decided again on the game as stored, its stand-ins' bots kept (`Tables.reload`).
            tables.reload(held)
            fresh = tables.games.get(room)
            held = fresh if fresh is not None and fresh.game_id == game_id else None
            stale = False
        return [] if held is None else tick_game(ctx, work, held, now)

    def forget(work: Work) -> None:
        nonlocal stale
        tables.forget_touched(work.games, work.rooms)
        stale = True

    return attempt(ctx.store, now, decide, partial(present, ctx), forget) or []


def tick_game(ctx: Context, work: Work, session: GameSession, now: datetime) -> list[Said]:
    """What is due in one game by `now`; what it changed is given to `work`, what the table
    and the players are to see of it presented where the `Show` stands."""
    tr = ctx.translator(session.language)
    out: list[Said] = []
    out += reminders.seat_reminders(session, work, tr, now)
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
        out.append(after_move(ctx, work, session, now))
    else:
        work.save_game(session)  # a reminder sent is kept as sent
    return out
