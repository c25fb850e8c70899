"""The ports of the chat application: the chat platform and the clock.

The game store port is `bohnanza.core.ports.GameStore`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from ..ports import GameStore
from .inbound import Inbound
from .messages import Message


@dataclass(frozen=True)
class Capabilities:
    """What a platform can do, so the application degrades gracefully where it cannot."""

    buttons: bool = False
    """Messages may carry buttons."""
    edits: bool = False
    """A sent message can be edited (the table is then kept current in one message)."""
    deletes: bool = False
    private_messages: bool = True
    """The bot can write to a player privately."""
    personal_answers: bool = False
    """The answer to a button press is seen by the one who pressed it only."""
    inline_results: bool = False
    """Players can ask for their own hand inline (results personal to the one asking)."""
    max_text: int = 4000
    """The longest text one message may hold."""


class Unreachable(Exception):
    """A player cannot be written to privately (say, he never opened a chat with the bot)."""


class MessageGone(Exception):
    """The message to edit no longer exists (deleted, or too old to edit)."""


class ChatPort(Protocol):
    """What an adapter does for the application. Message ids are the platform's, as text."""

    platform: str
    capabilities: Capabilities

    async def send(self, room: str, message: Message) -> str:
        """Post a message in a room; return its id."""
        ...

    async def edit(self, room: str, message_id: str, message: Message) -> None:
        """Replace a message's text and buttons (only when `capabilities.edits`); raise
        MessageGone when it cannot be edited any more."""
        ...

    async def delete(self, room: str, message_id: str) -> None:
        """Remove a message (only when `capabilities.deletes`)."""
        ...

    async def send_private(self, user_id: str, message: Message) -> str:
        """Write to one player privately; return the message id; raise Unreachable if impossible."""
        ...

    async def edit_private(self, user_id: str, message_id: str, message: Message) -> None:
        """Replace a private message (only when `capabilities.edits`)."""
        ...

    async def answer(self, inbound: Inbound, text: str) -> None:
        """Tell the sender of `inbound` something short (a button answer where the platform has
        one, otherwise a reply); never shown to anyone else where the platform allows."""
        ...


class Clock(Protocol):
    """The time, for deadlines; tests pass a clock they move by hand."""

    def now(self) -> datetime:
        """The current time, timezone-aware (UTC)."""
        ...


class ChatStore(GameStore, Protocol):
    """The game store, plus what a restarted application needs to pick its games up again."""

    def last_action_at(self, game_id: str) -> datetime | None:
        """When the game's last action was stored (None: it has none yet)."""
        ...
