"""Telegram's flood limits kept per chat: a 429 in one chat holds back that chat only.

python-telegram-bot's `AIORateLimiter` stops every request of the bot while one of them waits
out a `RetryAfter`, so one busy group delays every other game. `ChatRateLimiter` keeps
Telegram's limits as a whole (about 30 requests a second for the bot, about 20 a minute in a
group) with token buckets, and when Telegram answers 429 in a chat, only that chat waits for the
`retry_after` it was given. Requests without a chat (answering a button or an inline query,
setting the commands) are never held back by a chat.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

from telegram._utils.types import JSONDict
from telegram.error import RetryAfter, TelegramError
from telegram.ext import BaseRateLimiter

log = logging.getLogger(__name__)

Result = bool | JSONDict | list[JSONDict]
Callback = Callable[..., Coroutine[Any, Any, Result]]
ChatKey = int | str

# Long polling is no message; python-telegram-bot does not even route it through a limiter.
UNMETERED_ENDPOINTS = frozenset({"getUpdates"})
NOTICE_ENDPOINTS = frozenset({"sendChatAction"})
"""Requests that post no message ("typing…"): they take no turn of their chat's bucket, which
counts messages, and are not made at all while the chat waits out a 429."""


class NoticeHeld(TelegramError):
    """A notice was not sent: its chat waits out a flood limit."""


# Beyond this many chats, the ones with nothing left to remember are forgotten.
MAX_IDLE_CHATS = 512


class Pacer:
    """Lets callers through one at a time, in the order they came.

    Nobody passes before a pause (a 429's retry_after) has ended, and with a `rate` above 0 at
    most `rate` pass per `period` seconds: a token bucket, full at first, so a burst of up to
    `rate` passes at once and later callers are spread out evenly.
    """

    def __init__(self, rate: int, period: float) -> None:
        self.rate = rate
        self.interval = period / rate if rate > 0 else 0.0
        self.tokens = float(rate)
        self.refilled_at = time.monotonic()
        self.paused_until = 0.0
        self._lock = asyncio.Lock()

    def pause(self, seconds: float) -> None:
        """Let nobody through for `seconds` from now (an earlier, longer pause still holds)."""
        self.paused_until = max(self.paused_until, time.monotonic() + seconds)

    async def turn(self) -> None:
        """Wait until it is the caller's turn, and take it."""
        async with self._lock:
            while (delay := self._delay()) > 0:
                await asyncio.sleep(delay)
            if self.rate > 0:
                self.tokens -= 1

    def idle(self) -> bool:
        """Nobody waits, no pause holds and the bucket is full: forgetting it changes nothing."""
        now = time.monotonic()
        self._refill(now)
        full = self.rate == 0 or self.tokens >= self.rate
        return full and now >= self.paused_until and not self._lock.locked()

    def _delay(self) -> float:
        now = time.monotonic()
        self._refill(now)
        shortfall = (1.0 - self.tokens) * self.interval if self.rate > 0 else 0.0
        return max(self.paused_until - now, shortfall)

    def _refill(self, now: float) -> None:
        if self.rate > 0:
            earned = (now - self.refilled_at) / self.interval
            self.tokens = min(float(self.rate), self.tokens + earned)
        self.refilled_at = now


class ChatRateLimiter(BaseRateLimiter[int]):
    """Rate limits for python-telegram-bot with 429s handled per chat.

    Every request but getUpdates takes a turn of the overall bucket (`overall_max_rate` per
    `overall_time_period` seconds). A request to a group or channel (a negative chat id, or a
    `@username`) first takes a turn of that chat's bucket (`group_max_rate` per
    `group_time_period`), one to a private chat of its own (`private_max_rate` per
    `private_time_period`; 0, the default, means only the overall limit applies). A rate of 0
    turns that limit off. A notice ("typing…") takes no turn of its chat's bucket, and is not
    made while its chat waits out a 429 (`NoticeHeld`).

    On `RetryAfter`, the chat the request went to is paused for `retry_after` seconds (plus
    `retry_margin`) and the request is made again; a request without a chat waits alone. After
    `max_retries` retries (or the `rate_limit_args` of the call, if given), or at once when
    Telegram asks for more than `max_retry_after` seconds, the `RetryAfter` is raised.
    """

    def __init__(
        self,
        *,
        overall_max_rate: int = 30,
        overall_time_period: float = 1.0,
        group_max_rate: int = 20,
        group_time_period: float = 60.0,
        private_max_rate: int = 0,
        private_time_period: float = 1.0,
        max_retries: int = 3,
        max_retry_after: float = 60.0,
        retry_margin: float = 0.1,
    ) -> None:
        _check_limit("overall", overall_max_rate, overall_time_period)
        _check_limit("group", group_max_rate, group_time_period)
        _check_limit("private", private_max_rate, private_time_period)
        if max_retries < 0 or max_retry_after < 0 or retry_margin < 0:
            raise ValueError("max_retries, max_retry_after and retry_margin must not be negative")
        self._overall_limit = (overall_max_rate, overall_time_period)
        self._group_limit = (group_max_rate, group_time_period)
        self._private_limit = (private_max_rate, private_time_period)
        self._max_retries = max_retries
        self._max_retry_after = max_retry_after
        self._retry_margin = retry_margin
        self._overall = Pacer(*self._overall_limit)
        self._chats: dict[ChatKey, Pacer] = {}

    async def initialize(self) -> None:
        """Start afresh, with full buckets and no pauses, in the running event loop."""
        self._reset()

    async def shutdown(self) -> None:
        """Forget every chat."""
        self._reset()

    async def process_request(
        self,
        callback: Callback,
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> Result:
        """Make the request when its turn comes; on 429, pause its chat and make it again.

        `rate_limit_args`, if given, is the number of retries for this call.
        """
        retries = self._max_retries if rate_limit_args is None else rate_limit_args
        chat = chat_key(data.get("chat_id"))
        attempt = 0
        while True:
            try:
                return await self._attempt(chat, endpoint, callback, args, kwargs)
            except RetryAfter as error:
                wait = self._wait_before_retry(error, endpoint, chat, attempt, retries)
                await self._hold(chat, wait)
            attempt += 1

    async def _attempt(
        self,
        chat: ChatKey | None,
        endpoint: str,
        callback: Callback,
        args: Any,
        kwargs: dict[str, Any],
    ) -> Result:
        if chat is not None and endpoint in NOTICE_ENDPOINTS:
            if self._pacer(chat).paused_until > time.monotonic():
                raise NoticeHeld(f"{endpoint}: the chat waits out a flood limit")
        elif chat is not None:
            await self._pacer(chat).turn()
        if endpoint not in UNMETERED_ENDPOINTS:
            await self._overall.turn()
        return await callback(*args, **kwargs)

    def _wait_before_retry(
        self, error: RetryAfter, endpoint: str, chat: ChatKey | None, attempt: int, retries: int
    ) -> float:
        """Seconds to wait before the next try; raises `error` when there is to be none."""
        retry_after = retry_after_seconds(error)
        if attempt >= retries or retry_after > self._max_retry_after:
            if chat is not None:
                # Given up on this call, the chat still waits out its flood limit: calling it
                # sooner would only make Telegram's wait longer.
                self._pacer(chat).pause(retry_after + self._retry_margin)
            log.warning(
                "%s in chat %s: 429 with retry_after %.0f s after %d retries; giving up",
                endpoint,
                chat,
                retry_after,
                attempt,
            )
            raise error
        log.info("%s in chat %s: 429, retrying in %.1f s", endpoint, chat, retry_after)
        return retry_after + self._retry_margin

    async def _hold(self, chat: ChatKey | None, seconds: float) -> None:
        if chat is None:
            await asyncio.sleep(seconds)
        else:
            self._pacer(chat).pause(seconds)

    def _pacer(self, chat: ChatKey) -> Pacer:
        pacer = self._chats.get(chat)
        if pacer is None:
            self._forget_idle_chats()
            limit = self._private_limit if is_private(chat) else self._group_limit
            pacer = self._chats[chat] = Pacer(*limit)
        return pacer

    def _forget_idle_chats(self) -> None:
        if len(self._chats) >= MAX_IDLE_CHATS:
            for chat in [chat for chat, pacer in self._chats.items() if pacer.idle()]:
                del self._chats[chat]

    def _reset(self) -> None:
        self._overall = Pacer(*self._overall_limit)
        self._chats = {}


def chat_key(chat_id: object) -> ChatKey | None:
    """The chat a request goes to: an int id, a `@username`, or None for chat-less requests."""
    if chat_id is None or isinstance(chat_id, int):
        return chat_id
    text = str(chat_id)
    with contextlib.suppress(ValueError):
        return int(text)
    return text


def is_private(chat: ChatKey) -> bool:
    """Private chats have positive ids; groups and channels negative ids or a `@username`."""
    return isinstance(chat, int) and chat > 0


def retry_after_seconds(error: RetryAfter) -> float:
    """The wait Telegram asked for, in seconds.

    The public `retry_after` warns about its coming change of type; the timedelta behind it
    does not.
    """
    return error._retry_after.total_seconds()


def _check_limit(name: str, rate: int, period: float) -> None:
    if rate < 0 or (rate > 0 and period <= 0):
        raise ValueError(f"{name} limit: the rate must not be negative, the period positive")
