"""Running the unmodified python-telegram-bot against a `BotApiServer`."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Coroutine
from typing import Any, TypeVar

from telegram.ext import Application, ApplicationBuilder, BaseRateLimiter

from .server import BotApiServer

T = TypeVar("T")
AnyApplication = Application[Any, Any, Any, Any, Any, Any]


def build_application(
    server: BotApiServer, *, rate_limiter: BaseRateLimiter[Any] | None = None
) -> AnyApplication:
    """A PTB Application whose bot talks to `server` instead of api.telegram.org."""
    builder = (
        ApplicationBuilder()
        .token(server.world.token)
        .base_url(server.base_url)
        .base_file_url(server.base_file_url)
    )
    if rate_limiter is not None:
        builder = builder.rate_limiter(rate_limiter)
    return builder.build()


@contextlib.asynccontextmanager
async def polling(application: AnyApplication, timeout: int = 2) -> AsyncIterator[None]:
    """Run `application` with long polling (getUpdates with `timeout`) for the block."""
    async with application:
        await application.start()
        assert application.updater is not None
        await application.updater.start_polling(poll_interval=0, timeout=timeout)
        try:
            yield
        finally:
            await application.updater.stop()
            await application.stop()


@contextlib.asynccontextmanager
async def webhook(
    application: AnyApplication, *, secret_token: str, port: int | None = None
) -> AsyncIterator[str]:
    """Run `application` behind PTB's own webhook server on 127.0.0.1; yields the hook URL."""
    port = port or free_port()
    url = f"http://127.0.0.1:{port}/hook"
    async with application:
        await application.start()
        assert application.updater is not None
        await application.updater.start_webhook(
            listen="127.0.0.1",
            port=port,
            url_path="hook",
            webhook_url=url,
            secret_token=secret_token,
        )
        try:
            yield url
        finally:
            await application.updater.stop()
            await application.stop()


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


HANG = 600.0
"""Seconds after which a test body is taken to hang, however loaded the machine."""


def run(coroutine: Coroutine[Any, Any, T], timeout: float = HANG) -> T:
    """Run an async test body in a fresh event loop, failing if it takes over `timeout` s."""
    return asyncio.run(asyncio.wait_for(coroutine, timeout))
