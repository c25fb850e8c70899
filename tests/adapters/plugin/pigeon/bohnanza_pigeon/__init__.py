"""A platform package outside the bot, built on the adapter kit alone: messages come and go
as lines through two queues (a stand-in for a network connection). Its own sentence is
translated by its own catalogs (`locales/<language>/LC_MESSAGES/pigeon.po`)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from importlib.resources import files

from bohnanza.adapters.kit import (
    Capabilities,
    Inbound,
    LinePort,
    Platform,
    Runner,
    ServeContext,
    Translator,
    command_text,
    serve_chat,
    setting,
)

CAPABILITIES = Capabilities(private_messages=True, line_bytes=200, line_pace=0.01, line_burst=4)
CATALOGS = files(__name__) / "locales"


class PigeonPort(LinePort):
    """Writes every line to the outgoing queue as `target|text` (an answer as `target!text`)."""

    platform = "pigeon"
    capabilities = CAPABILITIES

    def __init__(self, outgoing: asyncio.Queue[str]) -> None:
        super().__init__()
        self.outgoing = outgoing

    def how_to_reach(self, tr: Translator) -> str:
        return tr.gettext("Send me a pigeon privately first, with any word.")

    async def write(self, target: str, line: str, answer: bool) -> None:
        await self.outgoing.put(f"{target}{'!' if answer else '|'}{line}")


def check(settings: Mapping[str, str]) -> None:
    """The one setting the platform needs."""
    setting(settings, "BOHNANZA_PIGEON_LOFT")


async def listen(runner: Runner, incoming: asyncio.Queue[str]) -> None:
    """Feed `room|user|text` lines to the runner until an empty line. In private the room is
    the sender's own id: the chat between him and the bot."""
    while line := await incoming.get():
        room, user, text = line.split("|", 2)
        private = room == user
        command = text if private else command_text(text, ["!"], ["pigeon"])
        if command is not None:
            inbound = Inbound("pigeon", user, user.title(), room, command, "", private)
            await runner.submit(inbound, wait=False)


async def serve(context: ServeContext, incoming: asyncio.Queue[str] | None = None) -> None:
    check(context.settings)
    incoming = incoming or asyncio.Queue()
    port = PigeonPort(asyncio.Queue())
    await serve_chat(context, port, lambda runner: listen(runner, incoming), catalogs=CATALOGS)


platform = Platform("pigeon", "lines by pigeon post", serve, check)
