"""`set notify off|turn|all` and `set trading offers|always`: a player's own settings, for every
game of his (`player_modes`)."""

from __future__ import annotations

from datetime import datetime

from .context import Context
from .i18n import Translator
from .inbound import Inbound
from .messages import Outbound, Reply
from .player_modes import NOTIFY_MODES, TRADING_MODES
from .work import Work


def player_setting(
    ctx: Context,
    work: Work,
    inbound: Inbound,
    tr: Translator,
    name: str,
    args: tuple[str, ...],
    now: datetime,
) -> list[Outbound]:
    """`set notify off|turn|all` or `set trading offers|always`, for every game of his."""
    modes = NOTIFY_MODES if name == "notify" else TRADING_MODES
    mode = args[0].lower() if len(args) == 1 else ""
    if mode not in modes:
        if name == "notify":
            return [Reply(inbound, tr.gettext("Write: set notify off, turn or all."))]
        return [Reply(inbound, tr.gettext("Write: set trading offers or always."))]
    settings = ctx.store.load_player_settings(ctx.platform, inbound.user_id)
    settings[name] = mode
    work.save_player_settings(ctx.platform, inbound.user_id, settings, now)
    for session in ctx.tables.sessions_of(inbound.user_id):
        seat = session.seat_of(inbound.user_id)
        if seat is not None:
            setattr(session.seats[seat], name, mode)
    return [Reply(inbound, setting_text(tr, name, mode))]


def setting_text(tr: Translator, name: str, mode: str) -> str:
    """What a player's setting means for him, in a sentence."""
    texts = {
        ("notify", "off"): tr.gettext("I will not notify you; your private messages stay current."),
        ("notify", "turn"): tr.gettext("I will notify you when a decision is yours."),
        ("notify", "all"): tr.gettext("I will notify you whenever your game changes for you."),
        ("trading", "offers"): tr.gettext(
            "A bot on turn waits for you only while its offer to you is open; `set trading "
            "always` to trade on every bot's turn."
        ),
        ("trading", "always"): tr.gettext(
            "A bot on turn keeps trading open for you until you pass (`pass`) or its window "
            "closes; `set trading offers` to be asked only about its offers to you."
        ),
    }
    return texts[(name, mode)]
