"""A chat port for platforms where every line is a message of its own and nothing is edited."""

from __future__ import annotations

import itertools

from bohnanza.adapters.base_port import BasePort
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Message
from bohnanza.core.app.ports import Capabilities


class LinePort(BasePort):
    """Everything of a `ChatPort` but writing one line, for a line-based platform (IRC): a
    message is its lines in a row (a blank one as a single space), an answer goes to its
    sender alone, nothing is edited, deleted or sent as a file (`BasePort`'s defaults). The
    runner splits and paces messages by the `capabilities` a subclass declares, so `write`
    sends at once."""

    capabilities = Capabilities()

    def __init__(self) -> None:
        self._ids = itertools.count(1)

    async def write(self, target: str, line: str, answer: bool) -> None:
        """Send one line to a room or a user (`answer`: as the platform's personal kind of
        message, such as an IRC NOTICE)."""
        raise NotImplementedError

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
