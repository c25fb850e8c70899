"""A lobby as the store holds it: plain data, and back."""

from __future__ import annotations

from typing import Any

from ..ports import SeatIdentity
from .lobby import DEFAULT_TRADE_WINDOW_SECONDS, Lobby


def lobby_data(lobby: Lobby) -> dict[str, Any]:
    """A lobby as plain data, to be stored."""
    return {
        "room": lobby.room,
        "platform": lobby.platform,
        "creator": lobby.creator,
        "language": lobby.language,
        "turn_seconds": lobby.turn_seconds,
        "trade_window_seconds": lobby.trade_window_seconds,
        "seats": [[s.platform, s.user_id, s.name, s.kind, s.strategy] for s in lobby.seats],
        **({"hints": True} if lobby.hints else {}),
    }


def lobby_from(data: dict[str, Any]) -> Lobby:
    return Lobby(
        room=str(data["room"]),
        platform=str(data["platform"]),
        creator=str(data["creator"]),
        seats=[SeatIdentity(*seat) for seat in data["seats"]],
        language=str(data["language"]),
        turn_seconds=int(data["turn_seconds"]),
        trade_window_seconds=int(data.get("trade_window_seconds", DEFAULT_TRADE_WINDOW_SECONDS)),
        hints=data.get("hints") is True,
    )
