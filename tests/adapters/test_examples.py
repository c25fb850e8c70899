"""The example platforms of docs/adapters.md keep the chat-port contract: `pigeon` (a line
platform on `LinePort`) and `mailbox` (whole messages, nothing edited, on `BasePort`); the
contract runs without pytest too, and a port claiming what it does not write is refused."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterator
from typing import Any, TypeVar

import pytest

from bohnanza.adapters.contract import ChatHarness, check_port
from bohnanza.adapters.contract_pytest import ChatPortContract
from bohnanza.adapters.kit import BasePort, Capabilities, Message

from .plugin import mailbox, pigeon

T = TypeVar("T")


class PigeonHarness:
    """The pigeon port and the lines it wrote, read as its people see them."""

    room, player, other_player, stranger = "#loft", "ann", "bob", None

    def __init__(self) -> None:
        self.outgoing: asyncio.Queue[str] = asyncio.Queue()
        self.port = pigeon.PigeonPort(self.outgoing)
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


class MailboxHarness:
    """The mailbox port, its residents Ann and Bob; Eve has no mailbox."""

    room, player, other_player, stranger = "#street", "ann", "bob", "eve"

    def __init__(self) -> None:
        self.port = mailbox.MailboxPort({"ann", "bob"})

    def run(self, work: Awaitable[T]) -> T:
        async def wrapped() -> T:
            return await work

        return asyncio.run(wrapped())

    def room_texts(self) -> list[str]:
        boxes: dict[str, list[str]] = self.port.boxes
        return list(boxes.get(self.room, []))

    def private_texts(self, user: str) -> list[str]:
        boxes: dict[str, list[str]] = self.port.boxes
        return list(boxes.get(f"@{user}", []))


class TestPigeonPort(ChatPortContract):
    @pytest.fixture
    def harness(self) -> Iterator[Any]:
        yield PigeonHarness()


class TestMailboxPort(ChatPortContract):
    @pytest.fixture
    def harness(self) -> Iterator[Any]:
        yield MailboxHarness()


@pytest.mark.parametrize("make", [PigeonHarness, MailboxHarness], ids=["pigeon", "mailbox"])
def test_the_contract_runs_without_pytest_and_tells_each_outcome(make: Any) -> None:
    harness: ChatHarness = make()
    outcomes = check_port(harness)
    assert [o for o in outcomes if o.result == "broken"] == []
    assert sum(o.result == "passed" for o in outcomes) >= 5
    skipped = {o.check: o.reason for o in outcomes if o.result == "not applicable"}
    assert skipped["an_edit_replaces_the_message"] == "the platform cannot edit messages"


def test_a_port_that_cannot_edit_is_written_to_for_decisions_only() -> None:
    caps = mailbox.MailboxPort(set()).capabilities
    assert not caps.edits and caps.private_on_decisions
    assert not Capabilities(edits=True).private_on_decisions
    assert Capabilities(edits=True, private_updates="decisions").private_on_decisions
    assert not Capabilities(private_updates="every change").private_on_decisions


def test_a_port_claiming_what_it_does_not_write_is_refused_at_its_definition() -> None:
    with pytest.raises(TypeError, match="claims edits but does not write edit"):

        class Boasting(BasePort):
            capabilities = Capabilities(edits=True, private_messages=False)

            async def send(self, room: str, message: Message) -> str:
                return "1"

    class Plain(BasePort):
        async def send(self, room: str, message: Message) -> str:
            return "1"

    assert not Plain.capabilities.private_messages
