"""A player's own settings, the same in every game of his: when he is notified, and when a bot
on turn keeps trading open for him."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING

from .i18n import Translator
from .inbound import Inbound
from .messages import Outbound, Reply
from .ports import ChatStore
from .session import GameSession
from .work import Work

if TYPE_CHECKING:
    from .context import Context  # the context holds the tables, which load settings

NOTIFY_MODES = ("off", "turn", "all")
TRADING_MODES = ("offers", "always")
"""When a bot on turn keeps trading open for a player: only while an offer to him waits for
his answer, or always (until he passes, or the trading window closes)."""
SETTINGS = ("notify", "trading")
"""The words after `set` that name a player's own setting (the others are the lobby's)."""


def player_setting(
    ctx: Context, work: Work, inbound: Inbound, name: str, args: list[str], now: datetime
) -> list[Outbound]:
    """`set notify off|turn|all` or `set trading offers|always`, for every game of his."""
    tr = ctx.translator(ctx.room_language(inbound.room))
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


def load_player_settings(session: GameSession, store: ChatStore, trading: str) -> None:
    """Each person's own settings, for a game taken up from the store or begun; `trading`:
    the platform's way for those who chose none."""
    chosen = store.players_settings(session.platform, people_ids(session))
    use_player_settings(session, chosen, trading)


def people_ids(session: GameSession) -> list[str]:
    """The user ids of the game's people of this platform, whose settings count."""
    return [
        control.identity.user_id
        for control in session.seats
        if control.is_human and control.identity.platform == session.platform
    ]


def use_player_settings(
    session: GameSession, chosen: Mapping[str, dict[str, str]], trading: str
) -> None:
    """Each person's own settings as `chosen` (by user id) holds them; `trading`: the
    platform's way for those who chose none."""
    for control in session.seats:
        if not control.is_human or control.identity.platform != session.platform:
            continue
        settings = chosen.get(control.identity.user_id, {})
        mode = settings.get("notify", "turn")
        control.notify = mode if mode in NOTIFY_MODES else "turn"
        mode = settings.get("trading", trading)
        control.trading = mode if mode in TRADING_MODES else trading
