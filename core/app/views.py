"""Everything each audience of a game should see now, whatever was shown before: the table and
every private message. A runner shows only what differs from what was delivered, so these heal
views a failed send or a crash left behind. Each is a `presenting.Show`, derived and noted by
the presenting step as an input's views are, so that numbers answer what was last listed."""

from __future__ import annotations

from .context import Context
from .i18n import Translator
from .messages import Message
from .presenting import Show, seat_healed
from .render import hand_text
from .session import GameSession


def private_views(sessions: list[GameSession], user_id: str) -> list[Show]:
    """One player's private messages of the games given, as they stand."""
    out: list[Show] = []
    for session in sessions:
        seat = session.seat_of(user_id)
        if seat is None or session.game.is_over:
            continue
        out.append(seat_healed(session, seat))
    return out


def hands(ctx: Context, user_id: str) -> list[Message]:
    """Each of a player's games as he alone may see it (for inline results)."""
    out = []
    for shown in ctx.tables.player_sessions(user_id):
        session = ctx.tables.up_to_date(shown)
        if session is None:
            continue
        seat = session.seat_of(user_id)
        assert seat is not None
        tr: Translator = ctx.translator(session.language)
        text = tr.gettext("Game {game}").format(game=session.game_id)
        out.append(Message(text + "\n" + hand_text(tr, session.view(seat), session.names)))
    return out
