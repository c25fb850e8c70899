"""People on the test IRC network: raw clients on asyncio streams that log every line.

A `Person` registers a nick, joins channels, says things, changes his nick or leaves, and
keeps what the server sent him (`heard`), so a test reads exactly what an IRC user sees: the
bot's PRIVMSGs and NOTICEs, to the channel or to him, one line each.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

from bohnanza.adapters.irc.protocol import Line, casefold, encode, parse

WAIT = 60.0
"""Seconds to wait for what is to happen before it is taken not to come: far more than it
takes, however loaded the machine (a wait ends as soon as it happens)."""


@dataclass(frozen=True)
class Heard:
    """A line the server sent a person, when (time.monotonic), and its size on the wire."""

    line: Line
    at: float
    size: int
    target: str = ""

    @property
    def text(self) -> str:
        return self.line.params[-1] if self.line.params else ""


@dataclass
class Person:
    """One IRC user, his connection and everything he heard."""

    nick: str
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    heard: list[Heard] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None

    async def _read(self) -> None:
        while raw := await self.reader.readline():
            line = parse(raw.decode(errors="replace"))
            if line.command == "PING":
                self.send("PONG", *line.params)
            target = line.params[0] if line.params else ""
            self.heard.append(Heard(line, time.monotonic(), len(raw), target))
            self.changed.set()

    def send(self, *params: str) -> None:
        self.writer.write(encode(*params))

    async def say(self, target: str, text: str) -> None:
        self.send("PRIVMSG", target, text)
        await self.writer.drain()

    async def wait_for(self, found: Callable[[Heard], bool], after: int = 0) -> Heard:
        """The first line heard (from index `after`) that `found` accepts; TimeoutError."""
        async with asyncio.timeout(WAIT):
            while True:
                self.changed.clear()
                for heard in self.heard[after:]:
                    if found(heard):
                        return heard
                await self.changed.wait()

    def from_bot(self, bot: str, private: bool | None = None) -> list[Heard]:
        """The PRIVMSGs and NOTICEs the bot sent (to him alone, or to channels)."""
        me = casefold(self.nick)
        return [
            h
            for h in self.heard
            if h.line.command in ("PRIVMSG", "NOTICE")
            and casefold(h.line.nick) == casefold(bot)
            and (private is None or (casefold(h.target) == me) == private)
        ]

    async def join(self, channel: str) -> None:
        mark = len(self.heard)
        self.send("JOIN", channel)
        await self.wait_for(lambda h: h.line.command == "366", mark)

    async def change_nick(self, new: str) -> None:
        mark = len(self.heard)
        self.send("NICK", new)
        await self.wait_for(lambda h: h.line.command == "NICK", mark)
        self.nick = new

    async def close(self, reason: str = "bye") -> None:
        with contextlib.suppress(OSError):
            self.send("QUIT", reason)
            await self.writer.drain()
        if self.task is not None:
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError, OSError):
                await asyncio.wait_for(self.task, 5)
        self.writer.close()


@contextlib.asynccontextmanager
async def connected(host: str, port: int, nick: str) -> AsyncIterator[Person]:
    """A person registered on the network under `nick`, who quits on exit."""
    reader, writer = await asyncio.open_connection(host, port)
    person = Person(nick, reader, writer)
    person.task = asyncio.create_task(person._read())
    person.send("NICK", nick)
    person.send("USER", nick, "0", "*", nick)
    await person.wait_for(lambda h: h.line.command in ("001", "433"))
    if not any(h.line.command == "001" for h in person.heard):
        raise RuntimeError(f"the nick {nick} is taken")
    try:
        yield person
    finally:
        await person.close()


async def register_account(host: str, port: int, account: str, password: str) -> None:
    """An account for SASL, made through NickServ (once the services have linked)."""
    async with connected(host, port, account) as person:
        async with asyncio.timeout(WAIT):
            while True:
                mark = len(person.heard)
                await person.say("NickServ", f"REGISTER {password}")
                heard = await person.wait_for(
                    lambda h: h.line.command == "401" or h.line.nick == "NickServ",
                    mark,
                )
                if heard.line.command == "NOTICE" and "registered" in heard.text:
                    return
                if heard.line.command == "NOTICE":
                    raise RuntimeError(f"NickServ: {heard.text}")
                await asyncio.sleep(0.5)  # the services have not linked yet
