"""The web platform: the live board of every seat in a browser (`bohnanza serve web`).

Beside the chat platforms in one process (`bohnanza serve telegram web`), it shows and plays
their games: a Telegram player opens his board as a Mini App from his private messages, a
Matrix or IRC player by a private link there, and every move he makes on it is his input to
that platform's game, as if sent in the chat. On its own, it has tables of its own: a home page
to open one, an invitation link, bots for empty seats, and a name per browser in a signed
cookie. Every board updates live (Server-Sent Events), and a page that loses the server connects
again and shows the game as it stands. Settings: `BOHNANZA_WEB_*` (`settings.py`).
"""

from __future__ import annotations

import asyncio
import logging

from bohnanza.adapters.kit import Platform, Runner, ServeContext, serve_chat

from .app import BoardApp
from .hub import BoardHub
from .port import WebPort
from .server import BoardServer
from .settings import WebSettings, read_settings

log = logging.getLogger(__name__)


async def serve_boards(context: ServeContext, settings: WebSettings) -> None:
    """Serve the boards until cancelled."""
    hub = BoardHub(settings, context.boards, context.translators)
    # Set before the first await: every runner of the process starts after it, and so tells
    # the hub of all it sends.
    context.boards.listener = hub
    server = BoardServer(BoardApp(hub, settings).starlette(), settings.listen, settings.port)

    async def listen(runner: Runner) -> None:
        await server.start()
        log.info("boards on %s (listening on %s:%d)", settings.url, settings.listen, server.port)
        if settings.telegram_token and not settings.mini_app:
            log.warning("Telegram opens boards over HTTPS only: set BOHNANZA_WEB_URL to https://…")
        try:
            await asyncio.Event().wait()
        finally:
            await hub.stop()
            await server.stop()

    try:
        await serve_chat(context, WebPort(), listen)
    finally:
        if context.boards.listener is hub:
            context.boards.listener = None


async def _serve(context: ServeContext) -> None:
    await serve_boards(context, read_settings(context.settings))


platform = Platform(
    "web", "boards in the browser, live; Mini Apps for Telegram", _serve, check=read_settings
)

__all__ = ["BoardHub", "WebPort", "WebSettings", "platform", "read_settings", "serve_boards"]
