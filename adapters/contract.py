"""A contract every chat adapter can prove it keeps: subclass `ChatPortContract` in its tests.

    class TestMyPlatform(ChatPortContract):
        @pytest.fixture
        def harness(self) -> Iterator[ChatHarness]:
            ...  # a port connected to a real (or realistic) server, and a way to read it

The checks read what people on the platform really see (through the harness), not what the port
says it did: a message appears in the room, an edit replaces it, a private message reaches its
player and nobody else, and a player the bot cannot reach is reported as `Unreachable`.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Protocol, TypeVar

import pytest

from bohnanza.core.app.messages import Button, Message
from bohnanza.core.app.ports import ChatPort, MessageGone, Unreachable

T = TypeVar("T")


class ChatHarness(Protocol):
    """A port under test and the eyes of the people on its platform."""

    port: ChatPort
    room: str
    """A room the bot and `player` are in."""
    player: str
    """A user the bot can write to privately."""
    other_player: str
    """Another user the bot can write to privately, also in the room."""
    stranger: str | None
    """A user the bot cannot write to privately, if the platform has such users."""

    def run(self, work: Awaitable[T]) -> T:
        """Run a coroutine where the port lives (its event loop) and return its result."""
        ...

    def room_texts(self) -> list[str]:
        """The texts of the room's messages as a member sees them now (edits applied)."""
        ...

    def private_texts(self, user: str) -> list[str]:
        """The texts `user` has received privately from the bot, as he sees them now."""
        ...


class ChatPortContract:
    """The checks; a subclass provides the `harness` fixture."""

    def test_a_message_sent_to_a_room_is_seen_there(self, harness: ChatHarness) -> None:
        message_id = harness.run(harness.port.send(harness.room, Message("Deck 43")))
        assert isinstance(message_id, str) and message_id
        assert "Deck 43" in harness.room_texts()

    def test_buttons_do_not_stop_a_message(self, harness: ChatHarness) -> None:
        message = Message("Choose", ((Button("Plant in field 1", "g ABC 123 plant 1"),),))
        harness.run(harness.port.send(harness.room, message))
        assert "Choose" in "\n".join(harness.room_texts())

    def test_an_edit_replaces_the_message(self, harness: ChatHarness) -> None:
        if not harness.port.capabilities.edits:
            pytest.skip("the platform cannot edit messages")
        message_id = harness.run(harness.port.send(harness.room, Message("turn 1")))
        harness.run(harness.port.edit(harness.room, message_id, Message("turn 2")))
        texts = harness.room_texts()
        assert "turn 2" in texts
        assert "turn 1" not in texts

    def test_editing_a_message_that_is_not_there_says_so(self, harness: ChatHarness) -> None:
        if not harness.port.capabilities.edits:
            pytest.skip("the platform cannot edit messages")
        with pytest.raises(MessageGone):
            harness.run(harness.port.edit(harness.room, "999999999", Message("lost")))

    def test_a_private_message_reaches_its_player_only(self, harness: ChatHarness) -> None:
        if not harness.port.capabilities.private_messages:
            pytest.skip("the platform has no private messages")
        text = "Your hand (front first): 1. Blue Bean"
        harness.run(harness.port.send_private(harness.player, Message(text)))
        assert text in harness.private_texts(harness.player)
        assert text not in harness.private_texts(harness.other_player)
        assert text not in harness.room_texts()

    def test_a_private_message_can_be_edited(self, harness: ChatHarness) -> None:
        caps = harness.port.capabilities
        if not (caps.private_messages and caps.edits):
            pytest.skip("the platform cannot edit private messages")
        message_id = harness.run(harness.port.send_private(harness.player, Message("hand v1")))
        harness.run(harness.port.edit_private(harness.player, message_id, Message("hand v2")))
        texts = harness.private_texts(harness.player)
        assert "hand v2" in texts
        assert "hand v1" not in texts

    def test_a_player_who_cannot_be_reached_is_reported(self, harness: ChatHarness) -> None:
        if harness.stranger is None:
            pytest.skip("every user of the platform can be written to")
        with pytest.raises(Unreachable):
            harness.run(harness.port.send_private(harness.stranger, Message("hello")))

    def test_the_longest_allowed_text_is_accepted(self, harness: ChatHarness) -> None:
        text = "b" * min(harness.port.capabilities.max_text, 4000)
        harness.run(harness.port.send(harness.room, Message(text)))
        assert text in harness.room_texts()
