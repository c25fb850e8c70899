"""The chat-port contract for pigeon: with the plugin installed, `pytest tests` in this folder
runs every check, each a test, skipped where the platform has not what it checks."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterator
from typing import TypeVar

import pytest
from bohnanza_pigeon import PigeonPort

from bohnanza.adapters.contract_pytest import ChatPortContract

T = TypeVar("T")


class PigeonHarness:
    """The pigeon port and the lines it wrote, read as its people see them."""

    room, player, other_player, stranger = "#loft", "ann", "bob", None

    def __init__(self) -> None:
        self.outgoing: asyncio.Queue[str] = asyncio.Queue()
        self.port = PigeonPort(self.outgoing)
        self.lines: list[str] = []

    def run(self, work: Awaitable[T]) -> T:
        async def wrapped() -> T:
            return await work

        result = asyncio.run(wrapped())
        while not self.outgoing.empty():
            self.lines.append(self.outgoing.get_nowait())
        return result

    def _to(self, target: str, mark: str) -> list[str]:
        return [line.partition(mark)[2] for line in self.lines if line.startswith(target + mark)]

    def room_texts(self) -> list[str]:
        return self._to(self.room, "|")

    def private_texts(self, user: str) -> list[str]:
        return self._to(user, "|")

    def answer_texts(self, user: str) -> list[str]:
        return self._to(user, "!")


class TestPigeonPort(ChatPortContract):
    @pytest.fixture
    def harness(self) -> Iterator[PigeonHarness]:
        yield PigeonHarness()
