"""A game at the keyboard: the person types, the application answers, bots fill the table.

Everything goes through the chat application exactly as on any platform: the lobby commands that
open the game, each typed command or numbered button, deadlines and the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from bohnanza.adapters.runner import Runner
from bohnanza.core.app.i18n import Translator
from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.ports import ChatStore
from bohnanza.core.app.service import ChatService

from .port import CAPABILITIES, PLATFORM, TerminalPort

PLAYER_ID = "you"
QUIT_WORDS = ("quit", "exit", "q")


@dataclass(frozen=True)
class TableChoice:
    """The game to open: how many play, which bots, in which language, how fast."""

    players: int
    bots: Sequence[str]
    """Strategies, assigned round the table."""
    language: str = "en"
    deadline: str = "off"
    name: str = "You"


class NothingToResume(LookupError):
    """No interrupted terminal game is stored."""


@dataclass
class Outcome:
    game_id: str | None
    finished: bool


class Console:
    """One terminal session: reads lines, hands them to the application, prints its messages."""

    def __init__(
        self,
        store: ChatStore,
        translators: Mapping[str, Translator],
        read_line: Callable[[], str],
        write: Callable[[str], None],
        seed: int | None = None,
    ) -> None:
        self.port = TerminalPort(write)
        self.service = ChatService(PLATFORM, CAPABILITIES, store, translators, random.Random(seed))
        self.runner = Runner(self.service, self.port)
        self._read_line = read_line
        self._write = write
        self.room = ""
        self.name = "You"
        self.last_game_id: str | None = None

    async def _say(self, text: str, button: bool = False) -> None:
        inbound = Inbound(
            PLATFORM,
            PLAYER_ID,
            self.name,
            self.room,
            text,
            # Typed lines are never delivered twice, and numbering them again after a
            # `--resume` would make the store take a new line for an old one.
            delivery_id="",
            button=button,
        )
        await self.runner.submit(inbound)

    async def open(self, choice: TableChoice) -> None:
        """Open a new game through the lobby commands and start it."""
        self.room = f"terminal-{secrets.token_hex(4)}"
        self.name = choice.name
        await self._say("new")
        for seat in range(1, choice.players):
            await self._say(f"bot {choice.bots[(seat - 1) % len(choice.bots)]}")
        await self._say(f"set lang {choice.language}")
        await self._say(f"set deadline {choice.deadline}")
        await self._say("start")

    async def resume(self) -> None:
        """Go on with the latest interrupted terminal game."""
        await self.runner.start()
        mine = [s for s in self.service.games.values() if s.seat_of(PLAYER_ID) is not None]
        if not mine:
            raise NothingToResume("no interrupted game to resume")
        session = mine[-1]
        self.room = session.room
        seat = session.seat_of(PLAYER_ID)
        assert seat is not None
        self.name = session.names[seat]
        await self._say("table")
        await self._say("hand")

    def playing(self) -> bool:
        """The game is still going on."""
        session = self.service.games.get(self.room)
        if session is not None:
            self.last_game_id = session.game_id
        return session is not None

    async def play(self) -> None:
        """Read and apply commands until the game ends or the person quits."""
        deadlines = asyncio.create_task(self.runner.run_deadlines())
        try:
            while self.playing():
                try:
                    line = await asyncio.to_thread(self._read_line)
                except (EOFError, KeyboardInterrupt):
                    break
                text = line.strip()
                if text.lower() in QUIT_WORDS:
                    break
                if text.isdigit():
                    payload = self.port.press(int(text))
                    if payload is None:
                        self._write(f"» Choose 1 to {len(self.port.buttons)}.")
                        continue
                    await self._say(payload, button=True)
                elif text:
                    await self._say(text)
        finally:
            deadlines.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await deadlines
