"""The web platform's chat port: its pages show each game as it stands, so it shows no message.

The hub takes the answers to a page's inputs aside for that page and leaves nothing else of the
web platform's to send (`BoardHub.posted`); were anything to reach this port, it would be
noted as shown and go no further.
"""

from __future__ import annotations

import itertools

from bohnanza.adapters.kit import BasePort, Capabilities, Inbound, Message

CAPABILITIES = Capabilities(
    buttons=True,
    edits=True,
    personal_answers=True,
    private_messages=False,
    max_text=100_000,
    verified_ids=True,
)
"""Buttons (every move is a control), nothing private to send (a seat's board is his private
view), ids proven by a signed cookie."""


class WebPort(BasePort):
    """A port whose pages read the game itself."""

    platform = "web"
    capabilities = CAPABILITIES

    def __init__(self) -> None:
        self._ids = itertools.count(1)

    async def send(self, room: str, message: Message) -> str:
        return str(next(self._ids))

    async def edit(self, room: str, message_id: str, message: Message) -> None:
        return None

    async def edit_private(self, user_id: str, message_id: str, message: Message) -> None:
        return None

    async def answer(self, inbound: Inbound, text: str) -> None:
        return None
