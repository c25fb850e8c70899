"""The chat-port contract for mailbox: with the plugin installed, `pytest tests` in this folder
runs every check, each a test, skipped where the platform has not what it checks."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterator
from typing import TypeVar

import pytest
from bohnanza_mailbox import MailboxPort

from bohnanza.adapters.contract_pytest import ChatPortContract

T = TypeVar("T")


class MailboxHarness:
    """The mailbox port, its residents Ann and Bob; Eve has no mailbox."""

    room, player, other_player, stranger = "#street", "ann", "bob", "eve"

    def __init__(self) -> None:
        self.port = MailboxPort({"ann", "bob"})

    def run(self, work: Awaitable[T]) -> T:
        async def wrapped() -> T:
            return await work

        return asyncio.run(wrapped())

    def room_texts(self) -> list[str]:
        return list(self.port.boxes.get(self.room, []))

    def private_texts(self, user: str) -> list[str]:
        return list(self.port.boxes.get(f"@{user}", []))


class TestMailboxPort(ChatPortContract):
    @pytest.fixture
    def harness(self) -> Iterator[MailboxHarness]:
        yield MailboxHarness()
