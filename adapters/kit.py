"""Everything a chat platform needs to serve the game, in one import.

    from bohnanza.adapters.kit import (
        Capabilities, ChatPort, Inbound, Message, Platform, ServeContext, SettingsError,
        command_text, serve_chat, setting,
    )

A platform is a `ChatPort` (what the game asks of the platform: send, edit, answer...), a read
loop that turns the platform's events into `Inbound`s, and a `Platform` registered under the
entry-point group `bohnanza.adapters`. `serve_chat` does the rest: the application, the runner
that stores each input before it returns and delivers messages at the platform's pace, the
deadlines, and a clean stop. docs/adapters.md walks through the IRC adapter built on it.

Settings come from the environment (or the configuration file), named
`BOHNANZA_<PLATFORM>_<NAME>` (`BOHNANZA_IRC_SERVER`); a platform's `check(settings)` runs
before any store is opened and raises `SettingsError` with one line naming what is wrong,
which `bohnanza serve` prints as it is.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Awaitable, Callable, Mapping

from bohnanza.adapters.line_connection import LineConnection, tls_context
from bohnanza.adapters.line_port import LinePort
from bohnanza.adapters.platforms import Platform, ServeContext, SettingsError
from bohnanza.adapters.prefix import command_text
from bohnanza.adapters.runner import Runner
from bohnanza.adapters.settings import SECRET_WORDS
from bohnanza.core.app.i18n import Translator
from bohnanza.core.app.inbound import Inbound
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

__all__ = [
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
    "Platform",
    "PlatformSettings",
    "Runner",
    "ServeContext",
    "SettingsError",
    "Translator",
    "Unreachable",
    "command_text",
    "serve_chat",
    "setting",
    "settings_by_rules",
    "tls_context",
]


def setting(settings: Mapping[str, str], name: str, default: str | None = None) -> str:
    """A setting's value, stripped; `default` when it is not set (SettingsError naming it
    when there is no default)."""
    value = settings.get(name, "").strip()
    if value:
        return value
    if default is None:
        raise SettingsError(f"set {name}")
    return default


class PlatformSettings(dict[str, str]):
    """A platform's settings by name (`SERVER`), checked; its repr leaves secrets out (a
    name holding TOKEN, PASSWORD or SECRET), so it may be logged."""

    def __repr__(self) -> str:
        shown = {k: v for k, v in self.items() if not any(w in k for w in SECRET_WORDS)}
        return f"PlatformSettings({shown}, secrets hidden)"


def settings_by_rules(
    settings: Mapping[str, str], platform: str, rules: Mapping[str, tuple[str | None, str, str]]
) -> PlatformSettings:
    """A platform's settings by name (`SERVER` for `BOHNANZA_IRC_SERVER`), each checked by
    its rule: the default (None: required), the form of a valid value (a regular expression)
    and what is wrong with another; SettingsError naming the first setting that is not."""
    found = PlatformSettings()
    for name, (default, form, why) in rules.items():
        variable = f"BOHNANZA_{platform.upper()}_{name}"
        found[name] = setting(settings, variable, default)
        if not re.fullmatch(form, found[name]):
            raise SettingsError(f"{variable} {why}")
    return found


async def serve_chat(
    context: ServeContext,
    port: ChatPort,
    listen: Callable[[Runner], Awaitable[None]],
    clock: Clock | None = None,
    user_id_of: Callable[[str], str] | None = None,
) -> None:
    """Serve the game on a connected platform until cancelled (or until `listen` returns):
    pick up its stored games and bring their views up to date, play deadlines on time, let
    `listen(runner)` feed the platform's inputs (`await runner.submit(inbound, wait=False)`
    for each: it returns once the input is stored, so the read loop never waits on sending),
    then stop: no more input, the input in hand finished, what is queued delivered within
    `context.stop_timeout` seconds."""
    service = ChatService(
        port.platform, port.capabilities, context.store, context.translators, user_id_of=user_id_of
    )
    runner = Runner(service, port, clock)
    await runner.start()
    deadlines = asyncio.create_task(runner.run_deadlines())
    try:
        await listen(runner)
    finally:
        deadlines.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await deadlines
        await runner.stop(context.stop_timeout)
