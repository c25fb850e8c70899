"""Reminders of decisions falling due, each claimed in the store before it is sent.

Every worker plays the clock of the games it holds, so two workers may find the same reminder
due at once, or one after the other with a copy of the game that does not know the other has
reminded. A reminder is an input from the clock, as a player's message is an input from a
platform: it has a delivery id that names what it reminds of (the game, the seat and the moment
its decision began; or the end of a bot's trading window), and the store notes each id once
(`ChatStore.record_delivery`), in the transaction that stores the tick (`work.Work.claim`).
A worker that finds it noted already stores nothing of its tick and decides it again on the
game as stored, whose flags say the reminder was sent. The flags spare the claim on later
ticks; the claim is what makes a reminder come once.
"""

from __future__ import annotations

from datetime import UTC, datetime

from . import turns
from .i18n import Translator
from .messages import Message, Outbound, ToPlayer
from .render import relative_time
from .session import GameSession
from .updates import waited_for
from .work import Work

CLOCK = "clock"
"""The platform the clock's inputs are noted under, beside the chat platforms' deliveries: no
chat platform's delivery id can take a reminder's place."""


def seat_reminders(
    session: GameSession, work: Work, tr: Translator, now: datetime
) -> list[Outbound]:
    """A quarter of a deadline before it, the player who owes the decision is told once (a
    notifying message, unless he turned notifications off)."""
    out: list[Outbound] = []
    for seat in session.pending():
        control = session.seats[seat]
        reminder = session.reminder_at(seat)
        deadline = session.deadline(seat)
        if (
            reminder is None
            or reminder > now
            or control.reminded
            or deadline is None
            or deadline <= now
            or control.waiting_since is None
        ):
            continue
        # Claimed with what this tick stores: of several workers, one reminds (another's
        # claim first is a conflict, and this tick is decided again on the stored game).
        work.claim(CLOCK, f"{session.game_id} seat {seat} {_moment(control.waiting_since)}", now)
        control.reminded = True
        text = tr.gettext("Game {game}: your move is due {time}.").format(
            game=session.game_id, time=relative_time(tr, (deadline - now).total_seconds())
        )
        alert = control.notify != "off"
        out.append(ToPlayer(control.identity.user_id, Message(text, alert=alert), session.room))
    return out


def trade_reminders(
    session: GameSession, work: Work, tr: Translator, now: datetime
) -> list[Outbound]:
    """Half-way through a bot's trading window, each person it waits for is told once (a
    notifying message, unless he turned notifications off)."""
    at = turns.trade_reminder_at(session)
    window = session.trade_window_until
    if at is None or window is None or at > now or window <= now:
        return []
    work.claim(CLOCK, f"{session.game_id} trade {_moment(window)}", now)
    session.trade_reminded = True
    state = session.state
    shown = {
        "game": session.game_id,
        "bot": session.names[state.active],
        "time": relative_time(tr, (window - now).total_seconds()),
    }
    trades = tr.gettext(
        "Game {game}: {bot} trades; trading closes {time}. Make an offer or tap No trade."
    ).format(**shown)
    answer = tr.gettext(
        "Game {game}: {bot} waits for your answer to its offer; trading closes {time}."
    ).format(**shown)
    out: list[Outbound] = []
    for seat in waited_for(session):
        control = session.seats[seat]
        if seat == state.active or not control.is_human or control.stand_in:
            continue
        offered = any(offer.receiver == seat for offer in state.offers.values())
        text = answer if offered else trades
        alert = control.notify != "off"
        out.append(ToPlayer(control.identity.user_id, Message(text, alert=alert), session.room))
    return out


def _moment(moment: datetime) -> str:
    """A moment as every worker writes it, whatever the time zone or the precision it was read
    with (a store may keep microseconds or not): UTC, to the second. Two decisions of a seat
    begun within one second cannot both be reminded: the first ended at once."""
    return moment.astimezone(UTC).isoformat(timespec="seconds")
