"""A contract every chat adapter can prove it keeps: subclass `ChatPortContract` in its tests.

    class TestMyPlatform(ChatPortContract):
        @pytest.fixture
        def harness(self) -> Iterator[ChatHarness]:
            ...  # a port connected to a real (or realistic) server, and a way to read it

The checks read what people on the platform really see (through the harness), not what the port
says it did: a message appears in the room, an edit replaces it, a private message reaches its
player and nobody else, and a player the bot cannot reach is reported as `Unreachable`.

Line-based platforms (IRC: `capabilities.line_bytes` or `max_lines` set, no edits) prove more:
a message of several lines arrives with every line in order, a line of multi-byte text at the
byte limit arrives whole, and, with the optional harness hooks of `LateHarness`, an answer
reaches its sender alone and a player found unreachable after sending (he is not connected)
is reported to the runner.
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Awaitable
from typing import Protocol, TypeVar

import pytest

from bohnanza.core.app.inbound import Inbound
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


class LateHarness(ChatHarness, Protocol):
    """The optional hooks of a harness whose platform reports unreachable players late, and
    shows answers apart (a contract check that needs one is skipped when it is missing)."""

    absent: str
    """A user id nobody holds now (a nick not connected): a private message to it fails
    after it was sent."""

    def reported_unreachable(self) -> list[str]:
        """The user ids the adapter reported to its runner as unreachable, so far."""
        ...

    def answer_texts(self, user: str) -> list[str]:
        """The answers (`ChatPort.answer`) `user` has received, as he sees them now."""
        ...


def line_based(harness: ChatHarness) -> bool:
    """Whether every line of a message is a message of its own on the platform."""
    caps = harness.port.capabilities
    return bool(caps.line_bytes or caps.max_lines)


def shows(texts: list[str], text: str) -> bool:
    """Whether `texts` show `text`: as one message, or (line-based) as its lines in a row."""
    if text in texts:
        return True
    lines = text.split("\n")
    return any(texts[i : i + len(lines)] == lines for i in range(len(texts)))


def in_order(texts: list[str], lines: list[str]) -> bool:
    """Whether every line appears in `texts` (one message's lines, or lines), in this order."""
    seen = [line for text in texts for line in text.split("\n")]
    at = 0
    for line in lines:
        if line not in seen[at:]:
            return False
        at = seen.index(line, at) + 1
    return True


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
        caps = harness.port.capabilities
        size = min(caps.max_text, 4000)
        if line_based(harness):
            # As the runner sends it: lines at the line limit, as many as a message may hold.
            width = caps.line_bytes or size
            count = min(caps.max_lines or size, size // width)
            text = "\n".join(f"{n:03}" + "b" * (width - 3) for n in range(count))
        else:
            text = "b" * size
        harness.run(harness.port.send(harness.room, Message(text)))
        assert shows(harness.room_texts(), text)

    def test_a_message_of_several_lines_arrives_with_its_lines_in_order(
        self, harness: ChatHarness
    ) -> None:
        if harness.port.capabilities.edits and not line_based(harness):
            pytest.skip("a message is one whole on this platform")
        lines = ["Turn 7: Ann", "", "  Deck 40 · discard 3", "Ann: 1. Chili x2", "end of table"]
        harness.run(harness.port.send(harness.room, Message("\n".join(lines))))
        assert in_order(harness.room_texts(), [line for line in lines if line.strip()])

    def test_a_line_at_the_byte_limit_arrives_whole(self, harness: ChatHarness) -> None:
        limit = harness.port.capabilities.line_bytes
        if not limit:
            pytest.skip("the platform does not limit lines")
        text = "Hand: "
        for char in itertools.cycle("Bohne 🫘 Fève é ☕ "):  # 1 to 4 bytes a character
            if len((text + char).encode()) > limit:
                break
            text += char
        text += "x" * (limit - len(text.encode()))
        assert len(text.encode()) == limit
        harness.run(harness.port.send(harness.room, Message(text)))
        assert text in harness.room_texts()
        harness.run(harness.port.send_private(harness.player, Message(text)))
        assert text in harness.private_texts(harness.player)

    def test_an_answer_reaches_its_sender_only(self, harness: ChatHarness) -> None:
        if not harness.port.capabilities.personal_answers or not hasattr(harness, "answer_texts"):
            pytest.skip("answers are not personal here, or the harness cannot read them")
        late: LateHarness = harness  # type: ignore[assignment]
        inbound = Inbound(harness.port.platform, harness.player, "Ann", harness.room, "plant 9")
        harness.run(harness.port.answer(inbound, "You have no field 9."))
        assert "You have no field 9." in late.answer_texts(harness.player)
        assert "You have no field 9." not in late.answer_texts(harness.other_player)
        assert "You have no field 9." not in harness.room_texts()

    def test_a_player_found_unreachable_after_sending_is_reported(
        self, harness: ChatHarness
    ) -> None:
        if not hasattr(harness, "reported_unreachable"):
            pytest.skip("the platform tells at once who cannot be reached")
        late: LateHarness = harness  # type: ignore[assignment]
        with contextlib.suppress(Unreachable):
            harness.run(harness.port.send_private(late.absent, Message("Your hand: 1. Soy")))
        assert late.absent in late.reported_unreachable()
        assert harness.player not in late.reported_unreachable()
