"""The contract every chat port can prove it keeps, without pytest: checks, harness, runner.

A harness is the port under test and the eyes of the people on its platform (`ChatHarness`,
its fields documented below and in docs/adapters.md). Each check reads what people really see
through it, not what the port says it did: a message appears in the room, an edit replaces it,
a private message reaches its player and nobody else, and a player the bot cannot reach is
reported as `Unreachable`. A check that does not apply to the platform raises `NotApplicable`;
one that fails raises `ContractBroken` saying what was seen.

Line-based platforms (IRC: `capabilities.line_bytes` or `max_lines` set, no edits) prove more:
a message of several lines arrives with every line in order, a line of multi-byte text at the
byte limit arrives whole, and, with the optional hooks of `LateHarness` (a `RecordingRunner`
notes what the adapter reports), an answer reaches its sender alone and a player found
unreachable after sending is reported to the runner.

Run them with `check_port(harness)` (a list of outcomes), or under pytest by subclassing
`bohnanza.adapters.contract_pytest.ChatPortContract`.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Button, Message
from bohnanza.core.app.ports import ChatPort, MessageGone, Unreachable

T = TypeVar("T")

__all__ = [
    "CHECKS",
    "ChatHarness",
    "ContractBroken",
    "LateHarness",
    "NotApplicable",
    "Outcome",
    "RecordingRunner",
    "check_port",
]


class NotApplicable(Exception):
    """The check does not apply to this platform (the message says why)."""


class ContractBroken(AssertionError):
    """The port does not keep the contract (the message says what was seen)."""


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
    shows answers apart (a check that needs one does not apply when it is missing)."""

    absent: str
    """A user id nobody holds now (a nick not connected): a private message to it fails
    after it was sent."""

    def reported_unreachable(self) -> list[str]:
        """The user ids the adapter reported to its runner as unreachable, so far (a
        `RecordingRunner` given to the adapter's read loop keeps them in `gone`)."""
        ...

    def answer_texts(self, user: str) -> list[str]:
        """The answers (`ChatPort.answer`) `user` has received, as he sees them now."""
        ...


@dataclass
class RecordingRunner:
    """Stands in for the `Runner` in a read loop under test: notes what the adapter reports
    (`inputs` submitted, `renamed`, `gone`: the unreachable), and answers `read` at once
    about a bot with no games."""

    inputs: list[Inbound] = field(default_factory=list)
    renamed: list[tuple[str, str, str]] = field(default_factory=list)
    gone: list[str] = field(default_factory=list)

    @property
    def service(self) -> RecordingRunner:
        return self

    def rooms(self) -> list[str]:
        """The rooms with a game or a lobby: none."""
        return []

    async def read(self, question: Callable[[Any], T]) -> T:
        return question(self)

    async def submit(self, inbound: Inbound, wait: bool = True) -> asyncio.Future[None]:
        self.inputs.append(inbound)
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        done.set_result(None)
        return done

    async def rename(self, old_user_id: str, new_user_id: str, new_name: str) -> None:
        self.renamed.append((old_user_id, new_user_id, new_name))

    async def unreachable(self, user_id: str, tell: bool = True) -> None:
        self.gone.append(user_id)


def expect(condition: bool, seen: object) -> None:
    """ContractBroken with what was seen, unless `condition` holds."""
    if not condition:
        raise ContractBroken(repr(seen))


@contextmanager
def raises(error: type[Exception]) -> Iterator[None]:
    """ContractBroken unless the block raises `error`."""
    try:
        yield
    except error:
        return
    raise ContractBroken(f"{error.__name__} was not raised")


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


def a_message_sent_to_a_room_is_seen_there(harness: ChatHarness) -> None:
    message_id = harness.run(harness.port.send(harness.room, Message("Deck 43")))
    expect(isinstance(message_id, str) and bool(message_id), message_id)
    expect("Deck 43" in harness.room_texts(), harness.room_texts())


def buttons_do_not_stop_a_message(harness: ChatHarness) -> None:
    message = Message("Choose", ((Button("Plant in field 1", "g ABC 123 plant 1"),),))
    harness.run(harness.port.send(harness.room, message))
    expect("Choose" in "\n".join(harness.room_texts()), harness.room_texts())


def an_edit_replaces_the_message(harness: ChatHarness) -> None:
    if not harness.port.capabilities.edits:
        raise NotApplicable("the platform cannot edit messages")
    message_id = harness.run(harness.port.send(harness.room, Message("turn 1")))
    harness.run(harness.port.edit(harness.room, message_id, Message("turn 2")))
    texts = harness.room_texts()
    expect("turn 2" in texts and "turn 1" not in texts, texts)


def editing_a_message_that_is_not_there_says_so(harness: ChatHarness) -> None:
    if not harness.port.capabilities.edits:
        raise NotApplicable("the platform cannot edit messages")
    with raises(MessageGone):
        harness.run(harness.port.edit(harness.room, "999999999", Message("lost")))


def a_private_message_reaches_its_player_only(harness: ChatHarness) -> None:
    if not harness.port.capabilities.private_messages:
        raise NotApplicable("the platform has no private messages")
    text = "Your hand (front first): 1. Blue Bean"
    harness.run(harness.port.send_private(harness.player, Message(text)))
    expect(text in harness.private_texts(harness.player), harness.private_texts(harness.player))
    expect(text not in harness.private_texts(harness.other_player), "the other player saw it")
    expect(text not in harness.room_texts(), "the room saw it")


