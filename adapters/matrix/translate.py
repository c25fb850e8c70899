"""Pure translation between Matrix events and the chat application's values."""

from __future__ import annotations

from typing import Any

from bohnanza.core.app.inbound import Inbound
from bohnanza.core.app.messages import Message

PLATFORM = "matrix"
DEFAULT_PREFIX = "!bean"


def command_text(body: str, prefix: str, private: bool) -> str | None:
    """The command in a message body, without the prefix; None when it is not for the bot.

    In a group room only messages that start with the prefix are read; in a direct room with
    the bot every message is a command (the prefix is allowed there too).
    """
    text = without_reply_fallback(body).strip()
    if text.lower().startswith(prefix.lower()):
        rest = text[len(prefix) :]
        if rest and not rest[0].isspace():
            return None  # '!beans' is not '!bean'
        return rest.strip() or "help"
    return text if private and text else None


def without_reply_fallback(body: str) -> str:
    """A reply's body without the quote of the message it answers: clients put the quoted
    lines first, each starting with '>', then an empty line, then what was written."""
    lines = body.split("\n")
    if not lines or not lines[0].startswith("> "):
        return body
    index = 0
    while index < len(lines) and lines[index].startswith(">"):
        index += 1
    if index < len(lines) and lines[index] == "":
        index += 1
    return "\n".join(lines[index:])


def inbound_from_event(
    sender: str, name: str, room_id: str, event_id: str, body: str, prefix: str, private: bool
) -> Inbound | None:
    """The application's input for a text event, or None if it holds no command."""
    text = command_text(body, prefix, private)
    if text is None:
        return None
    return Inbound(PLATFORM, sender, name, room_id, text, delivery_id=event_id, private=private)


def message_content(message: Message) -> dict[str, Any]:
    """A notice (bots speak in notices, so other bots do not answer them, and the default push
    rules keep them silent); a message meant to notify (a decision is due) is plain text,
    which the default push rules announce in a direct room."""
    return {"msgtype": "m.text" if message.alert else "m.notice", "body": message.text}


def edit_content(event_id: str, message: Message) -> dict[str, Any]:
    """An edit (m.replace) of an earlier notice; clients without edits show the starred body."""
    new = message_content(message)
    return {
        "msgtype": "m.notice",
        "body": f"* {message.text}",
        "m.new_content": new,
        "m.relates_to": {"rel_type": "m.replace", "event_id": event_id},
    }


def reply_content(event_id: str, text: str) -> dict[str, Any]:
    """A notice that replies to the event it answers."""
    return {
        "msgtype": "m.notice",
        "body": text,
        "m.relates_to": {"m.in_reply_to": {"event_id": event_id}},
    }
