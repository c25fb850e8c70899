"""What a person is told of a bot's trading window that waits for him: when it closes."""

from __future__ import annotations

from datetime import datetime

from .i18n import Translator
from .render import relative_time
from .session import GameSession
from .turns import waits_for


def window_line(
    session: GameSession, seat: int, tr: Translator, now: datetime | None
) -> str | None:
    """While a bot on turn holds trading open for this player, when it closes: from `now`
    ('in 2 min'), else as the time of day."""
    until = session.trade_window_until
    state = session.state
    if until is None or session.seats[state.active].bot is None or not waits_for(session, seat):
        return None
    if now is None:
        closes = tr.gettext("at {time}").format(time=until.strftime("%H:%M:%S UTC"))
    else:
        closes = relative_time(tr, (until - now).total_seconds())
    bot = session.names[state.active]
    if any(o.receiver == seat for o in state.offers.values()):
        text = tr.gettext("⏳ {bot} waits for your answer: trading closes {time}.")
    else:
        text = tr.gettext("⏳ {bot} keeps trading open for you: it closes {time} (or `pass`).")
    return text.format(bot=bot, time=closes)
