"""The Matrix port keeps the chat port contract on a real Synapse, as people's clients see it."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import TypeVar

import pytest

from bohnanza.adapters.contract import ChatHarness, ChatPortContract
from bohnanza.adapters.matrix import MatrixBot, MatrixPort, MatrixSettings
from bohnanza.adapters.store import open_store
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Message
from bohnanza.core.app.ports import Unreachable

from .accounts import Account, register_account, unique_localpart
from .players import Player, open_player
from .synapse import Homeserver
from .table import translators

T = TypeVar("T")
WAIT = 60.0
"""Seconds to wait for what is to happen before it is taken not to come: far more than it
takes, however loaded the machine (a wait ends as soon as it happens)."""


class MatrixHarness:
    """The bot's client and three people's clients live in an event loop of their own thread.

    Ann and Bob share a room with the bot and joined the direct rooms it opened for them; Cat
    refused hers, so the bot may not write to her privately any more.
    """

    def __init__(self, homeserver: Homeserver, accounts: dict[str, Account], folder: Path) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()
        self._stack = AsyncExitStack()
        settings = MatrixSettings(
            homeserver=homeserver.base_url,
            user_id=accounts["bot"].user_id,
            password=accounts["bot"].password,
            state_dir=folder / "matrix",
        )
        store = open_store(str(folder / "games.db"), create=True)
        self.bot = MatrixBot(settings, store, translators())
        self.port: MatrixPort = self.bot.port
        self.people: dict[str, Player] = {}
        self.run(self._set_up(homeserver, accounts))

    async def _set_up(self, homeserver: Homeserver, accounts: dict[str, Account]) -> None:
        for name in ("ann", "bob", "cat"):
            player = open_player(homeserver, accounts[name])
            self.people[name] = await self._stack.enter_async_context(player)
        ann, bob, cat = self.people["ann"], self.people["bob"], self.people["cat"]
        self.player, self.other_player, self.stranger = ann.user_id, bob.user_id, cat.user_id
        await self.bot.log_in()
        await self.bot.sync_once(0)
        invited = [self.port.client.user_id, bob.user_id, cat.user_id]
        self.room = await ann.create_room(invite=invited)
        for guest in (bob, cat):
            await guest.wait_for_invite(self.room)
            await guest.join(self.room)
        await self._bot_syncs_until(lambda: self.room in self.port.client.rooms)
        for person in (ann, bob, cat):
            await self.port.send_private(person.user_id, Message("Welcome to the bean table"))
            direct = self.port.state.direct_rooms[person.user_id]
            await person.wait_for_invite(direct)
            if person is cat:
                await cat.client.room_leave(direct)
            else:
                await person.join(direct)
        await self._bot_syncs_until(lambda: cat.user_id in self.port.state.unreachable)

    async def _bot_syncs_until(self, done: Callable[[], bool]) -> None:
        async with asyncio.timeout(WAIT):
            while not done():
                await self.bot.sync_once(500)

    def run(self, work: Awaitable[T]) -> T:
        async def wait() -> T:
            return await work

        return asyncio.run_coroutine_threadsafe(wait(), self.loop).result(timeout=WAIT * 2)

    def close(self) -> None:
        self.run(self._stack.aclose())
        self.run(self.bot.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=5)
        self.loop.close()

    def _person(self, user_id: str) -> Player:
        return next(p for p in self.people.values() if p.user_id == user_id)

    def room_texts(self) -> list[str]:
        ann = self.people["ann"]
        self.run(ann.sync())
        return [m.body for m in ann.messages(self.room)]

    def private_texts(self, user: str) -> list[str]:
        person = self._person(user)
        self.run(person.sync())
        direct = self.port.state.direct_rooms.get(user)
        bot = self.port.client.user_id
        return [m.body for m in person.messages(direct) if m.sender == bot] if direct else []


@pytest.fixture(scope="module")
def matrix(
    synapse: Homeserver, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[MatrixHarness]:
    """One harness for the module: the checks only add messages, and setting up costs time."""
    names = ("bot", "ann", "bob", "cat")
    accounts = {name: register_account(synapse, unique_localpart(name)) for name in names}
    harness = MatrixHarness(synapse, accounts, tmp_path_factory.mktemp("matrix-port"))
    yield harness
    harness.close()


class TestMatrixPort(ChatPortContract):
    @pytest.fixture
    def harness(self, matrix: MatrixHarness) -> Iterator[ChatHarness]:
        yield matrix


def test_the_bot_speaks_in_notices_and_answers_by_reply(matrix: MatrixHarness) -> None:
    ann = matrix.people["ann"]
    said = matrix.run(ann.send_text(matrix.room, "!bean plant 9"))
    inbound = Inbound("matrix", ann.user_id, "ann", matrix.room, "plant 9", delivery_id=said)
    matrix.run(matrix.port.answer(inbound, "You have no such field."))
    matrix.room_texts()
    reply = ann.messages(matrix.room)[-1]
    assert (reply.body, reply.msgtype, reply.in_reply_to) == (
        "You have no such field.",
        "m.notice",
        said,
    )


def test_a_player_who_opens_a_direct_room_again_is_reachable_again(
    matrix: MatrixHarness,
) -> None:
    cat = matrix.people["cat"]  # she refused the bot's direct room
    bot = matrix.port.client.user_id
    with pytest.raises(Unreachable):
        matrix.run(matrix.port.send_private(cat.user_id, Message("hello")))

    async def open_again() -> str:
        room = await cat.create_room(invite=[bot], direct=True)
        await matrix._bot_syncs_until(
            lambda: matrix.port.state.direct_rooms.get(cat.user_id) == room
        )
        return room

    room = matrix.run(open_again())
    matrix.run(matrix.port.send_private(cat.user_id, Message("Your hand (front first): 1. Soy")))
    assert "Your hand (front first): 1. Soy" in matrix.private_texts(cat.user_id)
    assert matrix.port.state.direct_rooms[cat.user_id] == room
    assert cat.user_id not in matrix.port.state.unreachable


def test_the_bot_shows_itself_typing_while_at_work_and_takes_it_back(matrix: MatrixHarness) -> None:
    ann = matrix.people["ann"]
    bot = matrix.port.client.user_id
    inbound = Inbound("matrix", ann.user_id, "ann", matrix.room, "plant 1")

    async def seen(typing: bool) -> list[str]:
        async with asyncio.timeout(WAIT):
            while True:
                await ann.sync(500)
                notices = [users for room, users in ann.typing if room == matrix.room]
                if notices and (bot in notices[-1]) == typing:
                    return notices[-1]

    matrix.run(matrix.port.thinking(inbound, busy=True))
    assert bot in matrix.run(seen(typing=True))
    matrix.run(matrix.port.thinking(inbound, busy=False))
    assert bot not in matrix.run(seen(typing=False))
