"""Showing a chat that the bot is at work on its input ("typing…"), while an input takes a while:
after a moment, again every few seconds while the work goes on, and taken back at the end."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.ports import ChatPort

log = logging.getLogger(__name__)

AT_WORK_AFTER = 0.5
"""Seconds an input may take before its chat is shown that the bot is at work ("typing…")."""
AT_WORK_AGAIN = 4.0
"""Seconds between two such notices while the work goes on (Telegram's lasts 5)."""
NOTICE_TIMEOUT = 5.0
"""Seconds a notice of work in progress may take to reach the platform before it is let go."""


class AtWork:
    """The notices of work in progress a port is given, none waited for by the work itself."""

    def __init__(self, port: ChatPort) -> None:
        self.port = port
        self._notices: set[asyncio.Task[None]] = set()

    async def shown_until(
        self, inbound: Inbound, done: asyncio.Future[Any], after: float = AT_WORK_AFTER
    ) -> None:
        """Wait until `done`; after `after` seconds, and every `AT_WORK_AGAIN` after that,
        show the input's chat the bot at work, and take it back at the end."""
        wait = after
        last: asyncio.Task[None] | None = None
        while not (await asyncio.wait({done}, timeout=wait))[0]:
            last = self._notice(inbound, busy=True)
            wait = AT_WORK_AGAIN
        if last is not None:
            self._notice(inbound, busy=False, after=last)

    def cancel(self) -> None:
        """Let go of the notices still on their way (on stop)."""
        for notice in list(self._notices):
            notice.cancel()

    def _notice(
        self, inbound: Inbound, busy: bool, after: asyncio.Task[None] | None = None
    ) -> asyncio.Task[None]:
        """Tell the platform, without waiting for it (but after the notice `after`), that work
        on `inbound` goes on (or ended); a notice that fails is only logged."""

        async def notice() -> None:
            if after is not None:
                await asyncio.wait({after})
            try:
                async with asyncio.timeout(NOTICE_TIMEOUT):
                    await self.port.thinking(inbound, busy)
            except Exception as error:
                log.info(
                    "%s: a notice of work in progress failed: %s",
                    self.port.platform,
                    type(error).__name__,
                )

        task = asyncio.ensure_future(notice())
        self._notices.add(task)
        task.add_done_callback(self._notices.discard)
        return task
