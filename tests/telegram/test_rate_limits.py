"""ChatRateLimiter on the unmodified python-telegram-bot, against the simulated Bot API.

A 429 in one chat holds back that chat only; the limits of a group and of the whole bot still
hold. Times are the server's clock when each request arrived.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Sequence
from typing import Any

import pytest
from telegram import BotCommand
from telegram.constants import ChatAction
from telegram.error import RetryAfter
from telegram.ext import ExtBot
from telegram.request import HTTPXRequest

from bohnanza.adapters.telegram.limiter import (
    ChatRateLimiter,
    NoticeHeld,
    retry_after_seconds,
)

from .botapi import ApiCall, BotApiServer, Chat, World
from .botapi.ptb import run

pytestmark = pytest.mark.server  # the local Bot API server

JITTER = 0.3
"""Arrival times on the server may be this much closer together than the client's turns were
(a loaded machine delays one request more than the next): the buckets below earn a turn a
second, so that this is well under an interval."""


class WatchedRequest(HTTPXRequest):
    """python-telegram-bot's own HTTP client, telling when a 429 has come back to the bot."""

    def __init__(self) -> None:
        super().__init__()
        self.refused = asyncio.Event()

    async def do_request(
        self, url: str, method: str, *args: Any, **kwargs: Any
    ) -> tuple[int, bytes]:
        code, payload = await super().do_request(url, method, *args, **kwargs)
        if code == 429:
            self.refused.set()
        return code, payload


@contextlib.asynccontextmanager
async def limited_bot(
    server: BotApiServer, limiter: ChatRateLimiter, request: HTTPXRequest | None = None
) -> AsyncIterator[ExtBot[int]]:
    """A python-telegram-bot `ExtBot` that talks to `server` through `limiter`."""
    bot: ExtBot[int] = ExtBot(
        server.world.token,
        base_url=server.base_url,
        base_file_url=server.base_file_url,
        request=request,
        rate_limiter=limiter,
    )
    async with bot:
        yield bot


def group_with_bot(world: World, title: str) -> Chat:
    """A group whose creator added the bot."""
    owner = world.create_user(f"{title} owner")
    group = world.create_group(title, [owner])
    world.add_bot(group, by=owner)
    return group


def sends_to(world: World, chat_id: int) -> list[ApiCall]:
    """The sendMessage requests that reached the server for one chat, in order."""
    return [call for call in world.calls_since(0, "sendMessage") if call.chat_id == chat_id]


def within_bucket(times: Sequence[float], rate: int, period: float) -> bool:
    """Whether requests at `times` fit a token bucket: `rate` at once, then one per period/rate.

    Between the k-th and the j-th request, j - k + 1 requests were made; a bucket lets `rate`
    of them through at once and earns one more every period/rate seconds.
    """
    interval = period / rate
    ordered = sorted(times)
    return all(
        ordered[j] - ordered[k] >= (j - k + 1 - rate) * interval - JITTER
        for k in range(len(ordered))
        for j in range(k, len(ordered))
    )


def test_a_429_in_one_group_holds_back_that_group_only(world: World, botapi: BotApiServer) -> None:
    async def scenario() -> bool:
        async with botapi:
            group_a, group_b = group_with_bot(world, "A"), group_with_bot(world, "B")
            botapi.flood.inject_429(method="sendMessage", chat_id=group_a.id, retry_after=3)
            request = WatchedRequest()
            async with limited_bot(botapi, ChatRateLimiter(), request) as bot:
                to_a = asyncio.create_task(bot.send_message(group_a.id, "to A"))
                # The bot has its 429 in hand (and has reacted to it) before B is written to.
                await request.refused.wait()
                await bot.send_message(group_b.id, "to B")
                await bot.set_my_commands([BotCommand("new", "open a game")])
                a_was_waiting = not to_a.done()
                await to_a
        [refused, accepted] = sends_to(world, group_a.id)
        [to_b] = sends_to(world, group_b.id)
        assert (refused.status, accepted.status, to_b.status) == (429, 200, 200)
        assert refused.time < to_b.time < refused.time + 3 <= accepted.time
        assert [message.text for message in group_a.bot_messages] == ["to A"]
        assert [message.text for message in group_b.bot_messages] == ["to B"]
        return a_was_waiting

    assert run(scenario())


def test_a_429_that_outlasts_the_retries_is_raised(world: World, botapi: BotApiServer) -> None:
    async def scenario() -> None:
        async with botapi:
            group = group_with_bot(world, "A")
            storm = botapi.flood.inject_429(
                method="sendMessage", chat_id=group.id, retry_after=1, count=5
            )
            async with limited_bot(botapi, ChatRateLimiter(max_retries=1)) as bot:
                with pytest.raises(RetryAfter):
                    await bot.send_message(group.id, "hi")
        assert [call.status for call in sends_to(world, group.id)] == [429, 429]
        assert storm.remaining == 3
        assert group.bot_messages == []

    run(scenario())


