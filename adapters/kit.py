"""Everything a chat platform needs to serve the game, in one import.

    from bohnanza.adapters.kit import (
        BasePort, Capabilities, Inbound, Message, Platform, ServeContext, SettingsError,
        command_text, serve_chat, setting,
    )

A platform is a `ChatPort` (what the game asks of the platform: send, edit, answer...; a
`BasePort` subclass writes only what its platform does), a read loop that turns the
platform's events into `Inbound`s, and a `Platform` registered under the entry-point group
`bohnanza.adapters`. `serve_chat` does the rest: the application, the runner
that stores each input before it returns and delivers messages at the platform's pace, the
deadlines, and a clean stop; a plugin's own sentences can come with its own catalogs
(`catalogs`). docs/adapters.md walks through the IRC adapter built on it, and the examples.

Settings come from the environment (or the configuration file), named
`BOHNANZA_<PLATFORM>_<NAME>` (`BOHNANZA_IRC_SERVER`); a platform's `check(settings)` runs
before any store is opened and raises `SettingsError` with one line naming what is wrong,
which `bohnanza serve` prints as it is.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable, Mapping
from importlib.resources.abc import Traversable

from bohnanza.adapters.base_port import BasePort, port_lacks
from bohnanza.adapters.boards import Boards
from bohnanza.adapters.i18n import plugin_translators
from bohnanza.adapters.line_connection import (
    CONNECTION_RULES,
    LineConnection,
    connection_settings,
    tls_context,
)
from bohnanza.adapters.line_port import LinePort
from bohnanza.adapters.platforms import Platform, ServeContext, SettingsError
from bohnanza.adapters.prefix import command_text
from bohnanza.adapters.runner import Runner
from bohnanza.adapters.runner_ports import AdapterStore
from bohnanza.adapters.settings import PlatformSettings, setting, settings_by_rules
from bohnanza.core.app.i18n import Translator
from bohnanza.core.app.inbound import Inbound, Named
from bohnanza.core.app.messages import Button, Message
from bohnanza.core.app.ports import (
    Capabilities,
    ChatPort,
    ChatStore,
    Clock,
    MessageGone,
    Unreachable,
)
from bohnanza.core.app.service import ChatService

log = logging.getLogger(__name__)

__all__ = [
    "CONNECTION_RULES",
    "AdapterStore",
    "BasePort",
    "Button",
    "Capabilities",
    "ChatPort",
    "ChatService",
    "ChatStore",
    "Clock",
    "Inbound",
    "LineConnection",
    "LinePort",
    "Message",
    "MessageGone",
    "Named",
    "Platform",
    "PlatformSettings",
    "Runner",
    "ServeContext",
    "SettingsError",
    "Translator",
    "Unreachable",
    "chat_runner",
    "command_text",
    "connection_settings",
    "plugin_translators",
    "serve_chat",
    "setting",
    "settings_by_rules",
    "tls_context",
]


async def serve_chat(
    context: ServeContext,
    port: ChatPort,
    listen: Callable[[Runner], Awaitable[None]],
    clock: Clock | None = None,
    user_id_of: Callable[[str], str] | None = None,
    catalogs: Traversable | None = None,
) -> None:
    """Serve the game on a connected platform until cancelled (or until `listen` returns):
    pick up its stored games and bring their views up to date, play deadlines on time, let
    `listen(runner)` feed the platform's inputs (`await runner.submit(inbound, wait=False)`
    for each: it returns once the input is stored, so the read loop never waits on sending),
    then stop: no more input, the input in hand finished, what is queued delivered within
    `context.stop_timeout` seconds. `catalogs`: a plugin's folder of message catalogs,
    `<language>/LC_MESSAGES/<platform>.po`, asked before the game's (`plugin_translators`).
    A port whose capabilities claim what it does not write is refused (TypeError)."""
    lacking = port_lacks(port)
    if lacking:
        raise TypeError(f"{type(port).__name__}: {lacking}")
    log.info("serving %s", port.platform)
    translators = context.translators
    if catalogs is not None:
        translators = plugin_translators(translators, catalogs, port.platform)
    runner = chat_runner(
        port, context.store, translators, clock, user_id_of=user_id_of, boards=context.boards
    )
    await runner.start()
    deadlines = asyncio.create_task(runner.run_deadlines())
    try:
        await listen(runner)
    finally:
        deadlines.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await deadlines
        await runner.stop(context.stop_timeout)


def chat_runner(
    port: ChatPort,
    store: AdapterStore,
    translators: Mapping[str, Translator],
    clock: Clock | None = None,
    *,
    user_id_of: Callable[[str], str] | None = None,
    boards: Boards | None = None,
    rng: random.Random | None = None,
    runner: type[Runner] = Runner,
) -> Runner:
    """A platform's application on the store and the runner that serves it, wired as every
    platform's are (`serve_chat`, Telegram, Matrix, the terminal): decks, game ids and bots
    from `rng` (the system's generator if none), the one-time codes of seat claims from the
    system's generator; `runner` a `Runner` of the platform's own."""
    service = ChatService(
        port.platform,
        port.capabilities,
        store,
        translators,
        rng=rng or random.SystemRandom(),
        user_id_of=user_id_of,
        codes=random.SystemRandom(),
    )
    return runner(service, port, clock, store=store, boards=boards)
