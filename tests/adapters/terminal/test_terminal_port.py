"""The terminal adapter keeps the chat port contract, and numbers its buttons."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterator
from typing import TypeVar

import pytest

from bohnanza.adapters.contract import ChatHarness, ChatPortContract
from bohnanza.adapters.terminal import TerminalPort, player_name
from bohnanza.adapters.terminal.port import AT_WORK
from bohnanza.core.app.inbound import Inbound
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
        # A screen wide enough for any line: the contract is about what is shown; how lines
        # are fit to a terminal's width is tested on its own (test_layout.py).
        self.port = TerminalPort(self.screen.append, width=lambda: 1_000_000)

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


def test_buttons_are_listed_with_the_numbers_the_application_gave_them() -> None:
    screen: list[str] = []
    port = TerminalPort(screen.append, width=lambda: 1_000_000)
    buttons = (
        (
            Button("Plant in field 1", "g A 1 plant 1", number=3),
            Button("Done", "g A 1 done", number=7),
        ),
    )
    asyncio.run(port.send_private("you", Message("hand", buttons)))
    assert screen[-1].split("\n")[-2:] == ["[3] Plant in field 1", "[7] Done"]
    # Buttons given no numbers count from 1.
    asyncio.run(port.send_private("you", Message("hand", ((Button("Done", "g A 1 done"),),))))
    assert screen[-1].split("\n")[-1] == "[1] Done"


def test_the_replay_command_names_the_store_it_is_given() -> None:
    screen: list[str] = []
    result = Message("Game ABC234 is over.\nReplay it with: bohnanza replay DB --game ABC234")
    asyncio.run(TerminalPort(screen.append, "'/my games/b.db'").send("terminal", result))
    asyncio.run(TerminalPort(screen.append).send("terminal", result))
    assert "Replay it with: bohnanza replay '/my games/b.db' --game ABC234" in screen[0]
    assert "Replay it with: bohnanza replay DB --game ABC234" in screen[1]


def test_the_persons_seat_has_a_name_that_reads_in_the_third_person(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for variable in ("LOGNAME", "USER", "LNAME", "USERNAME"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LOGNAME", "anna")
    assert player_name() == "anna"
    assert player_name("  Anna \x1b Rossi\n") == "Anna Rossi"
    assert player_name(" \t ") == "anna"
    assert player_name("x" * 50) == "x" * 30
    monkeypatch.setenv("LOGNAME", "root")
    assert player_name() == "Player"


def test_an_hourglass_shows_once_while_the_bots_take_a_while() -> None:
    screen: list[str] = []
    port = TerminalPort(screen.append)
    typed = Inbound("terminal", "you", "You", "terminal", "pass")

    async def spells() -> None:
        for busy in (True, True, True, False, True, False):  # renewed twice, then a new spell
            await port.thinking(typed, busy)

    asyncio.run(spells())
    assert screen == [AT_WORK, AT_WORK]
