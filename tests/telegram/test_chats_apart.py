"""One group's rate limit holds back that group only: the bot answers another group at once."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bohnanza.adapters.telegram.limiter import ChatRateLimiter

from .botapi import BotApiServer, World
from .botapi.ptb import run
from .table import Players, RunningBot

pytestmark = pytest.mark.server  # the local Bot API server

RETRY_AFTER = 15
"""Seconds the slow group is held back: far longer than gathering the quick table takes."""


def test_a_group_held_back_by_a_429_does_not_slow_another_group(
    world: World, botapi: BotApiServer, tmp_path: Path
) -> None:
    ann, bob, cat = world.create_user("Ann"), world.create_user("Bob"), world.create_user("Cat")
    slow = world.create_group("Slow table", [ann, bob])
    world.add_bot(slow, by=ann)
    quick = world.create_group("Quick table", [cat])
    world.add_bot(quick, by=cat)

    async def scenario() -> tuple[float, float, int]:
        async with botapi:
            for person in (ann, bob, cat):
                person.start_bot()
            limiter = ChatRateLimiter(group_max_rate=0, overall_max_rate=0, max_retries=3)
            async with RunningBot(botapi, tmp_path / "g.db", seed=5, rate_limiter=limiter) as tg:
                slow_table = Players(tg, slow, [ann, bob], seed=5)
                await slow_table.gather(["Ann", "Bob", "bot"])
                botapi.flood.inject_429(
                    method="sendMessage", chat_id=slow.id, retry_after=RETRY_AFTER
                )
                before = len(slow.bot_messages)
                ann.say(slow, "/table")  # answered only after the retry-after
                await world.wait_until(
                    lambda: any(c.status == 429 for c in world.calls), what="the 429"
                )
                started = time.monotonic()
                quick_table = Players(tg, quick, [cat], seed=6)
                await quick_table.gather(["Cat", "bot"])  # /new, /bot, /set, /start
                quick_seconds = time.monotonic() - started
                assert len(slow.bot_messages) == before, "the slow table came first"
                await world.wait_until(lambda: len(slow.bot_messages) > before, what="the table")
                slow_seconds = time.monotonic() - started
                return quick_seconds, slow_seconds, len(quick.bot_messages)

    quick_seconds, slow_seconds, quick_messages = run(scenario())

    assert quick_messages >= 2  # the lobby and the table of the quick group
    assert quick_seconds < slow_seconds, (quick_seconds, slow_seconds)
    assert slow_seconds >= RETRY_AFTER - 1.5, slow_seconds
