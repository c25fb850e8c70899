"""Platform-neutral input: who said what, where, and the platform's delivery id."""

from __future__ import annotations

from dataclasses import dataclass

MAX_TEXT = 500
"""Longer input is refused before it is read: no command is that long."""


@dataclass(frozen=True)
class Named:
    """A person an input names, as the platform knows him: a mention it resolved to his
    account, or the author of the message the input answers."""

    user_id: str
    name: str
    said: str = ""
    """The words of the input that name him ('' for the author of the message answered)."""


@dataclass(frozen=True)
class Inbound:
    """One thing a person did on a chat platform: a text command or a button press."""

    platform: str
    """The adapter's platform name, e.g. 'telegram', 'matrix', 'terminal'."""
    user_id: str
    """The sender's id on the platform; this, never the text, says who acts."""
    name: str
    """The sender's display name, for the table."""
    room: str
    """Where it was said: a group room, or the private room between the sender and the bot."""
    text: str
    """A command without the platform's prefix ('join', 'plant 1'), or a button's payload."""
    delivery_id: str = ""
    """The platform's id of this delivery; a delivery seen twice is applied once."""
    private: bool = False
    """Said in a private room with the bot rather than in a group."""
    button: bool = False
    """A button press: `text` is the payload the application put on the button."""
    handle: str = ""
    """How people on the platform name the sender where that is not his id (Telegram:
    '@username', in small letters): a seat handed to that name is his to claim."""
    named: tuple[Named, ...] = ()
    """The people the input names as the platform resolved them (`move NEW`)."""
