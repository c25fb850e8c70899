"""The webhook server: Telegram's POST of an update is answered once the update is stored.

Telegram posts each update to the bot's URL, and posts it again later until it gets a 2xx
answer. So the answer waits until the update was handed to the handlers and what it brings was
stored with its delivery id, or found stored already (a delivery seen before changes nothing,
and is answered at once). A store that failed is answered 503, and a crash before the answer
leaves the POST unanswered: either way Telegram delivers the update again, and a stored one is
recognised by its delivery id. What an update causes is sent meanwhile, chat by chat: the answer
does not wait for it, nor does an update wait for another's messages to go out.

A POST without the secret token (when one is set) is refused with 403, a body that is not an
update with 400; nothing of a refused POST is logged but why (never its headers or its body).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from telegram import Bot, Update

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_BODY = 1024 * 1024
"""The largest body taken (an update is a few kilobytes); a larger one is answered 413."""
SHUTDOWN_GRACE = 1.0
"""Seconds a connection still open at a stop is given (once the updates in hand are done)."""

Handle = Callable[[Update], Awaitable[bool]]
"""Hands one update to the handlers; False when it could not be stored (to be sent again)."""


class WebhookServer:
    """Listens for Telegram's POSTs to `path` and answers each once its update is stored."""

    def __init__(self, bot: Bot, handle: Handle, path: str, secret: str | None) -> None:
        self._bot = bot
        self._handle = handle
        self.path = "/" + path.lstrip("/")
        self._secret = secret.encode() if secret else None
        self._in_hand: set[asyncio.Future[bool]] = set()
        self._closing = False
        self._runner: web.AppRunner | None = None

    async def start(self, listen: str, port: int) -> None:
        """Listen on `listen:port` (OSError if it cannot)."""
        app = web.Application(client_max_size=MAX_BODY)
        app.router.add_post(self.path, self._post)
        # A handler goes on when Telegram's connection breaks: the update in hand is stored.
        runner = web.AppRunner(
            app, access_log=None, handler_cancellation=False, shutdown_timeout=SHUTDOWN_GRACE
        )
        await runner.setup()
        try:
            await web.TCPSite(runner, listen, port).start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner

    async def stop(self, timeout: float) -> None:
        """Take no more updates (503: Telegram sends them again, to this worker once it is back
        or to another), finish those in hand within `timeout` seconds, stop listening."""
        self._closing = True
        if self._in_hand:
            await asyncio.wait(set(self._in_hand), timeout=max(0.0, timeout))
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _post(self, request: web.Request) -> web.Response:
        if not self._authentic(request):
            log.info("a webhook post without the right secret token was refused")
            return web.Response(status=403)
        if self._closing:
            return web.Response(status=503)
        update = self._update_of(await request.read())
        if update is None:
            log.info("a webhook post that is not an update was refused")
            return web.Response(status=400)
        work = asyncio.ensure_future(self._handle(update))
        self._in_hand.add(work)
        work.add_done_callback(self._in_hand.discard)
        # Even when the connection breaks meanwhile, the update is handled to its end.
        stored = await asyncio.shield(work)
        return web.Response(status=200 if stored else 503)

    def _authentic(self, request: web.Request) -> bool:
        if self._secret is None:
            return True
        given = request.headers.get(SECRET_HEADER, "").encode("utf-8", "surrogateescape")
        return hmac.compare_digest(given, self._secret)

    def _update_of(self, body: bytes) -> Update | None:
        """The update a body holds; None if it holds none."""
        try:
            data: Any = json.loads(body)
        except (ValueError, RecursionError):
            return None
        if not isinstance(data, dict):
            return None
        update_id = data.get("update_id")
        if not isinstance(update_id, int) or isinstance(update_id, bool):
            return None
        try:
            return Update.de_json(data, self._bot)
        except Exception:
            return None
