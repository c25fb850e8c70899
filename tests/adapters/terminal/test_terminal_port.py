"""The terminal adapter keeps the chat port contract, and numbers its buttons."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterator
from typing import TypeVar

import pytest

from bohnanza.adapters.contract import ChatHarness, ChatPortContract
from bohnanza.adapters.terminal import TerminalPort
from bohnanza.core.app.messages import Button, Message

T = TypeVar("T")


class TerminalHarness:
    """The screen is the room; at the terminal, every private message is the one player's."""

    room = "terminal"
    player = "you"
    other_player = "nobody"
    stranger = None

    def __init__(self) -> None:
        self.screen: list[str] = []
        self.port = TerminalPort(self.screen.append)

    def run(self, work: Awaitable[T]) -> T:
        async def wait() -> T:
            return await work

        return asyncio.run(wait())

    def room_texts(self) -> list[str]:
        return [text for block in self.screen for text in block.split("\n")]

    def private_texts(self, user: str) -> list[str]:
        if user != self.player:
            return []
        private = [b for b in self.screen if "only you see this" in b]
        return [text for block in private for text in block.split("\n")]


class TestTerminalPort(ChatPortContract):
    @pytest.fixture
    def harness(self) -> Iterator[ChatHarness]:
        yield TerminalHarness()

    def test_a_private_message_reaches_its_player_only(self, harness: ChatHarness) -> None:
        pytest.skip("at the terminal, the room and the player share one screen")


def test_a_number_presses_the_button_of_the_latest_message() -> None:
    port = TerminalPort(lambda _: None)
    buttons = ((Button("Plant in field 1", "g A 1 plant 1"), Button("Done", "g A 1 done")),)
    asyncio.run(port.send_private("you", Message("hand", buttons)))
    assert port.press(2) == "g A 1 done"
    assert port.press(3) is None
    assert port.press(0) is None
