"""The Telegram port keeps the chat port contract against the local Bot API, as people see it."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Iterator
from typing import TypeVar

import pytest

from bohnanza.adapters.contract import ChatHarness, ChatPortContract
from bohnanza.adapters.telegram import TelegramPort, build_application
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Button, Message

from .botapi import BotApiServer, World
from .table import settings_for, unthrottled

pytestmark = pytest.mark.server  # the local Bot API server

T = TypeVar("T")


class TelegramHarness:
    """The server and the bot run in an event loop of their own thread; tests call `run`."""

    def __init__(self, world: World, botapi: BotApiServer) -> None:
        self.world = world
        self.botapi = botapi
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()
        ann, bob = world.create_user("Ann"), world.create_user("Bob")
        cat = world.create_user("Cat")
        ann.start_bot()
        bob.start_bot()
        self.group = world.create_group("Bean table", [ann, bob, cat])
        world.add_bot(self.group, by=ann)
        self.room = str(self.group.id)
        self.player, self.other_player, self.stranger = str(ann.id), str(bob.id), str(cat.id)
        self.run(botapi.start())
        self.application = build_application(settings_for(botapi), unthrottled())
        self.run(self.application.initialize())
        self.port = TelegramPort(self.application.bot)

    def run(self, work: Awaitable[T]) -> T:
        async def wait() -> T:
            return await work

        return asyncio.run_coroutine_threadsafe(wait(), self.loop).result(timeout=15)

    def close(self) -> None:
        self.run(self.application.shutdown())
        self.run(self.botapi.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=5)
        self.loop.close()

    def room_texts(self) -> list[str]:
        return [m.text or "" for m in self.group.bot_messages]

    def private_texts(self, user: str) -> list[str]:
        return [m.text or "" for m in self.world.users[int(user)].private_messages]


async def _now(act: Callable[[], T]) -> T:
    """Do a person's act in the server's loop, where the world wakes its waiters."""
    return act()


@pytest.fixture
def telegram(world: World, botapi: BotApiServer) -> Iterator[TelegramHarness]:
    harness = TelegramHarness(world, botapi)
    yield harness
    harness.close()


class TestTelegramPort(ChatPortContract):
    @pytest.fixture
    def harness(self, telegram: TelegramHarness) -> Iterator[ChatHarness]:
        yield telegram


def test_buttons_arrive_as_an_inline_keyboard(telegram: TelegramHarness) -> None:
    message = Message("Choose", ((Button("Plant in field 1", "g ABC 1f2e3d plant 1"),),))
    telegram.run(telegram.port.send(telegram.room, message))
    shown = telegram.group.bot_messages[-1]
    assert shown.button_texts == [["Plant in field 1"]]
    assert shown.button("Plant in field 1")["callback_data"] == "g ABC 1f2e3d plant 1"


def test_a_button_telegram_would_refuse_is_left_out_and_the_message_still_goes(
    telegram: TelegramHarness,
) -> None:
    message = Message(
        "Choose", ((Button("Too long", "g " + "x" * 70), Button("Done", "g A 1 done")),)
    )
    telegram.run(telegram.port.send(telegram.room, message))
    assert telegram.group.bot_messages[-1].button_texts == [["Done"]]


def test_an_edit_that_changes_nothing_is_no_error(telegram: TelegramHarness) -> None:
    message_id = telegram.run(telegram.port.send(telegram.room, Message("same")))
    telegram.run(telegram.port.edit(telegram.room, message_id, Message("same")))
    assert telegram.room_texts()[-1] == "same"


def test_a_text_answer_replies_to_the_message_it_answers(telegram: TelegramHarness) -> None:
    ann = telegram.world.users[int(telegram.player)]
    said = telegram.run(_now(lambda: ann.say(telegram.group, "/plant 9")))
    inbound = Inbound(
        "telegram",
        telegram.player,
        "Ann",
        telegram.room,
        "plant 9",
        delivery_id=f"m:{telegram.group.id}:{said.message_id}",
    )
    telegram.run(telegram.port.answer(inbound, "You have no such field."))
    reply = telegram.group.bot_messages[-1]
    assert reply.text == "You have no such field."
    assert reply.reply_to is said
