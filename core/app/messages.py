"""What the application asks adapters to show: messages, buttons and short replies."""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape

from .inbound import Inbound


@dataclass(frozen=True)
class Button:
    """A button: pressing it hands `payload` back as an `Inbound` with `button` set."""

    label: str
    payload: str
    short: str = ""
    """A shorter label, for a platform whose buttons cannot hold `label` whole: the message
    then says the whole of it above the buttons (`bohnanza.core.app.labels`)."""
    url: str = field(default="", repr=False)
    """A page the button opens instead of handing back a payload (the board of a game, which
    Telegram opens as a Mini App). Left out of the repr, and so of what a message's digest
    reads: a button's page stays the same while it is shown."""
    number: int = field(default=0, repr=False)
    """Where buttons are listed numbered and answered by number (a terminal), the number the
    player types for it (`bohnanza.core.app.numbers`); 0 elsewhere. Left out of the `repr`,
    which a message's fingerprint is made of: a message shown before numbers were given
    keeps its fingerprint."""


@dataclass(frozen=True)
class Message:
    """Plain text (lines separated by newlines) and optional rows of buttons."""

    text: str
    buttons: tuple[tuple[Button, ...], ...] = ()
    alert: bool = False
    """Meant to notify its reader (a decision is due): the platform's notifying kind of
    message, where it has one; other private messages are sent silently where it can."""
    html: str | None = None
    """The same message formatted, where the platform shows formatting: HTML of the subset
    Telegram reads (`<b>`, `<i>`; every other `<`, `>` and `&` escaped), lines separated by
    newlines. None: the plain text is all there is."""

    def with_line(self, line: str, at: int | None = None) -> Message:
        """The message with one more line of plain text (escaped in the HTML): at the end, or
        after its first `at` lines (which must be the same lines in the text and the HTML,
        such as a one-line heading)."""
        return self.with_lines([line], at)

    def with_lines(self, lines: list[str], at: int | None = None) -> Message:
        """The message with more lines of plain text, as `with_line` adds one, joined once."""
        if not lines:
            return self

        def insert(text: str, new: list[str]) -> str:
            if at is None:
                return "\n".join([text, *new])
            old = text.split("\n")
            return "\n".join([*old[:at], *new, *old[at:]])

        html = None
        if self.html is not None:
            html = insert(self.html, [escape(line, quote=False) for line in lines])
        return Message(insert(self.text, lines), self.buttons, self.alert, html)

    def with_buttons(self, buttons: tuple[tuple[Button, ...], ...]) -> Message:
        """The message with other buttons. This and the constructor calls here make a message
        directly: `dataclasses.replace` looks up the fields each time, and every private
        message passes through several of them."""
        return Message(self.text, buttons, self.alert, self.html)

    def with_alert(self, alert: bool) -> Message:
        """The message, notifying its reader or not."""
        return Message(self.text, self.buttons, alert, self.html)

    def cut(self, max_text: int) -> Message:
        """The message with its plain text cut to `max_text` characters."""
        if len(self.text) <= max_text:
            return self
        return Message(self.text[:max_text], self.buttons, self.alert, self.html)


@dataclass(frozen=True)
class ToRoom:
    """A message for everyone in a room.

    With a `slot` (such as the game's table), the message replaces the one last shown in the same
    slot, by an edit where the platform can edit.
    """

    room: str
    message: Message
    slot: str | None = None
    fresh: bool = False
    """Post it anew (and keep the new one in the slot) rather than edit the old one."""


@dataclass(frozen=True)
class ToPlayer:
    """A message for one player only, in private; `room` is the group the game is played in."""

    user_id: str
    message: Message
    room: str
    slot: str | None = None
    fresh: bool = False
    """Post it anew (a decision is due, the player asked for it, or pressed a button of an
    older message)."""
    retired: Message | None = None
    """What the slot's previous message becomes when this one is posted anew (a short line,
    without buttons), so the private chat does not fill up with live-looking messages."""


@dataclass(frozen=True)
class Reply:
    """Short feedback to the sender of one input (an answer to a button press where possible)."""

    to: Inbound
    text: str


@dataclass(frozen=True)
class GamePage:
    """A finished game's replay page, offered in its room as a file (where the platform
    takes files), with a one-line caption in the room's language."""

    room: str
    game_id: str
    language: str
    caption: str
    analysis: bool = False
    """A request of the expert's analysis of every seat: the runner works it out beside the
    room's messages, tells the room where the request stands, and sends the page with it
    and its summary when it is ready."""


Outbound = ToRoom | ToPlayer | Reply | GamePage