def test_a_retry_after_beyond_the_cap_is_raised_without_waiting(
    world: World, botapi: BotApiServer
) -> None:
    async def scenario() -> None:
        async with botapi:
            group = group_with_bot(world, "A")
            botapi.flood.inject_429(method="sendMessage", chat_id=group.id, retry_after=60)
            async with limited_bot(botapi, ChatRateLimiter(max_retry_after=5)) as bot:
                with pytest.raises(RetryAfter) as raised:
                    await bot.send_message(group.id, "hi")
        assert retry_after_seconds(raised.value) == 60
        assert [call.status for call in sends_to(world, group.id)] == [429]

    run(scenario())


def test_a_request_without_a_chat_waits_out_its_429_and_goes_through(
    world: World, botapi: BotApiServer
) -> None:
    async def scenario() -> None:
        async with botapi:
            botapi.flood.inject_429(method="setMyCommands", retry_after=1)
            async with limited_bot(botapi, ChatRateLimiter()) as bot:
                assert await bot.set_my_commands([BotCommand("new", "open a game")])
        calls = world.calls_since(0, "setMyCommands")
        assert [call.status for call in calls] == [429, 200]
        assert calls[1].time - calls[0].time >= 1.0

    run(scenario())


def test_a_burst_to_one_group_is_paced_and_a_private_chat_is_not_held_back(
    world: World, botapi: BotApiServer
) -> None:
    async def scenario() -> None:
        async with botapi:
            group = group_with_bot(world, "A")
            ann = world.create_user("Ann")
            ann.start_bot()
            limiter = ChatRateLimiter(group_max_rate=3, group_time_period=3.0)
            async with limited_bot(botapi, limiter) as bot:
                burst = [
                    asyncio.create_task(bot.send_message(group.id, f"move {n}")) for n in range(7)
                ]
                await bot.send_message(ann.id, "your hand")
                await asyncio.gather(*burst)
        group_times = [call.time for call in sends_to(world, group.id)]
        [private] = sends_to(world, ann.id)
        assert len(group_times) == 7
        assert within_bucket(group_times, rate=3, period=3.0)
        assert private.time < sorted(group_times)[3]
        assert len(group.bot_messages) == 7

    run(scenario())


def test_a_typing_notice_takes_no_turn_of_its_group_and_waits_for_no_flood_limit(
    world: World, botapi: BotApiServer
) -> None:
    async def scenario() -> None:
        async with botapi:
            group = group_with_bot(world, "A")
            limiter = ChatRateLimiter(group_max_rate=3, group_time_period=60)
            async with limited_bot(botapi, limiter) as bot:
                await bot.send_message(group.id, "the table")
                await bot.send_chat_action(group.id, ChatAction.TYPING)
                await bot.send_message(group.id, "the new table")
                # The bucket had room for three messages: the notice took none of it.
                botapi.flood.inject_429(method="sendMessage", chat_id=group.id, retry_after=3)
                request = asyncio.create_task(bot.send_message(group.id, "later"))
                await world.wait_until(
                    lambda: any(c.status == 429 for c in world.calls), what="the 429"
                )
                with pytest.raises(NoticeHeld):
                    await bot.send_chat_action(group.id, ChatAction.TYPING)
                request.cancel()
        assert group.actions == ["typing"]
        assert [m.text for m in group.bot_messages] == ["the table", "the new table"]

    run(scenario())


def test_the_overall_limit_holds_across_chats(world: World, botapi: BotApiServer) -> None:
    async def scenario() -> None:
        async with botapi:
            people = [world.create_user(f"Player {n}") for n in range(6)]
            for person in people:
                person.start_bot()
            limiter = ChatRateLimiter(overall_max_rate=2, overall_time_period=2.0)
            async with limited_bot(botapi, limiter) as bot:
                mark = len(world.calls)
                await asyncio.gather(
                    *(bot.send_message(person.id, "your hand") for person in people)
                )
        sends = world.calls_since(mark, "sendMessage")
        assert [call.status for call in sends] == [200] * 6
        assert within_bucket([call.time for call in sends], rate=2, period=2.0)

    run(scenario())


def test_the_bucket_check_would_catch_an_unpaced_burst() -> None:
    assert within_bucket([0.0, 0.0, 0.0, 1.0, 2.0], rate=3, period=3.0)
    assert not within_bucket([0.0, 0.0, 0.0, 0.01], rate=3, period=3.0)
    assert not within_bucket([0.0, 0.0, 0.0, 1.0, 1.5], rate=3, period=3.0)
