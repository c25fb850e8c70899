"""A player's own settings, the same in every game of his: when he is notified."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from .inbound import Inbound
from .messages import Outbound, Reply
from .ports import ChatStore
from .session import GameSession
from .work import Work

if TYPE_CHECKING:
    from .context import Context  # the context holds the tables, which load settings

NOTIFY_MODES = ("off", "turn", "all")


def notify_setting(
    ctx: Context, work: Work, inbound: Inbound, args: list[str], now: datetime
) -> list[Outbound]:
    """`set notify off|turn|all`: when the player is notified, in every game of his."""
    tr = ctx.translator(ctx.room_language(inbound.room))
    mode = args[0].lower() if len(args) == 1 else ""
    if mode not in NOTIFY_MODES:
        return [Reply(inbound, tr.gettext("Write: set notify off, turn or all."))]
    settings = ctx.store.load_player_settings(ctx.platform, inbound.user_id)
    settings["notify"] = mode
    work.save_player_settings(ctx.platform, inbound.user_id, settings, now)
    for session in ctx.tables.sessions_of(inbound.user_id):
        seat = session.seat_of(inbound.user_id)
        if seat is not None:
            session.seats[seat].notify = mode
    texts = {
        "off": tr.gettext("I will not notify you; your private messages stay current."),
        "turn": tr.gettext("I will notify you when a decision is yours."),
        "all": tr.gettext("I will notify you whenever your game changes for you."),
    }
    return [Reply(inbound, texts[mode])]


def load_notify(session: GameSession, store: ChatStore) -> None:
    """Each person's notify setting, for a game taken up from the store."""
    for control in session.seats:
        if control.is_human and control.identity.platform == session.platform:
            settings = store.load_player_settings(session.platform, control.identity.user_id)
            mode = settings.get("notify", "turn")
            control.notify = mode if mode in NOTIFY_MODES else "turn"
