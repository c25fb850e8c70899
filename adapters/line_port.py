"""A chat port for platforms where every line is a message of its own and nothing is edited."""

from __future__ import annotations

import itertools

from bohnanza.core.app.i18n import Translator
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Message
from bohnanza.core.app.ports import Capabilities, MessageGone


class LinePort:
    """Everything of a `ChatPort` but writing one line, for a line-based platform (IRC): a
    message is its lines in a row (a blank one as a single space), an answer goes to its
    sender alone, nothing is edited, deleted or sent as a file. The runner splits and paces
    messages by the `capabilities` a subclass declares, so `write` sends at once."""

    platform: str
    capabilities: Capabilities

    def __init__(self) -> None:
        self._ids = itertools.count(1)

    async def write(self, target: str, line: str, answer: bool) -> None:
        """Send one line to a room or a user (`answer`: as the platform's personal kind of
        message, such as an IRC NOTICE)."""
        raise NotImplementedError

    def how_to_reach(self, tr: Translator) -> str:
        return ""

    async def _lines(self, target: str, text: str, answer: bool = False) -> str:
        for line in text.split("\n"):
            await self.write(target, line or " ", answer)
        return str(next(self._ids))

    async def send(self, room: str, message: Message) -> str:
        return await self._lines(room, message.text)

    async def send_private(self, user_id: str, message: Message) -> str:
        return await self._lines(user_id, message.text)

    async def answer(self, inbound: Inbound, text: str) -> None:
        await self._lines(inbound.user_id, text, answer=True)

    async def thinking(self, inbound: Inbound, busy: bool) -> None:
        return None  # a line costs: nothing is said until there is something to say

    async def send_file(self, room: str, filename: str, data: bytes, caption: str) -> str:
        return ""

    async def edit(self, room: str, message_id: str, message: Message) -> None:
        raise MessageGone(message_id)

    async def edit_private(self, user_id: str, message_id: str, message: Message) -> None:
        raise MessageGone(message_id)

    async def delete(self, room: str, message_id: str) -> None:
        return None
