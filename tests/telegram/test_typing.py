"""While an input takes the bot a while (expert bots answering a move), the chat shows it typing."""

from __future__ import annotations

import time
from datetime import datetime
from pathlib import Path

import pytest

from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Outbound

from .botapi import BotApiServer, World
from .botapi.ptb import run
from .table import Players, RunningBot

pytestmark = pytest.mark.server  # the local Bot API server

WAIT = 60.0
"""Seconds to wait for what is to happen before it is taken not to come: far more than it
takes, however loaded the machine (a wait ends as soon as it happens)."""


def test_the_chat_shows_the_bot_typing_while_expert_bots_answer_a_move(
    world: World, botapi: BotApiServer, tmp_path: Path
) -> None:
    ann = world.create_user("Ann")
    group = world.create_group("Bean table", [ann])
    world.add_bot(group, by=ann)

    async def scenario() -> tuple[list[bool], list[str], int]:
        async with botapi:
            ann.start_bot()
            async with RunningBot(botapi, tmp_path / "g.db", seed=3) as tg:
                players = Players(tg, group, [ann], seed=3)
                game_id = await players.gather(["Ann", "bot:expert", "bot:expert"])
                chats = (group, ann.private_chat)
                before = [len(chat.actions) for chat in chats]
                handle = tg.bot.service.handle
                waited: list[bool] = []

                def typing_shown() -> bool:
                    return any(len(c.actions) > n for c, n in zip(chats, before, strict=True))

                def held(inbound: Inbound, now: datetime) -> list[Outbound]:
                    # The first move waits (in the runner's thread) until the chat shows the
                    # bot typing: with the input handled on the event loop it never would.
                    if not waited:
                        deadline = time.monotonic() + WAIT
                        while not typing_shown() and time.monotonic() < deadline:
                            time.sleep(0.01)
                        waited.append(typing_shown())
                    return handle(inbound, now)

                tg.bot.service.handle = held  # type: ignore[method-assign]
                actions = tg.action_count(game_id)
                await players.move()
                await players.move()
                shown = [a for c, n in zip(chats, before, strict=True) for a in c.actions[n:]]
                return waited, shown, tg.action_count(game_id) - actions

    waited, shown, played = run(scenario())

    assert waited == [True]
    assert shown and set(shown) == {"typing"}
    assert played >= 2  # the moves, and whatever the experts answered, were stored
