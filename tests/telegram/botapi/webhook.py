"""Webhook delivery as Telegram does it: each pending update is POSTed, in order, and posted again
after a growing delay until the bot's server answers 2xx; only then is it delivered (no longer
pending). A redirect, any other status, a broken connection or no answer in time is a failure,
reported by getWebhookInfo. Watchers see each POST leave and each answer come back (to kill the
bot at a chosen moment, or lose an answer on its way back)."""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import Callable
from typing import Any

import aiohttp

from .world import World, now

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"

JsonDict = dict[str, Any]
Posting = Callable[[JsonDict], None]
"""Told of each update as its POST leaves."""
Answered = Callable[[JsonDict, int | None], bool]
"""Told of each answer to a POST (its status; None when there was none); True loses a 2xx on
its way back, as when the connection breaks just after the bot answered: the update stays
pending and is posted again."""


class WebhookDeliverer:
    """Delivers `world.pending` to `world.webhook`, retrying with a growing delay on failure."""

    def __init__(
        self,
        world: World,
        retry_delays: tuple[float, ...] = (0.1, 0.2, 0.5, 1.0),
        answer_timeout: float = 10.0,
    ):
        self.world = world
        self.retry_delays = retry_delays
        """Seconds before each new try after failures in a row (the last repeats)."""
        self.answer_timeout = answer_timeout
        self.posting: list[Posting] = []
        self.answered: list[Answered] = []
        self.posts: Counter[int] = Counter()
        """How often each update was posted, by update_id."""
        self._task: asyncio.Task[None] | None = None
        self._session: aiohttp.ClientSession | None = None

    async def start(self) -> None:
        """Begin delivering in the background."""
        timeout = aiohttp.ClientTimeout(total=self.answer_timeout)
        self._session = aiohttp.ClientSession(timeout=timeout)
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

    async def _post(self, url: str, secret: str | None, update: JsonDict) -> str | None:
        """Send one update; the error message the API would report, or None on success."""
        assert self._session is not None
        headers = {SECRET_HEADER: secret} if secret else {}
        self.posts[update["update_id"]] += 1
        for watcher in list(self.posting):
            watcher(update)
        status: int | None = None
        try:
            async with self._session.post(
                url, json=update, headers=headers, allow_redirects=False
            ) as response:
                status, reason = response.status, response.reason
        except (aiohttp.ClientError, TimeoutError) as exc:
            error = f"Connection failed: {exc.__class__.__name__}"
        else:
            accepted = 200 <= status < 300
            error = None if accepted else f"Wrong response from the webhook: {status} {reason}"
        lost = any([watcher(update, status) for watcher in list(self.answered)])
        if error is None and lost:
            return "Connection failed: the answer was lost"
        return error
