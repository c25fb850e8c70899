"""A player's own settings, the same in every game of his, as his seats hold them: when he is
notified, and when a bot on turn keeps trading open for him (`set notify`, `set trading`:
`player_settings`)."""

from __future__ import annotations

from collections.abc import Mapping

from .ports import ChatStore
from .session import GameSession

NOTIFY_MODES = ("off", "turn", "all")
TRADING_MODES = ("offers", "always")
"""When a bot on turn keeps trading open for a player: only while an offer to him waits for
his answer, or always (until he passes, or the trading window closes)."""
SETTINGS = ("notify", "trading")
"""The words after `set` that name a player's own setting (the others are the lobby's)."""


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
