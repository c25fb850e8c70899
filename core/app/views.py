"""Everything each audience of a game should see now, whatever was shown before: the table and
every private message. A runner shows only what differs from what was delivered, so these heal
views a failed send or a crash left behind. Derived by `updates`; what they show is noted in
memory (`updates.record`) so that numbers answer what was last listed."""

from __future__ import annotations

from datetime import datetime

from .context import Context
from .i18n import Translator
from .messages import Message, Outbound
from .render import hand_text
from .session import GameSession
from .updates import hand_updates, shown_now, table_message, table_of


def game_views(ctx: Context, session: GameSession, now: datetime | None) -> list[Outbound]:
    """A game's table and every private message of it, as it stands."""
    tr = ctx.translator(session.language)
    out: list[Outbound] = [table_of(session, table_message(session, tr, ctx.capabilities, now))]
    everyone = set(session.humans())
    update = hand_updates(session, tr, ctx.capabilities, force=everyone, now=now)
    return out + shown_now(session, update)


def private_views(ctx: Context, sessions: list[GameSession], user_id: str) -> list[Outbound]:
    """One player's private messages of the games given, as they stand."""
    out: list[Outbound] = []
    for session in sessions:
        seat = session.seat_of(user_id)
        if seat is None or session.game.is_over:
            continue
        tr = ctx.translator(session.language)
        caps = ctx.capabilities
        out += shown_now(session, hand_updates(session, tr, caps, force={seat}, only={seat}))
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
