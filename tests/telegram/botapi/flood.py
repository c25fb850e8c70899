"""Flood control: injected 429 storms, and refusing calls until retry_after has passed.

The wire carries whole seconds, as Telegram's does. A storm's retry_after may be given as a
fraction; it is rounded up, and the refusal lasts exactly the number of seconds sent, so a
client that honours the value it received always gets through and one that retries early
does not.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from .errors import too_many_requests


@dataclass
class Storm:
    """The next `remaining` matching calls fail with 429."""

    method: str | None
    chat_id: int | str | None
    remaining: int
    retry_after: int

    def matches(self, method: str, chat_id: int | str | None) -> bool:
        """Whether a call to `method` in `chat_id` is hit by this storm."""
        method_matches = self.method is None or self.method == method.lower()
        chat_matches = self.chat_id is None or self.chat_id == chat_id
        return self.remaining > 0 and method_matches and chat_matches


class FloodControl:
    """Decides which calls get 429 and remembers until when each target is refused."""

    def __init__(self) -> None:
        self.storms: list[Storm] = []
        # Refusal deadlines (monotonic time) per chat id, or per method for chat-less calls.
        self.refused_until: dict[int | str, float] = {}

    def inject_429(
        self,
        *,
        count: int = 1,
        retry_after: float = 1,
        method: str | None = None,
        chat_id: int | str | None = None,
    ) -> Storm:
        """Make the next `count` calls (of `method`, in `chat_id`; None: any) fail with 429."""
        storm = Storm(
            method.lower() if method else None, chat_id, count, max(1, math.ceil(retry_after))
        )
        self.storms.append(storm)
        return storm

    def check(self, method: str, chat_id: int | str | None) -> None:
        """Raise 429 if this call is refused now; start a refusal if a storm hits it."""
        target = chat_id if chat_id is not None else method.lower()
        now = time.monotonic()
        until = self.refused_until.get(target)
        if until is not None and now < until:
            raise too_many_requests(max(1, math.ceil(until - now)))
        for storm in self.storms:
            if storm.matches(method, chat_id):
                storm.remaining -= 1
                self.refused_until[target] = now + storm.retry_after
                raise too_many_requests(storm.retry_after)