def a_private_message_can_be_edited(harness: ChatHarness) -> None:
    caps = harness.port.capabilities
    if not (caps.private_messages and caps.edits):
        raise NotApplicable("the platform cannot edit private messages")
    message_id = harness.run(harness.port.send_private(harness.player, Message("hand v1")))
    harness.run(harness.port.edit_private(harness.player, message_id, Message("hand v2")))
    texts = harness.private_texts(harness.player)
    expect("hand v2" in texts and "hand v1" not in texts, texts)


def a_player_who_cannot_be_reached_is_reported(harness: ChatHarness) -> None:
    if harness.stranger is None:
        raise NotApplicable("every user of the platform can be written to")
    with raises(Unreachable):
        harness.run(harness.port.send_private(harness.stranger, Message("hello")))


def the_longest_allowed_text_is_accepted(harness: ChatHarness) -> None:
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
    expect(shows(harness.room_texts(), text), "the text is not shown whole")


def a_message_of_several_lines_arrives_with_its_lines_in_order(harness: ChatHarness) -> None:
    if harness.port.capabilities.edits and not line_based(harness):
        raise NotApplicable("a message is one whole on this platform")
    lines = ["Turn 7: Ann", "", "  Deck 40 · discard 3", "Ann: 1. Chili x2", "end of table"]
    harness.run(harness.port.send(harness.room, Message("\n".join(lines))))
    expect(in_order(harness.room_texts(), [line for line in lines if line.strip()]), lines)


def a_line_at_the_byte_limit_arrives_whole(harness: ChatHarness) -> None:
    limit = harness.port.capabilities.line_bytes
    if not limit:
        raise NotApplicable("the platform does not limit lines")
    text = "Hand: "
    for char in itertools.cycle("Bohne 🫘 Fève é ☕ "):  # 1 to 4 bytes a character
        if len((text + char).encode()) > limit:
            break
        text += char
    text += "x" * (limit - len(text.encode()))
    harness.run(harness.port.send(harness.room, Message(text)))
    expect(text in harness.room_texts(), "the room did not see the line whole")
    harness.run(harness.port.send_private(harness.player, Message(text)))
    expect(text in harness.private_texts(harness.player), "the player did not see it whole")


def an_answer_reaches_its_sender_only(harness: ChatHarness) -> None:
    if not harness.port.capabilities.personal_answers or not hasattr(harness, "answer_texts"):
        raise NotApplicable("answers are not personal here, or the harness cannot read them")
    late: LateHarness = harness  # type: ignore[assignment]
    inbound = Inbound(harness.port.platform, harness.player, "Ann", harness.room, "plant 9")
    harness.run(harness.port.answer(inbound, "You have no field 9."))
    expect("You have no field 9." in late.answer_texts(harness.player), "the sender missed it")
    expect("You have no field 9." not in late.answer_texts(harness.other_player), "another saw")
    expect("You have no field 9." not in harness.room_texts(), "the room saw it")


def a_player_found_unreachable_after_sending_is_reported(harness: ChatHarness) -> None:
    if not hasattr(harness, "reported_unreachable"):
        raise NotApplicable("the platform tells at once who cannot be reached")
    late: LateHarness = harness  # type: ignore[assignment]
    with suppress(Unreachable):
        harness.run(harness.port.send_private(late.absent, Message("Your hand: 1. Soy")))
    reported = late.reported_unreachable()
    expect(late.absent in reported and harness.player not in reported, reported)


CHECKS: dict[str, Callable[[ChatHarness], None]] = {
    check.__name__: check
    for check in (
        a_message_sent_to_a_room_is_seen_there,
        buttons_do_not_stop_a_message,
        an_edit_replaces_the_message,
        editing_a_message_that_is_not_there_says_so,
        a_private_message_reaches_its_player_only,
        a_private_message_can_be_edited,
        a_player_who_cannot_be_reached_is_reported,
        the_longest_allowed_text_is_accepted,
        a_message_of_several_lines_arrives_with_its_lines_in_order,
        a_line_at_the_byte_limit_arrives_whole,
        an_answer_reaches_its_sender_only,
        a_player_found_unreachable_after_sending_is_reported,
    )
}
"""Every check of the contract by name, in order."""


@dataclass(frozen=True)
class Outcome:
    """One check's result: "passed", "not applicable" or "broken", and why."""

    check: str
    result: str
    reason: str = ""


def check_port(harness: ChatHarness) -> list[Outcome]:
    """Every check run on `harness`, in order, each told apart from the others' failures."""
    outcomes = []
    for name, check in CHECKS.items():
        try:
            check(harness)
        except NotApplicable as why:
            outcomes.append(Outcome(name, "not applicable", str(why)))
        except (ContractBroken, MessageGone, Unreachable) as error:
            outcomes.append(Outcome(name, "broken", f"{type(error).__name__}: {error}"))
        else:
            outcomes.append(Outcome(name, "passed"))
    return outcomes


def __getattr__(name: str) -> object:
    """`ChatPortContract`, the pytest form, as it was first imported from here."""
    if name == "ChatPortContract":
        from bohnanza.adapters.contract_pytest import ChatPortContract

        return ChatPortContract
    raise AttributeError(name)
