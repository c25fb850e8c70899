"""A platform without edits, built on the kit's `BasePort`: whole messages dropped in
mailboxes (in memory here; files or a mail server elsewhere). The port writes only what the
platform does, `send` and `send_private`; nothing is edited, so each player gets a private
message only when a decision is his (the kit's default for such platforms)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

from bohnanza.adapters.kit import (
    BasePort,
    Capabilities,
    Inbound,
    Message,
    Platform,
    Runner,
    ServeContext,
    Translator,
    Unreachable,
    serve_chat,
)


class MailboxPort(BasePort):
    """Drops every message in a mailbox: a room's, or a resident's (a user with none is
    `Unreachable`)."""

    platform = "mailbox"
    capabilities = Capabilities(private_messages=True, max_text=8000)

    def __init__(self, residents: set[str]) -> None:
        self.residents = residents
        self.boxes: dict[str, list[str]] = {}

    def how_to_reach(self, tr: Translator) -> str:
        return tr.gettext("Put up a mailbox: write to me privately once.")

    def _drop(self, box: str, message: Message) -> str:
        self.boxes.setdefault(box, []).append(message.text)
        return f"{box}#{len(self.boxes[box])}"

    async def send(self, room: str, message: Message) -> str:
        return self._drop(room, message)

    async def send_private(self, user_id: str, message: Message) -> str:
        if user_id not in self.residents:
            raise Unreachable(user_id)
        return self._drop(f"@{user_id}", message)


async def listen(runner: Runner, port: MailboxPort, letters: asyncio.Queue[Inbound]) -> None:
    """Hand every letter to the runner until a letter with no text; a private letter puts
    up its writer's mailbox."""
    while (letter := await letters.get()).text:
        if letter.private:
            port.residents.add(letter.user_id)
        await runner.submit(letter, wait=False)


async def serve(context: ServeContext) -> None:
    port, letters = MailboxPort(set()), asyncio.Queue[Inbound]()
    await serve_chat(context, port, lambda runner: listen(runner, port, letters))


def check(settings: Mapping[str, str]) -> None:
    """Nothing to set."""


platform = Platform("mailbox", "whole messages in mailboxes, nothing edited", serve, check)
