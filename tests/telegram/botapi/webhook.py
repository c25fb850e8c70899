"""Webhook delivery: POST each pending update, in order, until the bot's server accepts it."""

from __future__ import annotations

import asyncio
import contextlib

import aiohttp

from .world import World, now

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


class WebhookDeliverer:
    """Delivers `world.pending` to `world.webhook`, retrying with a growing delay on failure."""

    def __init__(self, world: World, retry_delays: tuple[float, ...] = (0.1, 0.2, 0.5, 1.0)):
        self.world = world
        self.retry_delays = retry_delays
        self._task: asyncio.Task[None] | None = None
        self._session: aiohttp.ClientSession | None = None

    async def start(self) -> None:
        """Begin delivering in the background."""
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        """Stop delivering; undelivered updates stay pending."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._session is not None:
            await self._session.close()

    async def _run(self) -> None:
        failures = 0
        while True:
            hook = self.world.webhook
            if hook is None or not self.world.pending:
                await self.world.changed(1.0)
                continue
            update = self.world.pending[0]
            error = await self._post(hook.url, hook.secret_token, update)
            if error is None:
                failures = 0
                hook.deliveries += 1
                if self.world.pending and self.world.pending[0] is update:
                    self.world.pending.pop(0)
                self.world.notify()
                continue
            hook.failures += 1
            hook.last_error_date, hook.last_error_message = now(), error
            self.world.notify()
            await asyncio.sleep(self.retry_delays[min(failures, len(self.retry_delays) - 1)])
            failures += 1

    async def _post(self, url: str, secret: str | None, update: object) -> str | None:
        """Send one update; the error message the API would report, or None on success."""
        assert self._session is not None
        headers = {SECRET_HEADER: secret} if secret else {}
        try:
            async with self._session.post(url, json=update, headers=headers) as response:
                if 200 <= response.status < 300:
                    return None
                return f"Wrong response from the webhook: {response.status} {response.reason}"
        except (aiohttp.ClientError, TimeoutError) as exc:
            return f"Connection failed: {exc.__class__.__name__}"
