"""The IRC port keeps the chat port contract on a real IRC server, as people's clients see it."""

from __future__ import annotations

import asyncio
import itertools
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AsyncExitStack
from typing import Any, TypeVar

import pytest

from bohnanza.adapters.contract import ChatHarness, ChatPortContract
from bohnanza.adapters.irc import listen
from bohnanza.adapters.irc.client import IrcClient
from bohnanza.adapters.irc.port import IrcPort
from bohnanza.adapters.irc.protocol import casefold, encode
from bohnanza.adapters.irc.settings import read_settings
from bohnanza.adapters.kit import Inbound
from bohnanza.core.app.messages import Message

from .conftest import BotAccount, bot_env, unique
from .ircd import Network
from .people import Heard, Person, connected

T = TypeVar("T")
WAIT = 60.0
"""Seconds to wait for what is to happen before it is taken not to come: far more than it
takes, however loaded the machine (a wait ends as soon as it happens)."""


class RecordingRunner:
    """Stands in for the runner: notes what the adapter reports to it."""

    def __init__(self) -> None:
        self.inputs: list[Inbound] = []
        self.renamed: list[tuple[str, str, str]] = []
        self.gone: list[str] = []
        self.service = self

    def rooms(self) -> list[str]:
        """The rooms with a game or a lobby (none here)."""
        return []

    async def read(self, question: Callable[[Any], T]) -> T:
        """Answers a question about the games at once, as the runner does between inputs."""
        return question(self.service)

    async def submit(self, inbound: Inbound, wait: bool = True) -> Any:
        self.inputs.append(inbound)
        return asyncio.get_running_loop().create_future()

    async def rename(self, old: str, new: str, name: str) -> None:
        self.renamed.append((old, new, name))

    async def unreachable(self, user_id: str, tell: bool = True) -> None:
        self.gone.append(user_id)


class IrcHarness:
    """The bot's connection and two people's, in an event loop of their own thread; Ann and
    Bob are in the channel, and nobody holds the nick `absent`."""

    def __init__(self, network: Network, account: BotAccount) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()
        self._stack = AsyncExitStack()
        self.room = casefold("#" + unique("Port"))
        self.client = IrcClient(read_settings(bot_env(network, account, self.room)))
        self.port = IrcPort(self.client)
        self.runner = RecordingRunner()
        self.people: dict[str, Person] = {}
        self.absent = casefold(unique("Gone"))
        self.stranger = None
        self._tokens = itertools.count(1)
        self._pongs: set[str] = set()
        self.run(self._set_up(network))

    async def _set_up(self, network: Network) -> None:
        for name in ("Ann", "Bob"):
            person = connected(network.host, network.port, unique(name))
            joined = await self._stack.enter_async_context(person)
            await joined.join(self.room)
            self.people[casefold(joined.nick)] = joined
        self.player, self.other_player = list(self.people)
        runner: Any = self.runner
        handle = listen(self.client, runner)
        self._task = asyncio.create_task(handle)
        async with asyncio.timeout(WAIT):
            await self.client.ready.wait()
        ann = self.people[self.player]
        await ann.wait_for(lambda h: h.line.command == "JOIN" and h.line.nick == self.client.nick)

    def run(self, work: Awaitable[T]) -> T:
        async def wait() -> T:
            return await work

        return asyncio.run_coroutine_threadsafe(wait(), self.loop).result(timeout=WAIT * 2)

    def close(self) -> None:
        self._task.cancel()
        self.run(self._stack.aclose())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=5)
        self.loop.close()

    async def _sync(self) -> None:
        """Wait until the people heard everything the bot sent so far: a marker sent after it
        reaches each of them (the server keeps one sender's lines in order)."""
        token = f"sync {next(self._tokens)}"
        for user in self.people:
            await self.client.write_line(encode("NOTICE", user, token))
        await self.client.write_line(encode("NOTICE", self.room, token))
        for person in self.people.values():
            await person.wait_for(lambda h: h.text == token and is_room(h, self.room))
            await person.wait_for(lambda h: h.text == token and not is_room(h, self.room))

    def _bot_lines(self, user: str, command: str, room: bool) -> list[str]:
        self.run(self._sync())
        return [
            h.text
            for h in self.people[user].heard
            if h.line.command == command
            and h.line.nick == self.client.nick
            and is_room(h, self.room) == room
            and not h.text.startswith("sync ")
        ]

    def room_texts(self) -> list[str]:
        return self._bot_lines(self.player, "PRIVMSG", room=True)

    def private_texts(self, user: str) -> list[str]:
        return self._bot_lines(user, "PRIVMSG", room=False) if user in self.people else []

    def answer_texts(self, user: str) -> list[str]:
        return self._bot_lines(user, "NOTICE", room=False) if user in self.people else []

    def reported_unreachable(self) -> list[str]:
        """What the runner was told, once the server's answer to the bot's latest private
        message had time to come back."""

        async def settle() -> None:
            for _ in range(50):
                if self.absent in self.runner.gone:
                    return
                await asyncio.sleep(0.1)

        self.run(settle())
        return list(self.runner.gone)


def is_room(heard: Heard, room: str) -> bool:
    return casefold(heard.target) == room


@pytest.fixture(scope="module")
def irc(network: Network, bot_account: BotAccount) -> Iterator[IrcHarness]:
    harness = IrcHarness(network, bot_account)
    yield harness
    harness.close()


class TestIrcPort(ChatPortContract):
    @pytest.fixture
    def harness(self, irc: IrcHarness) -> Iterator[ChatHarness]:
        yield irc


def test_every_line_is_safe_on_the_wire(irc: IrcHarness) -> None:
    """A text with CR, LF or NUL in it never ends a line early or adds a command."""
    irc.run(irc.port.send(irc.room, Message("plant 1\r\nQUIT :bye\0 JOIN #x")))
    texts = irc.room_texts()
    assert "plant 1" in texts and "QUIT :bye JOIN #x" in texts
    assert irc.client.ready.is_set()
